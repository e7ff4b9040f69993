// Small helpers for the kalaha, wali, oware and chongkak cores: reading and writing rows of hole
// counts in position strings, and the relay guard of rules.md §0 (a turn whose chained sowings
// repeat a sub-sowing state, or drop more than 10 000 seeds, is not a legal move).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "games/expected.h"

namespace referee::games::sowing {

// Parses `blocks` '/'-separated blocks of `width` ','-separated canonical counts, each <= max,
// into one vector in order ("4,4/4,4" with blocks=2, width=2 → {4,4,4,4}).
Expected<std::vector<int>> parse_blocks(std::string_view text, int blocks, int width, long max);
// Parses exactly `n` ','-separated canonical counts, each <= max.
Expected<std::vector<int>> parse_list(std::string_view text, int n, long max);
// The inverse of parse_blocks: counts in blocks of `width`, ',' inside a block, '/' between.
std::string join_blocks(const std::vector<int>& counts, int width);
// "1".."n" → 1..n; anything else (including "01", "") → nullopt.
std::optional<int> parse_player(std::string_view text, int n);

// The most seeds one turn may drop (rules.md §0, relay guard).
constexpr long kMaxDrops = 10000;

// Remembers the states sampled at the start of each sub-sowing of one turn and tells whether one
// repeats. A state is the board (at most 16 holes of at most 255 seeds), the seeds in hand (at
// most 65535), the hole sown from and the direction.
class RelayGuard {
 public:
  // Records a sub-sowing state; false when it was already seen this turn.
  template <class Board>
  bool fresh(const Board& board, int hand, int origin, int direction = 0) {
    Key k{};
    std::size_t i = 0;
    for (auto v : board) k[i++] = static_cast<std::uint8_t>(v);
    k[16] = static_cast<std::uint8_t>(hand & 0xff);
    k[17] = static_cast<std::uint8_t>(hand >> 8);
    k[18] = static_cast<std::uint8_t>(origin);
    k[19] = static_cast<std::uint8_t>(direction);
    if (set_.empty()) {
      for (const auto& s : small_)
        if (s == k) return false;
      small_.push_back(k);
      if (small_.size() > 64) {
        set_.insert(small_.begin(), small_.end());
        small_.clear();
      }
      return true;
    }
    return set_.insert(k).second;
  }

 private:
  using Key = std::array<std::uint8_t, 20>;
  std::vector<Key> small_;
  std::set<Key> set_;
};

}  // namespace referee::games::sowing
