// The work queue: how any number of processes share the games of the events (design.md §6).
// Free functions over a Database (database.h says why): `work_queue::claim_slots(store, ...)`.
//
// Events, slots and claims:
// - An event (an `events` row: a tournament, a ladder or an sprt test) is created once with its
//   whole specification (JSON) and its schedule materialized as `slots` rows, in one transaction.
// - Every process that plays games registers as an owner (register_owner). A claim is a slot in
//   state Claimed with its owner and a lease: the time (unix ms) after which anyone may take it.
//   claim_slots takes pending slots, or claimed ones whose lease expired, in schedule order, in
//   one write transaction (SQLite: BEGIN IMMEDIATE, so two processes never take the same slot;
//   PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED). Taking an expired claim closes the game
//   its dead owner left running as unfinished/interrupted.
// - The owner renews its leases on a heartbeat (renew_claims, every lease/4); a killed process
//   stops renewing, its leases expire, and the slots are played again by whoever claims them.
// - finish_claimed records a game's end and its slot's new state in one transaction that first
//   checks the slot is still claimed by this owner. Exactly once: a slot becomes Done only in
//   that transaction, under the write lock, by the owner holding the claim; an owner whose lease
//   expired and was taken finds the claim gone and its game is kept unfinished ("lost-claim"),
//   never rated. A partial unique index (one finished game per event and slot) makes a second
//   finish impossible whatever the code above does.
// - An interrupted game releases its slot at once (pending again); a slot that cannot be played
//   (an engine does not declare the game) is skipped once, with a reason, and never claimed.
//
// Errors: NotFound (no such event or game), Conflict (a game that belongs to no slot), Invalid
// (records that do not fit), and the database's own kinds (database.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/database.h"
#include "storage/states.h"
#include "storage/store.h"

