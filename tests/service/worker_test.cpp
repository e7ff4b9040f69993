// `referee worker` as real processes: four workers, each in its own working directory, share one
// database (the only meeting point), a SQLite file and then a PostgreSQL server the test starts
// (tests/storage/backends.h); they are killed with kill -9 at random and started again while a
// 500-game event is played. Exactly the scheduled slots finish, each once; the games a killed
// worker left are kept as interrupted; `referee verify` passes; no engine process outlives the
// run. On PostgreSQL as root each worker runs in its own network namespace and reaches the server
// over TCP through a veth pair (netns.h), proven from pg_stat_activity; otherwise one
// `SKIPPED netns: <why>` line and the Unix socket. Then the smaller behaviours: --exit-when-done,
// --queue, bad options.
// [slow] The kill -9 proof takes about 20 s in Release, 25 s under the sanitizers: a 500-game
// event on each of the two backends, so that eight kills at 0.2-0.8 s intervals land mid-game.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "engines/engine_hash.h"
#include "event/event_spec.h"
#include "referee/service/worker.h"
#include "storage/backends.h"
#include "storage/sql/pg_connection.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/netns.h"
#include "tests/service/worker_process.h"

using stest::contains;
using stest::TempDir;
using stest::wait_until;
using stest::WorkerProcess;
using SteadyClock = std::chrono::steady_clock;

