// Migrations: a database written by an older schema is brought up to date on open, its data kept.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>

#include "storage/schema.h"
#include "storage/store.h"
#include "storage/temp_dir.h"

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
