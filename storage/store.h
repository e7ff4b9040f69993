// The referee's database: the only place that knows SQL (design.md §6). SQLite (a file path) or
// PostgreSQL (a postgresql:// or postgres:// URL) behind one SQL layer (storage/sql), a versioned
// schema with migrations, moves durable as they are played. One Store per thread (connections are
// not shared).
//
// Events, slots and claims: how any number of processes share one event.
// - An event (a `tournaments` row) is created once with its whole specification (JSON) and its
//   schedule materialized as `slots` rows, in one transaction.
// - Every process that plays games registers as an owner (register_owner). A claim is a slot in
//   state "claimed" with its owner and a lease: the time (unix ms) after which anyone may take it.
//   claim_slots takes pending slots, or claimed ones whose lease expired, in schedule order, in
//   one write transaction (SQLite: BEGIN IMMEDIATE, so two processes never take the same slot;
//   PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED). Taking an expired claim closes the game
//   its dead owner left "running" as unfinished/interrupted.
// - The owner renews its leases on a heartbeat (renew_claims, every lease/4); a killed process
//   stops renewing, its leases expire, and the slots are played again by whoever claims them.
// - finish_claimed records a game's end and its slot's new state in one transaction that first
//   checks the slot is still claimed by this owner. Exactly once: a slot becomes "done" only in
//   that transaction, under the write lock, by the owner holding the claim; an owner whose lease
//   expired and was taken finds the claim gone and its game is kept unfinished ("lost-claim"),
//   never rated. A partial unique index (one finished game per event and slot) makes a second
//   finish impossible whatever the code above does.
// - An interrupted game releases its slot at once (pending again); a slot that cannot be played
//   (an engine does not declare the game) is "skipped" once, with a reason, and never claimed.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/expected.h"

