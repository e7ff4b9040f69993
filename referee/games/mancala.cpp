#include "games/mancala.h"

#include <cstdio>

namespace referee::games::mancala {

std::string draw_2x6(const std::vector<int>& holes, int north_score, int south_score) {
  std::string out = "   ";
  char cell[32];
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  out += "\nNORD";
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[static_cast<std::size_t>(h - 1)]);
    out += cell;
  }
  out += "\nSUD ";
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[static_cast<std::size_t>(h - 1)]);
    out += cell;
  }
  out += "\n   ";
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  out += "\nNORD a " + std::to_string(north_score) + " bille(s).\n";
  out += "SUD a " + std::to_string(south_score) + " bille(s).\n";
  return out;
}

}  // namespace referee::games::mancala
