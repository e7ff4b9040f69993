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
// - TCP keepalives and a 30 s tcp_user_timeout (kDefaultTimeouts) are asked for unless the URL
//   sets them (`?keepalives_idle=1&tcp_user_timeout=3000`: each parameter the URL names wins),
//   so a network cut with no reset fails the statement within about 30 s instead of hanging for
//   the system's TCP timeouts (15 minutes and more). storage/SCALING.md "A network cut" gives the
//   detection time as a function of these.
// - The server's end of the connection is given the same values (SET tcp_keepalives_idle, ...,
//   tcp_user_timeout, right after connecting): a backend whose client vanished in a transaction
//   keeps its row locks until the server notices, which by the server's defaults is hours;
//   the claims of the vanished client (FOR UPDATE SKIP LOCKED) could not be taken over and a
//   claim that updates its game would wait. Unix sockets ignore all of these.
// - The connection is not re-established here: a lost one fails every statement with "the
//   connection to the server was lost: ..." and the kind Unavailable; its owner opens a new one.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "base/expected.h"
#include "storage/sql/sql.h"

namespace referee::storage::sql {

bool is_postgres_url(const std::string& database);

// libpq's connection parameters added to a URL that does not set them itself.
inline constexpr std::pair<std::string_view, std::string_view> kDefaultTimeouts[] = {
    {"connect_timeout", "10"},    {"keepalives", "1"},       {"keepalives_idle", "10"},
    {"keepalives_interval", "5"}, {"keepalives_count", "3"}, {"tcp_user_timeout", "30000"}};

// Whether the URL's query names the parameter `key` ("...?a=1&key=2").
bool url_sets(const std::string& url, std::string_view key);

// The URL with each of kDefaultTimeouts it does not set appended.
std::string with_default_timeouts(const std::string& url);

// The URL without its password ("postgresql://user@host/db"), for messages.
std::string redact_url(const std::string& url);

// Connects; errors are one line naming the redacted URL: server unreachable, authentication
// failed, database missing.
Expected<std::unique_ptr<Connection>> open_postgres(const std::string& url);

}  // namespace referee::storage::sql
