// The schema's history: every migration's text, version by version, and PostgreSQL's baseline
// (schema.h). Each step's comment says what it adds and why; the checks and the running of the
// steps are schema.cpp's.
#include "storage/schema.h"

#include "storage/sql/dialect.h"
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
// with '\\' and newlines escaped in <text> (later "<at_ms>.<us> ...": the format is documented
// at storage::LogLine); Store::logs() gives the same LogLine list back.
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

// v3: events shared by many processes (see claims in store.h).
// - tournaments gets the event's whole normalized specification (JSON; a worker rebuilds the
//   event from it), its state and priority; `config` keeps the v2 schedule fingerprint.
// - owners: one row per referee process that plays games.
// - slots: the schedule materialized once, with the claim of each slot (owner, lease).
// - games get the owner that played them, and a unique index makes a second finished game for one
//   slot impossible. Slots finished twice by concurrent v2 runs keep their first finished game;
//   the later ones become "unfinished" with termination "duplicate" (kept, never rated).
const char* const kV3 = R"sql(
ALTER TABLE tournaments ADD COLUMN spec TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN state TEXT NOT NULL DEFAULT 'running'
  CHECK (state IN ('queued', 'running', 'paused', 'cancelled', 'finished'));
ALTER TABLE tournaments ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN finished_at TEXT NOT NULL DEFAULT '';
CREATE TABLE owners (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  host TEXT NOT NULL DEFAULT '',
  pid INTEGER NOT NULL DEFAULT 0,
  kind TEXT NOT NULL CHECK (kind IN ('tournament', 'serve', 'worker')),
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  stopped_at INTEGER
);
CREATE TABLE slots (
  tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  slot INTEGER NOT NULL CHECK (slot >= 0),
  game TEXT NOT NULL,
  seats TEXT NOT NULL,
  opening TEXT NOT NULL DEFAULT '[]',
  cycle INTEGER NOT NULL DEFAULT 0,
  round INTEGER NOT NULL DEFAULT 0,
  pair INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done', 'skipped')),
  owner INTEGER REFERENCES owners(id),
  lease_expires_at INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  game_id INTEGER REFERENCES games(id),
  reason TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (tournament_id, slot)
) WITHOUT ROWID;
CREATE INDEX slots_by_state ON slots(state, tournament_id, slot);
CREATE INDEX slots_by_owner ON slots(owner) WHERE owner IS NOT NULL;
ALTER TABLE games ADD COLUMN owner INTEGER REFERENCES owners(id);
UPDATE games SET status = 'unfinished', termination = 'duplicate',
  reason = 'slot ' || slot || ' was already finished by game ' ||
           (SELECT min(o.id) FROM games o WHERE o.tournament_id = games.tournament_id
            AND o.slot = games.slot AND o.status = 'finished')
  WHERE status = 'finished' AND slot >= 0 AND tournament_id IS NOT NULL
    AND id > (SELECT min(o.id) FROM games o WHERE o.tournament_id = games.tournament_id
              AND o.slot = games.slot AND o.status = 'finished');
CREATE UNIQUE INDEX games_one_finish_per_slot ON games(tournament_id, slot)
  WHERE status = 'finished' AND slot >= 0 AND tournament_id IS NOT NULL;
)sql";

// v4: the daemon (referee serve).
// - tournaments get their kind: "tournament" (a fixed schedule, finished when every slot is done
//   or skipped), "ladder" (a standing event per game whose slots are appended while it runs) or
//   "sprt" (slots appended until a sequential test decides). Only a tournament finishes by
//   itself when it runs out of slots.
// - engines registered through the API for the ladders keep their whole definition: args and
//   options as JSON, the games they play, the rest of their settings (dir, env, protocol0,
//   limits, timeouts) as one JSON object, when they were registered and retired (ISO 8601; empty
//   = never). Engines known only from tournament files keep these empty.
const char* const kV4 = R"sql(
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'tournament'
  CHECK (kind IN ('tournament', 'ladder', 'sprt'));
