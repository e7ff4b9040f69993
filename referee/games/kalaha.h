// kalaha — seed 004 "KALAHA", made exact by rules.md §1 (board, stores, skipping the origin) and
// §2 kalaha.
//
// Board 2×6 plus two stores: holes 1..12 counter-clockwise (South 1..6 left to right, North 7..12
// from North's left; 12 is above 1, opposite(h) = 13 − h), store S1 after hole 6 (South's right)
// and S2 after hole 12. 6 seeds per hole, empty stores, 72 seeds. South (player 1) moves first
// unless `first=2`. No game-specific parameters; `nocapture=100`.
// - Move: any non-empty hole of one's own row, written as its number ("3"). Sow counter-clockwise
//   one seed per hole into the following holes and one's own store, never the opponent's store;
//   a sowing of 13 or more comes back round to its hole and skips it (rules.md §1).
// - Last seed in one's own store: the same player moves again; the extra turn is a separate move
//   (a separate ply), so a position string may show the same player to move twice in a row.
// - Last seed in a hole of one's own row that was empty just before it: the seeds of the opposite
//   hole go to one's store (the sowing seed stays in its hole; nothing if the opposite hole is
//   empty). The turn ends. Otherwise the turn ends.
// - End: when the player to move (after an extra turn too) has an empty row, each player's
//   remaining seeds go to his own store. Score = store; higher wins, equal is a draw. Exhaustion
//   (repetition, nocapture, maxplies) and agreement are scored the same way.
// - Capture (for nocapture, rules.md §0): taking at least one seed from the opposite hole; seeds
//   sown into one's store and taking an empty opposite hole are not captures.
// - Repetition cannot happen: a move either adds to the mover's store (stores never shrink) or
//   only moves seeds rightwards inside the mover's own row. Every move is reported irreversible.
// Position fields: "h1,...,h6/h7,...,h12:s1,s2:p" — hole counts, stores S1 and S2, the player to
// move. Start: "6,6,6,6,6,6/6,6,6,6,6,6:0,0:1". Seeds must total 72.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct KalahaCore {
  using Move = int;  // the hole sown

  std::array<int, 12> holes{};
  std::array<int, 2> stores{};
  int mover = 1;

  static KalahaCore start(const GameSetup& setup);
  static Expected<KalahaCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return std::to_string(hole); }
  bool over() const { return row_sum(mover) == 0; }
  Outcome result() const { return exhausted(); }
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const {
    return {static_cast<double>(stores[0]), static_cast<double>(stores[1])};
  }
  std::uint64_t hash() const;
  bool operator==(const KalahaCore& o) const {
    return holes == o.holes && stores == o.stores && mover == o.mover;
  }

  int row_sum(int player) const;
};

}  // namespace referee::games
