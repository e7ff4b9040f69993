// `referee serve` on PostgreSQL with two `referee worker` processes on the same database (issue
// 12 §2): a round robin submitted over HTTP is played by them (and the daemon's own slot); while
// it runs GET /api/workers lists both workers, alive, with their running games, and those games
// are the event's running games that name the worker; the event finishes with every slot played
// once, its standings are those of `referee ratings --db` on the same games, and `referee verify`
// passes on the database.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "storage/backends.h"
#include "storage/sql/pg_connection.h"
#include "storage/store.h"
#include "tests/service/daemon_util.h"
#include "tests/service/worker_process.h"

using stest::Json;
using stest::TempDir;
using stest::wait_until;

namespace {

// The ids of the running games of `event` that name worker `owner` (GET /api/games).
std::set<std::int64_t> running_games_of(httplib::Client& client, std::int64_t event,
                                        std::int64_t owner) {
  std::set<std::int64_t> out;
  const Json page =
      stest::get_json(client, "/api/games?status=running&limit=500&event=" + std::to_string(event));
  for (const auto& g : page["games"])
    if (g["worker"].is_number() && g["worker"].get<std::int64_t>() == owner)
      out.insert(g["id"].get<std::int64_t>());
  return out;
}

}  // namespace

TEST_CASE("serve on PostgreSQL shows two workers and their live games, standings match ratings") {
  storage_test::PgServer& pg = storage_test::PgServer::get();
  if (!pg.available()) {
    if (storage_test::PgServer::required()) FAIL(pg.reason());
    WARN("SKIPPED on PostgreSQL: " + pg.reason());
    return;
  }
  TempDir dir;
  const std::string db = pg.new_database();
  stest::Daemon daemon(dir, {"--db", db, "-c", "1", "--lease", "2"});
  REQUIRE(daemon.ready());
  auto client = daemon.client();

  const std::vector<std::string> names = {"pgw1", "pgw2"};
  std::vector<std::unique_ptr<stest::WorkerProcess>> workers;
  for (const auto& name : names) {
    std::filesystem::create_directories(dir.file(name));
    workers.push_back(std::make_unique<stest::WorkerProcess>(
        dir.file(name), std::vector<std::string>{"--db", db, "-c", "2", "--lease", "2",
                                                 "--idle-max", "1", "--name", name}));
  }
  // Three engines, both seatings, 4 cycles: 24 games of about a second each.
  const std::int64_t event = stest::submit_ok(
      client, stest::tournament_toml("pg round robin", 3, 4, 40, "args = [\"--slow-ms=25\"]\n"));

  // Each worker is seen alive with running games that GET /api/games lists as its own.
  std::map<std::string, Json> seen;
  std::string last;
  const bool both = wait_until(
      [&] {
        const Json all = stest::get_json(client, "/api/workers");
        last = all.dump();
        for (const auto& w : all["workers"]) {
          const std::string name = w["name"];
          if (seen.count(name) || w["kind"] != "worker" || w["state"] != "alive" ||
              w["running_games"].empty())
            continue;
          const auto live = running_games_of(client, event, w["id"].get<std::int64_t>());
          for (const auto& id : w["running_games"])
            if (live.count(id.get<std::int64_t>())) seen[name] = w;
        }
        return seen.size() == names.size();
      },
      60);
  if (!both)
    FAIL("workers: " << last << "\nworker 1: " << workers[0]->err()
                     << "\nworker 2: " << workers[1]->err() << "\ndaemon: " << daemon.err());
  for (const auto& name : names) {
    INFO(name);
    const Json& w = seen[name];
    CHECK(w["host"].get<std::string>().size() > 0);
    CHECK(w["pid"].get<long>() > 0);
    CHECK(w["heartbeat_at"].is_string());
    CHECK(w["heartbeat_age_s"].get<double>() < 10);
    CHECK(w["this_daemon"] == false);
    // A running game of the worker names it, on its own page too.
    const auto game = w["running_games"][0].get<std::int64_t>();
    CHECK(stest::get_json(client, "/api/games/" + std::to_string(game))["worker"] == w["id"]);
  }

  INFO("daemon: " << daemon.err());
  REQUIRE(stest::wait_state(client, event, "finished", 120));
  const Json info = stest::event_of(client, event);
  CHECK(info["scheduled"] == 24);
  CHECK(info["finished"] == 24);
  // Every slot finished once, some by each worker.
  const Json finished = stest::get_json(
      client, "/api/games?status=finished&limit=500&event=" + std::to_string(event));
  CHECK(finished["total"] == 24);
  std::set<std::int64_t> slots;
  std::map<std::int64_t, int> per_owner;
  for (const auto& g : finished["games"]) {
    slots.insert(g["slot"].get<std::int64_t>());
    if (g["worker"].is_number()) ++per_owner[g["worker"].get<std::int64_t>()];
  }
  CHECK(slots.size() == 24);
  for (const auto& name : names) CHECK(per_owner[seen[name]["id"].get<std::int64_t>()] > 0);

  // The standings are `referee ratings` on the same games.
  const Json standings =
      stest::get_json(client, "/api/events/" + std::to_string(event) + "/standings");
  auto ratings = rtest::run_program(
      REFEREE_BIN, {"ratings", "--db", db, "--tournament", "pg round robin", "--format", "json"},
      dir);
  INFO(ratings.out << ratings.err);
  REQUIRE(ratings.status == 0);
  const Json report = Json::parse(ratings.out);
  REQUIRE(standings["tables"].size() == 1);
  REQUIRE(report["tables"].size() == 1);
  REQUIRE(report["tables"][0]["groups"].size() == 1);
  const Json& rows = standings["tables"][0]["rows"];
  const Json& rated = report["tables"][0]["groups"][0]["ratings"];
  REQUIRE(rows.size() == 3);
  REQUIRE(rated.size() == 3);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("rank " << i + 1 << ": " << rows[i].dump() << " vs " << rated[i].dump());
    CHECK(rows[i]["engine"] == rated[i]["name"]);
    CHECK(rows[i]["rank"] == rated[i]["rank"]);
    CHECK(rows[i]["games"] == rated[i]["games"]);
    CHECK(rows[i]["w"].get<double>() == rated[i]["wins"].get<double>());
    CHECK(rows[i]["d"].get<double>() == rated[i]["draws"].get<double>());
    CHECK(rows[i]["l"].get<double>() == rated[i]["losses"].get<double>());
    CHECK(rows[i]["elo"].get<double>() == Approx(rated[i]["elo"].get<double>()).margin(0.06));
  }

  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, dir);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);

  // Stopped cleanly, the workers are shown stopped.
  for (auto& w : workers) {
    w->terminate();
    CHECK(w->wait() == 0);
  }
  std::string listed;
  const bool stopped = wait_until(
      [&] {
        int n = 0;
        const Json all = stest::get_json(client, "/api/workers");
        listed = all.dump();
        for (const auto& w : all["workers"]) n += w["kind"] == "worker" && w["state"] == "stopped";
        return n == 2;
      },
      20);
  INFO(listed << "\nworker 1: " << workers[0]->err() << "\nworker 2: " << workers[1]->err());
  CHECK(stopped);
  CHECK(daemon.signal_and_wait(SIGTERM) == 0);
}

