// lontu-holo — seed 004 ("LONTU HOLO"), made exact by rules.md §1 and §2 "lontu-holo".
//
// Board 2×6, holes 1..12 as in awale, but split by columns: each player owns the 6 holes on his
// left over both rows. South (player 1) owns 1,2,3,10,11,12 and sows 1→2→3→10→11→12→1; North owns
// 7,8,9,4,5,6 and sows 7→8→9→4→5→6→7 (his "circuit"). 24 seeds each.
// - Setup: the starter (`first`) places his 24 seeds freely: `=a,b,c,d,e,f`, the counts of his
// holes
//   in his sowing order (South from hole 1, North from hole 7); zeros allowed. The other player's
//   setup is forced — the same counts in his own sowing order — and is a move the referee plays for
//   him (forced(), counted by perft), written the same way. Then the starter moves.
// - Move: any own non-empty hole, sown one seed per hole along one's own circuit, skipping the hole
//   sown from on a full lap (rules.md §1). If the last hole held exactly 3 (now 4), the mover takes
//   those 4 and each of its two circuit neighbours holding exactly 4 (just those two; for South 3
//   and 10 are neighbours, and 12 and 1), then puts all the taken seeds into one opponent hole of
//   his choice, empty or not: `3>8`. A capture thus gives six moves, one per opponent hole.
// - End: after every play-phase turn, the first player whose own holes are empty wins, the mover
//   checked first (48 seeds are always on the board, so at most one is). Exhaustion
//   (`nocapture=200`, repetition, maxplies) and agreement: fewer seeds in own holes wins, equal is
//   a draw.
// - A capture (for nocapture) is a move that takes fours; setups are not. Setup moves are
//   irreversible (the phase never comes back); captures are not (seeds go back and forth).
// Position fields: "h1,...,h6/h7,...,h12:phase:p" — hole counts by hole number (rows as in awale),
// phase `setup` (the starter's setup is expected: empty board), `mirror` (the forced setup is
// expected: the starter's holes hold 24, the other's 0) or `play`, and the player to move.
// Start (first=1): "0,0,0,0,0,0/0,0,0,0,0,0:setup:1".
// material(): 24 minus the seeds in the player's own holes (higher is better, like a capture
// count).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct LontuHoloCore {
  enum class Phase { setup, mirror, play };
  struct Move {
    int hole = 0;                 // hole sown (play phase)
    int target = 0;               // opponent hole receiving a capture, 0 if none
    std::array<int, 6> counts{};  // setup counts in the mover's sowing order
  };

  std::array<int, 12> holes{};
  Phase phase = Phase::setup;
  int mover = 1;

  static LontuHoloCore start(const GameSetup& setup);
  static Expected<LontuHoloCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const;
  Effect play(const Move& move);
  std::string move_text(const Move& move) const;
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  std::optional<Outcome> agreed() const { return exhausted(); }
  std::string setup_form() const;
  bool forced() const { return phase == Phase::mirror; }
  std::string sample_setup(std::uint64_t seed) const;
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const LontuHoloCore& o) const {
    return holes == o.holes && phase == o.phase && mover == o.mover;
  }

  int own_seeds(int player) const;
  // The board after sowing `hole`, and the seeds taken (0: no capture).
  std::array<int, 12> sow(int hole, int& taken) const;
};

// Player `player`'s holes in his sowing order.
const std::array<int, 6>& lontu_circuit(int player);

}  // namespace referee::games
