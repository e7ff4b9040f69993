// The database schema and its migrations (design.md §6, style-guide §7.8). Internal to storage/.
#pragma once

#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/sql/sql.h"

namespace referee::storage {

struct Migration {
  int version;      // the schema version after this step
  std::string sql;  // one or more statements, run in one transaction
  // PostgreSQL's text of a step after kPostgresBaseline; empty = `sql` is portable as it is.
  std::string postgres;
  // SQLite only: what the step does that depends on the file (a table another branch's version
  // did not make), run after `sql` in the same transaction; null = nothing.
  void (*sqlite_after)(sql::Connection& db) = nullptr;
};

// An empty PostgreSQL database is given the schema of this version at once (postgres_schema());
// the migrations after it apply to both backends.
constexpr int kPostgresBaseline = 6;

// The whole schema of version kPostgresBaseline in PostgreSQL's DDL.
const std::string& postgres_schema();

// Every migration in order; the last one's version is kSchemaVersion.
const std::vector<Migration>& migrations();

// Checks, reading only, that `db` (opened on `path`) is empty or a referee database this program
// can read (and, with `quick_check`, that PRAGMA quick_check finds it sound), then sets WAL mode,
// synchronous=NORMAL and foreign keys, and applies the missing migrations in one IMMEDIATE
// transaction each. A file that fails the checks is left untouched. May throw (the caller turns
// it into one line). On PostgreSQL: an empty database gets postgres_schema() and the later
// migrations, under an advisory lock, in one transaction each (quick_check does not apply).
Status prepare_database(sql::Connection& db, const std::string& path, bool quick_check);

// The checks of a read-only open: a referee database of schema version 2 to kSchemaVersion (the
// read queries need v2's tables; an older file must be opened once for writing to migrate).
Status check_readable(sql::Connection& db, const std::string& path);

}  // namespace referee::storage
