// Migrations: a database written by an older schema is brought up to date on open, its data kept.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>

#include "storage/schema.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;

TEST_CASE("migration: v1 engine_logs become v2 transcripts with the same lines") {
  storage_test::TempDir dir;
  const auto path = dir.file("old.db");
  {
    // A version-1 database, as the first referee wrote it.
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    REQUIRE(migrations().front().version == 1);
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    db.exec(migrations().front().sql);
    db.exec("INSERT INTO schema_version VALUES (1)");
    db.exec("INSERT INTO games (id, game) VALUES (1, 'awale')");
    db.exec(
        "INSERT INTO engine_logs (game_id, seat, direction, text, at_ms) VALUES "
        "(1, 1, '>', 'ugi', 0), (1, 2, '>', 'ugi', 1), (1, 1, '<', 'id name a\\b', 5), "
        "(1, 1, '!', 'two' || char(10) || 'lines', 9)");
  }
  auto store = Store::open(path);
  REQUIRE(store.ok());
  auto logs = store->logs(1);
  REQUIRE(logs.ok());
  REQUIRE(logs->size() == 4);
  // Grouped by seat (transcripts), in order within a seat.
  CHECK((*logs)[0].seat == 1);
  CHECK((*logs)[0].text == "ugi");
  CHECK((*logs)[1].text == "id name a\\b");
  CHECK((*logs)[1].at_ms == 5);
  CHECK((*logs)[2].direction == '!');
  CHECK((*logs)[2].text == "two\nlines");
  CHECK((*logs)[3].seat == 2);
  SQLite::Database raw(path);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
  CHECK(raw.execAndGet("SELECT count(*) FROM sqlite_master WHERE name = 'engine_logs'").getInt() ==
        0);
}

TEST_CASE("logs: any text round-trips through a transcript") {
  storage_test::TempDir dir;
  auto store = Store::open(dir.file("t.db"));
  REQUIRE(store.ok());
  GameRecord g;
  g.game = "awale";
  g.players = {"a", "b"};
  auto id = store->begin_game(g);
  REQUIRE(id.ok());
  std::vector<LogLine> lines = {{1, '>', "position startpos moves 1 7", 0},
                                {2, '<', "trailing backslash \\", 3},
                                {1, '!', "\\n is not a newline; this\nis", 4},
                                {1, '<', "", 5},
                                {2, '>', "  spaces  ", 6}};
  REQUIRE(store->add_logs(*id, lines).ok());
  auto back = store->logs(*id);
  REQUIRE(back.ok());
  REQUIRE(back->size() == lines.size());
  // Seat 1's lines first (one transcript per seat), each exactly as given.
  const std::size_t order[] = {0, 2, 3, 1, 4};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& want = lines[order[i]];
    CHECK((*back)[i].seat == want.seat);
    CHECK((*back)[i].direction == want.direction);
    CHECK((*back)[i].text == want.text);
    CHECK((*back)[i].at_ms == want.at_ms);
  }
}

