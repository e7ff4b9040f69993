// An event's normalized specification: what the database stores with the event (JSON) so that
// any referee process (another `referee tournament`, the daemon, a remote worker) can rebuild the
// event from the database row alone, and so that reopening an event with a changed file is
// refused with a message naming what changed.
//
// Decisions:
// - Everything that decides which games are played and how is compared: games, format, cycles,
//   seed, openings (the book's lines, not its file name), the time control, and each engine's
//   command, args, dir, env, options, limits, protocol quirk and time control.
// - Keys under "run" (at the top and in each engine) say how a run goes, not what is played:
//   concurrency, max_crashes, withdraw_on_time, engine timeouts. They are stored but may change
//   between runs of one event.
// - An sprt table (elo0, elo1, alpha, beta, model) is part of it when there is one: it decides
//   when the event stops. Events without one have no "sprt" key, as before.
// - A knockout's [knockout] keys with its seeds (the engines by seed, fixed when the event is
//   made: event/rounds.h), a Swiss event's rounds: only for those formats, so that the
//   specifications of other events stay as they were.
// - So is an adjudication table (draw, resign) when there is one: it decides how games end.
// - The database path and the file the event was read from are not part of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "event/schedule.h"
#include "event/tournament_config.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::event {

// The specification as canonical JSON text (keys sorted).
std::string event_spec(const TournamentConfig& config);

// The event rebuilt from a stored specification (database and source left empty).
Expected<TournamentConfig> config_from_spec(const std::string& spec);

// What differs between two specifications, for people ("cycles; engine 'b': command, options"),
// ignoring the "run" keys; empty when nothing that decides the games differs. Relative engine
// paths of the stored one are taken from the current directory: a tournament file's are
// absolute, and an event stored with relative ones, resumed from where it ran, is the same event.
std::string spec_changes(const std::string& stored, const std::string& wanted);

// The schedule as slots rows: seats by engine name, and `pair` = the index of the opening group
// (the consecutive slots of one game, cycle, round and opening played by every seating of one
// set of engines).
std::vector<storage::SlotRecord> slot_records(const TournamentConfig& config,
                                              const std::vector<Slot>& schedule);

// Slots per batch of slot_batches: 10,000 rows of a few hundred bytes, a few MB at most.
constexpr std::size_t kSlotBatch = 10000;

// The event's schedule as slot_records would give it, made a batch of `batch_size` at a time as
// open_event_in_batches asks (each batch when asked, never the whole schedule); an error as
// ScheduleGenerator::start's, before anything is made. A knockout or Swiss event: its first
// round only, in one batch (event/rounds.h adds the others).
Expected<storage::SlotBatches> slot_batches(const TournamentConfig& config,
                                            std::size_t batch_size = kSlotBatch);

// What opening an event from its configuration did.
enum class Opening {
  Created,      // no event had the name
  Resumed,      // the stored event has this specification
  Respecified,  // the stored event had another one and no game: it takes this one
};

// When the stored event of that name has another specification: the commands that own their file
// (`tournament`, `worker --queue`) replace it while no game of it was played, since the run that
// made it started none (an engine that could not start, a wrong path) and nothing depends on it;
// the daemon's API refuses, since the event may be another submitter's.
enum class OnOtherSpec { Refuse, ReplaceUnplayed };

struct OpenedEvent {
  storage::EventRow row;
  Opening how = Opening::Resumed;
  std::string changes;  // Respecified: what changed, in words (spec_changes)
};

// The event opened from its configuration through open_event_in_batches: every command that
// creates an event from a tournament (`tournament`, `worker --queue`, the daemon's API) stores
// its schedule this way, and decides here whether a stored event of that name is the same one.
// When the event is refused, nothing is stored and `refused` holds why, as the caller's fault
// rather than the storage's: Invalid when the schedule cannot be made (an opening found impossible
// as its batch is made), Conflict when the name is taken by an event of another kind or another
// specification ("event \"x\" already exists with a different specification (engines)").
// Then the answer is an empty row (id 0), so that a writer thread running this does not take it
// for a storage failure.
Expected<OpenedEvent> open_tournament_event(storage::Database& db, const TournamentConfig& config,
                                            const std::string& spec,
                                            const storage::NewEventOptions& options,
                                            OnOtherSpec on_other_spec,
                                            std::optional<Error>& refused);

}  // namespace referee::event
