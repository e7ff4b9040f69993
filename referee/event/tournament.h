// Runs a tournament (design.md §5): any number of processes may run the same event on one
// database at once. The event's schedule lives in the database (storage/work_queue.h: events,
// slots, claims); the run is one owner (event/owner_loop.h, as `serve` and `worker` are): each game
// thread claims one slot at a time, plays it with its own engine sessions and records it through
// the one writer (storage::Recorder); the heartbeat renews the claims; a killed process's claims
// expire and are played again by whoever runs the event next. The run adds its progress lines.
// The file's `concurrency` is the number of game threads; 0 means one per core.
//
// Before the first game every engine that still has games to play is started once and checked
// (handshake, declared games, rejected options): one line per engine. An engine that cannot start
// has its games left unplayed this run; a game an engine does not declare is decided there once
// (its slots are skipped, never stored as games). Crashes, stalls and protocol faults in a row
// withdraw an engine after max_crashes (time losses too with withdraw_on_time). Any storage
// failure stops the event (storage_error); Ctrl-C (the stop flag) ends cleanly, its games'
// claims released. The summary counts only games whose finish was committed.
//
// An event with an `sprt` table tests engine 0 against engine 1 after every finished game
// (event/sprt_event.h): the progress lines show the LLR and its bounds, and when the test decides
// the slots left are skipped with the decision as their reason, this run's games in progress are
// cut (kept unfinished, not rated) and the run ends; a resumed run of a decided event plays
// nothing.
//
// A knockout or Swiss event (event/rounds.h) starts with its first round; after every settled game
// (and whenever a game thread finds nothing to claim) the games now due are added, and the threads
// claim them; a thread waits while games of this run may still make new ones. A run killed between
// a round's last game and the next round adds that round when the event is resumed. The summary
// ends with the bracket or the standings.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "base/expected.h"
#include "event/owner_loop.h"
#include "event/tournament_config.h"
#include "match/debug_log.h"
#include "ratings/sprt_games.h"
#include "storage/store.h"

namespace referee::event {

struct RunOptions {
  std::ostream* progress = nullptr;         // live progress (stderr); null = quiet
  bool progress_is_tty = false;             // rewrite one line with '\r' instead of printing lines
  const std::atomic<bool>* stop = nullptr;  // set by Ctrl-C
  bool keep_logs = true;                    // store every line exchanged
  match::DebugLog* debug = nullptr;         // --debug: every line exchanged, as it happens
  long lease_ms = 30000;                    // a claim's lease; renewed every lease/4
  storage::OpenOptions store_options;       // test hooks (max_page_count)
  // Pins game thread k and the engines it starts to one CPU (the k-th allowed one, round robin):
  // a game's referee thread and engines take turns, so on one CPU their wake-ups stay local.
  // For single-threaded engines; a multi-threaded engine would be held to one CPU.
  bool pin_cpus = false;
  // The engines' output budget and the free-space headroom (event/owner_loop.h). A run in the
  // foreground never waits degraded: low space or a full disk ends it with that error (its
  // storage_error), and the next run resumes where it stopped.
  OwnerLimits limits;
  std::string artifact_cache;  // where stored engines are materialised; "" = the default
};

// CPU time (user and system seconds) of some of the run's threads.
struct ThreadCpu {
  double user = 0, system = 0;
};

// The live test of an event with an `sprt` table, at the end of the run (event/sprt_event.h).
struct SprtSummary {
  ratings::SprtConfig config;
  ratings::SprtTally tally;  // on every stored finished game of the event
  bool decided() const { return tally.state.decision != ratings::SprtDecision::kContinue; }
};

struct RunSummary {
  std::int64_t event_id = 0;
  std::int64_t scheduled = 0;
  std::int64_t already_done = 0;  // finished before this run
  std::int64_t played = 0;        // finished by this run, committed
  std::int64_t by_others = 0;     // finished meanwhile by other processes
  std::int64_t skipped = 0;       // never to be played (an engine does not declare the game...)
  std::int64_t not_played = 0;    // scheduled - already_done - played - by_others
  std::int64_t plies = 0;         // plies played by this run
  std::int64_t engine_moves = 0;  // plies the engines chose (not openings, not forced moves)
  std::int64_t round_trips = 0;   // request/reply exchanges with engines during this run
  // Statements and transactions the run's database connection sent (its open included).
  std::int64_t db_statements = 0, db_transactions = 0;
  // Where the run's CPU went: the game threads together (measured as each ends) and the database
  // writer (measured after the last write); the rest of the process is main and heartbeat.
  ThreadCpu game_threads_cpu, writer_cpu;
  bool interrupted = false;          // stopped by the stop flag before the event was complete
  std::string storage_error;         // a storage failure stopped the event (one line)
  std::vector<std::string> engines;  // the engine check: one line per engine
  std::vector<std::string> not_played_reasons;  // "4 games: engine 'x' cannot start: ..."
  std::vector<std::string> messages;            // withdrawals, lost claims and other notices
  std::optional<SprtSummary> sprt;              // events with an sprt table
  // Knockout and Swiss events: the bracket or the standings at the end of the run
  // (event/rounds.h), and whether the last round is over.
  std::string rounds_text;
  bool rounds_open = false;  // rounds are still to be played (or could not be read)
  // Every scheduled game is finished (by this run or others).
  bool complete() const { return already_done + played + by_others == scheduled && !rounds_open; }
  // The sequential test decided: the slots left were skipped on purpose.
  bool sprt_decided() const { return sprt && sprt->decided(); }
};

Expected<RunSummary> run_tournament(const TournamentConfig& config, const RunOptions& options);

// A time left or taken for people: "4m07s", "2h05m" (rounded to the second; from an hour on,
// to the minute). The runner's progress line and the daemon's clients show ETAs with it.
std::string duration_text(double seconds);

}  // namespace referee::event