ALTER TABLE engines ADD COLUMN args TEXT NOT NULL DEFAULT '[]';
ALTER TABLE engines ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE engines ADD COLUMN games TEXT NOT NULL DEFAULT '[]';
ALTER TABLE engines ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE engines ADD COLUMN registered_at TEXT NOT NULL DEFAULT '';
ALTER TABLE engines ADD COLUMN retired_at TEXT NOT NULL DEFAULT '';
)sql";

// v6: one vocabulary of results (referee/games/terminations.h): a game the rules ended is stored
// as `rules`, the word of the protocol's gameover line, instead of `normal`. The step needs only
// v3's games table (it does not depend on v4 or v5; after v5 the results triggers follow the
// change).
const char* const kV6 = R"sql(
UPDATE games SET termination = 'rules' WHERE termination = 'normal';
)sql";

// v7: workers (referee worker).
// - Which bytes played (engines/engine_hash.h): per game, the SHA-256 of each seat's engine as a
//   JSON array by seat (storage/store.h: engine_hashes_json); "[]" for games recorded before.
// - owners.lease_expires_at: the last heartbeat plus the owner's lease, so that anyone can tell a
//   live owner from a killed one (Store::owners); 0 for owners registered before.
// Self-contained: it needs only v1's games and v3's owners tables.
const char* const kV7 = R"sql(
ALTER TABLE games ADD COLUMN engine_hashes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE owners ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
)sql";
// PostgreSQL's INTEGER is 32 bits: milliseconds since 1970 need BIGINT.
const char* const kV7Postgres = R"sql(
ALTER TABLE games ADD COLUMN engine_hashes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE owners ADD COLUMN lease_expires_at BIGINT NOT NULL DEFAULT 0;
)sql";

// v8: `referee import` recognises a game it already has by its content (storage/import.h); the
// candidates are the games that began at the same time. Self-contained: an index on v1's games.
const char* const kV8 = R"sql(
CREATE INDEX games_by_started_at ON games(started_at);
)sql";

// v9: a transcript's position lines may be stored as what they add to an earlier one ('+' lines,
// storage/transcript_text.h). The rows already stored are valid as they are (they have no '+'
// line); the version keeps an older referee, which would misread '+' lines, from opening the file.
// The statement changes nothing, on either backend.
const char* const kV9 = R"sql(
UPDATE engine_transcripts SET text = text WHERE 1 = 0;
)sql";

// v10: one word for an event. The table the API and the code call events was `tournaments`, and
// the columns naming one `tournament_id` (games, slots, result_kinds): they are renamed, rows
// kept. SQLite rewrites the foreign keys, indexes and the results triggers that name them (ALTER
// TABLE ... RENAME, SQLite >= 3.26); PostgreSQL's triggers follow the columns, and the PL/pgSQL
// function that names one by its text is replaced. Index names are kept (games_by_tournament):
// renaming one would rebuild it, minutes on a large file, for a name nobody reads.
// A file older than v10 opened read-only (not migrated) is read through temporary views that give
// it the new names (compat_views).
const char* const kV10 = R"sql(
ALTER TABLE tournaments RENAME TO events;
ALTER TABLE games RENAME COLUMN tournament_id TO event_id;
ALTER TABLE slots RENAME COLUMN tournament_id TO event_id;
)sql";
// result_kinds is v5's; a file whose version 4 or 5 was another branch's step has none.
void v10_result_kinds(sql::Connection& db) {
  bool found = false;
  for (sql::Query q(db, sql::table_names(db.backend())); q.step();)
    found = found || q.text(0) == "result_kinds";
  if (found) db.exec("ALTER TABLE result_kinds RENAME COLUMN tournament_id TO event_id");
}
const char* const kV10Postgres = R"sql(
ALTER TABLE tournaments RENAME TO events;
ALTER TABLE games RENAME COLUMN tournament_id TO event_id;
ALTER TABLE slots RENAME COLUMN tournament_id TO event_id;
ALTER TABLE result_kinds RENAME COLUMN tournament_id TO event_id;
CREATE OR REPLACE FUNCTION referee_refresh_result(gid BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM results WHERE game_id = gid;
  INSERT INTO result_kinds (game, termination, time_control, event_id)
    SELECT game, termination, time_control, coalesce(event_id, 0) FROM games
    WHERE id = gid AND status = 'finished' ON CONFLICT DO NOTHING;
  INSERT INTO results (kind, seats, game_id, finished_at)
    SELECT k.id, s.seats, g.id, g.finished_at FROM games g
    JOIN result_kinds k ON k.game = g.game AND k.termination = g.termination
      AND k.time_control = g.time_control AND k.event_id = coalesce(g.event_id, 0)
    JOIN (SELECT string_agg(p.seat || ':' || e.id || ':' || p.rank, ' ' ORDER BY p.seat) AS seats,
                 count(p.rank) AS ranked, count(e.id) AS known, count(*) AS n
          FROM game_players p LEFT JOIN engines e ON e.name = p.engine
          WHERE p.game_id = gid) s ON true
    WHERE g.id = gid AND g.status = 'finished' AND s.n > 0 AND s.ranked = s.n AND s.known = s.n;
END $$;
)sql";

