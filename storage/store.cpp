// Store: one connection of the SQL layer (storage/sql: SQLite or PostgreSQL) and its prepared
// statements; every database error is caught here and becomes one line naming the database.
//
// Decisions:
// - Durability: each add_move is its own autocommit INSERT. In WAL mode with synchronous=NORMAL a
//   commit survives the process being killed (the WAL is in the OS cache and replayed on the next
//   open); only a power loss may lose the last moves, never corrupt the file.
// - Concurrency: one Store per thread or process; a 10 s busy timeout, and every multi-statement
//   write runs in a BEGIN IMMEDIATE transaction (a deferred one could fail at once with
//   SQLITE_BUSY when it upgrades from reading to writing).
// - The frequent statements (add_move, add_logs, begin_game's inserts) are prepared once per
//   connection; the rare ones are prepared when used.
#include "storage/store.h"

#include <sqlite3.h>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>

#include <unistd.h>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <thread>

#include "games/terminations.h"
#include "storage/schema.h"
#include "storage/sql/dialect.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sqlite_connection.h"
#include "storage/store_access.h"
#include "storage/transcript_text.h"

namespace referee::storage {

namespace {

constexpr int kBusyTimeoutMs = 10000;

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// One line for an SQLite failure while opening `path`.
std::string open_error(const std::string& path, const SQLite::Exception& e) {
  switch (e.getErrorCode()) {
    case SQLITE_NOTADB:
      return path + " is not a SQLite database (or is encrypted)";
    case SQLITE_CORRUPT:
      return path + " is corrupt (" + e.what() + "); nothing was written to it";
    case SQLITE_CANTOPEN:
      return "cannot open " + path + " (" + e.what() + ")";
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return path + " is not writable (" + e.what() + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return path + " is locked by another process (" + e.what() + ")";
    default:
      return path + ": " + e.what();
  }
}

// Inside a write transaction: waits for the other writers that read before they insert (see
// sql::writers_lock).
void lock_writers(sql::Connection& db) {
  const std::string lock = sql::writers_lock(db.backend());
  if (!lock.empty()) sql::Query(db, lock).step();
}

std::string to_json(const std::vector<std::string>& moves) {
  return nlohmann::json(moves).dump();
}

std::vector<std::string> from_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const auto& m : j)
    if (m.is_string()) out.push_back(m.get<std::string>());
  return out;
}

}  // namespace

std::string engine_hashes_json(const std::vector<EngineHash>& hashes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& h : hashes) {
    nlohmann::json seat = {{"program", h.program}};
    if (!h.script.empty()) seat["script"] = h.script;
    out.push_back(std::move(seat));
  }
  return out.dump();
}

std::vector<EngineHash> engine_hashes_from_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<EngineHash> out;
  if (!j.is_array()) return out;
  for (const auto& seat : j) {
    EngineHash h;
    if (seat.is_object()) {
      if (auto p = seat.find("program"); p != seat.end() && p->is_string()) h.program = *p;
      if (auto sc = seat.find("script"); sc != seat.end() && sc->is_string()) h.script = *sc;
    }
    out.push_back(std::move(h));
  }
  return out;
}

std::string time_controls_json(const std::vector<std::string>& controls) {
  return to_json(controls);
}

std::vector<std::string> time_controls_from_json(const std::string& text) {
  return from_json(text);
}

namespace {

// The WHERE clause shared by the two queries of games(); ?1 tournament, ?2 name, ?3 finished only,
// ?4 one game id.
const char* const kGameWhere =
    " WHERE (CAST(?1 AS BIGINT) IS NULL OR g.tournament_id = ?1)"
    " AND (?2 = '' OR g.game = ?2 OR substr(g.game, 1, length(?2) + 1) = ?2 || ':')"
    " AND (?3 = 0 OR g.status = 'finished')"
    " AND (CAST(?4 AS BIGINT) IS NULL OR g.id = ?4)";

void finish_event_if_complete(sql::Connection& cache, std::int64_t event);

}  // namespace

struct Store::Impl {
  std::string path;  // for messages: a file, or the URL without its password
  bool read_only = false;
  std::unique_ptr<sql::Connection> connection;
  std::optional<sql::Transaction> batch;      // begin_batch .. commit_batch
  std::vector<std::int64_t> events_to_check;  // event_may_be_complete, after the commit
  // The frequent statements, prepared once (destroyed before the connection: declared after it).
  std::unique_ptr<sql::Statement> insert_move, insert_moves, insert_log, insert_game, ensure_engine,
      insert_player;

  sql::Connection& db() { return *connection; }

  // A slot of `event` ended in the open transaction. SQLite serializes the writers: the check
  // runs in it. PostgreSQL (read committed) runs writers side by side: two transactions ending the
  // last two slots each saw the other's slot still claimed, and the event stayed running for
  // ever. There the check runs after the commit (check_events), so the later of the two sees both.
  void event_may_be_complete(std::int64_t event) {
    if (db().backend() == sql::Backend::SQLite)
      finish_event_if_complete(db(), event);
    else
      events_to_check.push_back(event);
  }
  // After a commit outside a batch, or of the batch. A failure here loses nothing: the slots are
  // committed, and the next claim that finds nothing to play in the event finishes it.
  void check_events() {
    if (batch) return;
    auto events = std::move(events_to_check);
    events_to_check.clear();
    for (std::int64_t event : events) try {
        sql::CachedScope resets(db());
        finish_event_if_complete(db(), event);
      } catch (const std::exception&) {
      }
  }

  void prepare() {
    const std::string insert =
        "INSERT INTO moves (game_id, ply, player, move, time_ms, clock_ms, info, source, note) "
        "VALUES ";
    const std::string row = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";
    insert_move = db().prepare(insert + row);
    std::string rows = insert + row;
    for (std::size_t r = 1; r < kMovesPerInsert; ++r) rows += ", " + row;
    insert_moves = db().prepare(rows);
    insert_log =
        db().prepare("INSERT INTO engine_transcripts (game_id, seat, text) VALUES (?, ?, ?)");
    insert_game = db().prepare(
        "INSERT INTO games (tournament_id, slot, game, start_position, opening, "
        "time_control, status, started_at, owner, engine_hashes, time_controls)"
        " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)"
        " RETURNING id");
    ensure_engine = db().prepare("INSERT INTO engines (name) VALUES (?) ON CONFLICT DO NOTHING");
    insert_player =
        db().prepare("INSERT INTO game_players (game_id, seat, engine) VALUES (?, ?, ?)");
  }

