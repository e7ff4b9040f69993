// A worker whose PostgreSQL server restarts mid-event (pg_ctl restart -m fast), then whose
// database refuses connections for a while: it logs the lost connection, reconnects with a
// backoff, and the event completes with every slot finished once and `referee verify` passing.
// The daemon likewise: it serves again on the same port and its event finishes. And
// --commit-interval of `referee worker` and `referee serve`: the default the database chooses, a
// value given, bad values as one-line errors.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "referee/service/worker.h"
#include "storage/backends.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/worker_process.h"

using stest::contains;
using stest::TempDir;
using stest::wait_until;

namespace {

// `cycles` cycles of awale:maxplies=`plies` between two mock engines (two games a cycle).
std::string event_toml(const std::string& name, int cycles, int plies, int slow_ms) {
  std::string text = "name = \"" + name + "\"\ngames = [\"awale:maxplies=" + std::to_string(plies) +
                     "\"]\ntc = \"10+0.1\"\ncycles = " + std::to_string(cycles) +
                     "\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < 2; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + stest::kMock +
            "\"\nargs = [\"--slow-ms=" + std::to_string(slow_ms) + "\"]\n";
  return text;
}

std::int64_t done_slots(const std::string& db, std::int64_t event) {
  auto store = referee::storage::Store::open(db, {true});
  if (!store) return 0;
  auto info = referee::storage::work_queue::event(*store, event);
  return info ? info->done : 0;
}

}  // namespace

TEST_CASE("worker: the PostgreSQL server restarts mid-event: the worker reconnects and finishes",
          "[postgres]") {
  // A server of its own: restarting the run's shared one would cut the other tests' connections.
  auto server = storage_test::own_postgres_or_skip();
  if (server == nullptr) return;
  storage_test::PgServer& pg = *server;
  TempDir dir;
  const std::string db = pg.new_database();
  rtest::write_text(dir.file("event.toml"), event_toml("restart", 30, 30, 5));
  const std::int64_t event = stest::queue_file(db, dir.file("event.toml"));
  stest::WorkerProcess worker(dir.path(),
                              {"--db", db, "--concurrency", "2", "--lease", "2", "--idle-max", "1",
                               "--drain-seconds", "5", "--exit-when-done", "--name", "w"});
  REQUIRE(wait_until([&] { return done_slots(db, event) >= 6; }, 90));
  REQUIRE(pg.restart());
  REQUIRE(wait_until([&] { return contains(worker.err(), "reconnected to"); }, 60));
  // Then a cut that lasts: the database refuses connections for 2.5 s and its backends are
  // terminated; the worker's attempts fail and back off (500 ms, then 1000 ms) until it is let in.
  REQUIRE(wait_until([&] { return done_slots(db, event) >= 14; }, 90));
  {
    auto admin = referee::storage::sql::open_postgres(pg.url("postgres"));
    REQUIRE(admin);
    const std::size_t start = db.find("@/") + 2;  // postgresql://referee@/NAME?host=...
    const std::string name = db.substr(start, db.find('?') - start);
    (*admin)->exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false");
    (*admin)->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" +
                   name + "'");
    REQUIRE(wait_until([&] { return contains(worker.err(), "reconnecting in 1000 ms"); }, 30));
    (*admin)->exec("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true");
  }
  INFO(worker.err());
  REQUIRE(wait_until([&] { return !worker.running(); }, 180));
  CHECK(worker.wait() == 0);
  const std::string err = worker.err();
  CHECK(contains(err, "lost the connection to " + referee::storage::database_name(db)));
  CHECK(contains(err, "the connection to the server was lost"));
  CHECK(contains(err, "is not currently accepting connections"));  // a failed attempt, logged
  std::size_t reconnects = 0;
  for (auto at = err.find("reconnected to"); at != std::string::npos;
       at = err.find("reconnected to", at + 1))
    ++reconnects;
  CHECK(reconnects == 2);

  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  auto info = referee::storage::work_queue::event(*store, event);
  REQUIRE(info);
  CHECK(info->state == referee::storage::EventState::Finished);
  CHECK(info->done == 60);
  referee::storage::GameFilter all;
  all.event_id = event;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games);
  std::map<std::int64_t, int> finished_per_slot;
  std::set<std::optional<std::int64_t>> owners;
  for (const auto& g : *games) {
    CHECK(g.status != referee::storage::GameStatus::Running);
    if (g.status == referee::storage::GameStatus::Finished) {
      ++finished_per_slot[g.slot];
      owners.insert(g.owner);
    }
  }
  CHECK(finished_per_slot.size() == 60);
  for (const auto& [slot, n] : finished_per_slot) {
    INFO("slot " << slot);
    CHECK(n == 1);
  }
  CHECK(owners.size() == 3);  // one owner per connection: before, between and after the cuts

  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);
}

