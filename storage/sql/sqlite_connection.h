// The SQLite implementation of the SQL layer (sql.h), over SQLiteCpp. Errors are
// SQLite::Exception, so that Store can name SQLite's causes (busy, corrupt, not a database).
#pragma once

#include <memory>
#include <string>

#include <SQLiteCpp/Database.h>

#include "storage/sql/sql.h"

namespace referee::storage::sql {

// `flags` and the busy timeout as SQLite::Database takes them.
std::unique_ptr<Connection> open_sqlite(const std::string& name, int flags, int busy_timeout_ms);

// The SQLiteCpp database under a connection of open_sqlite (PRAGMAs, SQLite-only checks).
SQLite::Database& sqlite_database(Connection& connection);

}  // namespace referee::storage::sql
