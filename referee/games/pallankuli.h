// pallankuli — seed 001, made exact by rules.md §0 (relay guard, exhaustion), §1 (2×7) and §3.
//
// Board 2×7: South (player 1) owns holes 1..7 from his left, North 8..14 from his left; 8 is above
// 7, 14 above 1, opposite(h) = 15 − h. 84 seeds, 6 per hole at the start; each player has a
// reserve.
// - Move: any own non-empty playable hole, written as its number ("3"). Sowing is clockwise
//   (h → h−1, 1 → 14), one seed per playable hole, the origin included on a full lap; blind holes
//   are skipped.
// - Cows: every seed that makes a hole hold exactly 4 sends those 4 at once to that hole's owner's
//   reserve (the last seed too).
// - After the last seed, the next playable hole decides: occupied → it is picked up and sown from
// the
//   hole after it (relay); empty → the turn ends, and if that hole is in the mover's row he takes
//   the seeds of the opposite hole into his reserve (nothing when it is empty or blind).
// - Relay guard (rules.md §0, ours): the state (board, seeds in hand, hole sown from) is sampled at
//   the start of every sub-sowing; a move that repeats one, or drops more than 10 000 seeds, is not
//   legal.
// - Pass: a player with no seed in his playable holes has the single move `pass` (forced).
// - Round end: when the board is empty after a move, or when the player to move has seeds but every
//   move of his is excluded by the relay guard, or by exhaustion (`nocapture=50` plies without a
//   cow or a capture, counted afresh each round; repetition, the history restarting each round),
//   through end_round(). The seeds left in each row go to that row's owner; the next round is set
//   up at once.
// - Next round: the starter alternates. Each player fills his holes from his own left (South 1, 2,
// …;
//   North 8, 9, …) with 6 seeds from his reserve. A player holding 42 or more (the round winner, or
//   both at 42–42) fills all 7 and keeps the surplus. The other fills as many as he can, the next
//   hole takes the remainder (1..5, none when it is 0) and the holes left are blind for the round
//   (our reading of "the last hole filled takes the remainder (fewer than 6)", after the seed's
//   "l'un des trous garnis sera incomplet"). A hole set up with exactly 4 is a cow at once: its 4
//   go back to the reserve, the hole stays playable and empty.
// - Game end: after a round, a player holding fewer than 6 seeds loses; after round `maxrounds`
//   (default 30) more seeds wins, equal is a draw. `maxplies` ends the whole game: rows to owners,
//   more seeds wins. The finished position has an empty board.
// - Captures (for nocapture): a ply with a cow or a capture of at least one seed. Such a ply is
//   irreversible (reserves only grow within a round), and so is one that starts a new round.
// Position fields: "h1,...,h7/h8,...,h14:r1,r2:p:round:starter" — hole counts (`x` for a blind
// hole), the reserves of South and North, the player to move, the round (1..maxrounds) and the
// round's first player. No hole ever holds exactly 4. Start (first=1):
// "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:1".
// material(): reserve plus the seeds in one's own row (what one would hold if the round ended now).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

std::vector<ParamSpec> pallankuli_params();

struct PallankuliCore {
  using Move = int;  // the hole sown; 0 = pass

  std::array<int, 14> holes{};
  std::array<bool, 14> blind{};
  std::array<int, 2> reserve{};
  int mover = 1;
  int round = 1;
  int starter = 1;
  int maxrounds = 30;

  static PallankuliCore start(const GameSetup& setup);
  static Expected<PallankuliCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(Move hole);
  std::string move_text(Move hole) const { return hole ? std::to_string(hole) : "pass"; }
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  bool end_round(std::string_view why);
  int round_number() const { return round; }
  std::string text() const;
  std::string draw(BoardWords words) const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const PallankuliCore& o) const {
    return holes == o.holes && blind == o.blind && reserve == o.reserve && mover == o.mover &&
           round == o.round && starter == o.starter;
  }

  // The result of sowing from `hole`: nothing when the relay guard excludes the move.
  struct Sowing {
    std::array<int, 14> holes;
    std::array<int, 2> reserve;
    bool took = false;  // a cow or a capture of at least one seed
  };
  std::optional<Sowing> sow(int hole) const;
  int row_seeds(int player) const;
  bool board_empty() const;
  bool stuck() const;         // seeds, but every move excluded by the relay guard
  bool game_decided() const;  // after a round: someone holds fewer than 6, or it was the last

 private:
  void finish_round();
  void set_up_round();
  bool settle();  // ends rounds while one must end; true when one did
};

}  // namespace referee::games
