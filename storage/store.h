// The game records (design.md §6): games, their players, moves as they are played (durable at
// once), the engines' transcripts, and the readers' filters and pages. A Store is the Database it
// is opened on (database.h: how the store, the work queue (work_queue.h) and the engine registry
// (engine_registry.h) share the one connection), plus the prepared statements of its writes.
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
#include "storage/database.h"
#include "storage/states.h"

namespace referee::storage {

// The content hashes of one seat's engine (engines/engine_hash.h): lower-case hex SHA-256 of the
// executed file and of its script argument ("" when none).
struct EngineHash {
  std::string program;
  std::string script;
  std::string artifact;  // the stored artifact it ran from (artifact_store.h); "" = a host command
  bool operator==(const EngineHash&) const = default;
};

// Stored form (games.engine_hashes, schema v7): a JSON array by seat of objects
// {"program": "...", "script": "...", "artifact": "..."} ("script" and "artifact" left out when
// empty); "[]" when not recorded.
std::string engine_hashes_json(const std::vector<EngineHash>& hashes);
std::vector<EngineHash> engine_hashes_from_json(const std::string& text);  // lenient: [] on junk

// Stored form (games.time_controls, schema v11): a JSON array of strings by seat, each the seat's
// canonical time control (TimeControl::to_string()); "[]" when not recorded (before v11: every
// seat had the game's time_control).
std::string time_controls_json(const std::vector<std::string>& controls);
std::vector<std::string> time_controls_from_json(const std::string& text);  // lenient: [] on junk

struct GameRecord {
  std::int64_t id = 0;
  std::optional<std::int64_t> event_id;
  std::string event;           // the event's name; filled by Store::games(), "" outside one
  std::int64_t slot = -1;      // index in the event's schedule (resume key); -1 outside one
  std::string game;            // canonical game string, "awale:grandslam=nocapture,first=1,..."
  std::string start_position;  // position string the game started from; empty = the start
  // Moves played by the referee before the engines (book/random), from start_position. The
  // runner may also record them as MoveRecords with source "opening": see move_sequence().
  std::vector<std::string> opening;
  std::vector<std::string> players;  // engine names by seat; index 0 = player 1
  std::string time_control;          // seat 1's, canonical, e.g. "10+0.1" (what filters test)
  // Every seat's time control by seat (canonical), as played; empty when not recorded (games
  // stored before schema v11, and imported games whose seats all had time_control).
  std::vector<std::string> time_controls;
  GameStatus status = GameStatus::Running;
  std::vector<int> ranks;      // by seat; empty until finished
  std::vector<double> scores;  // by seat (the game's own score)
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
  std::optional<std::int64_t> event_id;
  std::string game_prefix;  // matches the canonical string's name part ("awale" not "awale-v1")
  bool finished_only = true;
};

// The filter of a page of games (the daemon's API). Every field is optional.
struct GamePageQuery {
  std::optional<std::int64_t> event;
  std::string engine;                    // a player of the game
  std::string game_prefix;               // as GameFilter
  std::string result;                    // "1-0" | "0-1" | "1/2-1/2" (two-player games) | "" = any
  std::optional<GameStatus> status;      // none = any
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

class Store : public Database {
 public:
  // Opens the database (Database::open) and prepares the statements of the writes.
  static Expected<Store> open(const std::string& path, const OpenOptions& options = {});
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // A new game, status "running"; its players become engines rows if they are not yet. An empty
  // started_at is filled with the time now. Returns the game's id.
  Expected<std::int64_t> begin_game(const GameRecord& game);
  Status add_move(std::int64_t game_id, const MoveRecord& move);  // committed at once
  // Moves of any games, in order: kMovesPerInsert rows per INSERT, the rest one by one. On a
  // failure the moves before the failing one are written and the error is add_move's for it.
  static constexpr std::size_t kMovesPerInsert = 16;
  Status add_moves(const std::vector<std::pair<std::int64_t, const MoveRecord*>>& moves);
  Status add_logs(std::int64_t game_id, const std::vector<LogLine>& lines);
  // Records ranks, scores, termination, reason, finished_at and plies. The game becomes
  // "unfinished" when result.status says so (an interrupted game, replayed on resume), else
  // "finished", which needs one rank per player (Invalid otherwise; NotFound for no such game).
  // An empty finished_at is filled with the time now.
  Status finish_game(std::int64_t game_id, const GameRecord& result);
  // Games left "running" by a killed run become "unfinished" (they are replayed on resume), with
  // termination "interrupted" unless one was recorded. Call it before a run starts, not while
  // another run writes the same tournament. Returns how many games it closed.
  Expected<int> close_running(std::optional<std::int64_t> event_id);

  Expected<GamePage> game_page(const GamePageQuery& query);
  Expected<std::vector<GameRecord>> games(const GameFilter& filter);
  Expected<GameRecord> game(std::int64_t game_id);  // NotFound "no game N"
  Expected<std::vector<MoveRecord>> moves(std::int64_t game_id);
  Expected<std::vector<LogLine>> logs(std::int64_t game_id);
  // Schedule slots of the event that have a finished game.
  Expected<std::vector<std::int64_t>> finished_slots(std::int64_t event_id);

 private:
  struct Statements;
  explicit Store(Database database);
  Expected<std::vector<GameRecord>> query_games(const GameFilter& filter,
                                                std::optional<std::int64_t> id);
  std::unique_ptr<Statements> statements_;  // absent when read-only
};

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
