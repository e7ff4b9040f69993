// The live SPRT of an event with an `sprt` table (tournament file, `referee match --sprt`, the
// daemon's sprt events): the test of engine 0 against engine 1 on the event's stored finished
// games, and the stop when it decides. Every runner calls the same two functions after each
// finished game, so the decision is derived from the database alone: any process playing the
// event (or resuming it after a kill) sees it, and `referee sprt --tournament NAME` on the same
// games prints the same LLR (ratings/sprt_games.h is the one computation).
//
// Decisions:
// - Game pairs only: the schedule plays every opening with seats swapped, and a game whose
//   partner is not finished yet waits for it (the LLR changes once per finished pair).
// - When the test decides, every open slot (pending or claimed) is skipped with the reason
//   "sprt: H1 accepted, LLR 2.95 >= 2.94". Games in progress on them are cut: the runner that
//   decides interrupts its own, and a game that ends on a skipped slot anywhere is stored
//   unfinished and not rated (work_queue::finish_claimed), so the finished games stay the ones the
//   decision was taken on. Two processes that decide at once skip the same slots with the
//   same reason.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/expected.h"
#include "event/tournament_config.h"
#include "ratings/sprt_games.h"
#include "storage/store.h"

namespace referee::event {

struct SprtCheck {
  ratings::SprtTally tally;
  std::string skip_reason;  // "sprt: <verdict>" once decided, else ""
  int skipped = 0;          // open slots this check skipped
};

// The test on the event's stored finished games (config.sprt must be set).
Expected<ratings::SprtTally> event_sprt(storage::Store& store, std::int64_t event,
                                        const TournamentConfig& config);

// When an owner runs the test again (every runner: `referee tournament`, the daemon's game threads
// and its hub). The test reads every finished game of the event, so its cost grows with the
// event: below kExactGames games it runs after every game; from there on, a test that took more
// than kFreeCheck waits kCostFactor times its duration before the next, which keeps it near a
// tenth of the run on big events of very fast games (as fishtest tests batches of games), while
// games of a second or more still get it after every game.
struct SprtThrottle {
  using Clock = std::chrono::steady_clock;
  static constexpr std::int64_t kExactGames = 1000;
  static constexpr std::chrono::milliseconds kFreeCheck{5};
  static constexpr int kCostFactor = 9;

  Clock::time_point next{};
  bool due(Clock::time_point now) const { return now >= next; }
  // The test ran from t0 to t1 on `games` finished games.
  void ran(std::int64_t games, Clock::time_point t0, Clock::time_point t1) {
    if (games >= kExactGames && t1 - t0 > kFreeCheck) next = t1 + kCostFactor * (t1 - t0);
  }
};

// event_sprt, and when it has decided, every open slot of the event skipped with the reason.
Expected<SprtCheck> enforce_sprt(storage::Store& store, std::int64_t event,
                                 const TournamentConfig& config);

}  // namespace referee::event
