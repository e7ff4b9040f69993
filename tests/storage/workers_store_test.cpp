// Schema v7 for `referee worker`: each game's engine hashes by seat (stored, read back by every
// reader, JSON that tolerates junk), and owners with their lease (Store::owners tells alive, lost
// and stopped apart and lists each one's running games); the migration from v6. On both backends
// (backends.h).
#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/old_schema.h"
#include "storage/schema.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

using storage_test::open_ok;

GameRecord two_player_game() {
  GameRecord g;
  g.game = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";
  g.players = {"a", "b"};
  return g;
}

// The text of the first column of the first row of `query` on the store's own connection.
std::string text_of(Store& store, const std::string& query) {
  sql::Query q(store.connection(), query);
  REQUIRE(q.step());
  return q.text(0);
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TEST_CASE("engine hashes: stored by seat with the game and read back by every reader") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      GameRecord g = two_player_game();
      g.engine_hashes = {{std::string(64, 'b'), std::string(64, 'c'), ""},
                         {"", "", std::string(64, 'd')}};  // an artifact's engine
      auto id = store.begin_game(g);
      REQUIRE(id.ok());
      auto plain = store.begin_game(two_player_game());
      REQUIRE(plain.ok());
      auto back = store.game(*id);
      REQUIRE(back.ok());
      CHECK(back->engine_hashes == g.engine_hashes);
      CHECK(store.game(*plain)->engine_hashes.empty());
      GameFilter all;
      all.finished_only = false;
      auto list = store.games(all);
      REQUIRE(list.ok());
      REQUIRE(list->size() == 2);
      CHECK((*list)[0].engine_hashes == g.engine_hashes);
      CHECK(text_of(store, "SELECT engine_hashes FROM games WHERE id = " +
                               std::to_string(*plain)) == "[]");
    }
}

TEST_CASE("engine hashes: the JSON form leaves out an empty script or artifact, junk is nothing") {
  CHECK(engine_hashes_json({}) == "[]");
  CHECK(engine_hashes_json({{"ab", "", ""}}) == R"([{"program":"ab"}])");
  CHECK(engine_hashes_json({{"ab", "cd", ""}}) == R"([{"program":"ab","script":"cd"}])");
  CHECK(engine_hashes_json({{"", "", "ef"}}) == R"([{"artifact":"ef","program":""}])");
  CHECK(engine_hashes_from_json(R"([{"program":"ab","script":"cd"}])") ==
        std::vector<EngineHash>{{"ab", "cd", ""}});
  CHECK(engine_hashes_from_json(R"([{"artifact":"ef","program":""}])") ==
        std::vector<EngineHash>{{"", "", "ef"}});
  CHECK(engine_hashes_from_json("not json").empty());
  CHECK(engine_hashes_from_json(R"({"program":"ab"})").empty());
  // A seat that is not an object keeps its place, unknown.
  CHECK(engine_hashes_from_json(R"([3,{"program":"x"}])") ==
        std::vector<EngineHash>{{"", "", ""}, {"x", "", ""}});
}

TEST_CASE("owners: alive while the lease runs, lost without a heartbeat, stopped when stopped") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      auto alive = work_queue::register_owner(
          store, {"w1", "host1", 11, referee::storage::OwnerKind::Worker, 60000});
      auto lost = work_queue::register_owner(
          store,
          {"w2", "host2", 12, referee::storage::OwnerKind::Worker, -1000});  // already expired
      auto stopped = work_queue::register_owner(
          store, {"serve", "host1", 13, referee::storage::OwnerKind::Serve, 60000});
      REQUIRE((alive.ok() && lost.ok() && stopped.ok()));
      REQUIRE(work_queue::stop_owner(store, *stopped).ok());
      GameRecord g = two_player_game();
      g.owner = *lost;
      auto running = store.begin_game(g);
      REQUIRE(running.ok());
      g.owner = *alive;
      auto mine = store.begin_game(g);
      REQUIRE(mine.ok());
      GameRecord done = two_player_game();
      done.status = referee::storage::GameStatus::Finished;
      done.ranks = {1, 2};
      done.scores = {1, 0};
      done.termination = "rules";
      REQUIRE(store.finish_game(*mine, done).ok());  // finished: not running any more

      auto owners = work_queue::owners(store, 3600 * 1000, 100);
      REQUIRE(owners.ok());
      REQUIRE(owners->size() == 3);
      const auto now = now_ms();
      CHECK((*owners)[0].id == *stopped);  // newest first
      CHECK((*owners)[0].state(now) == OwnerState::Stopped);
      CHECK((*owners)[1].id == *lost);
      CHECK((*owners)[1].state(now) == OwnerState::Lost);
      CHECK((*owners)[1].running_games == std::vector<std::int64_t>{*running});
      CHECK((*owners)[1].info.host == "host2");
      CHECK((*owners)[1].info.pid == 12);
      CHECK((*owners)[2].id == *alive);
      CHECK((*owners)[2].state(now) == OwnerState::Alive);
      CHECK((*owners)[2].running_games.empty());
      CHECK((*owners)[2].info.kind == OwnerKind::Worker);

      // A heartbeat renews the lease: the lost owner is alive again.
      REQUIRE(work_queue::renew_claims(store, *lost, 60000).ok());
      owners = work_queue::owners(store, 3600 * 1000, 100);
      REQUIRE(owners.ok());
      CHECK((*owners)[1].state(now_ms()) == OwnerState::Alive);
      CHECK((*owners)[1].lease_expires_at_ms > now_ms() + 50000);

      // Stopped owners older than the window are left out; the limit holds.
      owners = work_queue::owners(store, -3600 * 1000,
                                  100);  // a window ending in the future: no stopped owner
      REQUIRE(owners.ok());
      CHECK(owners->size() == 2);
      owners = work_queue::owners(store, 3600 * 1000, 1);
      REQUIRE(owners.ok());
      CHECK(owners->size() == 1);
    }
}

TEST_CASE("migration: v7 applies on a v6 database: games get no hashes, owners no lease yet") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      {
        auto v6 = storage_test::database_at(db.url(), 6);
        v6->exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
        v6->exec("INSERT INTO games (id, game, status) VALUES (1, 'awale', 'running')");
        v6->exec(
            "INSERT INTO owners (id, name, kind, started_at, heartbeat_at) VALUES (1, 'old', "
            "'tournament', 1, 1)");
        v6->exec("UPDATE games SET owner = 1");
      }
      Store store = open_ok(db.url());
      CHECK(text_of(store, "SELECT version FROM schema_version") == std::to_string(kSchemaVersion));
      CHECK(text_of(store, "SELECT engine_hashes FROM games WHERE id = 1") == "[]");
      CHECK(text_of(store, "SELECT lease_expires_at FROM owners WHERE id = 1") == "0");
      auto owners = work_queue::owners(store, 3600 * 1000, 10);
      REQUIRE(owners.ok());
      REQUIRE(owners->size() == 1);
      CHECK(owners->front().state(now_ms()) ==
            OwnerState::Lost);  // never stopped, no lease: not alive
      CHECK(owners->front().running_games == std::vector<std::int64_t>{1});
    }
}