namespace {

// A live process (not a zombie) running the mock engine.
bool mock_alive(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  const std::string stat = rtest::read_text(proc + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  if (stat[close + 2] == 'Z' || stat[close + 2] == 'X') return false;
  return contains(rtest::read_text(proc + "/cmdline"), "mock_engine");
}

// A tournament file of two mock engines that write their pids to `pids`: `cycles` cycles of
// awale:maxplies=`plies` (two games a cycle: one opening, both seatings).
std::string event_toml(const std::string& name, int cycles, int plies, const std::string& pids,
                       int slow_ms) {
  std::string text = "name = \"" + name + "\"\ngames = [\"awale:maxplies=" + std::to_string(plies) +
                     "\"]\ntc = \"10+0.1\"\ncycles = " + std::to_string(cycles) +
                     "\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < 2; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + stest::kMock +
            "\"\nargs = [\"--pid-file=" + pids + "\", \"--slow-ms=" + std::to_string(slow_ms) +
            "\"]\n";
  return text;
}

std::vector<pid_t> read_pids(const std::string& file) {
  std::vector<pid_t> pids;
  for (const auto& line : rtest::read_lines(file))
    if (!line.empty()) pids.push_back(static_cast<pid_t>(std::stol(line)));
  return pids;
}

}  // namespace

namespace {

// Where the workers of the proof run and how they reach the database: worker i's --db URL, the
// command prefix it runs under, and a look at the database taken now and then while games go on.
struct Placement {
  std::function<std::string(int)> url;
  std::function<std::vector<std::string>(int)> prefix = [](int) {
    return std::vector<std::string>{};
  };
  std::function<void()> observe = [] {};
};

Placement local_placement(const std::string& db) {
  Placement place;
  place.url = [db](int) { return db; };
  return place;
}

// The proof on one database (`db`, a SQLite file or a PostgreSQL URL the test reads through):
// four workers in their own directories, kill -9 at random and restart, then every check on what
// was recorded.
void kill_and_restart_proof(const std::string& db, const Placement& place) {
  TempDir dir;
  const std::string pids = dir.file("pids");
  rtest::write_text(dir.file("event.toml"), event_toml("proof", 250, 24, pids, 4));
  const std::int64_t event = stest::queue_file(db, dir.file("event.toml"));

  auto args_of = [&](int i) {
    return std::vector<std::string>{"--db",
                                    place.url(i),
                                    "--concurrency",
                                    "2",
                                    "--lease",
                                    "1",
                                    "--idle-max",
                                    "1",
                                    "--drain-seconds",
                                    "5",
                                    "--exit-when-done",
                                    "--name",
                                    "w" + std::to_string(i)};
  };
  std::vector<std::string> dirs;
  std::vector<std::unique_ptr<WorkerProcess>> workers;
  std::vector<std::int64_t> started_ms;  // when worker i's present process was started (Unix ms)
  auto unix_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  for (int i = 0; i < 4; ++i) {
    dirs.push_back(dir.file("w" + std::to_string(i)));
    std::filesystem::create_directories(dirs.back());
    started_ms.push_back(unix_ms());
    workers.push_back(std::make_unique<WorkerProcess>(dirs.back(), args_of(i), place.prefix(i)));
  }

  auto done_slots = [&] {
    auto store = referee::storage::Store::open(db, {true});
    if (!store) return std::int64_t{0};
    auto info = referee::storage::work_queue::event(*store, event);
    return info ? info->done : std::int64_t{0};
  };
  // Worker i's present process has a game the database shows running. A game may start and
  // finish between two of a worker's commits, so a kill at a random moment may interrupt none
  // (seen under ASan on PostgreSQL): each kill waits a while for this first.
  auto playing = [&](std::size_t i) {
    auto store = referee::storage::Store::open(db, {true});
    if (!store) return false;
    auto owners = referee::storage::work_queue::owners(*store, 0, 100);
    if (!owners) return false;
    for (const auto& o : *owners)
      if (o.info.name == "w" + std::to_string(i) && o.started_at_ms >= started_ms[i] &&
          !o.running_games.empty())
        return true;
    return false;
  };
  // Kill a random worker with kill -9 every 0.2 to 0.8 s while games go on, and start it again.
  std::mt19937 rng(12);
  int kills = 0, kills_mid_game = 0;
  const auto until = SteadyClock::now() + std::chrono::seconds(60);
  while (kills < 8 && SteadyClock::now() < until && done_slots() < 450) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200 + rng() % 600));
    place.observe();
    const auto i = static_cast<std::size_t>(rng() % 4);
    kills_mid_game += wait_until([&] { return playing(i); }, 3);
    workers[i]->kill9();
    ++kills;
    started_ms[i] = unix_ms();
    workers[i] = std::make_unique<WorkerProcess>(dirs[i], args_of(static_cast<int>(i)),
                                                 place.prefix(static_cast<int>(i)));
  }
  CHECK(kills >= 3);
  CHECK(kills_mid_game >= 1);
  // Every worker stops by itself once the event is finished.
  auto last_look = SteadyClock::now();
  for (std::size_t i = 0; i < workers.size(); ++i) {
    INFO("worker " << i << ": " << workers[i]->err());
    REQUIRE(wait_until(
        [&] {
          if (SteadyClock::now() - last_look > std::chrono::milliseconds(300)) {
            place.observe();
            last_look = SteadyClock::now();
          }
          return !workers[i]->running();
        },
        90));
    CHECK(workers[i]->wait() == 0);
  }

  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  auto info = referee::storage::work_queue::event(*store, event);
  REQUIRE(info);
  CHECK(info->state == referee::storage::EventState::Finished);
  CHECK(info->done == 500);
  CHECK(info->total() == 500);
  referee::storage::GameFilter all;
  all.event_id = event;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games);
  std::map<std::int64_t, int> finished_per_slot;
  std::set<std::optional<std::int64_t>> owners;
  int interrupted = 0;
  for (const auto& g : *games) {
    if (g.status == referee::storage::GameStatus::Finished) {
      ++finished_per_slot[g.slot];
      owners.insert(g.owner);
    } else {
      CHECK(g.status == referee::storage::GameStatus::Unfinished);
      interrupted += g.termination == "interrupted";
    }
    CHECK(g.status != referee::storage::GameStatus::Running);
  }
  CHECK(finished_per_slot.size() == 500);
  for (const auto& [slot, n] : finished_per_slot) {
    INFO("slot " << slot);
    CHECK(n == 1);
  }
  CHECK(interrupted >= 1);  // a worker killed mid-game left its games, kept as interrupted
  CHECK(owners.size() >= 4);

  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);

  // No engine process outlives its worker, killed or not.
  const auto started = read_pids(pids);
  CHECK(started.size() >= 8);
  std::vector<pid_t> alive;
  wait_until(
      [&] {
        alive.clear();
        for (pid_t p : started)
          if (mock_alive(p)) alive.push_back(p);
        return alive.empty();
      },
      5);
  for (pid_t p : alive) ::kill(p, SIGKILL);
  CHECK(alive.empty());
}

