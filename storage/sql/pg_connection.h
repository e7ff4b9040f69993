// The PostgreSQL implementation of the SQL layer (sql.h), over libpq.
//
// Decisions:
// - A database string is PostgreSQL when it starts with postgresql:// or postgres://; anything
//   else is a SQLite file. Messages name the URL with its password removed (redact_url).
// - Statements are prepared on the server once per connection (PQprepare) for the cached ones
//   and the frequent ones; a statement of its own runs with PQexecParams (one round trip).
//   Parameters are sent as text, their types inferred by the server from the columns they meet.
// - A SELECT's rows are fetched whole when it runs (the referee's queries are bounded), except a
//   query prepared with Rows::Many inside a transaction: it is declared as a server-side cursor
//   (DECLARE ... NO SCROLL CURSOR, with its parameters) and read kFetchRows rows per FETCH, so an
//   export of any size holds one chunk per cursor. A cursor rather than libpq's single-row mode:
//   the game stream walks two queries in step on one connection and one snapshot (games with
//   their players, games with their moves), and single-row mode allows one query in flight per
//   connection; a cursor also ends early with a CLOSE, where a half-read single-row result must
//   be drained or cancelled before the connection can run anything else. Its cost is one round
//   trip per kFetchRows rows. Outside a transaction (where a cursor cannot live) rows are read
//   whole.
// - TCP keepalives and a 30 s tcp_user_timeout are asked for unless the URL sets them, so a
//   network cut fails the statement within about 30 s instead of hanging for minutes.
// - The connection is not re-established here: a lost one fails every statement with "the
//   connection to the server was lost: ..." (is_connection_lost); its owner opens a new one.
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
