// Geometry of the 4×n mancala boards (mweso and katra n=8, mefuhva n=16), rules.md §1 "4×n":
// free functions over hole numbers, shared by every 4-row game (no board type of its own).
//
// Holes are numbered 1..4n once per board, counter-clockwise seen from above, South's block first.
// Columns c = 0..n−1 run from South's left to South's right.
//   South (player 1): outer row hole 1+c, inner row hole 2n−c   (his block: 1..2n)
//   North (player 2): outer row hole 3n−c, inner row hole 3n+1+c (his block: 2n+1..4n)
// Seen from above (North's outer row on top):
//   North outer  3n   3n−1 …  2n+1
//   North inner  3n+1 3n+2 …  4n
//   South inner  2n   2n−1 …  n+1
//   South outer  1    2    …  n
// Each player sows only in his own 2n holes. Counter-clockwise (ccw) is h → h+1 inside the block,
// wrapping (South 2n → 1, North 4n → 2n+1); clockwise (cw) is the reverse. Facing inner holes are
// (2n−c) ↔ (3n+1+c), i.e. facing(h) = 5n+1−h; the outer hole "behind" an inner hole is the same
// player's outer hole in the same column.
// Every function takes n (holes per row) and a valid hole number; none checks its arguments.
#pragma once

#include <string>
#include <vector>

#include "games/game.h"

namespace referee::games::four_rows {

// The player (1 = South, 2 = North) owning hole h.
inline int owner(int n, int h) {
  return h <= 2 * n ? 1 : 2;
}
// The first and last hole of a player's block (South 1..2n, North 2n+1..4n).
inline int first_hole(int n, int player) {
  return player == 1 ? 1 : 2 * n + 1;
}
inline int last_hole(int n, int player) {
  return player == 1 ? 2 * n : 4 * n;
}
// True for a hole of its owner's inner row (South n+1..2n, North 3n+1..4n).
inline bool is_inner(int n, int h) {
  return (h > n && h <= 2 * n) || h > 3 * n;
}
// The column 0..n−1 of hole h, counted from South's left.
inline int column(int n, int h) {
  if (h <= n) return h - 1;
  if (h <= 2 * n) return 2 * n - h;
  if (h <= 3 * n) return 3 * n - h;
  return h - 3 * n - 1;
}
// Holes by player and column.
inline int outer_hole(int n, int player, int c) {
  return player == 1 ? 1 + c : 3 * n - c;
}
inline int inner_hole(int n, int player, int c) {
  return player == 1 ? 2 * n - c : 3 * n + 1 + c;
}
// The opponent's inner hole facing inner hole h.
inline int facing(int n, int h) {
  return 5 * n + 1 - h;
}
// The outer hole of the same player in the same column as inner hole h.
inline int behind(int n, int h) {
  return outer_hole(n, owner(n, h), column(n, h));
}
// Counter-clockwise and clockwise successors inside the owner's block.
inline int ccw(int n, int h) {
  const int first = first_hole(n, owner(n, h));
  return h == first + 2 * n - 1 ? first : h + 1;
}
inline int cw(int n, int h) {
  const int first = first_hole(n, owner(n, h));
  return h == first ? first + 2 * n - 1 : h - 1;
}
// A player's 2n holes in counter-clockwise sowing order, from his first hole.
std::vector<int> ring(int n, int player);

// A text board with hole numbers: North's outer and inner rows on top, South's inner and outer
// rows below, each count `[%2d]` under/over its hole number, then both scores, in the seed's words
// or English (board_words.h). `holes` is indexed by hole number − 1 (4n entries).
std::string draw(int n, const std::vector<int>& holes, int north_score, int south_score,
                 BoardWords words);

}  // namespace referee::games::four_rows
