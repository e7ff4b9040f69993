// The checks made before anything is written to a database, and the running of the migrations
// (migrations.cpp holds their texts, version by version).
//
// Decisions:
// - schema_version holds one row; version 0 means "no referee tables yet".
// - A file is checked by reading only (its table names and its schema_version) before WAL mode is
//   set or a migration runs, so a foreign, newer or damaged database is never modified.
// - Players are a game_players table (seat, engine, rank, score), not JSON, so the ratings query
//   and per-engine filters are plain SQL; the opening is a JSON array of canonical moves.
// - Every migration runs in a BEGIN IMMEDIATE transaction that re-reads the version first, so
//   several processes or threads opening a new file at once migrate it exactly once.
// - PostgreSQL: no PostgreSQL database predates version 6, so an empty one is given the whole
//   schema of version 6 at once (postgres_schema(), the same tables, columns, indexes and the
//   results triggers as PL/pgSQL) and its version recorded; every migration after 6 applies to
//   both backends (Migration::postgres when its SQLite text is not portable). Integer columns are
//   BIGINT where SQLite's INTEGER holds ids or milliseconds, ids are identity columns, and the
//   schema is created or migrated in one transaction under an advisory lock, so several processes
//   starting at once create it exactly once.
#include "storage/schema.h"

#include "storage/sql/dialect.h"
#include "storage/sql/sqlite_connection.h"
#include "storage/store.h"

