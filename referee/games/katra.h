// katra — seed 004 "KATRA", made exact by rules.md §1 (4×n) and §2.
//
// Board 4×8, holes 1..32 numbered as in four_rows.h (rules.md §1): South owns 1..16 (outer
// row 1..8 from his left, inner row 9..16 from his right), North owns 17..32 (outer row
// 17..24, inner row 25..32). 2 seeds per hole, 64 in all. South (player 1) moves first
// unless `first=2`.
// - Move: any non-empty hole of one's own two rows, written as its number ("11"); its seeds are
//   sown counter-clockwise one per hole in the mover's own 16 holes only (South 16 → 1, North
//   32 → 17), skipping the hole sown from on a full lap (rules.md §1). No relay: the turn
//   always ends after one sowing.
// - Capture: if the last seed lands in a hole of the mover's inner row, he takes the seeds of the
//   facing opponent inner hole if it is non-empty and holds fewer seeds than his hole now holds.
// - End: the player to move has no seed (reason "rules"), or exhaustion (repetition,
//   `nocapture=100`, `maxplies`) or agreement: remainder to owners in every case. Score = seeds
//   captured + seeds left in one's own holes; higher wins, equal is a draw. No seed ever crosses
//   to the other side except by capture, so material() (the same sum) is the exact running score.
// Position fields: "h1,...,h16/h17,...,h32:c1,c2:p" — hole counts by hole number (South's
// block, then North's), seeds captured by South and North, the player to move. Start: every hole 2,
// captures "0,0".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"
#include "games/two_sided.h"

namespace referee::games {

struct KatraCore {
  using Move = int;                // the hole sown
  static constexpr int kCols = 8;  // holes per row
  static constexpr int kSeeds = 64;

  two_sided::Position pos;

  static KatraCore start(const GameSetup& setup);
  static Expected<KatraCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return pos.mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const;  // without listing the moves
  Effect play(Move hole);
  std::string move_text(Move hole) const { return std::to_string(hole); }
  bool over() const { return side(pos.mover) == 0; }
  Outcome result() const { return exhausted(); }
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const { return two_sided::position_text(pos); }
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const { return two_sided::position_hash(pos); }
  bool operator==(const KatraCore& o) const { return pos == o.pos; }

  int side(int player) const;  // seeds in a player's 16 holes
};

}  // namespace referee::games
