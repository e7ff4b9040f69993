// awale and awale-v1 — seed 004 (base rule and "Variante 1"), made exact by rules.md §1–2.
//
// Board 2×6, holes 1..12 counter-clockwise (South 1..6 left to right, North 7..12 from North's
// left; 12 is above 1). 4 seeds per hole, 48 in all. South (player 1) moves first unless `first=2`.
// - Move: any non-empty hole of one's own row, written as its number ("5"); sow counter-clockwise,
//   one seed per hole, skipping the hole sown from on a full lap.
// - Capture: if the last seed lands in the opponent's row and that hole now holds 2 or 3, take it,
//   and the contiguous opponent holes holding 2 or 3 before it (awale and awale-v1) and after it
//   (awale only), stopping at the first hole holding 0, 1 or more than 3 or at the row's end.
// - Grand slam: a capture that would take every seed of the opponent's row captures nothing and the
//   move stands (`grandslam=nocapture`, ours), or the move is illegal (`grandslam=illegal`).
// - Feeding: when the opponent's row is empty at the start of a turn, only moves that put a seed
//   in it are legal.
// - End: the player to move has no seed or no legal move, or a player has captured 25 or more;
//   exhaustion (repetition, `nocapture=100`, `maxplies`) and agreement end it the same way: each
//   player adds the seeds left in his row to his captures. Higher total wins; equal is a draw.
// Position fields: "h1,...,h6/h7,...,h12:c1,c2:p" — hole counts, captures of South and North, the
// player to move. Start: "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

std::vector<ParamSpec> awale_params();

struct AwaleCore {
  using Move = int;  // the hole sown

  std::array<int, 12> holes{};
  std::array<int, 2> captured{};
  int mover = 1;
  bool capture_after = true;     // awale: also after the last hole; awale-v1: before only
  bool slam_illegal = false;

  static AwaleCore start(const GameSetup& setup);
  static Expected<AwaleCore> parse(const GameSetup& setup, std::string_view fields);

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
  bool operator==(const AwaleCore& o) const {
    return holes == o.holes && captured == o.captured && mover == o.mover;
  }

  // The board after sowing `hole` and the seeds it captures (0 for a grand slam that captures
  // nothing); `slam` tells whether the capture would have taken the whole row.
  struct Sowing {
    std::array<int, 12> holes;
    int taken = 0;
    bool slam = false;
    bool feeds = false;  // put at least one seed in the opponent's row
  };
  Sowing sow(int hole) const;
};

}  // namespace referee::games