// v11: each seat's time control (a tournament's engines may each have their own `tc`): per game,
// a JSON array of canonical time controls by seat (storage/store.h: time_controls_json); "[]" for
// games recorded before, whose seats all had the game's time_control. Self-contained: one column
// on v1's games, the same text on both backends.
const char* const kV11 = R"sql(
ALTER TABLE games ADD COLUMN time_controls TEXT NOT NULL DEFAULT '[]';
)sql";

// v12: credentials and who submitted what (referee/service/principal.h).
// - author_tokens: the author tokens the operator made (`referee token add NAME`), by name; only
//   the SHA-256 of a token is kept (hex), so the database never holds a credential a reader of it
//   could present. A revoked token keeps its row (revoked_at set): the name stays attached to
//   what it submitted, and may be given a new token later.
// - events.submitted_by, engines.submitted_by: the name of the principal that submitted the event
//   or registered the engine ("operator", an author's name); '' for those made before v12 and by
//   the local commands (referee tournament: whoever can write the database is the operator).
// Self-contained: a new table and two columns on v1's engines and v10's events, the same text on
// both backends.
const char* const kV12 = R"sql(
CREATE TABLE author_tokens (
  name TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT NOT NULL DEFAULT ''
);
ALTER TABLE events ADD COLUMN submitted_by TEXT NOT NULL DEFAULT '';
ALTER TABLE engines ADD COLUMN submitted_by TEXT NOT NULL DEFAULT '';
)sql";

