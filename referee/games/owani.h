// owani — seed 004 "LE OWANI", made exact by rules.md §0–2.
//
// Board 2×6, holes 1..12 counter-clockwise (South 1..6, North 7..12). 4 seeds per hole, 48 in all.
// South (player 1) moves first unless `first=2`.
// - Move: any non-empty hole of one's own row, written as its number ("5"); sow counter-clockwise
//   one seed per hole.
// - Last seed in the mover's own row: he picks up that hole (even if it held nothing before) and
//   sows again from the next hole (relay).
// - Last seed in the opponent's row, in a hole that held 1 or 2 (now 2 or 3): he takes it, the
//   turn ends. In a hole that held 0 or more than 2: the turn ends.
// - Lap rule (seed's "Remarque", rules.md): once a single sowing reaches its origin, the origin is
//   skipped and the rest of that sowing goes only into the opponent's holes (the mover's own holes
//   are skipped too); each sub-sowing of a relay starts afresh. So a sowing of 12 or more seeds
//   always ends in the opponent's row; from any South hole, 21 seeds end in hole 10.
// - Relay guard (rules.md §0, ours): the state at the start of every sub-sowing (board, seeds in
//   hand, hole sown from) may not repeat within a turn, and a turn may drop at most 10 000 seeds;
//   a move breaking either is not legal.
// - Pass: a player whose row is empty plays the forced move "pass" (his opponent then has seeds).
// - End: the board is empty (reason "rules"); a player with seeds all of whose moves break the
//   relay guard ends the game by exhaustion (reason "relay"); exhaustion (repetition,
//   `nocapture=100`, `maxplies`) and agreement. Score = seeds captured only (the remainder counts
//   for nobody); higher wins, equal is a draw.
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

struct OwaniCore {
  using Move = int;  // the hole sown; 0 = pass

  two_sided::Position pos;

  static OwaniCore start(const GameSetup& setup);
  static Expected<OwaniCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return pos.mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return hole == 0 ? "pass" : std::to_string(hole); }
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const { return two_sided::captured_only(pos, "rules"); }
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const { return two_sided::position_text(pos); }
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const { return two_sided::captured_material(pos); }
  std::uint64_t hash() const { return two_sided::position_hash(pos); }
  bool operator==(const OwaniCore& o) const { return pos == o.pos; }

  // The board after the whole turn from `hole` and the seeds taken; nullopt when the relay guard
  // makes the move illegal.
  std::optional<two_sided::Turn> turn(int hole) const;
};

}  // namespace referee::games
