// Helpers for two-player sowing games whose position is two blocks of holes and two capture counts
// (tamtam-apachi, kakua, owani on 2×6; mefuhva, katra on 4×n): the position text
// "south/north:captured1,captured2:player", and the steps of a turn that are the same in those
// games (the list of moves, the end of a turn, sowing in one's own 4×n block). Each game keeps its
// own sowing and capture rules; the relay guard is mancala::RelayGuard.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"
#include "games/mancala.h"

namespace referee::games::two_sided {

// A two-player board: holes indexed by hole number − 1, South's block (holes 1..per_side) then
// North's, the seeds each player captured and the player to move.
struct Position {
  std::vector<int> holes;
  std::array<int, 2> captured{};
  int mover = 1;
  bool operator==(const Position&) const = default;
};

// The start: `holes` holes of `per_hole` seeds each, no captures, player `first` to move.
Position start_position(int holes, int per_hole, int first);

// Parses "h1,...,hk/hk+1,...,h2k:c1,c2:p" (k = per_side): canonical counts, seeds totalling
// `total`, p 1 or 2. Never aborts.
Expected<Position> parse_position(std::string_view fields, int per_side, int total);
// The inverse of parse_position.
std::string position_text(const Position& p);
// Sum of holes [first, first + count) (hole numbers, 1-based).
int sum_holes(const std::vector<int>& holes, int first, int count);
// A hash of every field of the position.
std::uint64_t position_hash(const Position& p);
// Scores from the captured seeds only (tamtam-apachi, kakua, owani), higher wins.
Outcome captured_only(const Position& p, std::string reason);
// The seeds each player captured, as material() (tamtam-apachi, kakua, owani).
std::vector<double> captured_material(const Position& p);
// Ends the mover's turn: `taken` seeds go to his captures and the other player moves. A turn that
// took seeds is a capture and irreversible.
Effect end_turn(Position& p, int taken);

// ---- 2×6 boards (kakua, owani, tamtam-apachi): South owns holes 1..6, North 7..12.

// One whole turn of a game that computes turns ahead (owani, tamtam-apachi): the board after it
// and the seeds the mover took.
struct Turn {
  std::vector<int> holes;
  int taken = 0;
};

// The moves: every non-empty hole of the mover's row that `legal(hole)` accepts, in hole order; the
// forced "pass" (0) when his row is empty and the board is not; nothing on an empty board.
template <class Legal>
void row_moves(const Position& p, std::vector<int>& out, Legal legal) {
  const int first = mancala::first_hole_2x6(p.mover);
  if (sum_holes(p.holes, first, 6) == 0) {
    if (sum_holes(p.holes, 1, 12) > 0) out.push_back(0);
    return;
  }
  for (int h = first; h < first + 6; ++h)
    if (p.holes[static_cast<std::size_t>(h - 1)] > 0 && legal(h)) out.push_back(h);
}

// Why a game with the relay guard ended when the mover has no move: "rules" for an empty board,
// "relay" when every move breaks the guard; scored on captures only.
Outcome relay_result(const Position& p);

// ---- 4×n boards (katra, mefuhva; four_rows.h): each player sows only in his own 2n holes.

// Seeds in a player's 2n holes.
int block_sum(const Position& p, int n, int player);
// The non-empty holes of the mover's block, in hole order.
void block_moves(const Position& p, int n, std::vector<int>& out);
// The hole `text` names when it is a non-empty hole of the mover's block (without listing moves).
std::optional<int> block_move(const Position& p, int n, std::string_view text);
// Empties `hole` and sows its seeds counter-clockwise in its owner's block, skipping `hole` on a
// full lap (rules.md §1); returns the last hole sown.
int sow_block(Position& p, int n, int hole);
// Captures plus the seeds left in one's own block, per player: the remainder goes to its owner.
std::vector<double> block_material(const Position& p, int n);

}  // namespace referee::games::two_sided
