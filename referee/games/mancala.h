// Helpers shared by the mancala cores: sowing loops, the relay guard of rules.md §0, rows of hole
// counts in position strings and the seed's 2x6 console drawing. Free functions over a board of
// hole counts indexed by hole number − 1 (rules.md §1).
#pragma once

#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "games/game.h"

namespace referee::games::mancala {

// Sows `seeds` one by one into the holes after `origin` given by `next(h)`, skipping `origin`
// itself when `skip_origin` (rules.md §1 "Skipping the origin"). Calls `on_drop(h)` after each
// seed lands (for pass-through captures); returns the last hole sown.
template <class Board, class Next, class OnDrop>
int sow(Board& board, int origin, int seeds, Next next, bool skip_origin, OnDrop on_drop) {
  int h = origin;
  while (seeds > 0) {
    h = next(h);
    if (skip_origin && h == origin) continue;
    ++board[h - 1];
    --seeds;
    on_drop(h, seeds == 0);
  }
  return h;
}

template <class Board, class Next>
int sow(Board& board, int origin, int seeds, Next next, bool skip_origin = true) {
  return sow(board, origin, seeds, next, skip_origin, [](int, bool) {});
}

// Counter-clockwise successor on a ring of `n` holes numbered 1..n.
inline int ccw(int h, int n) {
  return h == n ? 1 : h + 1;
}
// Clockwise successor on a ring of `n` holes numbered 1..n.
inline int cw(int h, int n) {
  return h == 1 ? n : h - 1;
}

// The most seeds one turn may drop (rules.md §0, relay guard).
constexpr long kMaxDrops = 10000;

// rules.md §0 "Relay guard": the state at the start of each sub-sowing of one turn must never
// repeat, and a turn may drop at most kMaxDrops seeds; a move that breaks either is not legal.
// One guard serves one turn. A state is the board (at most 16 holes of at most 255 seeds), the
// seeds in hand (at most 65535), the hole sown from and the direction.
class RelayGuard {
 public:
  // Records a sub-sowing's starting state; false when the turn already met it.
  template <class Board>
  bool enter(const Board& board, int hand, int origin, int direction = 0) {
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
  // Counts one dropped seed; false once the turn has dropped more than kMaxDrops.
  bool drop() { return ++dropped_ <= kMaxDrops; }

 private:
  using Key = std::array<std::uint8_t, 20>;
  std::vector<Key> small_;
  std::set<Key> set_;
  long dropped_ = 0;
};

// Parses `blocks` '/'-separated blocks of `width` ','-separated canonical counts, each <= max,
// into one vector in order ("4,4/4,4" with blocks=2, width=2 → {4,4,4,4}).
Expected<std::vector<int>> parse_blocks(std::string_view text, int blocks, int width, long max);
// Parses exactly `n` ','-separated canonical counts, each <= max.
Expected<std::vector<int>> parse_list(std::string_view text, int n, long max);
// The inverse of parse_blocks: counts in blocks of `width`, ',' inside a block, '/' between.
std::string join_blocks(const std::vector<int>& counts, int width);
// "1".."n" → 1..n; anything else (including "01", "") → nullopt.
std::optional<int> parse_player(std::string_view text, int n);

// ---- 2×6 boards (rules.md §1): South (player 1) owns holes 1..6, North (player 2) holes 7..12.

// True when `hole` is in `player`'s row.
inline bool in_row_2x6(int hole, int player) {
  return player == 1 ? hole <= 6 : hole >= 7;
}
// The first hole of `player`'s row: 1 or 7.
inline int first_hole_2x6(int player) {
  return player == 1 ? 1 : 7;
}
// The seeds in `player`'s row; `holes` holds the 12 counts by hole number − 1.
template <class Holes>
int row_sum_2x6(const Holes& holes, int player) {
  const auto first = holes.begin() + (first_hole_2x6(player) - 1);
  return std::accumulate(first, first + 6, 0);
}
// The end where each player adds the seeds left in his row to the seeds he already has (captures
// or store): higher total wins, equal is a draw (awale, wali, kalaha).
template <class Holes>
Outcome rows_to_owners_2x6(const Holes& holes, const std::array<int, 2>& banked) {
  return rank_by_score({static_cast<double>(banked[0] + row_sum_2x6(holes, 1)),
                        static_cast<double>(banked[1] + row_sum_2x6(holes, 2))},
                       "rules");
}

// The seed's console board for two players on 2x6 (rules.md §1 "Display"): numbers 12..7, North's
// counts, South's counts, numbers 1..6, then North's and South's scores; in the seed's words or
// English (board_words.h).
std::string draw_2x6(const std::vector<int>& holes, int north_score, int south_score,
                     BoardWords words);

}  // namespace referee::games::mancala