// On PostgreSQL as root, each worker runs in its own network namespace and reaches the server
// over TCP through a veth pair (netns.h); the test proves it from pg_stat_activity: every
// connection of worker i (application_name wi) comes from namespace i's address. Without
// namespaces (not root, or refused), one loud line, and the workers use the Unix socket.
void postgres_proof() {
  stest::NetNamespaces nets(4);
  if (!nets.available()) {
    const std::string why = "SKIPPED netns: " + nets.reason() +
                            " (the PostgreSQL workers use the server's Unix socket instead)";
    std::cerr << why << "\n";
    WARN(why);
    storage_test::TestDb db("postgresql");
    kill_and_restart_proof(db.url(), local_placement(db.url()));
    return;
  }
  storage_test::PgServer::Options options;
  for (int i = 0; i < 4; ++i) options.tcp_addresses.push_back(nets.root_address(i));
  options.tcp_clients = nets.clients();
  storage_test::PgServer server(options);
  INFO(server.reason());
  REQUIRE(server.available());
  const std::string db = server.new_database();
  const std::string name = storage_test::PgServer::database_of(db);
  auto admin = referee::storage::sql::open_postgres(server.url("postgres"));
  REQUIRE(admin);
  // application_name -> the client addresses its connections came from ("local": Unix socket)
  std::map<std::string, std::set<std::string>> seen;
  Placement place;
  place.url = [&](int i) {
    return server.tcp_url(name, nets.root_address(i)) + "?application_name=w" + std::to_string(i);
  };
  place.prefix = [&](int i) { return nets.exec_prefix(i); };
  place.observe = [&] {
    auto rows = (*admin)->prepare(
        "SELECT application_name, coalesce(host(client_addr), 'local') FROM pg_stat_activity "
        "WHERE datname = '" +
        name + "'");
    while (rows->step()) seen[rows->text(0)].insert(rows->text(1));
  };
  kill_and_restart_proof(db, place);
  for (int i = 0; i < 4; ++i) {
    const std::string worker = "w" + std::to_string(i);
    INFO(worker << " in " << nets.ns(i));
    REQUIRE(seen.count(worker) == 1);
    CHECK(seen[worker] == std::set<std::string>{nets.address(i)});
  }
}

}  // namespace

TEST_CASE("worker: four workers killed with kill -9 and restarted finish every slot once",
          "[slow]") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      if (backend == "postgresql") {
        postgres_proof();
      } else {
        storage_test::TestDb db(backend);
        kill_and_restart_proof(db.url(), local_placement(db.url()));
      }
    }
}

TEST_CASE("worker: --queue queues a file's event and --exit-when-done stops after it") {
  TempDir dir;
  const std::string db = dir.file("q.db");
  rtest::write_text(dir.file("e.toml"), event_toml("small", 2, 8, dir.file("pids"), 0));
  auto run = rtest::run_program(
      REFEREE_BIN,
      {"worker", "--db", db, "--queue", dir.file("e.toml"), "--exit-when-done", "--idle-max", "1"},
      dir);
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK(contains(run.out, "worker "));
  CHECK(contains(run.err, "queued"));
  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  referee::storage::EventQuery q;
  auto list = referee::storage::work_queue::events(*store, q);
  REQUIRE(list);
  REQUIRE(list->events.size() == 1);
  CHECK(list->events[0].state == referee::storage::EventState::Finished);
  CHECK(list->events[0].done == 4);
}