  Error fail(const std::string& doing, const std::exception& e) const {
    return Error{path + ": cannot " + doing + ": " + e.what()};
  }
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::string& Store::path() const {
  return impl_->path;
}

std::string Store::integrity_check_name() const {
  return impl_->connection->backend() == sql::Backend::SQLite ? "PRAGMA integrity_check" : "";
}

bool Store::connection_lost() const {
  return impl_->connection->lost();
}

bool is_connection_lost(const std::string& error) {
  return error.find(sql::kConnectionLost) != std::string::npos;
}

RoundTrips Store::round_trips() const {
  const auto& c = impl_->connection->counters;
  return RoundTrips{c.statements, c.transactions};
}

Expected<Store> Store::open(const std::string& path, const OpenOptions& options) {
  namespace fs = std::filesystem;
  if (path.empty()) return Error{"no database file given"};
  if (sql::is_postgres_url(path)) {
    auto connection = sql::open_postgres(path);
    if (!connection) return connection.failure();
    auto impl = std::make_unique<Impl>();
    impl->path = sql::redact_url(path);
    impl->connection = std::move(*connection);
    impl->read_only = options.read_only;
    try {
      Status ready = options.read_only ? check_readable(impl->db(), impl->path)
                                       : prepare_database(impl->db(), impl->path, false);
      if (!ready) return ready.failure();
      if (!options.read_only) impl->prepare();
      return Store(std::move(impl));
    } catch (const std::exception& e) {
      return Error{impl->path + ": " + e.what()};
    }
  }
  std::error_code ec;
  fs::path file(path);
  if (fs::is_directory(file, ec)) return Error{path + " is a directory, not a database file"};
  if (options.read_only) return open_read_only(path);
  fs::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec))
    return Error{"cannot create " + path + ": directory " + dir.string() + " does not exist"};
  if (!fs::is_directory(dir, ec))
    return Error{"cannot create " + path + ": " + dir.string() + " is not a directory"};
  const bool existed = fs::exists(file, ec);
  if (!existed && ::access(dir.c_str(), W_OK) != 0)
    return Error{"cannot create " + path + ": directory " + dir.string() + " is not writable"};
  // Several processes opening one new file at once: switching it to WAL and migrating it take
  // locks that SQLite's busy handler does not always wait for (SQLITE_BUSY at once), so the whole
  // preparation is tried again until the busy timeout has passed.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    try {
      auto impl = std::make_unique<Impl>();
      impl->path = path;
      impl->connection =
          sql::open_sqlite(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kBusyTimeoutMs);
      Status ready = prepare_database(impl->db(), path, options.check_integrity && existed);
      if (!ready) return ready.failure();
      if (options.max_page_count > 0)
        impl->db().exec("PRAGMA max_page_count = " + std::to_string(options.max_page_count));
      impl->prepare();
      return Store(std::move(impl));
    } catch (const SQLite::Exception& e) {
      const int code = e.getErrorCode() & 0xff;
      const bool busy = code == SQLITE_BUSY || code == SQLITE_LOCKED;
      if (!busy || std::chrono::steady_clock::now() >= give_up) return Error{open_error(path, e)};
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } catch (const std::exception& e) {
      return Error{path + ": " + e.what()};
    }
  }
}

// Read-only: SQLITE_OPEN_READONLY, so the database file is never created or changed. Where the
// file or its directory is not writable and there is no write-ahead log to read, SQLite cannot
// create the -shm file a WAL reader needs: the file is then opened `immutable` (no locks, no
// -shm), which is safe because nobody can be writing it (a writer would need that directory). A
// -wal with frames in a read-only directory is read through SQLite's read-only WAL support, which
// needs its -shm file there too. In a writable directory the open is a plain read-only one, safe
// beside a running tournament: SQLite then creates the -wal (empty) and -shm side files of a WAL
// database when they are missing, and leaves them (a read-only connection cannot checkpoint and
// delete them; the next read-write connection's close does). `immutable` would avoid them but is
// wrong there: a writer may start during the read, and an immutable reader takes no locks.
Expected<Store> Store::open_read_only(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error{"no database " + path};
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const bool writable = ::access(dir.c_str(), W_OK) == 0 && ::access(path.c_str(), W_OK) == 0;
  const auto wal_size = fs::file_size(path + "-wal", ec);
  const bool has_wal = !ec && wal_size > 0;
  const bool immutable = !writable && !has_wal;
  if (!writable && has_wal && !fs::exists(path + "-shm", ec))
    return Error{path + ": its write-ahead log " + path +
                 "-wal cannot be read without its -shm file in a read-only directory (copy the "
                 "files to a writable directory)"};
  try {
    std::string open_name = path;
    // No SQLite mutex: a Store is never shared between threads, and a reader steps millions of
    // rows (the mutex was 5 % of `referee ratings` on a million games).
    int flags = SQLite::OPEN_READONLY | SQLite::OPEN_NOMUTEX;
    if (immutable) {
      open_name = "file:";
      for (char c : fs::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#') {
          char buf[4];
          std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
          open_name += buf;
        } else {
          open_name += c;
        }
      }
      open_name += "?immutable=1";
      flags |= SQLite::OPEN_URI;
    }
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->connection = sql::open_sqlite(open_name, flags, kBusyTimeoutMs);
    Status ready = check_readable(impl->db(), path);
    if (!ready) return ready.failure();
    impl->read_only = true;
    return Store(std::move(impl));
  } catch (const SQLite::Exception& e) {
    return Error{open_error(path, e)};
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what()};
  }
}

Expected<std::int64_t> Store::upsert_engine(const EngineInfo& engine) {
  if (engine.name.empty()) return Error{impl_->path + ": an engine needs a name"};
  try {
    sql::Transaction tx(impl_->db());
    // A non-empty field replaces the stored one; an empty one keeps it (an engine registered
    // before its handshake keeps its "id name" when registered again without it, and back).
    sql::Query up(impl_->db(),
                  "INSERT INTO engines (name, command, id_name, id_author) VALUES (?, ?, ?, ?)"
                  " ON CONFLICT(name) DO UPDATE SET"
                  " command = CASE WHEN excluded.command <> '' THEN excluded.command"
                  " ELSE engines.command END,"
                  " id_name = CASE WHEN excluded.id_name <> '' THEN excluded.id_name"
                  " ELSE engines.id_name END,"
                  " id_author = CASE WHEN excluded.id_author <> '' THEN excluded.id_author"
                  " ELSE engines.id_author END");
    up.bind(1, engine.name);
    up.bind(2, engine.command);
    up.bind(3, engine.id_name);
    up.bind(4, engine.id_author);
    up.exec();
    sql::Query id(impl_->db(), "SELECT id FROM engines WHERE name = ?");
    id.bind(1, engine.name);
    id.step();
    std::int64_t result = id.int64(0);
    tx.commit();
    return result;
  } catch (const std::exception& e) {
    return impl_->fail("record engine \"" + engine.name + "\"", e);
  }
}

Expected<std::int64_t> Store::open_tournament(const std::string& name, const std::string& config) {
  if (name.empty()) return Error{impl_->path + ": a tournament needs a name"};
  try {
    sql::Transaction tx(impl_->db());
    lock_writers(impl_->db());
    sql::Query find(impl_->db(), "SELECT id, config FROM tournaments WHERE name = ?");
    find.bind(1, name);
    if (find.step()) {
      std::int64_t id = find.int64(0);
      if (find.text(1) != config)
        return Error{impl_->path + ": tournament \"" + name +
                     "\" already exists with a different configuration"};
      return id;
    }
    sql::Query add(impl_->db(),
                   "INSERT INTO tournaments (name, config) VALUES (?, ?) RETURNING id");
    add.bind(1, name);
    add.bind(2, config);
    std::int64_t id = sql::returning_id(add);
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return impl_->fail("open tournament \"" + name + "\"", e);
  }
}

Expected<std::int64_t> Store::begin_game(const GameRecord& game) {
  if (game.players.empty()) return Error{impl_->path + ": a game needs players"};
  if (game.game.empty()) return Error{impl_->path + ": a game needs its game string"};
  try {
    Impl& s = *impl_;
    sql::Transaction tx(s.db());
    auto& g = *s.insert_game;
    g.reset();
    g.bind(1, game.tournament_id);
    g.bind(2, static_cast<std::int64_t>(game.slot));
    g.bind(3, game.game);
    g.bind(4, game.start_position);
    g.bind(5, to_json(game.opening));
    g.bind(6, game.time_control);
    g.bind(7, game.started_at.empty() ? now_utc() : game.started_at);
    g.bind(8, game.owner);
    g.bind(9, engine_hashes_json(game.engine_hashes));
    g.bind(10, time_controls_json(game.time_controls));
    std::int64_t id = sql::returning_id(g);
    // Engines first, in name order: concurrent games of the same engines lock their rows in one
    // order (PostgreSQL would otherwise find a deadlock between two such inserts).
    std::vector<std::string> names = game.players;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& name : names) {
      auto& e = *s.ensure_engine;
      e.reset();
      e.bind(1, name);
      e.exec();
    }
    for (std::size_t seat = 0; seat < game.players.size(); ++seat) {
      auto& p = *s.insert_player;
      p.reset();
      p.bind(1, static_cast<std::int64_t>(id));
      p.bind(2, static_cast<int>(seat + 1));
      p.bind(3, game.players[seat]);
      p.exec();
    }
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return impl_->fail("begin a game", e);
  }
}

