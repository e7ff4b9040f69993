// SQLite connection of the SQL layer: SQLiteCpp's Database and Statement, statements cached by
// their text. Connections are opened without SQLite's per-connection mutex (SQLITE_OPEN_NOMUTEX):
// like every Connection, one is used by one thread at a time. SQLite's allocation statistics are
// turned off once, before the first connection (they take a global mutex per allocation).
#include "storage/sql/sqlite_connection.h"

#include <sqlite3.h>

#include <SQLiteCpp/Exception.h>

#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace referee::storage::sql {

namespace {

// What a SQLite result code means to the caller (base/expected.h).
ErrorKind kind_of_code(int code) {
  switch (code & 0xff) {
    case SQLITE_FULL:
      return ErrorKind::Full;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return ErrorKind::Unavailable;
    case SQLITE_CONSTRAINT:
      return ErrorKind::Conflict;
    case SQLITE_TOOBIG:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE:
      return ErrorKind::Invalid;
    default:  // I/O, permissions, a damaged file, SQL errors of a file that is not ours
      return ErrorKind::Io;
  }
}

Failure failure(const char* what, int code) {
  return Failure(what, "", kind_of_code(code), code & 0xff);
}

Failure failure(const SQLite::Exception& e) {
  return failure(e.what(), e.getErrorCode());
}

Failure failure(sqlite3* db, int rc) {
  return failure(SQLite::Exception(db, rc));
}

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, const std::string& sql, Connection& owner) : db_(db), owner_(owner) {
    const int rc =
        sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()) + 1, &statement_, nullptr);
    if (rc != SQLITE_OK) {
      Failure error = failure(db, rc);
      sqlite3_finalize(statement_);
      throw error;
    }
  }
  ~SqliteStatement() override { sqlite3_finalize(statement_); }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  bool step() override {
    if (!started_) count();
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw_error(rc);
  }
  int exec() override {
    count();
    const int rc = sqlite3_step(statement_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) throw_error(rc);
    const int changed = sqlite3_changes(db_);
    reset();
    return changed;
  }
  void reset() override {
    sqlite3_reset(statement_);
    started_ = false;
  }
  void clear_bindings() override { sqlite3_clear_bindings(statement_); }
  bool is_null(int column) const override {
    return sqlite3_column_type(statement_, column) == SQLITE_NULL;
  }
  std::int64_t int64(int column) const override { return sqlite3_column_int64(statement_, column); }
  double real(int column) const override { return sqlite3_column_double(statement_, column); }
  std::string text(int column) const override {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    if (!data) return {};
    return std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
  }
  const char* c_str(int column) const override {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return data ? data : "";
  }
  std::string blob(int column) const override {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(statement_, column));
    if (!data) return {};
    return std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
  }

 protected:
  void bind_int64(int index, std::int64_t value) override {
    check(sqlite3_bind_int64(statement_, index, value));
  }
  void bind_real(int index, double value) override {
    check(sqlite3_bind_double(statement_, index, value));
  }
  void bind_text(int index, std::string_view value) override {
    check(sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                            SQLITE_TRANSIENT));
  }
  void bind_null(int index) override { check(sqlite3_bind_null(statement_, index)); }
  void bind_blob(int index, std::string_view bytes) override {
    check(sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT));
  }

 private:
  void count() {
    started_ = true;
    ++owner_.counters.statements;
    if (owner_.depth() == 0) ++owner_.counters.transactions;
  }
  void check(int rc) {
    if (rc != SQLITE_OK) throw failure(db_, rc);
  }
  [[noreturn]] void throw_error(int rc) {
    Failure e = failure(db_, rc);
    sqlite3_reset(statement_);
    started_ = false;
    throw e;
  }
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
  Connection& owner_;
  bool started_ = false;
};

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(const std::string& name, int flags, int busy_timeout_ms)
      : db_(opened(name, flags, busy_timeout_ms)) {}
  ~SqliteConnection() override {
    cache_.clear();  // statements before the database
  }
  Backend backend() const override { return Backend::SQLite; }
  void exec(const std::string& sql) override {
    ++counters.statements;
    try {
      db_.exec(sql);
    } catch (const SQLite::Exception& e) {
      throw failure(e);
    }
  }
  std::unique_ptr<Statement> prepare(const std::string& sql) override {
    return std::make_unique<SqliteStatement>(db_.getHandle(), sql, *this);
  }
  Statement& cached(const std::string& sql) override {
    auto& slot = cache_[sql];
    if (!slot) slot = std::make_unique<SqliteStatement>(db_.getHandle(), sql, *this);
    slot->reset();
    slot->clear_bindings();
    used_.push_back(slot.get());
    return *slot;
  }
  void release_cached() override {
    for (auto* s : used_) s->reset();
    used_.clear();
  }
  SQLite::Database& db() { return db_; }

 private:
  static SQLite::Database opened(const std::string& name, int flags, int busy_timeout_ms) {
    try {
      return SQLite::Database(name, flags, busy_timeout_ms);
    } catch (const SQLite::Exception& e) {
      throw failure(e);
    }
  }
  SQLite::Database db_;
  std::map<std::string, std::unique_ptr<SqliteStatement>> cache_;
  std::vector<SqliteStatement*> used_;
};

}  // namespace

