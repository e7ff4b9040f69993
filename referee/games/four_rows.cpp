#include "games/four_rows.h"

#include <cstdio>

#include "games/board_words.h"

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
                   std::string label) {
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

std::string draw(int n, const std::vector<int>& holes, int north_score, int south_score,
                 BoardWords words) {
  // Five columns of labels hold "NORD " and "North" alike, so both forms share one layout.
  constexpr std::size_t kLabel = 5;
  std::string out;
  out += numbers(n, 2, false);
  out += counts(n, holes, 2, false, side_label(words, 2, kLabel));
  out += counts(n, holes, 2, true, std::string(kLabel, ' '));
  out += numbers(n, 2, true);
  out += numbers(n, 1, true);
  out += counts(n, holes, 1, true, std::string(kLabel, ' '));
  out += counts(n, holes, 1, false, side_label(words, 1, kLabel));
  out += numbers(n, 1, false);
  out += has_seeds(words, side_name(words, 2), north_score) + ".\n";
  out += has_seeds(words, side_name(words, 1), south_score) + ".\n";
  return out;
}

}  // namespace referee::games::four_rows