namespace referee::storage {

constexpr int kSchemaVersion = 10;

struct EngineInfo {
  std::string name;     // unique key, from the tournament file or the command line
  std::string command;  // command line as configured
  std::string id_name;  // what the engine said in "id name"
  std::string id_author;
};

// The content hashes of one seat's engine (engines/engine_hash.h): lower-case hex SHA-256 of the
// executed file and of its script argument ("" when none).
struct EngineHash {
  std::string program;
  std::string script;
  bool operator==(const EngineHash&) const = default;
};

// Stored form (games.engine_hashes, schema v7): a JSON array by seat of objects
// {"program": "...", "script": "..."} ("script" left out when empty); "[]" when not recorded.
std::string engine_hashes_json(const std::vector<EngineHash>& hashes);
std::vector<EngineHash> engine_hashes_from_json(const std::string& text);  // lenient: [] on junk

// Stored form (games.time_controls, schema v10): a JSON array of strings by seat, each the seat's
// canonical time control (TimeControl::to_string()); "[]" when not recorded (before v10: every
// seat had the game's time_control).
std::string time_controls_json(const std::vector<std::string>& controls);
std::vector<std::string> time_controls_from_json(const std::string& text);  // lenient: [] on junk

struct GameRecord {
  std::int64_t id = 0;
  std::optional<std::int64_t> tournament_id;
  std::string tournament;      // the tournament's name; filled by Store::games(), "" outside one
  std::int64_t slot = -1;      // index in the tournament schedule (resume key); -1 outside one
  std::string game;            // canonical game string, "awale:grandslam=nocapture,first=1,..."
  std::string start_position;  // position string the game started from; empty = the start
  // Moves played by the referee before the engines (book/random), from start_position. The
  // runner may also record them as MoveRecords with source "opening": see move_sequence().
  std::vector<std::string> opening;
  std::vector<std::string> players;  // engine names by seat; index 0 = player 1
  std::string time_control;          // seat 1's, canonical, e.g. "10+0.1" (what filters test)
  // Every seat's time control by seat (canonical), as played; empty when not recorded (games
  // stored before schema v10, and imported games whose seats all had time_control).
  std::vector<std::string> time_controls;
  std::string status = "running";  // running | finished | unfinished
  std::vector<int> ranks;          // by seat; empty until finished
  std::vector<double> scores;      // by seat (the game's own score)
  // One word of referee/games/terminations.h: rules | relay | repetition | nocapture | maxplies |
  // agreement | resign | time | illegal | crash | stall | protocol | interrupted | lost-claim |
  // duplicate ("normal" before schema v6 is read as "rules").
  std::string termination;
  std::string reason;      // for people: "mybot lost on time: ..." (may hold several lines)
  std::string started_at;  // ISO 8601 UTC
  std::string finished_at;
  std::int64_t plies = 0;
  std::optional<std::int64_t> owner;      // the owner (process) that played it, when known
  std::vector<EngineHash> engine_hashes;  // by seat; empty when not recorded (before v7)
};

struct MoveRecord {
  int ply = 0;         // 1-based, counting opening moves and forced moves
  int player = 0;      // 1..N
  std::string move;    // canonical
  long time_ms = -1;   // time the engine used; -1 for referee-played moves
  long clock_ms = -1;  // the mover's clock left after the move (increment included); -1 if none
  std::string info;    // last "info" line of the search, verbatim (may be empty)
  std::string source = "engine";  // engine | opening | forced
  std::string note;               // set by the referee: "round 2" when the move began a new round
};

// One line of a game's transcript: what the referee wrote to an engine or read from it.
//
// Stored format (table engine_transcripts, since schema v2): one row (game_id, seat, text) per
// seat and game, written once when the game ends (a running game has none yet). `text` holds one
// line per line exchanged, in the order they happened for that seat:
//
//   <ms>.<us> <dir> <text>\n        e.g. "1234.056 > go player 1 p1time 9000 p2time 9000"
//
// - <ms>.<us>: the time since the game began (when the runner started preparing it), in
//   milliseconds and the microseconds within (three digits; rows written before the digits were
//   added have "<ms>" alone). Lines from before the game (the handshake, what the engine wrote
//   between two games) are at 0.
// - <dir>: '>' written by the referee to the engine, '<' read from the engine's stdout, '!' read
//   from its stderr. A line cut by the caps below is replaced by one '!' line that begins with
//   "referee: " and says how many lines and bytes were dropped there.
// - <text>: the line without its end of line, '\' written "\\" and a line feed "\n"; control
//   bytes from an engine arrive escaped as \xNN already, and stderr lines over 4 KiB are cut in
//   pieces.
// - Since schema v9 a `position` line of the referee's may be stored as what it adds to an earlier
//   one of the row: "<ms>.<us> + <back> <k> <rest>" is the line `back` lines above it (a '>' line)
//   cut to its first k bytes, then <rest> (escaped as <text>); it reads back as a '>' line
//   (storage/transcript_text.h). A 90-ply game's row is linear in its length, not quadratic.
// - Caps, per engine and game (match/transcript.h): every line the referee wrote; of the engine's
//   stdout the first and the last 1 MiB, of its stderr the first and the last 64 KiB, each line
//   counting its length + 64 bytes.
struct LogLine {
  int seat = 0;          // 1..N
  char direction = '>';  // '>' referee to engine, '<' engine stdout, '!' engine stderr
  std::string text;
  long at_ms = 0;  // milliseconds since the game started
  int at_us = 0;   // and the microseconds within that millisecond (0-999)
};

struct GameFilter {
  std::optional<std::int64_t> tournament_id;
  std::string game_prefix;  // matches the canonical string's name part ("awale" not "awale-v1")
  bool finished_only = true;
};

struct OpenOptions {
  // Only reads: SQLITE_OPEN_READONLY, no migration, never creates or changes the database file (a
  // missing file is an error). Works on a read-only file in a read-only directory, WAL or not,
  // and creates nothing there. In a writable directory a WAL database may get SQLite's side files
  // (an empty -wal and the -shm) when they were not there: a read-only connection cannot remove
  // them; the next writer's close does (Store::open_read_only says why not `immutable`).
  bool read_only = false;
  // Before writing into an existing file, PRAGMA quick_check; a damaged file is refused.
  bool check_integrity = true;
  // Test hook: > 0 caps the file at this many pages (PRAGMA max_page_count), a full disk.
  long max_page_count = 0;
};

// One game of an event's schedule, as stored in `slots`.
struct SlotRecord {
  std::int64_t slot = 0;
  std::string game;                  // canonical game string
  std::vector<std::string> seats;    // engine names by seat
  std::vector<std::string> opening;  // played by the referee
  int cycle = 0;
  int round = 0;
  int pair = 0;  // the opening group: the slots of one pair are one opening in every seating
  std::string state = "pending";  // pending | claimed | done | skipped (read back only)
  std::string reason;             // why a slot was skipped (read back only)
  std::optional<std::int64_t> owner;
  int attempts = 0;
};

struct EventRow {
  std::int64_t id = 0;
  std::string name;
  std::string spec;    // the normalized specification (JSON) it was created with
  std::string config;  // v2: the schedule fingerprint
  std::string state;   // queued | running | paused | cancelled | finished
  int priority = 0;
  bool created = false;  // created by this call
};

// How open_event creates a new event (an existing one keeps what it has).
struct NewEventOptions {
  std::string kind = "tournament";  // tournament | ladder | sprt
  std::string state = "running";    // queued | running | paused
  int priority = 0;
};

// An event with its progress, for the daemon's listings.
struct EventInfo {
  std::int64_t id = 0;
  std::string name;
  std::string kind;  // tournament | ladder | sprt
  std::string state;
  int priority = 0;
  std::string spec;
  std::string created_at, started_at, finished_at, updated_at;   // ISO 8601; "" = not yet
  std::int64_t pending = 0, claimed = 0, done = 0, skipped = 0;  // slots by state
  std::int64_t total() const { return pending + claimed + done + skipped; }
};

struct EventQuery {
  std::vector<std::string> states;  // empty = any
  std::string kind;                 // "" = any
  int limit = 100;
  int offset = 0;
};

struct EventList {
  std::vector<EventInfo> events;  // newest first
  std::int64_t total = 0;         // matching the query, all pages
};

// The filter of a page of games (the daemon's API). Every field is optional.
struct GamePageQuery {
  std::optional<std::int64_t> event;
  std::string engine;                    // a player of the game
  std::string game_prefix;               // as GameFilter
  std::string result;                    // "1-0" | "0-1" | "1/2-1/2" (two-player games) | "" = any
  std::string status;                    // running | finished | unfinished | "" = any
  std::optional<std::int64_t> after_id;  // only ids above (keyset paging, oldest first)
  bool newest_first = true;
  int limit = 50;
  int offset = 0;
  bool count_total = true;  // false: `total` is left 0 (a page loop needs no count)
};

struct GamePage {
  std::vector<GameRecord> games;
  std::int64_t total = 0;  // matching the query, all pages
};

// An engine registered for the ladders (API), or known from tournaments (registered_at empty).
struct RegisteredEngine {
  std::string name;
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> options;
  std::vector<std::string> games;         // canonical game strings it plays on the ladders
  std::string settings = "{}";            // JSON object: dir, env, protocol0, limits, timeouts
  std::string registered_at, retired_at;  // ISO 8601; "" = never
  std::string id_name, id_author;
  std::int64_t finished_games = 0;  // read back only: finished games it played (any event)
};

struct OwnerInfo {
  std::string name;  // for people: "tournament awale.toml"
  std::string host;
  long pid = 0;
  std::string kind = "tournament";  // tournament | serve | worker
  long lease_ms = 30000;            // how long it counts as alive after a heartbeat (v7)
};

// An owner as the daemon's workers page shows it (Store::owners).
struct OwnerStatus {
  std::int64_t id = 0;
  OwnerInfo info;
  std::int64_t started_at_ms = 0, heartbeat_at_ms = 0;  // Unix ms
  std::int64_t lease_expires_at_ms = 0;  // v7: last heartbeat + its lease (0 before v7's writes)
  std::optional<std::int64_t> stopped_at_ms;
  std::vector<std::int64_t> running_games;  // its games with status "running", by id
  // stopped (stopped_at set) | alive (its lease runs) | lost (neither: killed, or hung)
  std::string state(std::int64_t now_ms) const {
    if (stopped_at_ms) return "stopped";
    return lease_expires_at_ms > now_ms ? "alive" : "lost";
  }
};

struct Claim {
  std::int64_t tournament_id = 0;
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

struct RoundTrips {
  std::int64_t statements = 0;    // each execution of a statement
  std::int64_t transactions = 0;  // commits, and statements outside a transaction
};

class Store {
 public:
  // Opens or creates the database and migrates it to kSchemaVersion. Errors are one line naming
  // the file: unwritable directory, not a database / corrupt, a schema version newer than this
  // program knows ("referee.db has schema version 7; this referee reads up to 2").
  static Expected<Store> open(const std::string& path, const OpenOptions& options = {});
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  Expected<std::int64_t> upsert_engine(const EngineInfo& engine);
  // Creates the tournament or returns the existing one with that name; `config` is stored for
  // information (JSON text). A name reused with a different config is an error.
  Expected<std::int64_t> open_tournament(const std::string& name, const std::string& config);

