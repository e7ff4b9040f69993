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
//   unfinished and not rated (Store::finish_claimed), so the finished games stay the ones the
//   decision was taken on. Two processes that decide at once skip the same slots with the
//   same reason.
#pragma once

#include <cstdint>
#include <string>

#include "base/expected.h"
#include "event/tournament_config.h"
#include "ratings/sprt_games.h"
#include "storage/store.h"

namespace referee {

struct SprtCheck {
  ratings::SprtTally tally;
  std::string skip_reason;  // "sprt: <verdict>" once decided, else ""
  int skipped = 0;          // open slots this check skipped
};

// The test on the event's stored finished games (config.sprt must be set).
Expected<ratings::SprtTally> event_sprt(storage::Store& store, std::int64_t event,
                                        const TournamentConfig& config);

// event_sprt, and when it has decided, every open slot of the event skipped with the reason.
Expected<SprtCheck> enforce_sprt(storage::Store& store, std::int64_t event,
                                 const TournamentConfig& config);

}  // namespace referee
