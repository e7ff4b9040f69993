#include "games/board_words.h"

#include <algorithm>

namespace referee::games {

std::string_view side_name(BoardWords words, int player) {
  const bool south = player == 1;
  switch (words) {
    case BoardWords::Seed:
      return south ? "SUD" : "NORD";
    case BoardWords::English:
      break;
  }
  return south ? "South" : "North";
}

std::string side_label(BoardWords words, int player, std::size_t width) {
  std::string label(side_name(words, player));
  if (label.size() < width) label.append(width - label.size(), ' ');
  return label;
}

std::size_t side_name_width(BoardWords words) {
  return std::max(side_name(words, 1).size(), side_name(words, 2).size());
}

std::string player_name(BoardWords words, int player) {
  return (words == BoardWords::Seed ? "J" : "P") + std::to_string(player);
}

std::string has_seeds(BoardWords words, std::string_view who, int seeds) {
  const std::string n = std::to_string(seeds);
  if (words == BoardWords::Seed) return std::string(who) + " a " + n + " bille(s)";
  return std::string(who) + " has " + n + (seeds == 1 ? " seed" : " seeds");
}

}  // namespace referee::games