// v13: engines as uploaded artifacts (storage/artifact_store.h, engines/ARTIFACTS.md).
// - artifacts: one row per distinct content, keyed by its SHA-256 (hex): immutable and
//   deduplicated. `kind` is 'file' (the bytes are the one file, named file_name) or 'tree' (a tar
//   archive); extracted_bytes and files are what inspecting it found.
// - artifact_chunks: the bytes in pieces of at most 1 MiB in `seq` order, so no statement moves a
//   whole 64 MiB artifact and a reader streams it.
// - artifact_names: who owns a name (the first uploader); only they and the operator add versions.
// - artifact_versions: name@version → an artifact and the command that starts it from its root.
const char* const kV13 = R"sql(
CREATE TABLE artifacts (
  sha256 TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  file_name TEXT NOT NULL DEFAULT '',
  size BIGINT NOT NULL,
  extracted_bytes BIGINT NOT NULL,
  files BIGINT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE artifact_chunks (
  sha256 TEXT NOT NULL REFERENCES artifacts(sha256),
  seq INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (sha256, seq)
);
CREATE TABLE artifact_names (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE artifact_versions (
  name TEXT NOT NULL REFERENCES artifact_names(name),
  version INTEGER NOT NULL,
  sha256 TEXT NOT NULL REFERENCES artifacts(sha256),
  command TEXT NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (name, version)
);
CREATE INDEX artifact_versions_by_hash ON artifact_versions(sha256);
)sql";
// PostgreSQL stores bytes as BYTEA.
std::string v13_postgres() {
  std::string text = kV13;
  text.replace(text.find("bytes BLOB"), 10, "bytes BYTEA");
  return text;
}

// v5: results, what rating tables count, in a form a million games are read from in a tenth of a
// second (`referee ratings` read the games and their players, 3 rows and 230 bytes per game, and
// spent 0.4 s of CPU in SQLite alone).
// - result_kinds: one row per (game string, termination, time control, tournament; 0 = none),
//   the columns the filters test, so a filter is a list of kinds.
// - results: one row per finished game with a rank for every seat, clustered by (kind, seats), so
//   `GROUP BY kind, seats` counts identical games in one ordered pass without sorting. `seats`
//   is "seat:engine_id:rank" per seat, space-separated, in seat order (engine_id = engines.id).
// - Triggers keep it exact whichever way a game is finished, demoted, imported or deleted: any
//   change to a finished game's status, game string, termination, time control, tournament or
//   finish time, or to its players, recomputes its row (a game being played costs nothing: the
//   triggers test its status first). Existing finished games are counted once here.
// - Self-contained: it reads only tables of v1–v3 (games, game_players, engines), so it applies
//   on a v3 file as well as on one with the daemon's v4 (version 4 is the daemon's number).
std::string refresh_results(const std::string& id) {
  return "DELETE FROM results WHERE game_id = " + id +
         ";\n"
         "INSERT OR IGNORE INTO result_kinds (game, termination, time_control, tournament_id)"
         " SELECT game, termination, time_control, coalesce(tournament_id, 0) FROM games"
         " WHERE id = " +
         id +
         " AND status = 'finished';\n"
         "INSERT INTO results (kind, seats, game_id, finished_at)"
         " SELECT k.id, s.seats, g.id, g.finished_at FROM games g"
         " JOIN result_kinds k ON k.game = g.game AND k.termination = g.termination"
         " AND k.time_control = g.time_control AND k.tournament_id = coalesce(g.tournament_id, 0)"
         " JOIN (SELECT group_concat(p.seat || ':' || e.id || ':' || p.rank, ' ') AS seats,"
         " count(p.rank) AS ranked, count(e.id) AS known, count(*) AS n FROM game_players p"
         " LEFT JOIN engines e ON e.name = p.engine WHERE p.game_id = " +
         id + ") s WHERE g.id = " + id +
         " AND g.status = 'finished' AND s.n > 0 AND s.ranked = s.n AND s.known = s.n;\n";
}

std::string v5() {
  const std::string finished_or_counted =
      "(SELECT status FROM games WHERE id = NEW.game_id) = 'finished' OR EXISTS (SELECT 1 FROM "
      "results WHERE game_id = NEW.game_id)";
  return R"sql(
CREATE TABLE result_kinds (
  id INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  termination TEXT NOT NULL,
  time_control TEXT NOT NULL,
  tournament_id INTEGER NOT NULL,
  UNIQUE (game, termination, time_control, tournament_id)
);
CREATE TABLE results (
  kind INTEGER NOT NULL REFERENCES result_kinds(id),
  seats TEXT NOT NULL,
  game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  finished_at TEXT NOT NULL,
  PRIMARY KEY (kind, seats, game_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX results_by_game ON results(game_id);
INSERT OR IGNORE INTO result_kinds (game, termination, time_control, tournament_id)
  SELECT DISTINCT game, termination, time_control, coalesce(tournament_id, 0) FROM games
  WHERE status = 'finished';
INSERT INTO results (kind, seats, game_id, finished_at)
  SELECT k.id, s.seats, g.id, g.finished_at FROM games g
  JOIN result_kinds k ON k.game = g.game AND k.termination = g.termination
    AND k.time_control = g.time_control AND k.tournament_id = coalesce(g.tournament_id, 0)
  JOIN (SELECT p.game_id, group_concat(p.seat || ':' || e.id || ':' || p.rank, ' ') AS seats,
               count(p.rank) AS ranked, count(e.id) AS known, count(*) AS n
        FROM (SELECT * FROM game_players ORDER BY game_id, seat) p
        LEFT JOIN engines e ON e.name = p.engine GROUP BY p.game_id) s ON s.game_id = g.id
  WHERE g.status = 'finished' AND s.ranked = s.n AND s.known = s.n;
CREATE TRIGGER results_game_insert AFTER INSERT ON games WHEN NEW.status = 'finished' BEGIN
)sql" + refresh_results("NEW.id") +
         R"sql(END;
CREATE TRIGGER results_game_update
  AFTER UPDATE OF status, game, termination, time_control, tournament_id, finished_at ON games
  WHEN OLD.status = 'finished' OR NEW.status = 'finished' BEGIN
)sql" + refresh_results("NEW.id") +
         R"sql(END;
CREATE TRIGGER results_player_insert AFTER INSERT ON game_players WHEN )sql" +
         finished_or_counted + " BEGIN\n" + refresh_results("NEW.game_id") +
         R"sql(END;
CREATE TRIGGER results_player_update AFTER UPDATE OF game_id, seat, engine, rank ON game_players
  WHEN )sql" +
         finished_or_counted + " BEGIN\n" + refresh_results("NEW.game_id") +
         R"sql(END;