  // A new game, status "running"; its players become engines rows if they are not yet. An empty
  // started_at is filled with the time now. Returns the game's id.
  // Groups the writes until commit_batch() into one transaction (each write method alone commits
  // at once). The Recorder uses it to commit a few milliseconds of moves together.
  Status begin_batch();
  Status commit_batch();

  Expected<std::int64_t> begin_game(const GameRecord& game);
  Status add_move(std::int64_t game_id, const MoveRecord& move);  // committed at once
  // Moves of any games, in order: kMovesPerInsert rows per INSERT, the rest one by one. On a
  // failure the moves before the failing one are written and the error is add_move's for it.
  static constexpr std::size_t kMovesPerInsert = 16;
  Status add_moves(const std::vector<std::pair<std::int64_t, const MoveRecord*>>& moves);
  Status add_logs(std::int64_t game_id, const std::vector<LogLine>& lines);
  // Records ranks, scores, termination, reason, finished_at and plies. The game becomes
  // "unfinished" when result.status says so (an interrupted game, replayed on resume), else
  // "finished", which needs one rank per player. An empty finished_at is filled with the time now.
  Status finish_game(std::int64_t game_id, const GameRecord& result);
  // Games left "running" by a killed run become "unfinished" (they are replayed on resume), with
  // termination "interrupted" unless one was recorded. Call it before a run starts, not while
  // another run writes the same tournament. Returns how many games it closed.
  Expected<int> close_running(std::optional<std::int64_t> tournament_id);

