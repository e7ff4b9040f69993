// A small backend-neutral SQL layer under Store (internal to storage/): a connection that runs
// statements, prepared statements with positional parameters, rows read column by column,
// transactions and savepoints. Two implementations: SQLite (sqlite_connection.h, SQLiteCpp) and
// PostgreSQL (pg_connection.h, libpq).
//
// Decisions:
// - SQL text is written once, in SQLite's spelling of parameters (`?` or `?N`); the PostgreSQL
//   connection rewrites them to `$N` (rewrite_placeholders). What truly differs between the two
//   dialects is asked of dialect.h, never tested with `if (postgres)` outside storage/.
// - Errors are exceptions inside storage/, always sql::Failure, with the ErrorKind the backend's
//   code means (SQLITE_FULL and PostgreSQL's 53100 are Full, a lost server connection is
//   Unavailable, ...): each connection decides it from its own codes (sqlite_connection.cpp,
//   pg_connection.cpp), so nothing above the layer looks at SQLite's or PostgreSQL's codes. Every
//   storage function catches them and returns one line naming the database, with that kind.
// - Statements cached by the connection (cached()) are prepared once and come back reset with no
//   bindings; release_cached() resets every cached statement used since the last call, so a
//   half-read SELECT never keeps a read snapshot open (SQLite) or a result in memory (PostgreSQL).
// - A query whose rows may be many (an export's pass over every game) is prepared with
//   Rows::Many: SQLite steps through its rows anyway; PostgreSQL reads them through a server-side
//   cursor, kFetchRows at a time, when it runs inside a transaction (pg_connection.h says why a
//   cursor and not libpq's single-row mode), so memory stays flat whatever the count.
// - Round trips are counted (Counters): statements executed and transactions committed (a
//   statement outside any transaction counts as one), for `referee bench` and the tests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "base/expected.h"

namespace referee::storage::sql {

enum class Backend { SQLite, PostgreSQL };

// How many rows a query may give: Few (read whole where the backend reads whole) or Many (read in
// chunks of kFetchRows where the backend would otherwise hold them all).
enum class Rows { Few, Many };
constexpr int kFetchRows = 1000;

// Begins the message of every statement that failed because the connection to a database server
// is gone (the server restarted, the network cut it): its owner must open a new connection.
constexpr std::string_view kConnectionLost = "the connection to the server was lost";

// A database error of either connection.
struct Failure : std::runtime_error {
  Failure(const std::string& what, std::string state, ErrorKind error_kind = ErrorKind::Io,
          int sqlite_code = 0)
      : std::runtime_error(what), sqlstate(std::move(state)), kind(error_kind), code(sqlite_code) {}
  std::string sqlstate;  // PostgreSQL's five-character code; "" when not from the server
  ErrorKind kind;        // what the caller can do about it (base/expected.h)
  int code;              // SQLite's primary result code (SQLITE_BUSY, ...); 0 on PostgreSQL
};

// The kind of any exception thrown inside storage/: a Failure's own, Io for anything else.
inline ErrorKind kind_of(const std::exception& e) {
  if (const auto* f = dynamic_cast<const Failure*>(&e)) return f->kind;
  return ErrorKind::Io;
}

struct Counters {
  std::int64_t statements = 0;    // statements executed (each execution once)
  std::int64_t transactions = 0;  // commits, and statements run outside a transaction
};

class Connection;

class Statement {
 public:
  virtual ~Statement() = default;
  // Parameters are numbered from 1.
  void bind(int index, std::int64_t value) { bind_int64(index, value); }
  void bind(int index, int value) { bind_int64(index, value); }
  void bind(int index, double value) { bind_real(index, value); }
  void bind(int index, std::string_view value) { bind_text(index, value); }
  void bind(int index, const std::string& value) { bind_text(index, value); }
  void bind(int index, const char* value) { bind_text(index, value); }
  void bind(int index, const std::optional<std::int64_t>& value) {
    if (value)
      bind_int64(index, *value);
    else
      bind_null(index);
  }
  void bind(int index) { bind_null(index); }  // NULL
  // Bytes as a BLOB (SQLite) or a BYTEA (PostgreSQL), read back with blob().
  void bind_bytes(int index, std::string_view bytes) { bind_blob(index, bytes); }

  // The next row (the first call executes); false when there is none left.
  virtual bool step() = 0;
  // Executes to the end; returns the number of rows changed.
  virtual int exec() = 0;
  // Back to before the first step; bindings are kept.
  virtual void reset() = 0;
  virtual void clear_bindings() = 0;

