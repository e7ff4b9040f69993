// Database: the connection, its opening and migrations, batches, and the one-line errors with
// their kind (database.h). What is SQLite's alone (files, result codes, PRAGMAs) is in
// storage/sql/sqlite_connection.cpp, PostgreSQL's in storage/sql/pg_connection.cpp.
//
// Decisions:
// - Durability: each write outside a batch is its own autocommit statement or transaction. In WAL
//   mode with synchronous=NORMAL a commit survives the process being killed (the WAL is in the OS
//   cache and replayed on the next open); only a power loss may lose the last moves, never
//   corrupt the file. A durable batch (begin_batch(true): the Recorder's commits that finish a
//   game) is synced to the disk before its commit returns, so a game reported finished survives
//   a power loss or a file system failure too.
// - Concurrency: one Database per thread or process; a 10 s busy timeout, and every
//   multi-statement write runs in a BEGIN IMMEDIATE transaction (a deferred one could fail at
//   once with SQLITE_BUSY when it upgrades from reading to writing).
#include "storage/database.h"

#include <sys/statvfs.h>

#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "storage/rows.h"
#include "storage/schema.h"
#include "storage/sql/dialect.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sqlite_connection.h"

namespace referee::storage {

namespace {
constexpr int kBusyTimeoutMs = 10000;
}  // namespace

struct Database::State {
  std::string path;  // for messages: a file, or the URL without its password
  bool read_only = false;
  std::unique_ptr<sql::Connection> connection;
  std::optional<sql::Transaction> batch;  // begin_batch .. commit_batch (after the connection)
  bool durable = false;                   // the open batch is a durable one (SQLite: FULL set)
  std::vector<std::function<void(sql::Connection&)>> after_commit;
};

Database::Database(std::unique_ptr<State> state) : state_(std::move(state)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Expected<Database> Database::open(const std::string& path, const OpenOptions& options) {
  namespace fs = std::filesystem;
  if (path.empty()) return Error{"no database file given", ErrorKind::Invalid};
  auto state = std::make_unique<State>();
  state->read_only = options.read_only;
  if (sql::is_postgres_url(path)) {
    auto connection = sql::open_postgres(path);
    if (!connection) return connection.failure();
    state->path = sql::redact_url(path);
    state->connection = std::move(*connection);
    try {
      Status ready = options.read_only ? check_readable(*state->connection, state->path)
                                       : prepare_database(*state->connection, state->path, false);
      if (!ready) return ready.failure();
      return Database(std::move(state));
    } catch (const std::exception& e) {
      return Error{state->path + ": " + e.what(), sql::kind_of(e)};
    }
  }
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return Error{path + " is a directory, not a database file", ErrorKind::Invalid};
  state->path = path;
  auto connection =
      options.read_only
          ? sql::open_sqlite_read_only(
                path, kBusyTimeoutMs, [&](sql::Connection& db) { return check_readable(db, path); })
          : sql::open_sqlite_file(path, options.max_page_count, kBusyTimeoutMs,
                                  [&](sql::Connection& db, bool existed) {
                                    return prepare_database(db, path,
                                                            options.check_integrity && existed);
                                  });
  if (!connection) return connection.failure();
  state->connection = std::move(*connection);
  return Database(std::move(state));
}

const std::string& Database::path() const {
  return state_->path;
}

bool Database::read_only() const {
  return state_->read_only;
}

sql::Connection& Database::connection() {
  return *state_->connection;
}

Error Database::fail(const std::string& doing, const std::exception& e) const {
  return Error{state_->path + ": cannot " + doing + ": " + e.what(), sql::kind_of(e)};
}

Error Database::error(ErrorKind kind, const std::string& what) const {
  return Error{state_->path + ": " + what, kind};
}

std::string Database::integrity_check_name() const {
  return state_->connection->backend() == sql::Backend::SQLite ? "PRAGMA integrity_check" : "";
}

bool Database::connection_lost() const {
  return state_->connection->lost();
}

RoundTrips Database::round_trips() const {
  const auto& c = state_->connection->counters;
  return RoundTrips{c.statements, c.transactions};
}

// SQLite reads `synchronous` when a transaction commits, so it is set before BEGIN and put back
// after the commit or rollback; PostgreSQL's SET LOCAL ends with the transaction by itself. The
// pragma costs no round trip (SQLite is in the process).
Status Database::begin_batch(bool durable) {
  auto& c = *state_->connection;
  const bool sqlite = c.backend() == sql::Backend::SQLite;
  try {
    if (state_->batch) return error(ErrorKind::Conflict, "a batch of writes is already open");
    if (durable && sqlite) {
      c.exec("PRAGMA synchronous = FULL");
      state_->durable = true;
    }
    state_->batch.emplace(c);
    if (durable && !sqlite) c.exec("SET LOCAL synchronous_commit = on");
    return Ok{};
  } catch (const std::exception& e) {
    state_->batch.reset();
    end_durable();
    return fail("begin a batch of writes", e);
  }
}

void Database::end_durable() {
  if (!state_->durable) return;
  state_->durable = false;
  try {
    state_->connection->exec("PRAGMA synchronous = NORMAL");
  } catch (const std::exception&) {
    // Left at FULL: slower commits, never less durable ones.
  }
}

Status Database::commit_batch() {
  try {
    if (!state_->batch) return error(ErrorKind::Conflict, "no batch of writes is open");
    state_->batch->commit();
    state_->batch.reset();
    end_durable();
    run_after_commit();
    return Ok{};
  } catch (const std::exception& e) {
    state_->batch.reset();  // rolled back
    end_durable();
    state_->after_commit.clear();
    return fail("commit a batch of writes", e);
  }
}

void Database::after_commit(std::function<void(sql::Connection&)> work) {
  state_->after_commit.push_back(std::move(work));
}

void Database::run_after_commit() {
  if (state_->batch) return;
  auto work = std::move(state_->after_commit);
  state_->after_commit.clear();
  for (auto& w : work) try {
      sql::CachedScope resets(*state_->connection);
      w(*state_->connection);
    } catch (const std::exception&) {
    }
}

Expected<std::vector<std::string>> Database::integrity_problems(int max) {
  if (state_->connection->backend() != sql::Backend::SQLite) return std::vector<std::string>{};
  try {
    return sql::integrity_check(*state_->connection, max);
  } catch (const sql::Failure& e) {
    return sql::file_error(state_->path, e);
  } catch (const std::exception& e) {
    return fail("check integrity", e);
  }
}

std::optional<std::int64_t> free_bytes(const std::string& database) {
  if (sql::is_postgres_url(database) || database.empty() || database == ":memory:")
    return std::nullopt;
  std::filesystem::path dir = std::filesystem::path(database).parent_path();
  if (dir.empty()) dir = ".";
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return std::nullopt;
  return static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize);
}

bool is_server_database(const std::string& database) {
  return sql::is_postgres_url(database);
}

std::string database_name(const std::string& database) {
  return sql::is_postgres_url(database) ? sql::redact_url(database) : database;
}

namespace rows {

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string json_strings(const std::vector<std::string>& values) {
  return nlohmann::json(values).dump();
}

std::vector<std::string> strings_from_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const auto& m : j)
    if (m.is_string()) out.push_back(m.get<std::string>());
  return out;
}

void lock_writers(sql::Connection& db) {
  const std::string lock = sql::writers_lock(db.backend());
  if (!lock.empty()) sql::Query(db, lock).step();
}

std::string engine_hashes_column(sql::Connection& db) {
  sql::Query q(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int64(0) >= 7 ? "g.engine_hashes" : "'[]'";
}

std::string time_controls_column(sql::Connection& db) {
  sql::Query q(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int64(0) >= 11 ? "g.time_controls" : "'[]'";
}

std::string games_by_event_index(sql::Connection& db) {
  if (db.backend() != sql::Backend::SQLite) return "";
  sql::Query q(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int64(0) >= 10 ? sql::indexed_by(db.backend(), "games_by_tournament") : "";
}

}  // namespace rows
}  // namespace referee::storage
