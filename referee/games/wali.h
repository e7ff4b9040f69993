// wali — seed 004 "WALI", made exact by rules.md §1 (board, skipping the origin) and §2 wali.
//
// Board 2×6, holes 1..12 counter-clockwise (South 1..6 left to right, North 7..12 from North's
// left; 12 is above 1). 4 seeds per hole, 48 in all. South (player 1) moves first unless
// `first=2`; `nocapture=100`.
// - Move: any non-empty hole of EITHER row, written as its number ("9"), every turn (the seed says
//   it twice; `anyrow=always`, the default). `anyrow=first` (ours) allows any row only on each
//   player's own first move; later moves start from his own row. Sowing is always
//   counter-clockwise, one seed per hole, skipping the hole sown from on a full lap.
// - Capture: the last hole only, if it is in the opponent's row (the row of the player not
//   moving, wherever the sowing started) and now holds 2 or 3: take its seeds. No grand slam rule,
//   no feeding.
// - End: the player to move has no legal move (with `anyrow=first`, an empty own row after his
//   first move), or a player has captured 25 or more; exhaustion (repetition, nocapture, maxplies)
//   and agreement end it the same way: each player adds the seeds left in his own row to his
//   captures. Higher total wins; equal is a draw.
// - Has-moved flags (rules.md §0): one per player, set by his first move. They are part of the
//   position (string, hash, repetition) under both values of `anyrow`, though only `anyrow=first`
//   reads them. Setting a flag or capturing makes a move irreversible.
// Position fields: "h1,...,h6/h7,...,h12:c1,c2:p:m1,m2" — hole counts, captures of South and
// North, the player to move, the has-moved flags (0 or 1) of South and North. Start:
// "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0,0". Parsing rejects flags that alternating turns cannot produce
// (the player to move has moved but his opponent has not) and captures before anyone moved.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

std::vector<ParamSpec> wali_params();

struct WaliCore {
  using Move = int;  // the hole sown

  std::array<int, 12> holes{};
  std::array<int, 2> captured{};
  std::array<int, 2> moved{};  // has-moved flags, 0 or 1
  int mover = 1;
  bool any_row_first_only = false;  // anyrow=first

  static WaliCore start(const GameSetup& setup);
  static Expected<WaliCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return std::to_string(hole); }
  bool over() const;
  Outcome result() const { return exhausted(); }
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const {
    return {static_cast<double>(captured[0]), static_cast<double>(captured[1])};
  }
  std::uint64_t hash() const;
  bool operator==(const WaliCore& o) const {
    return holes == o.holes && captured == o.captured && moved == o.moved && mover == o.mover;
  }
};

}  // namespace referee::games