Status Store::begin_batch() {
  try {
    if (impl_->batch) return Error{impl_->path + ": a batch of writes is already open"};
    impl_->batch.emplace(impl_->db());
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("begin a batch of writes", e);
  }
}

Status Store::commit_batch() {
  try {
    if (!impl_->batch) return Error{impl_->path + ": no batch of writes is open"};
    impl_->batch->commit();
    impl_->batch.reset();
    impl_->check_events();
    return Ok{};
  } catch (const std::exception& e) {
    impl_->batch.reset();  // rolled back
    impl_->events_to_check.clear();
    return impl_->fail("commit a batch of writes", e);
  }
}

namespace {

// Binds one moves row at parameter `first` (9 parameters).
void bind_move(sql::Statement& q, int first, std::int64_t game_id, const MoveRecord& move) {
  q.bind(first, game_id);
  q.bind(first + 1, move.ply);
  q.bind(first + 2, move.player);
  q.bind(first + 3, move.move);
  q.bind(first + 4, static_cast<std::int64_t>(move.time_ms));
  q.bind(first + 5, static_cast<std::int64_t>(move.clock_ms));
  q.bind(first + 6, move.info);
  q.bind(first + 7, move.source);
  q.bind(first + 8, move.note);
}

}  // namespace

Status Store::add_moves(const std::vector<std::pair<std::int64_t, const MoveRecord*>>& moves) {
  std::size_t i = 0;
  while (moves.size() - i >= kMovesPerInsert) {
    try {
      // A failed statement aborts PostgreSQL's whole transaction: there it gets a savepoint, so
      // that the moves can be tried one by one after it. SQLite undoes the statement alone.
      std::optional<sql::Transaction> savepoint;
      if (impl_->db().backend() == sql::Backend::PostgreSQL) savepoint.emplace(impl_->db());
      auto& q = *impl_->insert_moves;
      q.reset();
      for (std::size_t r = 0; r < kMovesPerInsert; ++r)
        bind_move(q, static_cast<int>(r * 9 + 1), moves[i + r].first, *moves[i + r].second);
      q.exec();
      if (savepoint) savepoint->commit();
      i += kMovesPerInsert;
    } catch (const std::exception&) {
      impl_->insert_moves->reset();
      impl_->insert_moves->clear_bindings();
      break;  // the statement wrote nothing: one by one from here, to name the culprit
    }
  }
  for (; i < moves.size(); ++i)
    if (auto st = add_move(moves[i].first, *moves[i].second); !st) return st;
  return Ok{};
}

Status Store::add_move(std::int64_t game_id, const MoveRecord& move) {
  try {
    auto& q = *impl_->insert_move;
    q.reset();
    bind_move(q, 1, game_id, move);
    q.exec();
    return Ok{};
  } catch (const std::exception& e) {
    impl_->insert_move->reset();
    impl_->insert_move->clear_bindings();
    return impl_->fail(
        "record move " + std::to_string(move.ply) + " of game " + std::to_string(game_id), e);
  }
}

Status Store::add_logs(std::int64_t game_id, const std::vector<LogLine>& lines) {
  if (lines.empty()) return Ok{};
  // One transcript row per seat, lines in the order given (storage/transcript_text.h).
  std::map<int, std::vector<const LogLine*>> by_seat;
  for (const LogLine& line : lines) by_seat[line.seat].push_back(&line);
  std::vector<std::pair<int, std::string>> transcripts;
  transcripts.reserve(by_seat.size());
  for (const auto& [seat, seat_lines] : by_seat) {
    transcripts.emplace_back(seat, std::string());
    encode_transcript(seat_lines, transcripts.back().second);
  }
  try {
    sql::Transaction tx(impl_->db());
    auto& q = *impl_->insert_log;
    for (const auto& [seat, text] : transcripts) {
      q.reset();
      q.bind(1, static_cast<std::int64_t>(game_id));
      q.bind(2, seat);
      q.bind(3, text);
      q.exec();
    }
    q.clear_bindings();
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    impl_->insert_log->reset();
    impl_->insert_log->clear_bindings();
    return impl_->fail("record engine logs of game " + std::to_string(game_id), e);
  }
}

namespace {

// The body of finish_game, inside the caller's transaction. Throws on SQLite errors; returns an
// error for records that do not fit the game.
Status write_finish(sql::Connection& cache, const std::string& path, std::int64_t game_id,
                    const GameRecord& result, bool finished) {
  const std::string what = "finish game " + std::to_string(game_id);
  auto& count = cache.cached("SELECT count(*) FROM game_players WHERE game_id = ?");
  count.bind(1, static_cast<std::int64_t>(game_id));
  count.step();
  const std::size_t players = static_cast<std::size_t>(count.int32(0));
  if (players == 0) return Error{path + ": cannot " + what + ": no such game"};
  if (finished && result.ranks.size() != players)
    return Error{path + ": cannot " + what + ": " + std::to_string(result.ranks.size()) +
                 " ranks for " + std::to_string(players) + " players"};
  if (!result.ranks.empty() && result.ranks.size() != players)
    return Error{path + ": cannot " + what + ": ranks do not match the players"};
  if (!result.scores.empty() && result.scores.size() != players)
    return Error{path + ": cannot " + what + ": " + std::to_string(result.scores.size()) +
                 " scores for " + std::to_string(players) + " players"};
  auto& g = cache.cached(
      "UPDATE games SET status = ?, termination = ?, reason = ?, finished_at = ?, "
      "plies = ? WHERE id = ?");
  g.bind(1, finished ? "finished" : "unfinished");
  g.bind(2, result.termination);
  g.bind(3, result.reason);
  g.bind(4, result.finished_at.empty() ? now_utc() : result.finished_at);
  g.bind(5, static_cast<std::int64_t>(result.plies));
  g.bind(6, static_cast<std::int64_t>(game_id));
  g.exec();
  auto& p =
      cache.cached("UPDATE game_players SET rank = ?, score = ? WHERE game_id = ? AND seat = ?");
  for (std::size_t seat = 0; seat < players; ++seat) {
    p.reset();
    if (finished && seat < result.ranks.size())
      p.bind(1, result.ranks[seat]);
    else
      p.bind(1);
    if (finished && seat < result.scores.size())
      p.bind(2, result.scores[seat]);
    else
      p.bind(2);
    p.bind(3, static_cast<std::int64_t>(game_id));
    p.bind(4, static_cast<int>(seat + 1));
    p.exec();
  }
  return Ok{};
}

}  // namespace

Status Store::finish_game(std::int64_t game_id, const GameRecord& result) {
  try {
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(impl_->db());
    Status st =
        write_finish(impl_->db(), impl_->path, game_id, result, result.status != "unfinished");
    if (!st) return st;
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("finish game " + std::to_string(game_id), e);
  }
}

Expected<int> Store::close_running(std::optional<std::int64_t> tournament_id) {
  try {
    sql::Query q(
        impl_->db(),
        "UPDATE games SET status = 'unfinished',"
        " termination = CASE WHEN termination = '' THEN 'interrupted'"
        " ELSE termination END,"
        " reason = CASE WHEN reason = '' THEN 'the run stopped before the game ended'"
        " ELSE reason END"
        " WHERE status = 'running' AND (CAST(?1 AS BIGINT) IS NULL OR tournament_id = ?1)");
    q.bind(1, tournament_id);
    return q.exec();
  } catch (const std::exception& e) {
    return impl_->fail("close running games", e);
  }
}

Expected<std::vector<GameRecord>> Store::games(const GameFilter& filter) {
  return query_games(filter, std::nullopt);
}

