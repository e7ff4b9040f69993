// kakua — seed 004 "LE KAKUA", made exact by rules.md §0–2.
//
// Board 2×6, holes 1..12 counter-clockwise (South 1..6, North 7..12). 4 seeds per hole, 48 in all.
// South (player 1) moves first unless `first=2`.
// - Move: any non-empty hole of one's own row, written as its number ("4"). The player takes all
//   n seeds of the hole, sows n − 1 of them counter-clockwise one per hole (skipping the hole
//   taken from on a full lap, rules.md §1) and keeps the last one as a capture; then he takes the
//   hole after the last hole sown (the next hole when n = 1), in either row, and does the same;
//   the turn ends when that next hole is empty. One seed is captured per sowing, so every turn
//   captures at least one seed. When the n − 1 seeds end just before the (skipped) origin, "the
//   next hole" is the emptied origin: the turn ends (rules.md).
// - Relay guard (rules.md §0): it can never fire here, so it is not coded: every sub-sowing removes
//   a seed from the board, so no sub-sowing state repeats, and a turn has at most 48 sub-sowings
//   of at most 47 seeds, fewer than 10 000 drops.
// - Pass: a player whose row is empty plays the forced move "pass" (his opponent then has seeds).
// - End: the board is empty (reason "rules"), exhaustion (repetition, `nocapture=100`, `maxplies`)
//   or agreement. Score = seeds captured only (the remainder counts for nobody); higher wins,
//   equal is a draw.
// Position fields: "h1,...,h6/h7,...,h12:c1,c2:p" — hole counts, seeds captured by South and
// North, the player to move. Start: "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"
#include "games/two_sided.h"

namespace referee::games {

struct KakuaCore {
  using Move = int;  // the hole sown; 0 = pass

  two_sided::Position pos;

  static KakuaCore start(const GameSetup& setup);
  static Expected<KakuaCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return pos.mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return hole == 0 ? "pass" : std::to_string(hole); }
  bool over() const { return two_sided::sum_holes(pos.holes, 1, 12) == 0; }
  Outcome result() const { return exhausted(); }
  Outcome exhausted() const { return two_sided::captured_only(pos, "rules"); }
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const { return two_sided::position_text(pos); }
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const { return two_sided::captured_material(pos); }
  std::uint64_t hash() const { return two_sided::position_hash(pos); }
  bool operator==(const KakuaCore& o) const { return pos == o.pos; }
};

}  // namespace referee::games
