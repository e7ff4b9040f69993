// A database of an older schema version on either backend, for the migration tests: made the way
// the referee of that version made it, then filled by the test through the returned connection.
// - SQLite: the migrations up to `version`, in order.
// - PostgreSQL: the baseline schema (postgres_schema(), version kPostgresBaseline: the first
//   PostgreSQL referee wrote this text, byte for byte) and the later steps up to `version`; a
//   version older than the baseline never existed there.
#pragma once

#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "storage/schema.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sql.h"
#include "storage/sql/sqlite_connection.h"

namespace storage_test {

inline bool is_postgres_url(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

inline std::unique_ptr<referee::storage::sql::Connection> database_at(const std::string& url,
                                                                      int version) {
  using namespace referee::storage;
  std::unique_ptr<sql::Connection> db;
  const bool server = is_postgres_url(url);
  if (server) {
    REQUIRE(version >= kPostgresBaseline);
    auto opened = sql::open_postgres(url);
    INFO((opened ? std::string() : opened.error()));
    REQUIRE(opened.ok());
    db = std::move(*opened);
  } else {
    db = sql::open_sqlite(url, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000);
  }
  db->exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
  if (server) db->exec(postgres_schema());
  for (const Migration& m : migrations()) {
    if (m.version > version || (server && m.version <= kPostgresBaseline)) continue;
    db->exec(server && !m.postgres.empty() ? m.postgres : m.sql);
    if (!server && m.sqlite_after) m.sqlite_after(*db);
  }
  db->exec("INSERT INTO schema_version VALUES (" + std::to_string(version) + ")");
  return db;
}

}  // namespace storage_test
