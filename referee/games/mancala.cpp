#include "games/mancala.h"

#include <cstdio>

#include "games/board_words.h"
#include "games/core.h"

namespace referee::games::mancala {

Expected<std::vector<int>> parse_list(std::string_view text, int n, long max) {
  auto parts = split(text, ',');
  if (parts.size() != static_cast<std::size_t>(n))
    return Error{"expected " + std::to_string(n) + " counts in '" + std::string(text) + "'"};
  std::vector<int> out;
  for (auto part : parts) {
    auto v = parse_count(part, max);
    if (!v) return Error{"bad count '" + std::string(part) + "'"};
    out.push_back(static_cast<int>(*v));
  }
  return out;
}

Expected<std::vector<int>> parse_blocks(std::string_view text, int blocks, int width, long max) {
  auto parts = split(text, '/');
  if (parts.size() != static_cast<std::size_t>(blocks))
    return Error{"expected " + std::to_string(blocks) + " rows separated by '/'"};
  std::vector<int> out;
  for (auto part : parts) {
    auto row = parse_list(part, width, max);
    if (!row) return row.failure();
    out.insert(out.end(), row->begin(), row->end());
  }
  return out;
}

std::string join_blocks(const std::vector<int>& counts, int width) {
  std::string out;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (i > 0) out += i % static_cast<std::size_t>(width) == 0 ? '/' : ',';
    out += std::to_string(counts[i]);
  }
  return out;
}

std::optional<int> parse_player(std::string_view text, int n) {
  auto v = parse_count(text, n);
  if (!v || *v < 1) return std::nullopt;
  return static_cast<int>(*v);
}

std::string draw_2x6(const std::vector<int>& holes, int north_score, int south_score,
                     BoardWords words) {
  // The number lines line up with the counts whatever the labels' width: each number ends under
  // the last digit of its " [%2d]" cell.
  const std::size_t label = side_name_width(words);
  const std::string indent(label - 1, ' ');
  std::string out = indent;
  char cell[32];
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  out += "\n" + side_label(words, 2, label);
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[static_cast<std::size_t>(h - 1)]);
    out += cell;
  }
  out += "\n" + side_label(words, 1, label);
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[static_cast<std::size_t>(h - 1)]);
    out += cell;
  }
  out += "\n" + indent;
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  out += "\n" + has_seeds(words, side_name(words, 2), north_score) + ".\n";
  out += has_seeds(words, side_name(words, 1), south_score) + ".\n";
  return out;
}

}  // namespace referee::games::mancala
