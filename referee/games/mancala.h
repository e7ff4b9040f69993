// Helpers shared by the mancala cores: sowing loops and the seed's 2x6 console drawing. Free
// functions over a board of hole counts indexed by hole number − 1 (rules.md §1).
#pragma once

#include <string>
#include <vector>

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
inline int ccw(int h, int n) { return h == n ? 1 : h + 1; }
// Clockwise successor on a ring of `n` holes numbered 1..n.
inline int cw(int h, int n) { return h == 1 ? n : h - 1; }

// The seed's console board for two players on 2x6 (rules.md §1 "Display"): numbers 12..7, NORD's
// counts, SUD's counts, numbers 1..6, then NORD's and SUD's scores.
std::string draw_2x6(const std::vector<int>& holes, int north_score, int south_score);

}  // namespace referee::games::mancala