  // Columns of the current row, numbered from 0.
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t int64(int column) const = 0;
  int int32(int column) const { return static_cast<int>(int64(column)); }
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
  virtual const char* c_str(int column) const = 0;  // valid until the next step
  virtual std::string blob(int column) const = 0;   // a column bound with bind_bytes

 protected:
  virtual void bind_int64(int index, std::int64_t value) = 0;
  virtual void bind_real(int index, double value) = 0;
  virtual void bind_text(int index, std::string_view value) = 0;
  virtual void bind_null(int index) = 0;
  virtual void bind_blob(int index, std::string_view bytes) = 0;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Backend backend() const = 0;
  // One or more statements without parameters.
  virtual void exec(const std::string& sql) = 0;
  // A statement of its own (finalized with the returned object).
  virtual std::unique_ptr<Statement> prepare(const std::string& sql) = 0;
  // The same for a query whose rows may be many (Rows::Many); by default read as prepare() does.
  virtual std::unique_ptr<Statement> prepare_many(const std::string& sql) { return prepare(sql); }
  // A statement prepared once per connection, reset, with no bindings.
  virtual Statement& cached(const std::string& sql) = 0;
  virtual void release_cached() = 0;
  // Whether the connection is gone for good (a server's; a file's never is).
  virtual bool lost() const { return false; }
  // Nesting depth of Transaction objects (0: autocommit).
  int depth() const { return depth_; }
  // Counts the outermost transactions begun: what was made inside one (a cursor) is gone once
  // this changed or depth() is 0.
  std::uint64_t transaction_serial() const { return serial_; }
  Counters counters;

 private:
  friend class Transaction;
  int depth_ = 0;
  std::uint64_t serial_ = 0;
};

// A statement of its own as a value (Connection::prepare), for the rare queries.
class Query {
 public:
  Query(Connection& connection, const std::string& sql) : statement_(connection.prepare(sql)) {}
  Query(Connection& connection, const std::string& sql, Rows rows)
      : statement_(rows == Rows::Many ? connection.prepare_many(sql) : connection.prepare(sql)) {}
  operator Statement&() { return *statement_; }
  template <class... Args>
  void bind(int index, Args&&... value) {
    statement_->bind(index, std::forward<Args>(value)...);
  }
  bool step() { return statement_->step(); }
  int exec() { return statement_->exec(); }
  void reset() { statement_->reset(); }
  void clear_bindings() { statement_->clear_bindings(); }
  bool is_null(int column) const { return statement_->is_null(column); }
  std::int64_t int64(int column) const { return statement_->int64(column); }
  int int32(int column) const { return statement_->int32(column); }
  double real(int column) const { return statement_->real(column); }
  std::string text(int column) const { return statement_->text(column); }
  const char* c_str(int column) const { return statement_->c_str(column); }
  std::string blob(int column) const { return statement_->blob(column); }
  void bind_bytes(int index, std::string_view bytes) { statement_->bind_bytes(index, bytes); }

 private:
  std::unique_ptr<Statement> statement_;
};

// A transaction, or a savepoint inside one, rolled back unless committed.
// Write: SQLite BEGIN IMMEDIATE (the write lock at once: a deferred one could fail with
// SQLITE_BUSY when it upgrades); PostgreSQL BEGIN (rows are locked by the statements:
// SELECT ... FOR UPDATE SKIP LOCKED where claims take slots).
// Read: one snapshot for several queries (SQLite BEGIN DEFERRED; PostgreSQL BEGIN ISOLATION LEVEL
// REPEATABLE READ READ ONLY); inside another transaction it is that one's snapshot.
class Transaction {
 public:
  enum class Kind { Write, Read };
  explicit Transaction(Connection& connection, Kind kind = Kind::Write);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  void commit();

 private:
  Connection& connection_;
  Kind kind_;
  int level_;  // depth before this one: 0 = a transaction, > 0 = a savepoint (write) or nothing
  bool done_ = false;
};

// Resets the connection's cached statements when a method returns (see release_cached).
class CachedScope {
 public:
  explicit CachedScope(Connection& connection) : connection_(connection) {}
  CachedScope(const CachedScope&) = delete;
  CachedScope& operator=(const CachedScope&) = delete;
  ~CachedScope() { connection_.release_cached(); }

 private:
  Connection& connection_;
};

// SQLite's positional parameters as PostgreSQL's: `?N` becomes `$N`, a bare `?` the next number
// after the largest so far (SQLite's rule). Text in quotes ('...', "...") and comments are kept.
std::string rewrite_placeholders(std::string_view sql);

// Runs an INSERT ... RETURNING id (or any one-row query) to its end; returns the first column.
std::int64_t returning_id(Statement& statement);

}  // namespace referee::storage::sql