namespace {

// The games selected by `where` (a WHERE clause on games g), with their players, ordered by id.
// `bind` binds the clause's parameters on both queries. Runs inside the caller's read snapshot.
template <class Bind>
std::vector<GameRecord> load_games(sql::Connection& db, const std::string& hashes,
                                   const std::string& controls, const std::string& where,
                                   Bind bind) {
  sql::Query g(
      db,
      "SELECT g.id, g.tournament_id, coalesce(t.name, ''), g.slot, g.game, g.start_position,"
      " g.opening, g.time_control, g.status, g.termination, g.reason, g.started_at,"
      " g.finished_at, g.plies, g.owner, " +
          hashes + ", " + controls +
          " FROM games g LEFT JOIN tournaments t ON t.id = g.tournament_id" + where +
          " ORDER BY g.id");
  bind(g);
  std::vector<GameRecord> out;
  while (g.step()) {
    GameRecord r;
    r.id = g.int64(0);
    if (!g.is_null(1)) r.tournament_id = g.int64(1);
    r.tournament = g.text(2);
    r.slot = g.int64(3);
    r.game = g.text(4);
    r.start_position = g.text(5);
    r.opening = from_json(g.text(6));
    r.time_control = g.text(7);
    r.status = g.text(8);
    r.termination = games::legacy_termination(g.text(9));
    r.reason = g.text(10);
    r.started_at = g.text(11);
    r.finished_at = g.text(12);
    r.plies = g.int64(13);
    if (!g.is_null(14)) r.owner = g.int64(14);
    r.engine_hashes = engine_hashes_from_json(g.text(15));
    r.time_controls = time_controls_from_json(g.text(16));
    out.push_back(std::move(r));
  }
  sql::Query p(db,
               "SELECT p.game_id, p.engine, p.rank, p.score FROM game_players p "
               "JOIN games g ON g.id = p.game_id" +
                   where + " ORDER BY p.game_id, p.seat");
  bind(p);
  std::size_t at = 0;
  std::vector<bool> rank_missing(out.size(), false), score_missing(out.size(), false);
  while (p.step()) {
    std::int64_t game_id = p.int64(0);
    while (at < out.size() && out[at].id < game_id) ++at;
    if (at == out.size() || out[at].id != game_id) continue;
    GameRecord& r = out[at];
    r.players.push_back(p.text(1));
    if (p.is_null(2))
      rank_missing[at] = true;
    else
      r.ranks.push_back(p.int32(2));
    if (p.is_null(3))
      score_missing[at] = true;
    else
      r.scores.push_back(p.real(3));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (rank_missing[i]) out[i].ranks.clear();
    if (score_missing[i]) out[i].scores.clear();
  }
  return out;
}

}  // namespace

