#include "games/four_rows.h"

#include <cstdio>

namespace referee::games::four_rows {

std::vector<int> ring(int n, int player) {
  std::vector<int> out;
  for (int h = first_hole(n, player); h <= last_hole(n, player); ++h) out.push_back(h);
  return out;
}

namespace {

// One row: its hole numbers and counts, columns 0..n−1 left to right.
std::string numbers(int n, int player, bool inner) {
  std::string out = "     ";
  char cell[16];
  for (int c = 0; c < n; ++c) {
    std::snprintf(cell, sizeof cell, "%5d",
                  inner ? inner_hole(n, player, c) : outer_hole(n, player, c));
    out += cell;
  }
  return out + "\n";
}

std::string counts(int n, const std::vector<int>& holes, int player, bool inner,
                   const char* label) {
  std::string out = label;
  char cell[16];
  for (int c = 0; c < n; ++c) {
    const int h = inner ? inner_hole(n, player, c) : outer_hole(n, player, c);
    std::snprintf(cell, sizeof cell, " [%2d]", holes[static_cast<std::size_t>(h - 1)]);
    out += cell;
  }
  return out + "\n";
}

}  // namespace

std::string draw(int n, const std::vector<int>& holes, int north_score, int south_score) {
  std::string out;
  out += numbers(n, 2, false);
  out += counts(n, holes, 2, false, "NORD ");
  out += counts(n, holes, 2, true, "     ");
  out += numbers(n, 2, true);
  out += numbers(n, 1, true);
  out += counts(n, holes, 1, true, "     ");
  out += counts(n, holes, 1, false, "SUD  ");
  out += numbers(n, 1, false);
  out += "NORD a " + std::to_string(north_score) + " bille(s).\n";
  out += "SUD a " + std::to_string(south_score) + " bille(s).\n";
  return out;
}

}  // namespace referee::games::four_rows
