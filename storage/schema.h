// The database schema and its migrations (design.md §6, style-guide §7.8). Internal to storage/.
#pragma once

#include <string>
#include <vector>

#include <SQLiteCpp/Database.h>

#include "games/expected.h"

namespace referee::storage {

struct Migration {
  int version;      // the schema version after this step
  std::string sql;  // one or more statements, run in one transaction
};

// Every migration in order; the last one's version is kSchemaVersion.
const std::vector<Migration>& migrations();

// Checks, reading only, that `db` (opened on `path`) is empty or a referee database this program
// can read (and, with `quick_check`, that PRAGMA quick_check finds it sound), then sets WAL mode,
// synchronous=NORMAL and foreign keys, and applies the missing migrations in one IMMEDIATE
// transaction each. A file that fails the checks is left untouched. May throw SQLite::Exception
// (the caller turns it into one line).
Status prepare_database(SQLite::Database& db, const std::string& path, bool quick_check);

// The checks of a read-only open: a referee database of schema version 2 to kSchemaVersion (the
// read queries need v2's tables; an older file must be opened once for writing to migrate).
Status check_readable(SQLite::Database& db, const std::string& path);

}  // namespace referee::storage