TEST_CASE(
    "worker: queueing a file again gives its event, another specification replaces it only "
    "until a game is played") {
  TempDir dir;
  const std::string db = dir.file("q.db");
  rtest::write_text(dir.file("e.toml"), event_toml("again", 1, 8, dir.file("pids"), 0));
  {
    auto store = referee::storage::Store::open(db);
    REQUIRE(store);
    auto first = referee::service::queue_event(*store, dir.file("e.toml"));
    REQUIRE(first);
    CHECK(first->created);
    auto same = referee::service::queue_event(*store, dir.file("e.toml"));
    REQUIRE(same);
    CHECK_FALSE(same->created);
    CHECK(same->id == first->id);
    // No game played yet: the corrected file is the event (a path fixed, a count changed).
    rtest::write_text(dir.file("e.toml"), event_toml("again", 2, 8, dir.file("pids"), 0));
    auto replaced = referee::service::queue_event(*store, dir.file("e.toml"));
    REQUIRE(replaced);
    CHECK(replaced->id == first->id);
    auto info = referee::storage::work_queue::event(*store, first->id);
    REQUIRE(info);
    CHECK(info->total() == 4);
    CHECK(info->state == referee::storage::EventState::Queued);
  }
  auto run = rtest::run_program(REFEREE_BIN,
                                {"worker", "--db", db, "--exit-when-done", "--idle-max", "1"}, dir);
  INFO(run.err);
  REQUIRE(run.status == 0);
  // Games played: a changed file is refused, naming the file and what changed.
  auto store = referee::storage::Store::open(db);
  REQUIRE(store);
  rtest::write_text(dir.file("e.toml"), event_toml("again", 3, 8, dir.file("pids"), 0));
  auto changed = referee::service::queue_event(*store, dir.file("e.toml"));
  REQUIRE_FALSE(changed);
  CHECK(changed.kind() == referee::ErrorKind::Conflict);
  CHECK(contains(changed.error(),
                 "e.toml: event \"again\" already exists with a different "
                 "specification (cycles"));
  CHECK(contains(changed.error(), "give it a new name"));
}

TEST_CASE("worker: an idle worker with --exit-when-done stops when nothing is queued") {
  TempDir dir;
  auto run = rtest::run_program(REFEREE_BIN,
                                {"worker", "--db", dir.file("empty.db"), "--exit-when-done"}, dir);
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK(contains(run.err, "no event left to play"));
}

TEST_CASE("worker: bad options and a bad file are one-line errors") {
  TempDir dir;
  auto bad = rtest::run_program(REFEREE_BIN, {"worker", "--concurrency", "0"}, dir);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--concurrency must be from 1 to 256"));
  bad = rtest::run_program(REFEREE_BIN, {"worker", "--lease", "0.01"}, dir);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--lease"));
  rtest::write_text(dir.file("bad.toml"), "name = \"x\"\ngames = [\"nosuchgame\"]\n");
  bad = rtest::run_program(
      REFEREE_BIN,
      {"worker", "--db", dir.file("b.db"), "--queue", dir.file("bad.toml"), "--exit-when-done"},
      dir);
  CHECK(bad.status == 1);
  CHECK(contains(bad.err, "bad.toml"));
}

// ---- Engine hashes and pins ----

namespace {

std::string pinned_toml(const std::string& name, const std::string& pin) {
  std::string text =
      "name = \"" + name + "\"\ngames = [\"awale:maxplies=8\"]\ntc = \"10+0.1\"\ncycles = 1\n";
  for (int e = 0; e < 3; ++e) {
    text +=
        "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + stest::kMock + "\"\n";
    if (e == 0) text += "sha256 = \"" + pin + "\"\n";
  }
  return text;
}

}  // namespace

