// Schema v10 renamed the table `tournaments` to `events` and the columns `tournament_id` of
// games, slots and result_kinds to `event_id`: a database of the previous version (v9) opens and
// migrates with its rows, on both backends, and its events, slots, games and results read back
// through the work queue and the store as before.
#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/old_schema.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

std::int64_t v10_count(Store& store, const std::string& query) {
  sql::Query q(store.connection(), query);
  REQUIRE(q.step());
  return q.int64(0);
}

}  // namespace

TEST_CASE("migration: a v9 database's tournaments become v10's events with their rows") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      {
        auto v9 = storage_test::database_at(db.url(), 9);
        v9->exec(
            "INSERT INTO tournaments (name, config, spec, state, kind, priority) VALUES "
            "('cup', '', '{\"v\":9}', 'running', 'tournament', 2),"
            " ('ladder', '', '{}', 'queued', 'ladder', 0)");
        v9->exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
        v9->exec(
            "INSERT INTO games (tournament_id, slot, game, time_control, status, termination,"
            " started_at, finished_at, plies) VALUES"
            " (1, 0, 'awale', '1+0', 'finished', 'rules', '2026-01-01T00:00:00Z',"
            " '2026-01-01T00:01:00Z', 0),"
            " (1, 1, 'awale', '1+0', 'running', '', '2026-01-01T00:02:00Z', '', 0),"
            " (NULL, -1, 'awale', '1+0', 'finished', 'rules', '2026-01-01T00:03:00Z',"
            " '2026-01-01T00:04:00Z', 0)");
        v9->exec(
            "INSERT INTO game_players (game_id, seat, engine, rank, score) VALUES"
            " (1, 1, 'a', 1, 1), (1, 2, 'b', 2, 0), (2, 1, 'b', NULL, NULL),"
            " (2, 2, 'a', NULL, NULL), (3, 1, 'b', 1, 1), (3, 2, 'a', 2, 0)");
        v9->exec(
            "INSERT INTO slots (tournament_id, slot, game, seats, state, game_id) VALUES"
            " (1, 0, 'awale', '[\"a\",\"b\"]', 'done', 1),"
            " (1, 1, 'awale', '[\"b\",\"a\"]', 'pending', NULL)");
        sql::Query kinds(*v9, "SELECT count(*) FROM result_kinds WHERE tournament_id = 1");
        REQUIRE(kinds.step());
        REQUIRE(kinds.int64(0) == 1);
      }
      auto store = Store::open(db.url());
      INFO((store ? std::string() : store.error()));
      REQUIRE(store);
      CHECK(v10_count(*store, "SELECT max(version) FROM schema_version") == kSchemaVersion);
      CHECK(kSchemaVersion >= 10);
      CHECK(v10_count(*store, "SELECT count(*) FROM events") == 2);
      CHECK(v10_count(*store, "SELECT count(*) FROM games WHERE event_id = 1") == 2);
      CHECK(v10_count(*store, "SELECT count(*) FROM slots WHERE event_id = 1") == 2);
      CHECK(v10_count(*store, "SELECT count(*) FROM result_kinds WHERE event_id = 1") == 1);
      CHECK(v10_count(*store, "SELECT count(*) FROM results") == 2);
      // Read back through the work queue and the store.
      auto cup = work_queue::event(*store, 1);
      REQUIRE(cup);
      CHECK(cup->name == "cup");
      CHECK(cup->spec == "{\"v\":9}");
      CHECK(cup->priority == 2);
      CHECK(cup->done == 1);
      CHECK(cup->pending == 1);
      auto slots = work_queue::slots(*store, 1);
      REQUIRE(slots);
      REQUIRE(slots->size() == 2);
      CHECK((*slots)[1].seats == std::vector<std::string>{"b", "a"});
      GameFilter of_cup;
      of_cup.event_id = 1;
      of_cup.finished_only = false;
      auto games = store->games(of_cup);
      REQUIRE(games);
      REQUIRE(games->size() == 2);
      CHECK((*games)[0].event == "cup");
      CHECK((*games)[0].event_id == 1);
      CHECK((*games)[0].players == std::vector<std::string>{"a", "b"});
      auto outside = store->game(3);
      REQUIRE(outside);
      CHECK_FALSE(outside->event_id.has_value());
      // The results triggers follow the renamed columns: a new finished game of the event is
      // counted under it.
      GameRecord g;
      g.event_id = 1;
      g.slot = 1;
      g.game = "awale";
      g.players = {"b", "a"};
      g.time_control = "1+0";
      auto id = store->begin_game(g);
      REQUIRE(id);
      GameRecord end;
      end.status = referee::storage::GameStatus::Finished;
      end.termination = "rules";
      end.ranks = {1, 2};
      REQUIRE(store->finish_game(*id, end));
      CHECK(v10_count(*store, "SELECT count(*) FROM results") == 3);
      CHECK(v10_count(*store, "SELECT count(*) FROM result_kinds WHERE event_id = 1") == 1);
    }
}

TEST_CASE("migration: a v9 file opened read-only reads its events under v10's names") {
  storage_test::TempDir dir;
  const std::string path = dir.file("v9.db");
  {
    auto v9 = storage_test::database_at(path, 9);
    v9->exec("INSERT INTO tournaments (name, config) VALUES ('cup', '')");
    v9->exec(
        "INSERT INTO games (tournament_id, slot, game, time_control, status, termination,"
        " started_at, finished_at, plies) VALUES (1, 0, 'awale', '1+0', 'finished', 'rules',"
        " '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 0)");
    v9->exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
    v9->exec(
        "INSERT INTO game_players (game_id, seat, engine, rank, score) VALUES"
        " (1, 1, 'a', 1, 1), (1, 2, 'b', 2, 0)");
  }
  OpenOptions read_only;
  read_only.read_only = true;
  auto store = Store::open(path, read_only);
  INFO((store ? std::string() : store.error()));
  REQUIRE(store);
  auto games = store->games({});
  REQUIRE(games);
  REQUIRE(games->size() == 1);
  CHECK((*games)[0].event == "cup");
  CHECK((*games)[0].event_id == 1);
  auto cup = work_queue::event(*store, 1);
  REQUIRE(cup);
  CHECK(cup->name == "cup");
}