CREATE TRIGGER results_player_delete AFTER DELETE ON game_players BEGIN
)sql" + refresh_results("OLD.game_id") +
         "END;\n";
}

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all = {{1, kV1, "", nullptr},
                                             {2, kV2, "", nullptr},
                                             {3, kV3, "", nullptr},
                                             {4, kV4, "", nullptr},
                                             {5, v5(), "", nullptr},
                                             {6, kV6, "", nullptr},
                                             {7, kV7, kV7Postgres, nullptr},
                                             {8, kV8, "", nullptr},
                                             {9, kV9, "", nullptr},
                                             {10, kV10, kV10Postgres, v10_result_kinds},
                                             {11, kV11, "", nullptr},
                                             {12, kV12, "", nullptr},
                                             {13, kV13, v13_postgres(), nullptr}};
  return all;
}

// Version 6 (kPostgresBaseline) in PostgreSQL's DDL: the tables of v1..v6 with every column the
// migrations added, in the same order, and v5's results triggers as PL/pgSQL.
const std::string& postgres_schema() {
  static const std::string schema = R"sql(
CREATE TABLE engines (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  command TEXT NOT NULL DEFAULT '',
  id_name TEXT NOT NULL DEFAULT '',
  id_author TEXT NOT NULL DEFAULT '',
  args TEXT NOT NULL DEFAULT '[]',
  options TEXT NOT NULL DEFAULT '{}',
  games TEXT NOT NULL DEFAULT '[]',
  settings TEXT NOT NULL DEFAULT '{}',
  registered_at TEXT NOT NULL DEFAULT '',
  retired_at TEXT NOT NULL DEFAULT ''
);
CREATE TABLE tournaments (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  config TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
    DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  spec TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT 'running'
    CHECK (state IN ('queued', 'running', 'paused', 'cancelled', 'finished')),
  priority INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL DEFAULT '',
  finished_at TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL DEFAULT 'tournament' CHECK (kind IN ('tournament', 'ladder', 'sprt'))
);
CREATE TABLE owners (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  host TEXT NOT NULL DEFAULT '',
  pid BIGINT NOT NULL DEFAULT 0,
  kind TEXT NOT NULL CHECK (kind IN ('tournament', 'serve', 'worker')),
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  stopped_at BIGINT
);
CREATE TABLE games (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  tournament_id BIGINT REFERENCES tournaments(id),
  slot BIGINT NOT NULL DEFAULT -1,
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
  plies BIGINT NOT NULL DEFAULT 0,
  owner BIGINT REFERENCES owners(id)
);
CREATE INDEX games_by_tournament ON games(tournament_id, slot);
CREATE INDEX games_by_status ON games(status);
CREATE UNIQUE INDEX games_one_finish_per_slot ON games(tournament_id, slot)
  WHERE status = 'finished' AND slot >= 0 AND tournament_id IS NOT NULL;
CREATE TABLE game_players (
  game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL CHECK (seat >= 1),
  engine TEXT NOT NULL REFERENCES engines(name),
  rank INTEGER,
  score DOUBLE PRECISION,
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_engine ON game_players(engine);
CREATE TABLE moves (
  game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  ply INTEGER NOT NULL CHECK (ply >= 1),
  player INTEGER NOT NULL,
  move TEXT NOT NULL,
  time_ms BIGINT NOT NULL DEFAULT -1,
  clock_ms BIGINT NOT NULL DEFAULT -1,
  info TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT 'engine' CHECK (source IN ('engine', 'opening', 'forced')),
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (game_id, ply)
);
CREATE TABLE engine_transcripts (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat INTEGER NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX engine_transcripts_by_game ON engine_transcripts(game_id);
CREATE TABLE slots (
  tournament_id BIGINT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  slot BIGINT NOT NULL CHECK (slot >= 0),
  game TEXT NOT NULL,
  seats TEXT NOT NULL,
  opening TEXT NOT NULL DEFAULT '[]',
  cycle INTEGER NOT NULL DEFAULT 0,
  round INTEGER NOT NULL DEFAULT 0,
  pair INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done', 'skipped')),
  owner BIGINT REFERENCES owners(id),
  lease_expires_at BIGINT NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  game_id BIGINT REFERENCES games(id),
  reason TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (tournament_id, slot)
);
CREATE INDEX slots_by_state ON slots(state, tournament_id, slot);
CREATE INDEX slots_by_owner ON slots(owner) WHERE owner IS NOT NULL;
CREATE TABLE result_kinds (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  game TEXT NOT NULL,
  termination TEXT NOT NULL,
  time_control TEXT NOT NULL,
  tournament_id BIGINT NOT NULL,
  UNIQUE (game, termination, time_control, tournament_id)
);
CREATE TABLE results (
  kind BIGINT NOT NULL REFERENCES result_kinds(id),
  seats TEXT NOT NULL,
  game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  finished_at TEXT NOT NULL,
  PRIMARY KEY (kind, seats, game_id)
);
CREATE UNIQUE INDEX results_by_game ON results(game_id);
CREATE FUNCTION referee_refresh_result(gid BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM results WHERE game_id = gid;
  INSERT INTO result_kinds (game, termination, time_control, tournament_id)
    SELECT game, termination, time_control, coalesce(tournament_id, 0) FROM games
    WHERE id = gid AND status = 'finished' ON CONFLICT DO NOTHING;
  INSERT INTO results (kind, seats, game_id, finished_at)
    SELECT k.id, s.seats, g.id, g.finished_at FROM games g
    JOIN result_kinds k ON k.game = g.game AND k.termination = g.termination
      AND k.time_control = g.time_control AND k.tournament_id = coalesce(g.tournament_id, 0)
    JOIN (SELECT string_agg(p.seat || ':' || e.id || ':' || p.rank, ' ' ORDER BY p.seat) AS seats,
                 count(p.rank) AS ranked, count(e.id) AS known, count(*) AS n
          FROM game_players p LEFT JOIN engines e ON e.name = p.engine
          WHERE p.game_id = gid) s ON true
    WHERE g.id = gid AND g.status = 'finished' AND s.n > 0 AND s.ranked = s.n AND s.known = s.n;
END $$;
CREATE FUNCTION referee_results_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'finished' THEN PERFORM referee_refresh_result(NEW.id); END IF;
  ELSIF OLD.status = 'finished' OR NEW.status = 'finished' THEN
    PERFORM referee_refresh_result(NEW.id);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION referee_results_player() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM referee_refresh_result(OLD.game_id);
  ELSIF (SELECT status FROM games WHERE id = NEW.game_id) = 'finished'
        OR EXISTS (SELECT 1 FROM results WHERE game_id = NEW.game_id) THEN
    PERFORM referee_refresh_result(NEW.game_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER results_game_insert AFTER INSERT ON games
  FOR EACH ROW EXECUTE FUNCTION referee_results_game();
CREATE TRIGGER results_game_update
  AFTER UPDATE OF status, game, termination, time_control, tournament_id, finished_at ON games
  FOR EACH ROW EXECUTE FUNCTION referee_results_game();
CREATE TRIGGER results_player_insert AFTER INSERT ON game_players
  FOR EACH ROW EXECUTE FUNCTION referee_results_player();
CREATE TRIGGER results_player_update AFTER UPDATE OF game_id, seat, engine, rank ON game_players
  FOR EACH ROW EXECUTE FUNCTION referee_results_player();
CREATE TRIGGER results_player_delete AFTER DELETE ON game_players
  FOR EACH ROW EXECUTE FUNCTION referee_results_player();
)sql";
  return schema;
}

}  // namespace referee::storage
