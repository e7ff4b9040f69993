// mweso — seed 004 ("LE MWESO"), made exact by rules.md §0 (relay guard, setups), §1 (4×n, n = 8)
// and §2 "mweso". Geometry from four_rows.h.
//
// Board 4×8, holes 1..32: South (player 1) owns 1..16 (outer row 1..8 from his left, inner row
// 16..9), North owns 17..32 (outer 24..17, inner 25..32). Each player sows only in his own 16
// holes; counter-clockwise (ccw) is h → h+1 in the block (16 → 1, 32 → 17), clockwise (cw) the
// reverse. Alokas (each player's 4 holes on his left): South 1, 2, 15, 16; North 17, 18, 31, 32.
// - Setup: each player places his 32 seeds freely in his 16 holes, `=` + 16 counts in his sowing
//   order (from hole 1 / 17), zeros allowed; the starter (`first`) first, then the other, visible
//   and sequential (ours). Setups are checked by form; then the starter moves.
// - Move: an own hole holding at least 2 seeds; the first sowing goes ccw. A sowing skips its
//   origin on a full lap (for captured seeds, the capturing hole). Where the last seed lands:
//   1. in a hole that was empty → the turn ends;
//   2. in an own inner hole that was occupied, whose own outer hole in the same column is now
//      empty, while both opponent holes of that column are occupied → capture: both opponent
//      holes' seeds are taken and sown from the capturing hole onward (it keeps its own seeds);
//   3. otherwise → the hole is picked up and sown on (relay).
// - Direction of each later sowing: ccw, except that the player may choose cw when (i) it is a
// relay
//   from one of his alokas, or the sowing of seeds just captured by a cw sowing, and (ii) that cw
//   sowing, on the board as it is then, ends in a capture (case 2). At each such choice point the
//   move carries a token: `13.cw`, `13.ccw.cw`; forced sowings add nothing.
// - Relay guard (rules.md §0, ours): the state (board, seeds in hand, hole sown from, direction) is
//   sampled at the start of every sub-sowing; a line of play that repeats a state of the same line,
//   or drops more than 10 000 seeds in all, is not a legal move; other branches stay legal.
// - End: a player who, at his turn, has no hole with 2 or more seeds, or whose moves are all
//   excluded by the relay guard, loses. Exhaustion (`nocapture=200`, repetition, maxplies): more
//   seeds on one's own side wins, equal is a draw. No agreed end (rules.md §0 names none).
// - Captures (for nocapture): a move with at least one capture; setups are not. Setup moves are
//   irreversible (the phase never comes back); play moves are not (seeds never leave the board).
// Position fields: "h1,...,h16/h17,...,h32:phase:p" — hole counts by hole number (South's block,
// North's block), phase `setup` or `play`, the player to move. In `setup` the mover's holes are
// empty and the other's hold 0 (the starter sets up) or 32 (the starter has set up); in `play`
// the holes total 64. Start (first=1): sixteen 0s, '/', sixteen 0s, ":setup:1".
// material(): the seeds on each player's side.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct MwesoCore {
  using Board = std::array<int, 32>;
  struct Move {
    int hole = 0;          // 0 for a setup
    std::vector<bool> cw;  // the choices made at each choice point (true: clockwise)
    Board after{};         // the board the move leads to (play) or the setup's board
    bool captured = false;
  };

  Board holes{};
  bool setup = true;
  int mover = 1;

  static MwesoCore start(const GameSetup& setup);
  static Expected<MwesoCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const;
  Effect play(const Move& move);
  std::string move_text(const Move& move) const;
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  std::string setup_form() const;
  std::string sample_setup(std::uint64_t seed) const;
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const MwesoCore& o) const {
    return holes == o.holes && setup == o.setup && mover == o.mover;
  }

  int side_seeds(int player) const;
  // Appends the legal moves sown from `hole` (only the first one when `first_only`).
  void moves_from(int hole, std::vector<Move>& out, bool first_only) const;
};

}  // namespace referee::games
