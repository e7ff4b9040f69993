// The SQLite implementation of the SQL layer (sql.h), over SQLiteCpp, and everything that is
// SQLite's alone: its result codes (each failure is a sql::Failure with the kind its code means:
// SQLITE_FULL Full, SQLITE_BUSY/LOCKED Unavailable, I/O, permissions and damaged files Io,
// constraints Conflict), opening a file (the checks of its directory, the retries while another
// process prepares it, the read-only and `immutable` opens), PRAGMA max_page_count and
// PRAGMA integrity_check. Nothing above the SQL layer includes sqlite3.h for the store's sake.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <SQLiteCpp/Database.h>

#include "base/expected.h"
#include "storage/sql/sql.h"

namespace referee::storage::sql {

// `flags` and the busy timeout as SQLite::Database takes them. Throws sql::Failure.
std::unique_ptr<Connection> open_sqlite(const std::string& name, int flags, int busy_timeout_ms);

// The SQLiteCpp database under a connection of open_sqlite (PRAGMAs, SQLite-only checks).
SQLite::Database& sqlite_database(Connection& connection);

// Opens the file `path` for reading and writing (created when missing: its directory must exist
// and be writable) and runs `prepare` on it (the schema's checks and migrations). Several
// processes opening one new file at once: switching it to WAL and migrating it take locks that
// SQLite's busy handler does not always wait for (SQLITE_BUSY at once), so the whole preparation
// is tried again until the busy timeout has passed. `max_page_count` > 0 caps the file (a test's
// full disk). Errors are one line naming the file, with their kind.
Expected<std::unique_ptr<Connection>> open_sqlite_file(
    const std::string& path, long max_page_count, int busy_timeout_ms,
    const std::function<Status(Connection&, bool existed)>& prepare);

// Opens the file `path` only to read it, never creating or changing it (see the .cpp for the
// `immutable` open of a read-only directory), then runs `check` on it.
Expected<std::unique_ptr<Connection>> open_sqlite_read_only(
    const std::string& path, int busy_timeout_ms, const std::function<Status(Connection&)>& check);

// PRAGMA quick_check(1) of a file about to be written: Io "<path> is corrupt (quick_check: ...);
// nothing was written to it" unless it is sound. Throws on a failure to read.
Status sqlite_quick_check(Connection& connection, const std::string& path);

// A writer's settings: WAL (persistent in the file: Io when it cannot be set), synchronous=NORMAL,
// a 512 KiB cache and foreign keys (per connection). Throws on a failure to write.
Status sqlite_configure_writer(Connection& connection, const std::string& path);

// PRAGMA integrity_check: its findings, at most `max`; empty when the file is sound. Throws.
std::vector<std::string> integrity_check(Connection& connection, int max);

// One line for a failure of the file `path` (not a database, corrupt, cannot open, not
// writable, locked), with the failure's kind.
Error file_error(const std::string& path, const Failure& failure);

}  // namespace referee::storage::sql