Expected<std::vector<GameRecord>> Store::query_games(const GameFilter& filter,
                                                     std::optional<std::int64_t> id) {
  try {
    sql::Transaction tx(impl_->db(),
                        sql::Transaction::Kind::Read);  // one snapshot for both queries
    std::vector<GameRecord> out;
    const std::string hashes = StoreAccess::engine_hashes_column(*this);
    const std::string controls = StoreAccess::time_controls_column(*this);
    if (id) {
      out = load_games(impl_->db(), hashes, controls, " WHERE g.id = ?1",
                       [&](sql::Statement& q) { q.bind(1, static_cast<std::int64_t>(*id)); });
    } else {
      out = load_games(impl_->db(), hashes, controls, kGameWhere, [&](sql::Statement& q) {
        q.bind(1, filter.tournament_id);
        q.bind(2, filter.game_prefix);
        q.bind(3, filter.finished_only ? 1 : 0);
        q.bind(4);
      });
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read games", e);
  }
}

Expected<GameRecord> Store::game(std::int64_t game_id) {
  auto one = query_games(GameFilter{std::nullopt, "", false}, game_id);
  if (!one) return one.failure();
  if (!one->empty()) return std::move(one->front());
  return Error{impl_->path + ": no game " + std::to_string(game_id)};
}

Expected<std::vector<MoveRecord>> Store::moves(std::int64_t game_id) {
  try {
    sql::Query q(impl_->db(),
                 "SELECT ply, player, move, time_ms, clock_ms, info, source, note FROM moves "
                 "WHERE game_id = ? ORDER BY ply");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<MoveRecord> out;
    while (q.step()) {
      MoveRecord m;
      m.ply = q.int32(0);
      m.player = q.int32(1);
      m.move = q.text(2);
      m.time_ms = static_cast<long>(q.int64(3));
      m.clock_ms = static_cast<long>(q.int64(4));
      m.info = q.text(5);
      m.source = q.text(6);
      m.note = q.text(7);
      out.push_back(std::move(m));
    }
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the moves of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<LogLine>> Store::logs(std::int64_t game_id) {
  try {
    sql::Query q(impl_->db(),
                 "SELECT seat, text FROM engine_transcripts WHERE game_id = ? ORDER BY id");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<LogLine> out;
    while (q.step()) {
      const int seat = q.int32(0);
      if (auto st = decode_transcript(q.text(1), seat, out); !st)
        return Error{"game " + std::to_string(game_id) + ": " + st.error()};
    }
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the logs of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<std::int64_t>> Store::finished_slots(std::int64_t tournament_id) {
  try {
    sql::Query q(impl_->db(),
                 "SELECT DISTINCT slot FROM games WHERE tournament_id = ? AND status = "
                 "'finished' AND slot >= 0 ORDER BY slot");
    q.bind(1, static_cast<std::int64_t>(tournament_id));
    std::vector<std::int64_t> out;
    while (q.step()) out.push_back(q.int64(0));
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the finished slots of tournament " + std::to_string(tournament_id), e);
  }
}

// ---- Events and claims ----

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

SlotRecord read_slot(sql::Statement& q, int first) {
  SlotRecord r;
  r.slot = q.int64(first);
  r.game = q.text(first + 1);
  r.seats = from_json(q.text(first + 2));
  r.opening = from_json(q.text(first + 3));
  r.cycle = q.int32(first + 4);
  r.round = q.int32(first + 5);
  r.pair = q.int32(first + 6);
  r.state = q.text(first + 7);
  if (!q.is_null(first + 8)) r.owner = q.int64(first + 8);
  r.attempts = q.int32(first + 9);
  r.reason = q.text(first + 10);
  return r;
}

const char* const kSlotColumns =
    "s.slot, s.game, s.seats, s.opening, s.cycle, s.round, s.pair, s.state, s.owner, s.attempts, "
    "s.reason";

// Marks a tournament or an sprt event finished once no slot is left to play (an sprt event's
// whole schedule is made at once, its test skipping what it need not play); ladders, which get
// new slots while they run, finish otherwise. Store::Impl::event_may_be_complete says when.
void finish_event_if_complete(sql::Connection& cache, std::int64_t event) {
  auto& q = cache.cached(
      "UPDATE tournaments SET state = 'finished', finished_at = ?1, updated_at = ?1"
      " WHERE id = ?2 AND state NOT IN ('finished', 'cancelled') AND kind IN ('tournament', 'sprt')"
      " AND NOT "
      "EXISTS"
      " (SELECT 1 FROM slots"
      " WHERE tournament_id = ?2 AND state IN ('pending', 'claimed'))");
  q.bind(1, now_utc());
  q.bind(2, static_cast<std::int64_t>(event));
  q.exec();
}

void insert_slots(sql::Connection& db, std::int64_t event, const std::vector<SlotRecord>& slots) {
  sql::Query q(db,
               "INSERT INTO slots (tournament_id, slot, game, seats, opening, cycle, round, pair)"
               " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  for (const SlotRecord& s : slots) {
    q.reset();
    q.bind(1, static_cast<std::int64_t>(event));
    q.bind(2, static_cast<std::int64_t>(s.slot));
    q.bind(3, s.game);
    q.bind(4, to_json(s.seats));
    q.bind(5, to_json(s.opening));
    q.bind(6, s.cycle);
    q.bind(7, s.round);
    q.bind(8, s.pair);
    q.exec();
  }
}

}  // namespace

Expected<EventRow> Store::open_event(const std::string& name, const std::string& spec,
                                     const std::string& config,
                                     const std::vector<SlotRecord>& slots,
                                     const NewEventOptions& options) {
  if (name.empty()) return Error{impl_->path + ": an event needs a name"};
  try {
    auto& db = impl_->db();
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(db);
    lock_writers(db);
    EventRow row;
    row.name = name;
    sql::Query find(db, "SELECT id, spec, config, state, priority FROM tournaments WHERE name = ?");
    find.bind(1, name);
    if (find.step()) {
      row.id = find.int64(0);
      row.spec = find.text(1);
      row.config = find.text(2);
      row.state = find.text(3);
      row.priority = find.int32(4);
      if (!row.spec.empty() || row.config != config) return row;  // the caller compares
      // A v2 event: adopt it. Its slots with a finished game (the first one) are done.
      sql::Query set(db, "UPDATE tournaments SET spec = ?, updated_at = ? WHERE id = ?");
      set.bind(1, spec);
      set.bind(2, now_utc());
      set.bind(3, static_cast<std::int64_t>(row.id));
      set.exec();
      insert_slots(db, row.id, slots);
      sql::Query done(
          db,
          "UPDATE slots SET state = 'done', game_id = (SELECT min(g.id) FROM games g WHERE"
          " g.tournament_id = slots.tournament_id AND g.slot = slots.slot AND g.status ="
          " 'finished') WHERE tournament_id = ?1 AND EXISTS (SELECT 1 FROM games g WHERE"
          " g.tournament_id = ?1 AND g.slot = slots.slot AND g.status = 'finished')");
      done.bind(1, static_cast<std::int64_t>(row.id));
      done.exec();
      finish_event_if_complete(impl_->db(), row.id);
      tx.commit();
      row.spec = spec;
      return row;
    }
    sql::Query add(db,
                   "INSERT INTO tournaments (name, config, spec, state, updated_at, kind,"
                   " priority) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id");
    add.bind(1, name);
    add.bind(2, config);
    add.bind(3, spec);
    add.bind(4, options.state);
    add.bind(5, now_utc());
    add.bind(6, options.kind);
    add.bind(7, options.priority);
    row.id = sql::returning_id(add);
    row.spec = spec;
    row.config = config;
    row.state = options.state;
    row.priority = options.priority;
    row.created = true;
    insert_slots(db, row.id, slots);
    finish_event_if_complete(impl_->db(), row.id);  // an empty schedule is finished at once
    if (slots.empty() && options.kind == "tournament") row.state = "finished";
    tx.commit();
    return row;
  } catch (const std::exception& e) {
    return impl_->fail("open event \"" + name + "\"", e);
  }
}

Expected<std::int64_t> Store::register_owner(const OwnerInfo& owner) {
  try {
    const auto now = static_cast<std::int64_t>(now_ms());
    sql::Query add(impl_->db(),
                   "INSERT INTO owners (name, host, pid, kind, started_at, heartbeat_at,"
                   " lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id");
    add.bind(1, owner.name);
    add.bind(2, owner.host);
    add.bind(3, static_cast<std::int64_t>(owner.pid));
    add.bind(4, owner.kind);
    add.bind(5, now);
    add.bind(6, now);
    add.bind(7, now + static_cast<std::int64_t>(owner.lease_ms));
    return sql::returning_id(add);
  } catch (const std::exception& e) {
    return impl_->fail("register this process as an owner", e);
  }
}

Expected<std::vector<OwnerStatus>> Store::owners(std::int64_t stopped_within_ms, int limit) {
  try {
    std::vector<OwnerStatus> out;
    sql::Query q(impl_->db(),
                 "SELECT id, name, host, pid, kind, started_at, heartbeat_at,"
                 " lease_expires_at, stopped_at FROM owners WHERE stopped_at IS NULL OR"
                 " stopped_at >= ? ORDER BY id DESC LIMIT ?");
    q.bind(1, static_cast<std::int64_t>(now_ms()) - stopped_within_ms);
    q.bind(2, limit);
    std::map<std::int64_t, std::size_t> index;
    while (q.step()) {
      OwnerStatus o;
      o.id = q.int64(0);
      o.info.name = q.text(1);
      o.info.host = q.text(2);
      o.info.pid = static_cast<long>(q.int64(3));
      o.info.kind = q.text(4);
      o.started_at_ms = q.int64(5);
      o.heartbeat_at_ms = q.int64(6);
      o.lease_expires_at_ms = q.int64(7);
      if (!q.is_null(8)) o.stopped_at_ms = q.int64(8);
      index[o.id] = out.size();
      out.push_back(std::move(o));
    }
    sql::Query running(impl_->db(),
                       "SELECT owner, id FROM games WHERE status = 'running' AND owner IS"
                       " NOT NULL ORDER BY id");
    while (running.step()) {
      auto it = index.find(running.int64(0));
      if (it != index.end()) out[it->second].running_games.push_back(running.int64(1));
    }
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the owners", e);
  }
}

Status Store::stop_owner(std::int64_t owner) {
  try {
    sql::Transaction tx(impl_->db());
    sql::Query rel(impl_->db(),
                   "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                   " WHERE owner = ? AND state = 'claimed'");
    rel.bind(1, static_cast<std::int64_t>(owner));
    rel.exec();
    sql::Query stop(impl_->db(), "UPDATE owners SET stopped_at = ?, heartbeat_at = ? WHERE id = ?");
    const auto now = static_cast<std::int64_t>(now_ms());
    stop.bind(1, now);
    stop.bind(2, now);
    stop.bind(3, static_cast<std::int64_t>(owner));
    stop.exec();
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("release the claims of owner " + std::to_string(owner), e);
  }
}

Expected<std::vector<Claim>> Store::claim_slots(std::int64_t owner,
                                                std::optional<std::int64_t> event, int max,
                                                long lease_ms,
                                                const std::vector<std::string>& exclude_engines) {
  try {
    auto& db = impl_->db();
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(db);
    const auto now = static_cast<std::int64_t>(now_ms());
    // Events in the order they are served, then per event the expired claims and the pending
    // slots, each through the (state, tournament_id, slot) index: a claim costs the same on the
    // first slot of an event and on its last.
    std::vector<std::int64_t> events;
    {
      auto& q = impl_->db().cached(
          "SELECT id FROM tournaments WHERE state IN ('queued', 'running') AND"
          " (CAST(?1 AS BIGINT) IS NULL OR id = ?1) ORDER BY priority DESC, id");
      q.bind(1, event);
      while (q.step()) events.push_back(q.int64(0));
    }
    const std::string excluded = to_json(exclude_engines);
    const sql::Backend backend = impl_->db().backend();
    auto pick_sql = [backend](const char* state_test) {
      return std::string("SELECT ") + kSlotColumns + " FROM slots s" +
             sql::indexed_by(backend, "slots_by_state") + " WHERE s.state = " + state_test +
             " AND s.tournament_id = ?1 AND (?3 = '[]' OR NOT EXISTS (SELECT 1 FROM " +
             sql::json_values(backend, "s.seats", "a") + ", " +
             sql::json_values(backend, "?3", "x") +
             " WHERE a.value = x.value)) ORDER BY s.slot LIMIT ?4" +
             sql::for_update_skip_locked(backend);
    };
    auto& expired = impl_->db().cached(pick_sql("'claimed' AND s.lease_expires_at < ?2"));
    auto& pending = impl_->db().cached(pick_sql("'pending' AND CAST(?2 AS BIGINT) IS NOT NULL"));
    std::vector<Claim> out;
    for (std::int64_t e : events) {
      std::vector<Claim> found;
      for (sql::Statement* q : {&expired, &pending}) {
        q->reset();
        q->bind(1, static_cast<std::int64_t>(e));
        q->bind(2, now);
        q->bind(3, excluded);
        q->bind(4, max - static_cast<int>(out.size()));
        while (q->step()) {
          Claim c;
          c.tournament_id = e;
          c.slot = read_slot(*q, 0);
          found.push_back(std::move(c));
        }
      }
      if (found.empty()) {
        // Nothing to play: an event left running with every slot ended (its check after the
        // commit failed, or a referee before that check wrote it) is finished now.
        auto& open = impl_->db().cached(
            "SELECT 1 FROM slots WHERE tournament_id = ? AND state IN ('pending', 'claimed')"
            " LIMIT 1");
        open.bind(1, static_cast<std::int64_t>(e));
        if (!open.step()) finish_event_if_complete(impl_->db(), e);
      }
      std::sort(found.begin(), found.end(),
                [](const Claim& a, const Claim& b) { return a.slot.slot < b.slot.slot; });
      for (auto& c : found)
        if (static_cast<int>(out.size()) < max) out.push_back(std::move(c));
      if (static_cast<int>(out.size()) >= max) break;
    }
    auto& take = impl_->db().cached(
        "UPDATE slots SET state = 'claimed', owner = ?, lease_expires_at = ?,"
        " attempts = attempts + 1 WHERE tournament_id = ? AND slot = ?");
    // The game a dead owner (or a v2 run) left running is kept as interrupted.
    auto& orphan = impl_->db().cached(
        "UPDATE games SET status = 'unfinished', termination = 'interrupted', reason = ?"
        " WHERE tournament_id = ? AND slot = ? AND status = 'running'");
    for (Claim& c : out) {
      // No game of a slot being claimed can still be played: any left running is an orphan.
      orphan.reset();
      orphan.bind(1, c.slot.state == "claimed"
                         ? "its process stopped renewing the claim (owner " +
                               std::to_string(c.slot.owner.value_or(0)) +
                               "); the slot is played again"
                         : std::string("the run stopped before the game ended"));
      orphan.bind(2, static_cast<std::int64_t>(c.tournament_id));
      orphan.bind(3, static_cast<std::int64_t>(c.slot.slot));
      orphan.exec();
      take.reset();
      take.bind(1, static_cast<std::int64_t>(owner));
      take.bind(2, now + lease_ms);
      take.bind(3, static_cast<std::int64_t>(c.tournament_id));
      take.bind(4, static_cast<std::int64_t>(c.slot.slot));
      take.exec();
      c.slot.state = "claimed";
      c.slot.owner = owner;
      ++c.slot.attempts;
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("claim games", e);
  }
}

Expected<int> Store::renew_claims(std::int64_t owner, long lease_ms) {
  try {
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(impl_->db());
    const auto now = static_cast<std::int64_t>(now_ms());
    auto& renew = impl_->db().cached(
        "UPDATE slots SET lease_expires_at = ? WHERE owner = ? AND state ="
        " 'claimed'");
    renew.bind(1, now + lease_ms);
    renew.bind(2, static_cast<std::int64_t>(owner));
    const int n = renew.exec();
    auto& beat =
        impl_->db().cached("UPDATE owners SET heartbeat_at = ?, lease_expires_at = ? WHERE id = ?");
    beat.bind(1, now);
    beat.bind(2, now + lease_ms);
    beat.bind(3, static_cast<std::int64_t>(owner));
    beat.exec();
    tx.commit();
    return n;
  } catch (const std::exception& e) {
    return impl_->fail("renew the claims of owner " + std::to_string(owner), e);
  }
}

Expected<ClaimEnd> Store::finish_claimed(std::int64_t game_id, const GameRecord& result,
                                         std::int64_t owner) {
  const std::string what = "finish game " + std::to_string(game_id);
  try {
    auto& db = impl_->db();
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(db);
    // The slot is locked first, as claim_slots does (slot, then its orphaned game): a finish that
    // changed the game first could deadlock with a claim taking the slot whose lease expired.
    auto& find = impl_->db().cached(
        "SELECT g.tournament_id, g.slot, s.state, s.owner FROM games g JOIN slots s ON"
        " s.tournament_id = g.tournament_id AND s.slot = g.slot WHERE g.id = ?" +
        sql::for_update_of(db.backend(), "s"));
    find.bind(1, static_cast<std::int64_t>(game_id));
    if (!find.step()) {
      sql::Query exists(impl_->db(), "SELECT 1 FROM games WHERE id = ?");
      exists.bind(1, static_cast<std::int64_t>(game_id));
      if (!exists.step()) return Error{impl_->path + ": cannot " + what + ": no such game"};
      return Error{impl_->path + ": cannot " + what + ": it belongs to no slot of an event"};
    }
    const std::int64_t event = find.int64(0);
    const std::int64_t slot = find.int64(1);
    const bool held = find.text(2) == "claimed" && !find.is_null(3) && find.int64(3) == owner;
    const bool finished = result.status != "unfinished";
    ClaimEnd end = ClaimEnd::Released;
    Status st = Ok{};
    if (finished && held) {
      // A game is done only with every move in the file (a failed batch may have lost some).
      auto& moves = impl_->db().cached("SELECT count(*) FROM moves WHERE game_id = ?");
      moves.bind(1, static_cast<std::int64_t>(game_id));
      moves.step();
      const std::int64_t stored = moves.int64(0);
      if (stored != result.plies)
        return Error{impl_->path + ": cannot " + what + ": " + std::to_string(stored) + " of its " +
                     std::to_string(result.plies) + " moves are stored"};
      st = write_finish(impl_->db(), impl_->path, game_id, result, true);
      end = ClaimEnd::Done;
    } else if (finished) {
      GameRecord lost = result;
      lost.termination = "lost-claim";
      lost.reason = "the claim on slot " + std::to_string(slot) +
                    " expired and was taken by another process before the game ended (it ended: " +
                    result.reason + ")";
      st = write_finish(impl_->db(), impl_->path, game_id, lost, false);
      end = ClaimEnd::Lost;
    } else {
      st = write_finish(impl_->db(), impl_->path, game_id, result, false);
      end = held ? ClaimEnd::Released : ClaimEnd::Lost;
    }
    if (!st) return st.failure();
    if (held) {
      auto& up = impl_->db().cached(
          end == ClaimEnd::Done
              ? "UPDATE slots SET state = 'done', game_id = ?1, lease_expires_at = 0"
                " WHERE tournament_id = ?2 AND slot = ?3"
              : "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                " WHERE tournament_id = ?2 AND slot = ?3 AND CAST(?1 AS BIGINT) IS NOT NULL");
      up.bind(1, static_cast<std::int64_t>(game_id));
      up.bind(2, static_cast<std::int64_t>(event));
      up.bind(3, static_cast<std::int64_t>(slot));
      up.exec();
      if (end == ClaimEnd::Done) impl_->event_may_be_complete(event);
    }
    tx.commit();
    impl_->check_events();
    return end;
  } catch (const std::exception& e) {
    return impl_->fail(what, e);
  }
}

Status Store::release_slot(std::int64_t event, std::int64_t slot, std::int64_t owner) {
  try {
    sql::Query q(impl_->db(),
                 "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                 " WHERE tournament_id = ? AND slot = ? AND owner = ? AND state ="
                 " 'claimed'");
    q.bind(1, static_cast<std::int64_t>(event));
    q.bind(2, static_cast<std::int64_t>(slot));
    q.bind(3, static_cast<std::int64_t>(owner));
    q.exec();
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("release slot " + std::to_string(slot), e);
  }
}

Expected<int> Store::skip_slots(std::int64_t event, const std::vector<std::int64_t>& slots,
                                const std::string& reason) {
  try {
    sql::CachedScope resets(impl_->db());
    sql::Transaction tx(impl_->db());
    sql::Query q(impl_->db(),
                 "UPDATE slots SET state = 'skipped', reason = ?, owner = NULL,"
                 " lease_expires_at = 0 WHERE tournament_id = ? AND slot = ? AND state"
                 " IN ('pending', 'claimed')");
    int n = 0;
    for (std::int64_t slot : slots) {
      q.reset();
      q.bind(1, reason);
      q.bind(2, static_cast<std::int64_t>(event));
      q.bind(3, static_cast<std::int64_t>(slot));
      n += q.exec();
    }
    impl_->event_may_be_complete(event);
    tx.commit();
    impl_->check_events();
    return n;
  } catch (const std::exception& e) {
    return impl_->fail("skip games of event " + std::to_string(event), e);
  }
}

Expected<SlotCounts> Store::slot_counts(std::int64_t event, std::int64_t owner) {
  try {
    sql::Query q(impl_->db(), "SELECT state, " +
                                  sql::bool_int(impl_->db().backend(), "owner = ?2") +
                                  ", count(*) FROM slots WHERE tournament_id = ?1 GROUP BY 1, 2");
    q.bind(1, static_cast<std::int64_t>(event));
    q.bind(2, static_cast<std::int64_t>(owner));
    SlotCounts c;
    while (q.step()) {
      const std::string state = q.text(0);
      const bool mine = q.int32(1) != 0;
      const std::int64_t n = q.int64(2);
      if (state == "pending")
        c.pending += n;
      else if (state == "claimed")
        (mine ? c.claimed_mine : c.claimed_others) += n;
      else if (state == "done")
        c.done += n;
      else
        c.skipped += n;
    }
    return c;
  } catch (const std::exception& e) {
    return impl_->fail("count the games of event " + std::to_string(event), e);
  }
}

Expected<std::vector<SlotRecord>> Store::slots(std::int64_t event) {
  try {
    sql::Query q(impl_->db(), std::string("SELECT ") + kSlotColumns +
                                  " FROM slots s WHERE s.tournament_id = ? ORDER BY s.slot");
    q.bind(1, static_cast<std::int64_t>(event));
    std::vector<SlotRecord> out;
    while (q.step()) out.push_back(read_slot(q, 0));
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the slots of event " + std::to_string(event), e);
  }
}

Expected<std::vector<std::string>> Store::integrity_problems(int max) {
  try {
    if (impl_->db().backend() != sql::Backend::SQLite) return std::vector<std::string>{};
    sql::Query q(impl_->db(), "PRAGMA integrity_check(" + std::to_string(max) + ")");
    std::vector<std::string> out;
    while (q.step()) {
      std::string line = q.text(0);
      if (line != "ok") out.push_back(std::move(line));
    }
    return out;
  } catch (const SQLite::Exception& e) {
    return Error{open_error(impl_->path, e)};
  } catch (const std::exception& e) {
    return impl_->fail("check integrity", e);
  }
}

// ---- The daemon's additions ----

namespace {

const char* const kEventColumns =
    "SELECT t.id, t.name, t.kind, t.state, t.priority, t.spec, t.created_at, t.finished_at,"
    " t.updated_at,"
    " (SELECT count(*) FROM slots s WHERE s.state = 'pending' AND s.tournament_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'claimed' AND s.tournament_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'done' AND s.tournament_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'skipped' AND s.tournament_id = t.id),"
    " coalesce((SELECT min(g.started_at) FROM games g WHERE g.tournament_id = t.id), '')"
    " FROM tournaments t";

EventInfo read_event(sql::Statement& q) {
  EventInfo e;
  e.id = q.int64(0);
  e.name = q.text(1);
  e.kind = q.text(2);
  e.state = q.text(3);
  e.priority = q.int32(4);
  e.spec = q.text(5);
  e.created_at = q.text(6);
  e.finished_at = q.text(7);
  e.updated_at = q.text(8);
  e.pending = q.int64(9);
  e.claimed = q.int64(10);
  e.done = q.int64(11);
  e.skipped = q.int64(12);
  e.started_at = q.text(13);
  return e;
}

// The WHERE clause of game_page; ?1 event, ?2 engine, ?3 game name, ?4 status, ?5 after id,
// ?6 result.
const char* const kPageWhere =
    " WHERE (CAST(?1 AS BIGINT) IS NULL OR g.tournament_id = ?1)"
    " AND (?2 = '' OR EXISTS (SELECT 1 FROM game_players x WHERE x.game_id = g.id AND"
    " x.engine = ?2))"
    " AND (?3 = '' OR g.game = ?3 OR substr(g.game, 1, length(?3) + 1) = ?3 || ':')"
    " AND (?4 = '' OR g.status = ?4)"
    " AND (CAST(?5 AS BIGINT) IS NULL OR g.id > ?5)"
    " AND (?6 = '' OR (g.status = 'finished' AND"
    " (SELECT count(*) FROM game_players x WHERE x.game_id = g.id) = 2 AND"
    " (SELECT CASE WHEN a.rank < b.rank THEN '1-0' WHEN a.rank > b.rank THEN '0-1'"
    " ELSE '1/2-1/2' END FROM game_players a, game_players b WHERE a.game_id = g.id AND"
    " a.seat = 1 AND b.game_id = g.id AND b.seat = 2) = ?6))";

RegisteredEngine read_engine(sql::Statement& q) {
  RegisteredEngine e;
  e.name = q.text(0);
  e.command = q.text(1);
  e.args = from_json(q.text(2));
  auto options = nlohmann::json::parse(q.text(3), nullptr, false);
  if (options.is_object())
    for (auto it = options.begin(); it != options.end(); ++it)
      if (it.value().is_string()) e.options[it.key()] = it.value().get<std::string>();
  e.games = from_json(q.text(4));
  e.settings = q.text(5);
  e.registered_at = q.text(6);
  e.retired_at = q.text(7);
  e.id_name = q.text(8);
  e.id_author = q.text(9);
  e.finished_games = q.int64(10);
  return e;
}

const char* const kEngineColumns =
    "SELECT e.name, e.command, e.args, e.options, e.games, e.settings, e.registered_at,"
    " e.retired_at, e.id_name, e.id_author, (SELECT count(*) FROM game_players p JOIN games g"
    " ON g.id = p.game_id WHERE p.engine = e.name AND g.status = 'finished') FROM engines e";

}  // namespace

Expected<EventList> Store::events(const EventQuery& query) {
  try {
    sql::Transaction tx(impl_->db(), sql::Transaction::Kind::Read);
    const std::string where = " WHERE (?1 = '[]' OR " +
                              sql::in_json(impl_->db().backend(), "t.state", "?1") +
                              ") AND (?2 = '' OR t.kind = ?2)";
    const std::string states = to_json(query.states);
    EventList out;
    sql::Query count(impl_->db(), std::string("SELECT count(*) FROM tournaments t") + where);
    count.bind(1, states);
    count.bind(2, query.kind);
    count.step();
    out.total = count.int64(0);
    sql::Query q(impl_->db(),
                 std::string(kEventColumns) + where + " ORDER BY t.id DESC LIMIT ?3 OFFSET ?4");
    q.bind(1, states);
    q.bind(2, query.kind);
    q.bind(3, query.limit);
    q.bind(4, query.offset);
    while (q.step()) out.events.push_back(read_event(q));
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("list events", e);
  }
}

Expected<EventInfo> Store::event(std::int64_t id) {
  try {
    sql::Query q(impl_->db(), std::string(kEventColumns) + " WHERE t.id = ?");
    q.bind(1, static_cast<std::int64_t>(id));
    if (!q.step()) return Error{impl_->path + ": no event " + std::to_string(id)};
    return read_event(q);
  } catch (const std::exception& e) {
    return impl_->fail("read event " + std::to_string(id), e);
  }
}

Expected<bool> Store::set_event_state(std::int64_t id, const std::string& state,
                                      const std::vector<std::string>& from) {
  try {
    sql::Query q(impl_->db(),
                 "UPDATE tournaments SET state = ?1, updated_at = ?2,"
                 " finished_at = CASE WHEN ?1 IN ('finished', 'cancelled') THEN ?2"
                 " ELSE finished_at END"
                 " WHERE id = ?3 AND " +
                     sql::in_json(impl_->db().backend(), "state", "?4"));
    q.bind(1, state);
    q.bind(2, now_utc());
    q.bind(3, static_cast<std::int64_t>(id));
    q.bind(4, to_json(from));
    return q.exec() > 0;
  } catch (const std::exception& e) {
    return impl_->fail("set the state of event " + std::to_string(id), e);
  }
}

Status Store::set_event_priority(std::int64_t id, int priority) {
  try {
    sql::Query q(impl_->db(), "UPDATE tournaments SET priority = ?, updated_at = ? WHERE id = ?");
    q.bind(1, priority);
    q.bind(2, now_utc());
    q.bind(3, static_cast<std::int64_t>(id));
    if (q.exec() == 0) return Error{impl_->path + ": no event " + std::to_string(id)};
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("set the priority of event " + std::to_string(id), e);
  }
}

Expected<std::vector<std::int64_t>> Store::append_slots(std::int64_t event,
                                                        const std::vector<SlotRecord>& slots) {
  try {
    sql::Transaction tx(impl_->db());
    lock_writers(impl_->db());
    sql::Query last(impl_->db(),
                    "SELECT coalesce(max(slot), -1) FROM slots WHERE tournament_id = ?");
    last.bind(1, static_cast<std::int64_t>(event));
    last.step();
    std::int64_t next = last.int64(0) + 1;
    std::vector<SlotRecord> numbered = slots;
    std::vector<std::int64_t> out;
    for (auto& s : numbered) {
      s.slot = next++;
      out.push_back(s.slot);
    }
    insert_slots(impl_->db(), event, numbered);
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("add games to event " + std::to_string(event), e);
  }
}

Expected<std::vector<SlotRecord>> Store::open_slots(std::int64_t event) {
  try {
    sql::Query q(impl_->db(), std::string("SELECT ") + kSlotColumns + " FROM slots s" +
                                  sql::indexed_by(impl_->db().backend(), "slots_by_state") +
                                  " WHERE s.state IN"
                                  " ('pending', 'claimed') AND s.tournament_id = ?"
                                  " ORDER BY s.slot");
    q.bind(1, static_cast<std::int64_t>(event));
    std::vector<SlotRecord> out;
    while (q.step()) out.push_back(read_slot(q, 0));
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the open slots of event " + std::to_string(event), e);
  }
}

Expected<GamePage> Store::game_page(const GamePageQuery& query) {
  try {
    sql::Transaction tx(
        impl_->db(),
        sql::Transaction::Kind::Read);  // one snapshot for the count, the ids and the games
    auto bind = [&](sql::Statement& q) {
      q.bind(1, query.event);
      q.bind(2, query.engine);
      q.bind(3, query.game_prefix);
      q.bind(4, query.status);
      q.bind(5, query.after_id);
      q.bind(6, query.result);
    };
    GamePage page;
    if (query.count_total) {
      sql::Query count(impl_->db(), std::string("SELECT count(*) FROM games g") + kPageWhere);
      bind(count);
      count.step();
      page.total = count.int64(0);
    }
    sql::Query ids(impl_->db(),
                   std::string("SELECT g.id FROM games g") + kPageWhere +
                       (query.newest_first ? " ORDER BY g.id DESC" : " ORDER BY g.id") +
                       " LIMIT ?7 OFFSET ?8");
    bind(ids);
    ids.bind(7, query.limit);
    ids.bind(8, query.offset);
    std::vector<std::int64_t> wanted;
    while (ids.step()) wanted.push_back(ids.int64(0));
    if (!wanted.empty()) {
      const std::string list = nlohmann::json(wanted).dump();
      page.games = load_games(impl_->db(), StoreAccess::engine_hashes_column(*this),
                              StoreAccess::time_controls_column(*this),
                              " WHERE " + sql::in_json_ints(impl_->db().backend(), "g.id", "?1"),
                              [&](sql::Statement& q) { q.bind(1, list); });
      if (query.newest_first) std::reverse(page.games.begin(), page.games.end());
    }
    tx.commit();
    return page;
  } catch (const std::exception& e) {
    return impl_->fail("read games", e);
  }
}

Expected<RegisteredEngine> Store::register_engine(const RegisteredEngine& engine) {
  if (engine.name.empty()) return Error{impl_->path + ": an engine needs a name"};
  try {
    sql::Transaction tx(impl_->db());
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [k, v] : engine.options) options[k] = v;
    sql::Query up(
        impl_->db(),
        "INSERT INTO engines (name, command, args, options, games, settings, registered_at,"
        " retired_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '') ON CONFLICT(name) DO UPDATE SET"
        " command = ?2, args = ?3, options = ?4, games = ?5, settings = ?6, registered_at = ?7,"
        " retired_at = ''");
    up.bind(1, engine.name);
    up.bind(2, engine.command);
    up.bind(3, to_json(engine.args));
    up.bind(4, options.dump());
    up.bind(5, to_json(engine.games));
    up.bind(6, engine.settings.empty() ? std::string("{}") : engine.settings);
    up.bind(7, now_utc());
    up.exec();
    sql::Query q(impl_->db(), std::string(kEngineColumns) + " WHERE e.name = ?");
    q.bind(1, engine.name);
    q.step();
    RegisteredEngine out = read_engine(q);
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("register engine \"" + engine.name + "\"", e);
  }
}

Expected<bool> Store::retire_engine(const std::string& name) {
  try {
    sql::Query q(impl_->db(),
                 "UPDATE engines SET retired_at = ? WHERE name = ? AND registered_at <> ''"
                 " AND retired_at = ''");
    q.bind(1, now_utc());
    q.bind(2, name);
    return q.exec() > 0;
  } catch (const std::exception& e) {
    return impl_->fail("retire engine \"" + name + "\"", e);
  }
}

Expected<std::vector<RegisteredEngine>> Store::engines() {
  try {
    sql::Query q(impl_->db(), std::string(kEngineColumns) + " ORDER BY e.name");
    std::vector<RegisteredEngine> out;
    while (q.step()) out.push_back(read_engine(q));
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("list engines", e);
  }
}

bool is_server_database(const std::string& database) {
  return sql::is_postgres_url(database);
}

std::string database_name(const std::string& database) {
  return sql::is_postgres_url(database) ? sql::redact_url(database) : database;
}

std::vector<std::string> move_sequence(const GameRecord& game,
                                       const std::vector<MoveRecord>& moves) {
  bool opening_recorded = false;
  for (const MoveRecord& m : moves) opening_recorded = opening_recorded || m.source == "opening";
  std::vector<std::string> out = opening_recorded ? std::vector<std::string>{} : game.opening;
  for (const MoveRecord& m : moves) out.push_back(m.move);
  return out;
}

std::string StoreAccess::engine_hashes_column(Store& store) {
  sql::Query q(db(store), "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int64(0) >= 7 ? "g.engine_hashes" : "'[]'";
}

std::string StoreAccess::time_controls_column(Store& store) {
  sql::Query q(db(store), "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int64(0) >= 10 ? "g.time_controls" : "'[]'";
}

sql::Connection& StoreAccess::db(Store& store) {
  return store.impl_->db();
}

Error StoreAccess::fail(const Store& store, const std::string& doing, const std::exception& e) {
  return store.impl_->fail(doing, e);
}

}  // namespace referee::storage