TEST_CASE("worker: a pin is 64 hex digits, kept in the event's specification") {
  TempDir dir;
  const std::string mock_hash = referee::engines::file_sha256(stest::kMock).value();
  rtest::write_text(dir.file("bad.toml"), pinned_toml("p", "abc"));
  auto bad = referee::event::load_tournament_file(dir.file("bad.toml"));
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error(), "'sha256' must be 64 hexadecimal digits"));
  CHECK(contains(bad.error(), "bad.toml"));

  std::string upper = mock_hash;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  rtest::write_text(dir.file("ok.toml"), pinned_toml("p", upper));
  auto ok = referee::event::load_tournament_file(dir.file("ok.toml"));
  REQUIRE(ok.ok());
  CHECK(ok->engines[0].config.sha256 == mock_hash);  // stored in lower case
  CHECK(ok->engines[1].config.sha256.empty());
  const std::string spec = referee::event::event_spec(*ok);
  auto back = referee::event::config_from_spec(spec);
  REQUIRE(back.ok());
  CHECK(back->engines[0].config.sha256 == mock_hash);
  CHECK(referee::event::event_spec(*back) == spec);
  // Unpinned engines add no key: specifications stored before pins compare equal.
  CHECK(stest::Json::parse(spec)["engines"][1].count("sha256") == 0);
  auto other = *ok;
  other.engines[0].config.sha256 = std::string(64, '0');
  CHECK(contains(referee::event::spec_changes(spec, referee::event::event_spec(other)), "m0"));
}

TEST_CASE("worker: an engine whose binary differs from its pin is never claimed here") {
  TempDir dir;
  const std::string db = dir.file("pin.db");
  const std::string mock_hash = referee::engines::file_sha256(stest::kMock).value();
  rtest::write_text(dir.file("e.toml"), pinned_toml("pinned", std::string(64, '0')));
  const std::int64_t event = stest::queue_file(db, dir.file("e.toml"));
  std::filesystem::create_directories(dir.file("w"));
  WorkerProcess w(dir.file("w"), {"--db", db, "--idle-max", "1", "--name", "pinner"});
  auto done = [&] {
    auto store = referee::storage::Store::open(db, {true});
    return store && referee::storage::work_queue::event(*store, event)
               ? referee::storage::work_queue::event(*store, event)->done
               : std::int64_t{0};
  };
  // Round robin of 3 engines, both seatings: m1-m2 (2 games) can be played, m0's 4 cannot.
  REQUIRE(wait_until([&] { return done() == 2; }, 60));
  REQUIRE(wait_until([&] { return contains(w.err(), "sha256 differs"); }, 10));
  CHECK(w.running());
  w.terminate();
  CHECK(w.wait() == 0);
  {
    auto store = referee::storage::Store::open(db, {true});
    REQUIRE(store);
    auto info = referee::storage::work_queue::event(*store, event);
    REQUIRE(info);
    CHECK(info->done == 2);
    CHECK(info->pending == 4);
    referee::storage::GameFilter all;
    all.event_id = event;
    all.finished_only = false;
    auto games = store->games(all);
    REQUIRE(games);
    CHECK(games->size() == 2);
    for (const auto& g : *games) {
      CHECK(std::find(g.players.begin(), g.players.end(), "m0") == g.players.end());
      REQUIRE(g.engine_hashes.size() == 2);
      CHECK(g.engine_hashes[0].program == mock_hash);
      CHECK(g.engine_hashes[1].program == mock_hash);
      CHECK(g.engine_hashes[0].script.empty());
    }
  }
  // One line says why, naming the engine and both hashes.
  std::size_t lines = 0;
  for (const auto& line : rtest::lines_of(w.err()))
    if (contains(line, "sha256 differs")) {
      ++lines;
      CHECK(contains(line, "'m0'"));
      CHECK(contains(line, mock_hash));
      CHECK(contains(line, std::string(64, '0')));
    }
  CHECK(lines == 1);
}

TEST_CASE("worker: an engine matching its pin plays, and its games record the hash") {
  TempDir dir;
  const std::string db = dir.file("pin.db");
  const std::string mock_hash = referee::engines::file_sha256(stest::kMock).value();
  rtest::write_text(dir.file("e.toml"), pinned_toml("pinned ok", mock_hash));
  auto run = rtest::run_program(
      REFEREE_BIN,
      {"worker", "--db", db, "--queue", dir.file("e.toml"), "--exit-when-done", "--idle-max", "1"},
      dir);
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK_FALSE(contains(run.err, "sha256 differs"));
  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  auto games = store->games({});
  REQUIRE(games);
  CHECK(games->size() == 6);
  for (const auto& g : *games) {
    REQUIRE(g.engine_hashes.size() == 2);
    CHECK(g.engine_hashes[0].program == mock_hash);
  }
}