  // ---- Events and claims (see the top of this file) ----
  // Creates the event with its slots, or returns the existing one of that name unchanged (the
  // caller compares `spec`). A v2 event (no spec yet) whose `config` fingerprint matches is
  // adopted: its spec is set and its slots materialized, finished ones done.
  Expected<EventRow> open_event(const std::string& name, const std::string& spec,
                                const std::string& config, const std::vector<SlotRecord>& slots,
                                const NewEventOptions& options = {});
  Expected<std::int64_t> register_owner(const OwnerInfo& owner);
  // The owners that are not stopped, and those stopped in the last `stopped_within_ms`, newest
  // first, at most `limit`, each with its running games.
  Expected<std::vector<OwnerStatus>> owners(std::int64_t stopped_within_ms, int limit);
  // The owner stops: its claims are released, stopped_at is set.
  Status stop_owner(std::int64_t owner);
  // Up to `max` slots of the event (or of any running event), pending or with an expired lease,
  // in schedule order, none with an engine of `exclude_engines`; they become claimed by `owner`
  // until now + lease_ms.
  Expected<std::vector<Claim>> claim_slots(std::int64_t owner, std::optional<std::int64_t> event,
                                           int max, long lease_ms,
                                           const std::vector<std::string>& exclude_engines);
  // Extends every claim of `owner` to now + lease_ms and beats its heartbeat; returns how many.
  Expected<int> renew_claims(std::int64_t owner, long lease_ms);
  // Ends a game begun for a claimed slot (see ClaimEnd), in one transaction with the slot.
  // `result` as for finish_game.
  Expected<ClaimEnd> finish_claimed(std::int64_t game_id, const GameRecord& result,
                                    std::int64_t owner);
  // A claimed slot given back without a game (its engine could not start): pending again.
  Status release_slot(std::int64_t event, std::int64_t slot, std::int64_t owner);
  // Slots that will not be played (an engine does not declare the game): skipped with a reason,
  // unless already done. Returns how many changed.
  Expected<int> skip_slots(std::int64_t event, const std::vector<std::int64_t>& slots,
                           const std::string& reason);
  Expected<SlotCounts> slot_counts(std::int64_t event, std::int64_t owner);
  Expected<std::vector<SlotRecord>> slots(std::int64_t event);
  // PRAGMA integrity_check: empty when the file is sound, else its findings (at most `max`).
  // Only SQLite files have such a check (integrity_check_name() is "" otherwise: a server
  // database checks its own pages); elsewhere the list is empty.
  Expected<std::vector<std::string>> integrity_problems(int max = 20);
  std::string integrity_check_name() const;

