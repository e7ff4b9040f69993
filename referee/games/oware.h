// oware — seed 004 "L'OWARE" (relay sowing, captures of four, 2/3/4/6 players), made exact by
// rules.md §0 (relay guard), §1 (board, skipping the origin) and §2 oware.
//
// Board 2×6, holes 1..12 counter-clockwise (South 1..6 left to right, 7..12 from North's left;
// 12 is above 1). 4 seeds per hole, 48 in all. Parameter `players=2|3|4|6` (default 2): with k
// players each owns a band of w = 12/k holes, player i owning (i−1)w+1 .. iw; turns go 1, 2, …,
// k, 1, … (the bands' counter-clockwise order), starting with `first`. `nocapture=100`.
// - Move: any non-empty hole of one's band, written as its number ("9"); sow counter-clockwise.
//   Every seed that is not the last of its sowing and makes a hole hold exactly 4 gives those 4 at
//   once to that hole's owner (the mover too, in his own band). The last seed: into a hole that
//   was empty just before it, the turn ends; making exactly 4, the mover takes the 4 and the turn
//   ends; otherwise the mover picks up the whole hole and sows on from the next hole (a relay).
//   Each sowing skips its own starting hole on a full lap (rules.md §1).
// - Last four: after any capture that leaves exactly 4 seeds in play (on the board and in the
//   sowing hand), the capturer (the hole's owner for a pass-through four) takes them too and the
//   game ends at once, the sowing stopping there. Captures are always fours, so seeds in play stay
//   a multiple of 4 and the seed's "fewer than 4 left" end is the board being empty.
// - Pass: a player with no seed in his band has the single move "pass", played by the referee.
// - Relay guard (rules.md §0, ours): the state at the start of each sowing of a turn (board, seeds
//   in hand, hole sown from) must not repeat, and a turn may drop at most 10 000 seeds; a move
//   breaking either is not legal. A player with seeds all of whose moves break it ends the game by
//   exhaustion (reason "relay").
// - End: no seed left in play (reason "rules"): players are ranked by captured seeds. Exhaustion
//   (repetition, nocapture, maxplies, relay) and agreement: each band's seeds go to its owner,
//   then players are ranked by seeds; equal seeds share a rank (with 2 players, a draw).
// - Capture (for nocapture): any four taken by anyone during the ply. Captures only grow, so a
//   move that captures is irreversible.
// Position fields: "band1/band2/…/bandk:c1,…,ck:p" — each band's hole counts in hole order, each
// player's captured seeds, the player to move. Start (k=3): "4,4,4,4/4,4,4,4/4,4,4,4:0,0,0:1".
// Parsing checks 48 seeds in all, captures that are multiples of 4 and never exactly 4 seeds in
// play (the last-four rule would have taken them).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

std::vector<ParamSpec> oware_params();

struct OwareCore {
  using Move = int;  // the hole sown; 0 = pass

  std::array<int, 12> holes{};
  std::array<int, 6> captured{};  // the first `k` are used
  int k = 2;
  int mover = 1;

  static OwareCore start(const GameSetup& setup);
  static Expected<OwareCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return k; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return hole == 0 ? "pass" : std::to_string(hole); }
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const OwareCore& o) const {
    return holes == o.holes && captured == o.captured && k == o.k && mover == o.mover;
  }

  int width() const { return 12 / k; }
  int owner(int hole) const { return (hole - 1) / width() + 1; }
  int band_sum(int player) const;
  int in_play() const;

  // The whole turn from `hole`: the board and captures after it; nullopt when the relay guard
  // excludes the move.
  struct Turn {
    std::array<int, 12> holes;
    std::array<int, 6> captured;
    bool took = false;
  };
  std::optional<Turn> sow(int hole) const;
};

}  // namespace referee::games