// ---- The daemon shows the workers ----

namespace {

void workers_api_check(const std::string& db) {
  TempDir dir;
  stest::Daemon daemon(dir, {"--db", db, "-c", "1"});
  REQUIRE(daemon.ready());
  auto client = daemon.client();
  // A slow event queued in the database for the worker (the daemon may play some of it too).
  rtest::write_text(dir.file("e.toml"), event_toml("slow", 20, 40, dir.file("pids"), 30));
  stest::queue_file(db, dir.file("e.toml"));
  std::filesystem::create_directories(dir.file("w"));
  WorkerProcess w(dir.file("w"), {"--db", db, "-c", "2", "--lease", "1", "--name", "box2"});

  stest::Json mine;
  std::string last;
  const bool seen = wait_until(
      [&] {
        const auto all = stest::get_json(client, "/api/workers");
        if (all["workers"].size() > 1) last = all.dump();
        for (const auto& x : all["workers"])
          if (x["name"] == "box2" && x["running_games"].size() == 2) {
            mine = x;
            return true;
          }
        return false;
      },
      60);
  if (!seen) FAIL("worker: " << w.err() << "\ndaemon: " << daemon.err() << "\nworkers: " << last);
  CHECK(mine["kind"] == "worker");
  CHECK(mine["state"] == "alive");
  CHECK(mine["this_daemon"] == false);
  CHECK(mine["pid"].get<long>() > 0);
  CHECK(mine["host"].get<std::string>().size() > 0);
  CHECK(mine["stopped_at"].is_null());
  CHECK(mine["heartbeat_age_s"].get<double>() < 30);
  // The daemon lists itself too.
  bool self = false;
  const auto listed = stest::get_json(client, "/api/workers");
  for (const auto& x : listed["workers"])
    self = self || (x["this_daemon"] == true && x["kind"] == "serve" && x["state"] == "alive");
  CHECK(self);
  // A running game names its worker.
  const auto game_id = mine["running_games"][0].get<std::int64_t>();
  auto game = stest::get_json(client, "/api/games/" + std::to_string(game_id));
  CHECK(game["worker"] == mine["id"]);
  CHECK(game["engine_hashes"].size() == 2);

  // Killed: no heartbeat, the lease runs out, the worker is shown lost.
  w.kill9();
  const auto id = mine["id"];
  CHECK(wait_until(
      [&] {
        const auto all = stest::get_json(client, "/api/workers");
        for (const auto& x : all["workers"])
          if (x["id"] == id) return x["state"] == "lost";
        return false;
      },
      30));
  auto bad = client.Get("/api/workers?limit=x");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  bad = client.Get("/api/workers?nope=1");
  REQUIRE(bad);
  CHECK(bad->status == 400);
}

}  // namespace

TEST_CASE("worker: GET /api/workers shows a worker's live games, then the worker lost by lease") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      workers_api_check(db.url());
    }
}

TEST_CASE("worker: referee tournament does not play an engine pinned to other bytes either") {
  TempDir dir;
  rtest::write_text(dir.file("e.toml"), pinned_toml("pinned run", std::string(64, 'e')));
  auto run = rtest::run_program(REFEREE_BIN, {"tournament", dir.file("e.toml")}, dir, dir.path());
  INFO(run.out << run.err);
  CHECK(run.status == 3);  // games not played
  CHECK(contains(run.out + run.err, "sha256 differs"));
  auto store = referee::storage::Store::open(dir.file("referee.db"), {true});
  REQUIRE(store);
  auto games = store->games({});
  REQUIRE(games);
  CHECK(games->size() == 2);  // m1 against m2 only
  for (const auto& g : *games)
    CHECK(std::find(g.players.begin(), g.players.end(), "m0") == g.players.end());
}