TEST_CASE("worker: --commit-interval defaults to the database's choice, bad values are errors") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      TempDir dir;
      auto run = rtest::run_program(REFEREE_BIN,
                                    {"worker", "--db", test_db.url(), "--exit-when-done"}, dir);
      INFO(run.err);
      CHECK(run.status == 0);
      CHECK(
          contains(run.err, backend == "sqlite" ? "commits every 20 ms" : "commits every 100 ms"));
      run = rtest::run_program(
          REFEREE_BIN,
          {"worker", "--db", test_db.url(), "--exit-when-done", "--commit-interval", "7"}, dir);
      CHECK(run.status == 0);
      CHECK(contains(run.err, "commits every 7 ms"));
    }
  TempDir dir;
  for (const std::string command : {"worker", "serve"}) {
    for (const std::string value : {"0", "-3", "10001"}) {
      auto bad = rtest::run_program(
          REFEREE_BIN, {command, "--db", dir.file("x.db"), "--commit-interval=" + value}, dir);
      INFO(command << " " << value << ": " << bad.err);
      CHECK(bad.status == 2);
      CHECK(contains(bad.err, "--commit-interval must be from 1 to 10000 ms"));
      CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
    }
    auto bad = rtest::run_program(
        REFEREE_BIN, {command, "--db", dir.file("x.db"), "--commit-interval", "soon"}, dir);
    CHECK(bad.status == 2);
    CHECK(contains(bad.err, "commit-interval"));
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
    auto help = rtest::run_program(REFEREE_BIN, {command, "--help"}, dir);
    CHECK(contains(help.out, "--commit-interval"));
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("x.db")));
}

TEST_CASE("serve: the PostgreSQL server restarts: the daemon reconnects on the same port",
          "[postgres]") {
  // A server of its own: restarting the run's shared one would cut the other tests' connections.
  auto server = storage_test::own_postgres_or_skip();
  if (server == nullptr) return;
  storage_test::PgServer& pg = *server;
  TempDir dir;
  const std::string db = pg.new_database();
  stest::Daemon daemon(dir, {"--db", db, "--concurrency", "2", "--lease", "2"});
  REQUIRE(daemon.ready());
  auto client = daemon.client();
  const std::int64_t event = stest::submit_ok(
      client, stest::tournament_toml("restart", 2, 20, 30, "args = [\"--slow-ms=5\"]\n"));
  REQUIRE(wait_until([&] { return done_slots(db, event) >= 6; }, 90));
  REQUIRE(pg.restart());
  REQUIRE(wait_until([&] { return contains(daemon.err(), "reconnected to"); }, 60));
  INFO(daemon.err());
  // The same port answers again, and the event is played to its end.
  auto state = [&] {
    auto c = daemon.client();
    auto res = c.Get("/api/events/" + std::to_string(event));
    if (!res || res->status != 200) return std::string();
    return stest::Json::parse(res->body).value("state", "");
  };
  REQUIRE(wait_until([&] { return state() == "finished"; }, 180));
  CHECK(daemon.running());
  CHECK(contains(daemon.err(), "lost the connection to " + referee::storage::database_name(db)));
  CHECK(daemon.signal_and_wait(SIGTERM) == 0);

  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  referee::storage::GameFilter all;
  all.event_id = event;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games);
  std::map<std::int64_t, int> finished_per_slot;
  for (const auto& g : *games) {
    CHECK(g.status != referee::storage::GameStatus::Running);
    if (g.status == referee::storage::GameStatus::Finished) ++finished_per_slot[g.slot];
  }
  CHECK(finished_per_slot.size() == 40);
  for (const auto& [slot, n] : finished_per_slot) {
    INFO("slot " << slot);
    CHECK(n == 1);
  }
  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);
}

TEST_CASE("worker: a storage failure other than a lost connection still stops it (status 1)",
          "[postgres]") {
  storage_test::PgServer* server = storage_test::postgres_or_skip();
  if (server == nullptr) return;
  storage_test::PgServer& pg = *server;
  TempDir dir;
  const std::string db = pg.new_database();
  rtest::write_text(dir.file("event.toml"), event_toml("refused", 20, 30, 5));
  const std::int64_t event = stest::queue_file(db, dir.file("event.toml"));
  stest::WorkerProcess worker(dir.path(), {"--db", db, "--concurrency", "2", "--exit-when-done"});
  REQUIRE(wait_until([&] { return done_slots(db, event) >= 2; }, 90));
  {
    // From now on no move can be stored: an error of the data, not of the connection.
    auto admin = referee::storage::sql::open_postgres(db);
    REQUIRE(admin);
    (*admin)->exec("ALTER TABLE moves ADD CONSTRAINT refused CHECK (ply < 0) NOT VALID");
  }
  REQUIRE(wait_until([&] { return !worker.running(); }, 60));
  INFO(worker.err());
  CHECK(worker.wait() == 1);
  CHECK(contains(worker.err(), "stopped after a storage failure"));
  CHECK_FALSE(contains(worker.err(), "reconnecting"));
}
