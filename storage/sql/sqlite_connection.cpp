// SQLite connection of the SQL layer: SQLiteCpp's Database and Statement, statements cached by
// their text. Connections are opened without SQLite's per-connection mutex (SQLITE_OPEN_NOMUTEX):
// like every Connection, one is used by one thread at a time. SQLite's allocation statistics are
// turned off once, before the first connection (they take a global mutex per allocation).
#include "storage/sql/sqlite_connection.h"

#include <sqlite3.h>

#include <SQLiteCpp/Exception.h>

#include <map>
#include <mutex>
#include <vector>

namespace referee::storage::sql {

namespace {

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, const std::string& sql, Connection& owner) : db_(db), owner_(owner) {
    const int rc =
        sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()) + 1, &statement_, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(statement_);
      throw SQLite::Exception(db, rc);
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

 private:
  void count() {
    started_ = true;
    ++owner_.counters.statements;
    if (owner_.depth() == 0) ++owner_.counters.transactions;
  }
  void check(int rc) {
    if (rc != SQLITE_OK) throw SQLite::Exception(db_, rc);
  }
  [[noreturn]] void throw_error(int rc) {
    SQLite::Exception e(db_, rc);
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
      : db_(name, flags, busy_timeout_ms) {}
  ~SqliteConnection() override {
    cache_.clear();  // statements before the database
  }
  Backend backend() const override { return Backend::SQLite; }
  void exec(const std::string& sql) override {
    ++counters.statements;
    db_.exec(sql);
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

}  // namespace referee::storage::sql
