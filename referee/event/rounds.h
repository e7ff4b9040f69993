// Knockout and Swiss events (format = "knockout" | "swiss"): their games are made a round (or a
// match's next pairs) at a time, from the results stored so far, by the pure rules of
// event/pairing.h. Nothing of a round lives anywhere but in the event's slots and games, so any
// process that reads them (a resumed run, a second process on the event) computes the same
// bracket or standings and the same next games; the next games are appended with the number the
// first should get (work_queue::append_slots' expected_next), so they are added exactly once.
//
// How slots carry a round: `round` is the round (1-based); a knockout's `cycle` is the game pair's
// number within its match (0-based: pairs, then tie-break pairs), a Swiss slot's is 0; `pair` is
// the opening group as in every event. A knockout match is found by its round and the seeds of its
// two engines; a Swiss pairing by its round and its engines; a Swiss round's bye is the engine
// absent from its slots. A pair is settled when each of its games is finished or skipped; skipped
// games score nothing.
//
// Decisions:
// - Openings: each pair's opening is drawn from the event's seed, the game, the round, the match's
//   position and the pair's number (never from the order in which games were added), with the
//   book line chosen by the same draw: the same next games whoever adds them.
// - Seeding by rating: the engines' Elo from every finished game of the database when the event is
//   made, in the order of the "all games" table of `referee ratings` (best first; an engine that
//   won every game, a lower bound, above the finite ratings, one that lost every game below);
//   engines without a rating follow in the file's order. The order is stored in the event's
//   specification (knockout.seeds): a resumed run keeps its bracket whatever was played since.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/expected.h"
#include "event/pairing.h"
#include "event/tournament_config.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::event {

// The first round's slots, numbered from 0: the knockout's first-round matches (byes have none),
// or the first Swiss round.
Expected<std::vector<storage::SlotRecord>> first_round(const TournamentConfig& config);

// The engines by seed for seeding = "rating" (see the header), from the database's games.
Expected<std::vector<std::string>> rating_seeds(storage::Store& store,
                                                const TournamentConfig& config);

// A knockout seeded by rating gets its seeds (config.knockout.seeds) before its specification is
// made: those stored with the event of that name when there is one (a resumed or resubmitted
// event keeps its bracket), else rating_seeds. Other events are left as they are.
Status fill_seeds(storage::Store& store, TournamentConfig& config);

// What the stored slots and games say of the event.
struct RoundsView {
  std::vector<std::string> players;      // knockout: by seed; Swiss: the file's order
  Bracket bracket;                       // knockout
  std::vector<SwissRoundPlayed> played;  // Swiss: the finished rounds, in order
  int rounds_made = 0;                   // Swiss: rounds with slots
  std::vector<SwissStanding> standings;  // Swiss: after the finished rounds
  bool complete = false;                 // the champion is known / the last round is finished
};

RoundsView rounds_view(const TournamentConfig& config,
                       const std::vector<storage::SlotRecord>& slots,
                       const std::vector<storage::GameRecord>& finished_games);

// The games due now (numbered from the event's next slot): a knockout's matches whose sides are
// known and need pairs, or the next Swiss round once the last one is finished; empty otherwise.
Expected<std::vector<storage::SlotRecord>> due_slots(const TournamentConfig& config,
                                                     const RoundsView& view,
                                                     const std::vector<storage::SlotRecord>& slots);

// Reads the event, and appends the games due: how many were added (0 when none are due, or when
// another owner added them first). Read and written under the writers' lock
// (work_queue::decide_exclusively); inside an open transaction (the one that finishes a game:
// SlotHooks::settled) it is part of it, so the finish and the next round commit together and the
// event is never seen finished between two rounds.
Expected<int> advance_rounds(storage::Store& store, std::int64_t event,
                             const TournamentConfig& config);

// The event read from the database.
Expected<RoundsView> read_rounds(storage::Store& store, std::int64_t event,
                                 const TournamentConfig& config);

// The bracket (knockout) or the standings with each round's pairings (Swiss), for people.
std::string rounds_text(const TournamentConfig& config, const RoundsView& view);

// The same as JSON: {"format", "complete", "rounds": [...], "champion" | "standings"}.
nlohmann::json rounds_json(const TournamentConfig& config, const RoundsView& view);

}  // namespace referee::event
