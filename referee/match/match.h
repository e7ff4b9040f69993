// One game between engine sessions (design.md §5): the referee's checklist for every turn —
// rules end? forced move? send position and go, read with a deadline, validate with the rules
// library, charge the clock, apply, record — and one distinct termination for every way it ends.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "games/game.h"
#include "match/adjudication.h"
#include "match/engine_session.h"
#include "match/time_control.h"
#include "storage/store.h"

namespace referee::match {

struct MatchSetup {
  games::Game game;
  std::string start_position;               // empty = the game's start
  std::vector<std::string> opening;         // played by the referee before the engines move
  std::vector<EngineSession*> seats;        // index 0 = player 1
  std::vector<TimeControl> time_controls;   // one per seat
  const std::atomic<bool>* stop = nullptr;  // set to interrupt the game
  // Called after each move is applied (for storage: moves durable as played).
  std::function<void(const storage::MoveRecord&)> on_move;
  // Adjudication from the engines' scores (match/adjudication.h): asked after each ply an engine
  // played. The rules must have passed check_adjudication for this game.
  Adjudication adjudication;
  // Asked after every ply that did not end the game by the rules (an endgame database); its
  // verdict ends the game like the scores' does. Checked before the scores' rules: it is exact.
  PositionJudge judge;
};

struct MatchResult {
  bool finished = false;   // false: interrupted (to be replayed)
  std::vector<int> ranks;  // by seat
  std::vector<double> scores;
  // a word of games/terminations.h, also the gameover line's reason; `adjudication` when a
  // verdict (MatchSetup::adjudication, judge) ended it
  std::string termination;
  std::string reason;   // for people: its first line names the engine and what it did; a crash
                        // adds the last lines of the engine's stderr in this game
  int faulty_seat = 0;  // 1-based seat whose engine failed, 0 if none
  Fault fault = Fault::None;
  std::vector<storage::MoveRecord> moves;
  std::string final_position;
};

MatchResult play_match(const MatchSetup& setup);

// One engine turn of the checklist, shared by the match runner and console play: `go` with every
// player's clock, read with the deadline, charge the clock, validate and apply the move.
struct EngineTurn {
  bool played = false;        // the move was applied to the state
  bool interrupted = false;   // the stop flag was raised while the engine thought
  Fault fault = Fault::None;  // why the engine forfeits (when neither played nor interrupted)
  std::string detail;         // the forfeit's detail, raw text of an illegal move included
  MoveReply reply;            // move, time used, last info line
  long clock_ms = -1;         // the mover's clock after the move; -1 without a clock
};
EngineTurn engine_turn(games::State& state, EngineSession& engine, std::vector<PlayerClock>& clocks,
                       const std::vector<TimeControl>& time_controls,
                       const std::string& start_position, const std::vector<std::string>& played,
                       const std::atomic<bool>* stop);

// The `go` the engine of `player` is sent: every player's clock and increment (when its time
// control has a clock), moves to go, movetime, depth, nodes.
protocol::Go go_for(int player, const std::vector<PlayerClock>& clocks,
                    const std::vector<TimeControl>& time_controls);

// Ranks when the engine on `seat` forfeits: it is last, the others share first place.
std::vector<int> forfeit_ranks(int players, int seat);

// The reason of a game an engine forfeits, named by its name: "mybot lost on time: ...",
// "mybot crashed (exit 1): ValueError: bad move" followed, when its stderr in this game had more
// than that one line, by a line "its stderr, last lines in this game:" and those lines. `when`
// is "" during the game, or " before the game".
std::string forfeit_reason(const EngineSession& engine, Fault fault, const std::string& detail,
                           const std::string& when = "");

// The first line of a reason, for one-line displays (the console's finished line); the whole
// reason is stored.
std::string reason_headline(const std::string& reason);

}  // namespace referee::match
