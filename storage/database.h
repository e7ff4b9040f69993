// The referee's database: one connection of the SQL layer (storage/sql: SQLite or PostgreSQL), its
// versioned schema with migrations (schema.h), batches of writes, and the errors of it all as one
// line naming the database, with a kind (base/expected.h) decided where the failure arose.
//
// Decisions (how the parts of storage/ share the one connection):
// - A Database owns the connection; the three parts of the data are over it, each in its own
//   unit, none a friend of another:
//   - Store (store.h): the game records (games, moves, transcripts). A Store *is* a Database (it
//     adds the prepared statements of the moves and games): it is the value a process opens and
//     moves around (into a Recorder, a pool of readers), so every part below takes it as the
//     Database it is.
//   - the work queue (work_queue.h): events, slots, claims, owners and leases, free functions
//     `work_queue::f(Database&, ...)`;
//   - the engine registry (engine_registry.h): free functions `engine_registry::f(Database&, ...)`.
//   Free functions over a plain value rather than objects of their own: they hold no state
//   between calls (the connection's statement cache does), and a caller holding a Store calls
//   them without a second object to keep alive.
// - The connection is reachable (connection()) for storage/'s own files (queries, streams,
//   archives); only they include storage/sql/sql.h, so outside storage/ it is of no use.
// - One Database per thread (connections are not shared).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"

namespace referee::storage {

namespace sql {
class Connection;
}

constexpr int kSchemaVersion = 13;

struct OpenOptions {
  // Only reads: SQLITE_OPEN_READONLY, no migration, never creates or changes the database file (a
  // missing file is an error). Works on a read-only file in a read-only directory, WAL or not,
  // and creates nothing there. In a writable directory a WAL database may get SQLite's side files
  // (an empty -wal and the -shm) when they were not there: a read-only connection cannot remove
  // them; the next writer's close does (sql::open_sqlite_read_only says why not `immutable`).
  bool read_only = false;
  // Before writing into an existing file, PRAGMA quick_check; a damaged file is refused.
  bool check_integrity = true;
  // Test hook: > 0 caps the file at this many pages (PRAGMA max_page_count), a full disk.
  long max_page_count = 0;
};

struct RoundTrips {
  std::int64_t statements = 0;    // each execution of a statement
  std::int64_t transactions = 0;  // commits, and statements outside a transaction
};

class Database {
 public:
  // Opens or creates the database and migrates it to kSchemaVersion. Errors are one line naming
  // the file: unwritable directory, not a database / corrupt, a schema version newer than this
  // program knows ("referee.db has schema version 7; this referee reads up to 2").
  static Expected<Database> open(const std::string& path, const OpenOptions& options = {});
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  // Groups the writes until commit_batch() into one transaction (each write alone commits at
  // once). The Recorder uses it to commit a few milliseconds of moves together. A `durable`
  // batch's commit is on the disk when it returns, whatever the connection's setting for other
  // commits (SQLite: synchronous=FULL for that commit, the WAL fsynced; PostgreSQL:
  // synchronous_commit=on for that transaction): the commits that record a game's finish.
  Status begin_batch(bool durable = false);
  Status commit_batch();

  // PRAGMA integrity_check: empty when the file is sound, else its findings (at most `max`).
  // Only SQLite files have such a check (integrity_check_name() is "" otherwise: a server
  // database checks its own pages); elsewhere the list is empty.
  Expected<std::vector<std::string>> integrity_problems(int max = 20);
  std::string integrity_check_name() const;

  // The path this database was opened with (for messages; a URL without its password).
  const std::string& path() const;
  bool read_only() const;
  // Statements and transactions sent to the database so far (benchmarks, tests).
  RoundTrips round_trips() const;
  // Whether the connection to the database server is gone (the server restarted, the network cut
  // it): every call fails with the kind ErrorKind::Unavailable, until the owner opens a new
  // Database. Never for a SQLite file.
  bool connection_lost() const;

  // ---- For storage/'s own files ----
  sql::Connection& connection();
  // "<path>: cannot <doing>: <what>", with the kind of the exception (sql::kind_of).
  Error fail(const std::string& doing, const std::exception& e) const;
  // "<path>: <what>" with the kind given.
  Error error(ErrorKind kind, const std::string& what) const;
  // `work` runs once the open transaction is committed: at once outside a batch (run_after_commit,
  // which the writer calls after its commit), at commit_batch inside one; dropped when the batch
  // fails. Its failures are ignored (it must lose nothing when it does not run).
  void after_commit(std::function<void(sql::Connection&)> work);
  void run_after_commit();

 private:
  struct State;
  explicit Database(std::unique_ptr<State> state);
  void end_durable();  // synchronous back to NORMAL after a durable batch
  std::unique_ptr<State> state_;
};

// Bytes free to this process on the file system of a database file's directory (statvfs); nothing
// for a server database, ":memory:", or a directory that cannot be read.
std::optional<std::int64_t> free_bytes(const std::string& database);

// Whether a database string names a database on a server (postgresql://, postgres://) rather than
// a file, and the string to show for it (a URL without its password).
bool is_server_database(const std::string& database);
std::string database_name(const std::string& database);

}  // namespace referee::storage
