// chongkak — seed 004 "CHONGKAK" ("qui perd gagne"), made exact by rules.md §0 (relay guard),
// §1 (2×7 board, skipping the origin) and §2 chongkak.
//
// Board 2×7, holes 1..14 counter-clockwise (South 1..7 left to right, North 8..14 from North's
// left; 8 is above 7, 14 above 1, opposite(h) = 15 − h). 7 seeds per hole, 98 in all, no stores.
// South (player 1) moves first unless `first=2`; `nocapture=200`.
// - Move: any non-empty hole of one's own row, written as its number ("3"); sow counter-clockwise
//   one seed per hole. Where the last seed falls:
//   * in a hole of one's own row that was empty just before it: the opposite hole's seeds are
//     taken off the board (out of the game; nothing if it is empty); the turn ends;
//   * in an empty hole of the other row: the turn ends;
//   * in an occupied hole of either row: the mover picks up the whole hole and sows on from the
//     next hole (a relay).
//   Each sowing skips its own starting hole on a full lap (rules.md §1).
// - Relay guard (rules.md §0, ours): the state at the start of each sowing of a turn (board, seeds
//   in hand, hole sown from) must not repeat, and a turn may drop at most 10 000 seeds; a move
//   breaking either is not legal. A player with seeds all of whose moves break it ends the game
//   by exhaustion (reason "relay").
// - End ("qui perd gagne"): after every turn, if the mover's row is empty the mover wins; else if
//   the opponent's row is empty the opponent wins (a parsed position is judged the same way, the
//   player not to move counting as the last mover). Exhaustion (repetition, nocapture, maxplies,
//   relay) and agreement: fewer seeds in one's own row wins; equal is a draw. Scores are always
//   the seeds left in each row (lower is better).
// - Capture (for nocapture): taking at least one seed off the board. The seeds on the board never
//   grow, so a capture is irreversible.
// - material() is the negated seeds in each row, so that higher is better as in other games.
// Position fields: "h1,...,h7/h8,...,h14:p" — hole counts and the player to move. Start:
// "7,7,7,7,7,7,7/7,7,7,7,7,7,7:1". At most 98 seeds.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct ChongkakCore {
  using Move = int;  // the hole sown

  std::array<int, 14> holes{};
  int mover = 1;

  static ChongkakCore start(const GameSetup& setup);
  static Expected<ChongkakCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return std::to_string(hole); }
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const {
    return {-static_cast<double>(row_sum(1)), -static_cast<double>(row_sum(2))};
  }
  std::uint64_t hash() const;
  bool operator==(const ChongkakCore& o) const { return holes == o.holes && mover == o.mover; }

  int row_sum(int player) const;

  // The board after the whole turn from `hole` and the seeds taken off; nullopt when the relay
  // guard excludes the move.
  struct Turn {
    std::array<int, 14> holes;
    int taken = 0;
  };
  std::optional<Turn> sow(int hole) const;
};

}  // namespace referee::games