TEST_CASE("migration: v2 events keep their games, slots finished twice keep the first finish") {
  storage_test::TempDir dir;
  const auto path = dir.file("v2.db");
  const char* game = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";
  {
    // A version-2 database where two concurrent runs finished slot 0 twice.
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    db.exec(migrations()[0].sql);
    db.exec(migrations()[1].sql);
    db.exec("INSERT INTO schema_version VALUES (2)");
    db.exec("INSERT INTO tournaments (id, name, config) VALUES (1, 'old', '{\"fp\":1}')");
    db.exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
    for (int id : {1, 2, 3, 4}) {
      const int slot = id == 1 || id == 2 ? 0 : id == 3 ? 1 : 2;
      const char* status = id == 4 ? "running" : "finished";
      db.exec("INSERT INTO games (id, tournament_id, slot, game, status) VALUES (" +
              std::to_string(id) + ", 1, " + std::to_string(slot) + ", '" + game + "', '" + status +
              "')");
      db.exec("INSERT INTO game_players VALUES (" + std::to_string(id) + ", 1, 'a', " +
              (id == 4 ? "NULL" : "1") + ", NULL), (" + std::to_string(id) + ", 2, 'b', " +
              (id == 4 ? "NULL" : "2") + ", NULL)");
    }
  }
  auto store = Store::open(path);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  REQUIRE(games->size() == 2);  // games 1 and 3: the second finish of slot 0 is not rated
  CHECK((*games)[0].id == 1);
  CHECK((*games)[1].id == 3);
  auto dup = store->game(2);
  REQUIRE(dup.ok());
  CHECK(dup->status == referee::storage::GameStatus::Unfinished);
  CHECK(dup->termination == "duplicate");
  CHECK(dup->reason == "slot 0 was already finished by game 1");

  std::vector<SlotRecord> slots(4);
  for (int i = 0; i < 4; ++i) {
    slots[static_cast<std::size_t>(i)].slot = i;
    slots[static_cast<std::size_t>(i)].game = game;
    slots[static_cast<std::size_t>(i)].seats = {"a", "b"};
  }
  // A changed file: the v2 fingerprint differs, nothing is adopted (the runner refuses).
  auto changed = work_queue::open_event(*store, "old", "{\"spec\":1}", "{\"fp\":2}", slots);
  REQUIRE(changed.ok());
  CHECK(changed->spec.empty());
  CHECK(work_queue::slots(*store, changed->id)->empty());
  // The same file: the event is adopted, its finished slots done.
  auto adopted = work_queue::open_event(*store, "old", "{\"spec\":1}", "{\"fp\":1}", slots);
  REQUIRE(adopted.ok());
  CHECK_FALSE(adopted->created);
  CHECK(adopted->spec == "{\"spec\":1}");
  auto rows = work_queue::slots(*store, adopted->id);
  REQUIRE(rows.ok());
  REQUIRE(rows->size() == 4);
  CHECK((*rows)[0].state == referee::storage::SlotState::Done);
  CHECK((*rows)[1].state == referee::storage::SlotState::Done);
  CHECK((*rows)[2].state == referee::storage::SlotState::Pending);
  CHECK((*rows)[3].state == referee::storage::SlotState::Pending);
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT game_id FROM slots WHERE slot = 0").getInt() == 1);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
  // The game a v2 run left running is closed when its slot is claimed.
  auto owner =
      work_queue::register_owner(*store, {"t", "h", 1, referee::storage::OwnerKind::Tournament});
  auto claims = work_queue::claim_slots(*store, *owner, adopted->id, 1, 60000, {});
  REQUIRE(claims.ok());
  REQUIRE(claims->size() == 1);
  CHECK(claims->front().slot.slot == 2);
  auto left = store->game(4);
  CHECK(left->status == referee::storage::GameStatus::Unfinished);
  CHECK(left->termination == "interrupted");
}

TEST_CASE("migration: v6 stores a game the rules ended as 'rules', read-only opens read it so") {
  storage_test::TempDir dir;
  const auto path = dir.file("v3.db");
  {
    // A version-3 database: the rules' end was stored as "normal".
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    for (int v = 0; v < 3; ++v) db.exec(migrations()[static_cast<std::size_t>(v)].sql);
    REQUIRE(migrations()[2].version == 3);
    db.exec("INSERT INTO schema_version VALUES (3)");
    db.exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
    const char* terminations[] = {"normal", "time", "repetition"};
    for (int id = 1; id <= 3; ++id) {
      db.exec("INSERT INTO games (id, game, status, termination) VALUES (" + std::to_string(id) +
              ", 'awale', 'finished', '" + terminations[id - 1] + "')");
      db.exec("INSERT INTO game_players VALUES (" + std::to_string(id) + ", 1, 'a', 1, 0), (" +
              std::to_string(id) + ", 2, 'b', 2, 0)");
    }
  }
  auto words = [](Store& store) {
    std::vector<std::string> out;
    auto games = store.games({});
    REQUIRE(games.ok());
    for (const auto& g : *games) out.push_back(g.termination);
    return out;
  };
  const std::vector<std::string> expected = {"rules", "time", "repetition"};
  {
    OpenOptions read_only;
    read_only.read_only = true;
    auto store = Store::open(path, read_only);
    REQUIRE(store.ok());
    CHECK(words(*store) == expected);  // the old word is read as the new one
    CHECK(store->game(1)->termination == "rules");
  }
  {
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    CHECK(raw.execAndGet("SELECT termination FROM games WHERE id = 1").getString() == "normal");
  }
  auto store = Store::open(path);  // migrates
  REQUIRE(store.ok());
  CHECK(words(*store) == expected);
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
  CHECK(raw.execAndGet("SELECT group_concat(termination, ',') FROM (SELECT termination FROM "
                       "games ORDER BY id)")
            .getString() == "rules,time,repetition");
}

TEST_CASE("migration: v6 applies on top of version 4 or 5 (other branches' steps)") {
  for (int from : {4, 5}) {
    storage_test::TempDir dir;
    const auto path = dir.file("v" + std::to_string(from) + ".db");
    {
      SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      for (int v = 0; v < 3; ++v) db.exec(migrations()[static_cast<std::size_t>(v)].sql);
      db.exec("INSERT INTO schema_version VALUES (" + std::to_string(from) + ")");
      db.exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
      db.exec(
          "INSERT INTO games (id, game, status, termination) VALUES (1, 'awale', 'finished', "
          "'normal')");
    }
    auto store = Store::open(path);
    INFO((store ? std::string() : store.error()));
    REQUIRE(store.ok());
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
    CHECK(raw.execAndGet("SELECT termination FROM games WHERE id = 1").getString() == "rules");
  }
}