namespace referee::storage {

// One game of an event's schedule, as stored in `slots`.
struct SlotRecord {
  std::int64_t slot = 0;
  std::string game;                  // canonical game string
  std::vector<std::string> seats;    // engine names by seat
  std::vector<std::string> opening;  // played by the referee
  int cycle = 0;
  int round = 0;
  int pair = 0;  // the opening group: the slots of one pair are one opening in every seating
  SlotState state = SlotState::Pending;  // read back only
  std::string reason;                    // why a slot was skipped (read back only)
  std::optional<std::int64_t> owner;
  int attempts = 0;
};

struct EventRow {
  std::int64_t id = 0;
  std::string name;
  std::string spec;    // the normalized specification (JSON) it was created with
  std::string config;  // v2: the schedule fingerprint
  EventState state = EventState::Running;
  EventKind kind = EventKind::Tournament;
  int priority = 0;
  bool created = false;  // created by this call
};

// How open_event creates a new event (an existing one keeps what it has).
struct NewEventOptions {
  EventKind kind = EventKind::Tournament;
  EventState state = EventState::Running;  // queued | running | paused
  int priority = 0;
  // v12: the principal that submitted it ("operator", an author's name); "" = a local command.
  std::string submitted_by;
};

// An event with its progress, for the daemon's listings.
struct EventInfo {
  std::int64_t id = 0;
  std::string name;
  EventKind kind = EventKind::Tournament;
  EventState state = EventState::Running;
  int priority = 0;
  std::string spec;
  std::string submitted_by;                                      // v12: see NewEventOptions
  std::string created_at, started_at, finished_at, updated_at;   // ISO 8601; "" = not yet
  std::int64_t pending = 0, claimed = 0, done = 0, skipped = 0;  // slots by state
  std::int64_t total() const { return pending + claimed + done + skipped; }
};

struct EventQuery {
  std::vector<EventState> states;  // empty = any
  std::optional<EventKind> kind;   // none = any
  int limit = 100;
  int offset = 0;
};

struct EventList {
  std::vector<EventInfo> events;  // newest first
  std::int64_t total = 0;         // matching the query, all pages
};

struct OwnerInfo {
  std::string name;  // for people: "tournament awale.toml"
  std::string host;
  long pid = 0;
  OwnerKind kind = OwnerKind::Tournament;
  long lease_ms = 30000;  // how long it counts as alive after a heartbeat (v7)
};

// An owner as the daemon's workers page shows it (owners()).
struct OwnerStatus {
  std::int64_t id = 0;
  OwnerInfo info;
  std::int64_t started_at_ms = 0, heartbeat_at_ms = 0;  // Unix ms
  std::int64_t lease_expires_at_ms = 0;  // v7: last heartbeat + its lease (0 before v7's writes)
  std::optional<std::int64_t> stopped_at_ms;
  std::vector<std::int64_t> running_games;  // its games with status "running", by id
  // stopped (stopped_at set) | alive (its lease runs) | lost (neither: killed, or hung)
  OwnerState state(std::int64_t now_ms) const {
    if (stopped_at_ms) return OwnerState::Stopped;
    return lease_expires_at_ms > now_ms ? OwnerState::Alive : OwnerState::Lost;
  }
};

struct Claim {
  std::int64_t event = 0;
  SlotRecord slot;  // attempts counts this one
};

struct SlotCounts {
  std::int64_t pending = 0, claimed_mine = 0, claimed_others = 0, done = 0, skipped = 0;
  std::int64_t total() const { return pending + claimed_mine + claimed_others + done + skipped; }
};

enum class ClaimEnd {
  Done,      // the game finished and its slot is done
  Released,  // the game did not finish (interrupted): the slot is pending again
  Lost,      // the claim had been taken by another owner: game kept unfinished ("lost-claim")
};

// A schedule given a batch at a time: each call fills `batch` (given empty) with the next slots,
// in order; an empty batch is the end. Its error stops open_event, which then stores nothing.
using SlotBatches = std::function<Status(std::vector<SlotRecord>& batch)>;

namespace work_queue {

// ---- Events ----
// Creates the event with its slots, or returns the existing one of that name unchanged (the
// caller compares `spec`; `batches` is then never called). A v2 event (no spec yet) whose
// `config` fingerprint matches is adopted: its spec is set and its slots materialized, finished
// ones done. One transaction: the event appears whole or not at all, while only one batch of
// its slots is in memory at a time (an event of 1,000,000 games in a daemon of < 100 MB).
Expected<EventRow> open_event_in_batches(Database& db, const std::string& name,
                                         const std::string& spec, const std::string& config,
                                         const SlotBatches& batches,
                                         const NewEventOptions& options = {});
// The same with every slot given at once.
Expected<EventRow> open_event(Database& db, const std::string& name, const std::string& spec,
                              const std::string& config, const std::vector<SlotRecord>& slots,
                              const NewEventOptions& options = {});
// Gives an event in which no game was ever played a new specification: its slots are replaced by
// those of `batches`, its kind set to `kind` and its state to `state` (a run that started no engine
// must not fix what the event is: correcting a command's path is then a new specification). False,
// and nothing changed, when the event has a game recorded (finished or not) or a slot claimed by an
// owner whose lease still runs: what was played is kept with the specification it was played under.
Expected<bool> respecify_unplayed_event(Database& db, std::int64_t event, const std::string& spec,
                                        const std::string& config, const SlotBatches& batches,
                                        EventKind kind, EventState state = EventState::Running);
// Creates the event of a v2 tournament file with no schedule stored (games recorded, slots
// not), or returns the existing one; a name reused with a different config is Conflict.
Expected<std::int64_t> open_tournament(Database& db, const std::string& name,
                                       const std::string& config);
Expected<EventList> events(Database& db, const EventQuery& query);
Expected<EventInfo> event(Database& db, std::int64_t id);  // NotFound "no event N"
// Sets the event's state when it is one of `from`; returns whether it changed (NotFound when
// there is no such event). Marking a tournament finished is left to the slots.
Expected<bool> set_event_state(Database& db, std::int64_t id, EventState state,
                               const std::vector<EventState>& from);
Status set_event_priority(Database& db, std::int64_t id, int priority);  // NotFound
// Replaces the event's stored specification (NotFound). For the keys under "run" only (a ladder's
// pace): the caller keeps what decides the games as it was.
Status set_event_spec(Database& db, std::int64_t id, const std::string& spec);

// The event named `name` (its spec, kind and state), or none when there is no such event.
Expected<std::optional<EventRow>> event_named(Database& db, const std::string& name);

// ---- Slots ----
// Appends slots to an event after its last one (a ladder's top-up, an sprt's next pairs, a Swiss
// round); their `slot` fields are ignored and the numbers given are returned. A tournament event
// marked finished (its slots had all ended) is running again. With `expected_next` (the number
// the first would get), only while the event's slots still end just before it, else
// ErrorKind::Conflict and nothing added: games decided by several owners at once from what they
// read (a Swiss round, a knockout match's next games) are added exactly once, on one host or many.
Expected<std::vector<std::int64_t>> append_slots(
    Database& db, std::int64_t event, const std::vector<SlotRecord>& slots,
    std::optional<std::int64_t> expected_next = std::nullopt);
Expected<std::vector<SlotRecord>> slots(Database& db, std::int64_t event);
// Runs `decide` (which reads the database and may append slots) inside one write transaction that
// first waits for the other writers that decide from what they read (PostgreSQL: the writers'
// lock, held to the commit; SQLite runs one write transaction at a time already). Two owners
// deciding at once from the same rows (each finished one of a round's last two games) then
// decide one after the other, the second reading what the first committed: a round is neither
// added twice nor missed. Inside an open transaction (a game's finish) it is a savepoint of it,
// the lock held to that transaction's commit. `decide`'s failure rolls back what it wrote.
Expected<int> decide_exclusively(Database& db, const std::function<Expected<int>()>& decide);
// The event's pending and claimed slots, in order.
Expected<std::vector<SlotRecord>> open_slots(Database& db, std::int64_t event);
Expected<SlotCounts> slot_counts(Database& db, std::int64_t event, std::int64_t owner);
// Slots that will not be played (an engine does not declare the game): skipped with a reason,
// unless already done. Returns how many changed.
Expected<int> skip_slots(Database& db, std::int64_t event, const std::vector<std::int64_t>& slots,
                         const std::string& reason);

// Why an event's skipped slots were skipped: each reason with its count, most games first.
struct SkipReason {
  std::string reason;
  std::int64_t games = 0;
};
Expected<std::vector<SkipReason>> skip_reasons(Database& db, std::int64_t event);

// ---- Owners, claims and leases ----
Expected<std::int64_t> register_owner(Database& db, const OwnerInfo& owner);
// The owners that are not stopped, and those stopped in the last `stopped_within_ms`, newest
// first, at most `limit`, each with its running games.
Expected<std::vector<OwnerStatus>> owners(Database& db, std::int64_t stopped_within_ms, int limit);
// The owner stops: its claims are released, stopped_at is set.
Status stop_owner(Database& db, std::int64_t owner);
// Releases every claim of `owner` (pending again) and leaves it registered: an owner that has
// no game in hand and resumes after a storage failure (a degraded owner, event/owner_loop.h).
Status release_claims(Database& db, std::int64_t owner);
// Up to `max` slots of the event (or of any running event), pending or with an expired lease,
// in schedule order, none with an engine of `exclude_engines`; they become claimed by `owner`
// until now + lease_ms.
Expected<std::vector<Claim>> claim_slots(Database& db, std::int64_t owner,
                                         std::optional<std::int64_t> event, int max, long lease_ms,
                                         const std::vector<std::string>& exclude_engines);
// Extends every claim of `owner` to now + lease_ms and beats its heartbeat; returns how many.
Expected<int> renew_claims(Database& db, std::int64_t owner, long lease_ms);
// Ends a game begun for a claimed slot (see ClaimEnd), in one transaction with the slot.
// `result` as for Store::finish_game.
Expected<ClaimEnd> finish_claimed(Database& db, std::int64_t game_id, const GameRecord& result,
                                  std::int64_t owner);
// A claimed slot given back without a game (its engine could not start): pending again.
Status release_slot(Database& db, std::int64_t event, std::int64_t slot, std::int64_t owner);

}  // namespace work_queue
}  // namespace referee::storage