// A read whose connection to the server was lost is the server's failure (503, with the kind
// Unavailable), never a missing game (404): the daemon's read connections are cut from the
// server's side while it serves, and the game it served just before is asked for again.
TEST_CASE("serve on PostgreSQL: a lost connection while loading a game is 503, not 404") {
  storage_test::PgServer& pg = storage_test::PgServer::get();
  if (!pg.available()) {
    if (storage_test::PgServer::required()) FAIL(pg.reason());
    WARN("SKIPPED on PostgreSQL: " + pg.reason());
    return;
  }
  namespace st = referee::storage;
  TempDir dir;
  const std::string db = pg.new_database();
  const std::size_t start = db.find("@/") + 2;  // postgresql://referee@/NAME?host=...
  const std::string name = db.substr(start, db.find('?') - start);
  std::int64_t game = 0;
  {
    auto store = st::Store::open(db);
    REQUIRE(store);
    st::GameRecord g;
    g.game = "awale";
    g.players = {"a", "b"};
    auto id = store->begin_game(g);
    REQUIRE(id);
    game = *id;
  }
  stest::Daemon daemon(dir, {"--db", db, "-c", "1"});
  REQUIRE(daemon.ready());
  auto client = daemon.client();
  const std::string path = "/api/games/" + std::to_string(game);
  auto before = client.Get(path);
  REQUIRE(before);
  REQUIRE(before->status == 200);  // a read connection is open and pooled
  auto admin = st::sql::open_postgres(pg.url("postgres"));
  REQUIRE(admin);
  (*admin)->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + name +
                 "'");
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    st::sql::Query left(**admin, "SELECT count(*) FROM pg_stat_activity WHERE datname = ?");
    left.bind(1, name);
    REQUIRE(left.step());
    if (left.int64(0) == 0) break;
    REQUIRE(std::chrono::steady_clock::now() < until);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto during = client.Get(path);
  REQUIRE(during);
  INFO(during->status << " " << during->body);
  CHECK(during->status == 503);
  CHECK(during->body.find("no game") == std::string::npos);
}
