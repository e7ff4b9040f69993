// The schema, version by version, and the checks made before anything is written to a file.
//
// Decisions:
// - schema_version holds one row; version 0 means "no referee tables yet".
// - A file is checked by reading only (its table names and its schema_version) before WAL mode is
//   set or a migration runs, so a foreign, newer or damaged database is never modified.
// - Players are a game_players table (seat, engine, rank, score), not JSON, so the ratings query
//   and per-engine filters are plain SQL; the opening is a JSON array of canonical moves.
// - Every migration runs in a BEGIN IMMEDIATE transaction that re-reads the version first, so
//   several processes or threads opening a new file at once migrate it exactly once.
#include "storage/schema.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include "storage/store.h"

namespace referee::storage {

namespace {

const char* const kV1 = R"sql(
CREATE TABLE engines (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  command TEXT NOT NULL DEFAULT '',
  id_name TEXT NOT NULL DEFAULT '',
  id_author TEXT NOT NULL DEFAULT ''
);
CREATE TABLE tournaments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  config TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  tournament_id INTEGER REFERENCES tournaments(id),
  slot INTEGER NOT NULL DEFAULT -1,
  game TEXT NOT NULL,
  start_position TEXT NOT NULL DEFAULT '',
  opening TEXT NOT NULL DEFAULT '[]',
  time_control TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'running'
    CHECK (status IN ('running', 'finished', 'unfinished')),
  termination TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL DEFAULT '',
  finished_at TEXT NOT NULL DEFAULT '',
  plies INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_by_tournament ON games(tournament_id, slot);
CREATE INDEX games_by_status ON games(status);
CREATE TABLE game_players (
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL CHECK (seat >= 1),
  engine TEXT NOT NULL REFERENCES engines(name),
  rank INTEGER,
  score REAL,
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_engine ON game_players(engine);
CREATE TABLE moves (
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  ply INTEGER NOT NULL CHECK (ply >= 1),
  player INTEGER NOT NULL,
  move TEXT NOT NULL,
  time_ms INTEGER NOT NULL DEFAULT -1,
  clock_ms INTEGER NOT NULL DEFAULT -1,
  info TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT 'engine' CHECK (source IN ('engine', 'opening', 'forced')),
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE engine_logs (
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('>', '<', '!')),
  text TEXT NOT NULL,
  at_ms INTEGER NOT NULL
);
CREATE INDEX engine_logs_by_game ON engine_logs(game_id);
)sql";

// v2: moves get a note (the referee's: "round 2" where a move began a new round).
// The lines exchanged with an engine are stored as one transcript row per seat and call of
// add_logs (a game's worth) instead of one row per line: three rows per ply made the log cost
// more of the referee's time per ply than everything else. Lines are "<at_ms> <dir> <text>\n"
// with '\\' and newlines escaped in <text>; Store::logs() gives the same LogLine list back.
const char* const kV2 = R"sql(
CREATE TABLE engine_transcripts (
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX engine_transcripts_by_game ON engine_transcripts(game_id);
INSERT INTO engine_transcripts (game_id, seat, text)
  SELECT game_id, seat,
         group_concat(at_ms || ' ' || direction || ' ' ||
                      replace(replace(text, '\', '\\'), char(10), '\n') || char(10), '')
  FROM (SELECT * FROM engine_logs ORDER BY id) GROUP BY game_id, seat;
DROP TABLE engine_logs;
ALTER TABLE moves ADD COLUMN note TEXT NOT NULL DEFAULT '';
)sql";

bool has_table(const std::vector<std::string>& tables, const std::string& name) {
  for (const auto& t : tables)
    if (t == name) return true;
  return false;
}

int read_version(SQLite::Database& db) {
  SQLite::Statement q(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  q.executeStep();
  return q.getColumn(0).getInt();
}

std::string newer_message(const std::string& path, int version) {
  return path + " has schema version " + std::to_string(version) + "; this referee reads up to " +
         std::to_string(kSchemaVersion);
}

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all = {{1, kV1}, {2, kV2}};
  return all;
}

Status prepare_database(SQLite::Database& db, const std::string& path) {
  // 1. Read-only checks. The first read fails here on garbage or a damaged first page.
  std::vector<std::string> tables;
  {
    SQLite::Statement q(db,
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                        "'sqlite\\_%' ESCAPE '\\' ORDER BY name");
    while (q.executeStep()) tables.push_back(q.getColumn(0).getString());
  }
  if (!tables.empty() && !has_table(tables, "schema_version")) {
    std::string names;
    for (std::size_t i = 0; i < tables.size() && i < 5; ++i) names += (i ? ", " : "") + tables[i];
    if (tables.size() > 5) names += ", ...";
    return Error{path + " is not a referee database (it has tables " + names +
                 " but no schema_version)"};
  }
  if (has_table(tables, "schema_version")) {
    int version = read_version(db);
    if (version > kSchemaVersion) return Error{newer_message(path, version)};
  }

  // 2. Connection settings. WAL is persistent in the file; the others are per connection.
  {
    SQLite::Statement q(db, "PRAGMA journal_mode = WAL");
    q.executeStep();
    std::string mode = q.getColumn(0).getString();
    if (mode != "wal")
      return Error{path + ": cannot switch to WAL mode (journal mode is " + mode + ")"};
  }
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA cache_size = -512");  // 512 KiB: the referee writes far more than it rereads
  db.exec("PRAGMA foreign_keys = ON");

  // 3. Migrations, each in its own IMMEDIATE transaction (the version is re-read under the lock).
  for (const Migration& m : migrations()) {
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    int version = read_version(db);
    if (version > kSchemaVersion) return Error{newer_message(path, version)};
    if (version >= m.version) continue;  // already applied (maybe by another connection)
    db.exec(m.sql);
    db.exec("DELETE FROM schema_version");
    SQLite::Statement set(db, "INSERT INTO schema_version (version) VALUES (?)");
    set.bind(1, m.version);
    set.exec();
    tx.commit();
  }
  return Ok{};
}

}  // namespace referee::storage
