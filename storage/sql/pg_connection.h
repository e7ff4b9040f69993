// The PostgreSQL implementation of the SQL layer (sql.h), over libpq.
//
// Decisions:
// - A database string is PostgreSQL when it starts with postgresql:// or postgres://; anything
//   else is a SQLite file. Messages name the URL with its password removed (redact_url).
// - Statements are prepared on the server once per connection (PQprepare) for the cached ones
//   and the frequent ones; a statement of its own runs with PQexecParams (one round trip).
//   Parameters are sent as text, their types inferred by the server from the columns they meet.
// - A SELECT's rows are fetched whole when it runs (the referee's queries are bounded, or are
//   the exports' cursors, read in one pass).
#pragma once

#include <memory>
#include <string>

#include "games/expected.h"
#include "storage/sql/sql.h"

namespace referee::storage::sql {

bool is_postgres_url(const std::string& database);

// The URL without its password ("postgresql://user@host/db"), for messages.
std::string redact_url(const std::string& url);

// Connects; errors are one line naming the redacted URL: server unreachable, authentication
// failed, database missing.
Expected<std::unique_ptr<Connection>> open_postgres(const std::string& url);

}  // namespace referee::storage::sql