std::unique_ptr<Connection> open_sqlite(const std::string& name, int flags, int busy_timeout_ms) {
  // Before SQLite initializes (each a no-op, SQLITE_MISUSE, if it already has): SQLite counts
  // every allocation under a global mutex, for sqlite3_memory_used(), which nothing here reads.
  // Nor does a page cache start with a bulk allocation of 20 pages (87 KB): every ephemeral
  // table (a RETURNING clause, the results triggers' GROUP BY) made one and freed it, 30 per
  // game, and glibc handed the memory back to the system and faulted it in again each time (1.3
  // µs per ply of the writer's). Pages are allocated one at a time as needed instead.
  static std::once_flag configured;
  std::call_once(configured, [] {
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_config(SQLITE_CONFIG_PAGECACHE, nullptr, 0, 0);
  });
  // A connection is used by one thread at a time (a Store belongs to one thread, or is lent under
  // a lock): SQLite's own lock around every call (bind, step, reset) would be pure cost.
  return std::make_unique<SqliteConnection>(name, flags | SQLITE_OPEN_NOMUTEX, busy_timeout_ms);
}

SQLite::Database& sqlite_database(Connection& connection) {
  return static_cast<SqliteConnection&>(connection).db();
}

Error file_error(const std::string& path, const Failure& e) {
  switch (e.code) {
    case SQLITE_NOTADB:
      return Error{path + " is not a SQLite database (or is encrypted)", e.kind};
    case SQLITE_CORRUPT:
      return Error{path + " is corrupt (" + e.what() + "); nothing was written to it", e.kind};
    case SQLITE_CANTOPEN:
      return Error{"cannot open " + path + " (" + e.what() + ")", e.kind};
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return Error{path + " is not writable (" + e.what() + ")", e.kind};
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Error{path + " is locked by another process (" + e.what() + ")", e.kind};
    default:
      return Error{path + ": " + e.what(), e.kind};
  }
}

Expected<std::unique_ptr<Connection>> open_sqlite_file(
    const std::string& path, long max_page_count, int busy_timeout_ms,
    const std::function<Status(Connection&, bool existed)>& prepare) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path file(path);
  fs::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec))
    return Error{"cannot create " + path + ": directory " + dir.string() + " does not exist",
                 ErrorKind::NotFound};
  if (!fs::is_directory(dir, ec))
    return Error{"cannot create " + path + ": " + dir.string() + " is not a directory",
                 ErrorKind::Invalid};
  const bool existed = fs::exists(file, ec);
  if (!existed && ::access(dir.c_str(), W_OK) != 0)
    return Error{"cannot create " + path + ": directory " + dir.string() + " is not writable",
                 ErrorKind::Io};
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  for (;;) {
    try {
      auto connection =
          open_sqlite(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, busy_timeout_ms);
      Status ready = prepare(*connection, existed);
      if (!ready) return ready.failure();
      if (max_page_count > 0)
        connection->exec("PRAGMA max_page_count = " + std::to_string(max_page_count));
      return connection;
    } catch (const Failure& e) {
      const bool busy = e.code == SQLITE_BUSY || e.code == SQLITE_LOCKED;
      if (!busy || std::chrono::steady_clock::now() >= give_up) return file_error(path, e);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } catch (const std::exception& e) {
      return Error{path + ": " + e.what(), ErrorKind::Io};
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
Expected<std::unique_ptr<Connection>> open_sqlite_read_only(
    const std::string& path, int busy_timeout_ms, const std::function<Status(Connection&)>& check) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error{"no database " + path, ErrorKind::NotFound};
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const bool writable = ::access(dir.c_str(), W_OK) == 0 && ::access(path.c_str(), W_OK) == 0;
  const auto wal_size = fs::file_size(path + "-wal", ec);
  const bool has_wal = !ec && wal_size > 0;
  const bool immutable = !writable && !has_wal;
  if (!writable && has_wal && !fs::exists(path + "-shm", ec))
    return Error{path + ": its write-ahead log " + path +
                     "-wal cannot be read without its -shm file in a read-only directory (copy "
                     "the files to a writable directory)",
                 ErrorKind::Io};
  try {
    std::string open_name = path;
    // No SQLite mutex: a connection is never shared between threads, and a reader steps millions
    // of rows (the mutex was 5 % of `referee ratings` on a million games).
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
    auto connection = open_sqlite(open_name, flags, busy_timeout_ms);
    Status ready = check(*connection);
    if (!ready) return ready.failure();
    return connection;
  } catch (const Failure& e) {
    return file_error(path, e);
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what(), ErrorKind::Io};
  }
}

Status sqlite_quick_check(Connection& connection, const std::string& path) {
  Query q(connection, "PRAGMA quick_check(1)");
  const std::string first = q.step() ? q.text(0) : "no answer";
  if (first != "ok")
    return Error{path + " is corrupt (quick_check: " + first + "); nothing was written to it",
                 ErrorKind::Io};
  return Ok{};
}

Status sqlite_configure_writer(Connection& connection, const std::string& path) {
  {
    Query q(connection, "PRAGMA journal_mode = WAL");
    q.step();
    const std::string mode = q.text(0);
    if (mode != "wal")
      return Error{path + ": cannot switch to WAL mode (journal mode is " + mode + ")",
                   ErrorKind::Io};
  }
  connection.exec("PRAGMA synchronous = NORMAL");
  connection.exec(
      "PRAGMA cache_size = -512");  // 512 KiB: the referee writes far more than it rereads
  connection.exec("PRAGMA foreign_keys = ON");
  return Ok{};
}

std::vector<std::string> integrity_check(Connection& connection, int max) {
  Query q(connection, "PRAGMA integrity_check(" + std::to_string(max) + ")");
  std::vector<std::string> out;
  while (q.step()) {
    std::string line = q.text(0);
    if (line != "ok") out.push_back(std::move(line));
  }
  return out;
}

}  // namespace referee::storage::sql