namespace referee::storage {

namespace {

bool has_table(const std::vector<std::string>& tables, const std::string& name) {
  for (const auto& t : tables)
    if (t == name) return true;
  return false;
}

int read_version(sql::Connection& db) {
  sql::Query q(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  q.step();
  return q.int32(0);
}

std::string newer_message(const std::string& path, int version) {
  return path + " has schema version " + std::to_string(version) + "; this referee reads up to " +
         std::to_string(kSchemaVersion);
}

}  // namespace

namespace {

// The read-only checks shared by both opens; returns the schema version (0: no referee tables).
Expected<int> check_tables(sql::Connection& db, const std::string& path) {
  // The first read fails here on garbage or a damaged first page.
  std::vector<std::string> tables;
  {
    sql::Query q(db, sql::table_names(db.backend()));
    while (q.step()) tables.push_back(q.text(0));
  }
  if (!tables.empty() && !has_table(tables, "schema_version")) {
    std::string names;
    for (std::size_t i = 0; i < tables.size() && i < 5; ++i) names += (i ? ", " : "") + tables[i];
    if (tables.size() > 5) names += ", ...";
    return Error{path + " is not a referee database (it has tables " + names +
                 " but no schema_version)"};
  }
  if (!has_table(tables, "schema_version")) return 0;
  int version = read_version(db);
  if (version > kSchemaVersion) return Error{newer_message(path, version)};
  return version;
}

}  // namespace

namespace {

// A SQLite file older than v13 read without migrating it: temporary views and tables named as the
// current tables (a connection's temporary objects come before the file's in name lookup): before
// v10 each old table with its tournament_id also as event_id; before v12 events and engines with
// an empty submitted_by; before v13 empty artifact tables. Read-only connections may create
// temporary objects.
void compat_views(sql::Connection& db, int version) {
  if (version < 13)
    db.exec(
        "CREATE TEMP TABLE artifacts (sha256 TEXT, kind TEXT, file_name TEXT, size INTEGER,"
        " extracted_bytes INTEGER, files INTEGER, created_at TEXT);"
        "CREATE TEMP TABLE artifact_chunks (sha256 TEXT, seq INTEGER, bytes BLOB);"
        "CREATE TEMP TABLE artifact_names (name TEXT, owner TEXT, created_at TEXT);"
        "CREATE TEMP TABLE artifact_versions (name TEXT, version INTEGER, sha256 TEXT,"
        " command TEXT, uploaded_by TEXT, created_at TEXT, retired_at TEXT);");
  if (version >= 12) return;
  if (version >= 10) {
    db.exec(
        "CREATE TEMP VIEW events AS SELECT *, '' AS submitted_by FROM main.events;"
        "CREATE TEMP VIEW engines AS SELECT *, '' AS submitted_by FROM main.engines;");
    return;
  }
  db.exec(
      "CREATE TEMP VIEW events AS SELECT *, '' AS submitted_by FROM main.tournaments;"
      "CREATE TEMP VIEW engines AS SELECT *, '' AS submitted_by FROM main.engines;"
      "CREATE TEMP VIEW games AS SELECT *, tournament_id AS event_id FROM main.games;");
  if (version >= 3)
    db.exec("CREATE TEMP VIEW slots AS SELECT *, tournament_id AS event_id FROM main.slots;");
  if (version >= 5)
    db.exec(
        "CREATE TEMP VIEW result_kinds AS SELECT *, tournament_id AS event_id FROM"
        " main.result_kinds;");
}

}  // namespace

Status check_readable(sql::Connection& db, const std::string& path) {
  auto version = check_tables(db, path);
  if (!version) return version.failure();
  if (*version == 0) return Error{path + " is an empty database (no referee tables)"};
  if (*version < 2 || (*version < kSchemaVersion && db.backend() == sql::Backend::PostgreSQL))
    return Error{path + " has schema version " + std::to_string(*version) +
                 "; open it once with a command that writes (referee tournament) to migrate it"};
  if (*version < 13) compat_views(db, *version);
  return Ok{};
}

namespace {

// PostgreSQL: the baseline schema on an empty database, then the later migrations; each step in
// one transaction that holds an advisory lock and re-reads the version.
Status prepare_postgres(sql::Connection& db, const std::string& path) {
  constexpr const char* kLock = "SELECT pg_advisory_xact_lock(7351846)";  // "referee schema"
  {
    sql::Transaction tx(db);
    sql::Query(db, kLock).step();
    db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    const int current = read_version(db);
    if (current > kSchemaVersion) return Error{newer_message(path, current)};
    if (current == 0) {
      db.exec(postgres_schema());
      db.exec("DELETE FROM schema_version");
      sql::Query set(db, "INSERT INTO schema_version (version) VALUES (?)");
      set.bind(1, kPostgresBaseline);
      set.exec();
    } else if (current < kPostgresBaseline) {
      return Error{path + " has schema version " + std::to_string(current) +
                   ", older than any PostgreSQL database of the referee"};
    }
    tx.commit();
  }
  for (const Migration& m : migrations()) {
    if (m.version <= kPostgresBaseline) continue;
    sql::Transaction tx(db);
    sql::Query(db, kLock).step();
    const int current = read_version(db);
    if (current > kSchemaVersion) return Error{newer_message(path, current)};
    if (current >= m.version) continue;
    db.exec(m.postgres.empty() ? m.sql : m.postgres);
    db.exec("DELETE FROM schema_version");
    sql::Query set(db, "INSERT INTO schema_version (version) VALUES (?)");
    set.bind(1, m.version);
    set.exec();
    tx.commit();
  }
  return Ok{};
}

}  // namespace

Status prepare_database(sql::Connection& db, const std::string& path, bool quick_check) {
  if (db.backend() == sql::Backend::PostgreSQL) {
    auto version = check_tables(db, path);
    if (!version) return version.failure();
    return prepare_postgres(db, path);
  }
  // 1. Read-only checks.
  auto version = check_tables(db, path);
  if (!version) return version.failure();
  if (quick_check && *version > 0) {
    // Never write into a damaged file.
    if (Status sound = sql::sqlite_quick_check(db, path); !sound) return sound;
  }

  // 2. Connection settings (WAL, synchronous=NORMAL, foreign keys).
  if (Status set = sql::sqlite_configure_writer(db, path); !set) return set;

  // 3. Migrations, each in its own IMMEDIATE transaction (the version is re-read under the lock).
  for (const Migration& m : migrations()) {
    sql::Transaction tx(db);
    db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    int current = read_version(db);
    if (current > kSchemaVersion) return Error{newer_message(path, current)};
    if (current >= m.version) continue;  // already applied (maybe by another connection)
    db.exec(m.sql);
    if (m.sqlite_after) m.sqlite_after(db);
    db.exec("DELETE FROM schema_version");
    sql::Query set(db, "INSERT INTO schema_version (version) VALUES (?)");
    set.bind(1, m.version);
    set.exec();
    tx.commit();
  }
  return Ok{};
}

}  // namespace referee::storage
