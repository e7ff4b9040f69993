// What an endgame table needs of a game: its positions as (board, captured split), the moves
// from each with what they gain, and the scoring of an end. The moves are the rules library's
// own (AwaleCore, KalahaCore: awale.h, kalaha.h), never a copy, so a table cannot disagree with
// the referee.
//
// Decisions:
// - Positions are stored from the mover's side: the mover's row is holes 0..5 of the Board,
//   his opponent's 6..11 (North's holes 7..12 when North moves). Both games are symmetric, so
//   `first` does not change a value and the table holds half the positions.
// - The value of a position is the margin the mover gains from the seeds still on the board
//   under perfect play: (seeds he adds to his score) − (seeds his opponent adds). The final
//   margin is this plus the score difference already made (captured seeds, stores).
// - awale and awale-v1 (any `grandslam`, any `nocapture`): the value depends on the captured
//   seeds, since a player who reaches 25 ends the game; a position is (board, mover's captured),
//   the opponent's captured being 48 − seeds − mover's. Both stay at most 24 in a position that
//   is not over: n + 1 splits for n seeds. `nocapture` is the solver's iteration limit
//   (EGDB.md), so it is part of the table's game; `first` and `maxplies` are not.
// - kalaha: the value depends on the board alone (stores only grow and end nothing): one split.
//   Its `nocapture` is not modelled (EGDB.md): it is not part of the table's game.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/egdb/board_index.h"
#include "games/game.h"

namespace referee::games::egdb {

enum class Family { Awale, Kalaha };

// The most seeds on the board a table may hold (the awale split index assumes n <= 24).
inline constexpr int kMaxSeeds = 24;
// The largest awale nocapture a table takes (its iteration limit: solver.h).
inline constexpr int kMaxNocapture = 255;

struct Model {
  Family family = Family::Awale;
  std::string key;            // the table's game: the canonical string without first, maxplies
  bool capture_after = true;  // awale (true) or awale-v1
  bool slam_illegal = false;  // grandslam=illegal
  int nocapture = 0;          // the game's nocapture (0: none)

  int splits(int seeds) const { return family == Family::Awale ? seeds + 1 : 1; }
  std::uint64_t layer_size(int seeds) const { return boards(seeds) * splits(seeds); }
};

// The model of `game`, or an Invalid error naming the game when it has no endgame tables.
Expected<Model> model_for(const Game& game);

// A position as the table sees it.
struct Pos {
  Board holes{};   // the mover's row first
  int mine = 0;    // awale: seeds the mover has captured; kalaha: unused (0)
  int theirs = 0;  // awale: seeds his opponent has captured
};

int seeds_on(const Board& b);
// The ending's scoring (every awale and kalaha end: each keeps the seeds of his row), as a value.
int rows_value(const Board& b);
// Rotates a board by a row: the other player's side becomes the mover's.
Board turned(const Board& b);

// Where a table keeps `pos` among the positions of its seed count; the position must not be over.
std::uint64_t index_of(const Model& m, const Pos& pos, int seeds);
Pos position_at(const Model& m, std::uint64_t index, int seeds);
// True when the game is over in `pos` by a rule that needs no move generation (awale: 25
// captured). Positions without moves are over too, found by children().
bool captured_out(const Model& m, const Pos& pos);

struct Child {
  int hole = 0;             // 1..6 from the mover's side
  int gain = 0;             // seeds the move adds to the mover's score
  bool same_mover = false;  // kalaha's extra turn
  Pos pos;                  // oriented for whoever moves next
};

// The legal moves of `pos` and where they lead; none when the game is over. `scratch` is reused
// between calls (the solver makes billions).
void children(const Model& m, const Pos& pos, std::vector<Child>& out, std::vector<int>& scratch);

}  // namespace referee::games::egdb
