// `referee play`: a game at the console between people, or a person and engines (issue 5).
//
// Two screens:
// - The seed's screen (seeds/004, rules.md §1 "Display") for the two-player 2×6 games of seed 004
//   whose board is the seed's: awale, awale-v1, wali, oware (players=2), tamtam-apachi, kakua,
//   owani. Only the seed's messages are printed: the board (BoardWords::Seed, its French words),
//   `A SUD de jouer.`, after each move
//   `SUD a ramassé N bille(s).` (N = 0 included: "après chaque coup"), the next board, and at the
//   end the final board and `NORD gagne la partie d'Awalé.` / `Partie nulle.`. Input is a hole
//   number 1..12; anything else (not a number, out of range, not a legal move) is rejected by
//   printing `A SUD de jouer.` again. `0` proposes to end the game: where the rules have an agreed
//   end it ends, else it is rejected like an invalid entry. The final board shows the scores as
//   the rules count them: a row whose seeds went to its owner is shown empty, its seeds added to
//   his score. A forced `pass` is played silently (the board does not change). An engine's move is
//   printed on its own line after `A NORD de jouer.`, as a typed number appears on a terminal.
//   `?` prints the legal holes (only when asked).
// - Every other game: the drawing of `referee show` (BoardWords::English: this screen is not the
//   seed's, so its board speaks English like its messages), a line `player N to move` (with the
//   setup's form in a setup phase), moves in canonical notation, `?` or `moves` lists the legal
//   moves, forced moves are played by the referee and shown, errors are explained.
// An engine that fails forfeits (its opponent wins). End of input ends the game cleanly; it is then
// recorded as unfinished (termination "interrupted"). The game is stored like any other, players
// named by their seats ("human" or the engine's name).
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "games/game.h"
#include "match/engine_session.h"
#include "match/time_control.h"
#include "storage/store.h"

namespace referee::match {

struct PlaySeat {
  EngineSession* engine = nullptr;  // nullptr: a person at the console
  std::string name = "human";       // the player's name in the database
};

struct PlaySetup {
  games::Game game;
  std::string start_position;   // empty = the game's start
  std::vector<PlaySeat> seats;  // index 0 = player 1
  // For the engines (people are not timed); recorded (canonical) when a seat is an engine.
  TimeControl tc;
  storage::Store* store = nullptr;          // where the game is recorded; nullptr: not recorded
  const std::atomic<bool>* stop = nullptr;  // polled while an engine thinks
};

struct PlayResult {
  bool finished = false;
  std::vector<int> ranks;  // by seat
  std::vector<double> scores;
  std::string termination;  // as in storage (games/terminations.h): rules | agreement | time ...
  std::string reason;
  std::vector<std::string> moves;  // as played, from the start position
  std::int64_t game_id = 0;        // 0 when not recorded
  std::string db_error;            // the first database error, if any
  bool not_started = false;        // bad position or seats, or an engine without this game
};

// The seed's game title with its French article: "d'Awalé", "de Wali"; empty when the game is not
// played on the seed's screen (see above).
std::string seed_title(const games::Game& game);

// The final board of the seed's screen: `state` is over; rows counted into their owner's score are
// shown empty and the scores are the outcome's.
std::string seed_final_board(const games::State& state);

// Plays one game, reading the people's entries from `in` and writing the screen to `out`.
PlayResult play_console(const PlaySetup& setup, std::istream& in, std::ostream& out);

}  // namespace referee::match