  // ---- The daemon's additions ----
  Expected<EventList> events(const EventQuery& query);
  Expected<EventInfo> event(std::int64_t id);  // error "no event N" when there is none
  // Sets the event's state when it is one of `from`; returns whether it changed. Marking a
  // tournament finished is left to the slots (finish_event_if_complete).
  Expected<bool> set_event_state(std::int64_t id, const std::string& state,
                                 const std::vector<std::string>& from);
  Status set_event_priority(std::int64_t id, int priority);
  // Appends slots to a standing event (ladder, sprt) after its last one; their `slot` fields are
  // ignored and the numbers given are returned.
  Expected<std::vector<std::int64_t>> append_slots(std::int64_t event,
                                                   const std::vector<SlotRecord>& slots);
  // The event's pending and claimed slots, in order.
  Expected<std::vector<SlotRecord>> open_slots(std::int64_t event);
  Expected<GamePage> game_page(const GamePageQuery& query);
  // Registers (or re-registers, un-retiring) an engine; returns it as stored.
  Expected<RegisteredEngine> register_engine(const RegisteredEngine& engine);
  // Retires a registered engine; false when there is no such registered engine or it already was.
  Expected<bool> retire_engine(const std::string& name);
  // Every engine (registered or not), by name.
  Expected<std::vector<RegisteredEngine>> engines();

  Expected<std::vector<GameRecord>> games(const GameFilter& filter);
  Expected<GameRecord> game(std::int64_t game_id);
  Expected<std::vector<MoveRecord>> moves(std::int64_t game_id);
  Expected<std::vector<LogLine>> logs(std::int64_t game_id);
  // Schedule slots of the tournament that have a finished game.
  Expected<std::vector<std::int64_t>> finished_slots(std::int64_t tournament_id);
  // The path this store was opened with (for messages; a URL without its password).
  const std::string& path() const;
  // Statements and transactions sent to the database so far (benchmarks, tests).
  RoundTrips round_trips() const;
  // Whether the connection to the database server is gone (the server restarted, the network cut
  // it): every call fails with a line for which is_connection_lost() is true, until the owner
  // opens a new Store. Never for a SQLite file.
  bool connection_lost() const;

 private:
  struct Impl;
  friend struct StoreAccess;  // storage's other files (queries, streams, archives): store_access.h
  static Expected<Store> open_read_only(const std::string& path);
  Expected<std::vector<GameRecord>> query_games(const GameFilter& filter,
                                                std::optional<std::int64_t> id);
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Whether a database string names a database on a server (postgresql://, postgres://) rather than
// a file, and the string to show for it (a URL without its password).
bool is_server_database(const std::string& database);
std::string database_name(const std::string& database);

// Whether an error line of a Store says its connection to the server was lost: a failure worth
// reconnecting for, not one of the data or the disk.
bool is_connection_lost(const std::string& error);

// Every move of a game from its start position, in order: the recorded moves when they include
// the opening (some have source "opening"), else the opening followed by the recorded moves (so
// the runner may record the opening as moves or not). This is what
// state_after(game, start_position, ...) replays.
std::vector<std::string> move_sequence(const GameRecord& game,
                                       const std::vector<MoveRecord>& moves);

// Replays a stored game through the rules library: legal moves, consistent ply numbers and
// players, and for a game the rules ended, the recorded ranks. Errors name the game and the ply.
Status verify_game(const GameRecord& game, const std::vector<MoveRecord>& moves);

}  // namespace referee::storage
