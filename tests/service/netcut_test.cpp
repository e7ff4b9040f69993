// A network cut with no reset between a worker and PostgreSQL (issue 12): a cable pulled, a
// firewall dropping packets, a paused VM. The worker's namespace (netns.h) loses its link
// silently (`ip link set <root side> down`: its packets are dropped, nothing answers, no RST).
//
// - The timeouts that bound the detection come from the URL (pg_connection.h): a URL's libpq
//   parameters win over our defaults, and the server's end of the connection gets the same
//   values (checked over TCP on 127.0.0.1, no root needed).
// - A server backend whose client vanished in a transaction lets its row locks go within the
//   mirrored timeouts (without the mirror it holds them for the server's keepalive default, two
//   hours: the claims of that client could never be taken over).
// - A worker cut mid-game notices within tcp_user_timeout plus one heartbeat, stops its games,
//   its slots are taken over by the other worker while it is cut, it reconnects once the link is
//   back and plays again; every slot is finished once, its half-played games are kept
//   unfinished, `referee verify` passes, and no process is left in its namespace.
// - `referee serve` cut the same way keeps answering: 503 (a storage failure, then "unreachable:
//   reconnecting") while it is away, never a hang past the user timeout nor a 404 for an event
//   that exists; it serves again once the link is back and its event finishes.
// Without root or namespaces the last three print `SKIPPED netns: <why>` and check only the reason.
// [slow] The two cuts take 15-20 s each: what they prove is a timeout (tcp_user_timeout plus a
// heartbeat, a lease taken over), which is waited for in real time.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "storage/backends.h"
#include "storage/pg_server.h"
#include "storage/sql/pg_connection.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/netns.h"
#include "tests/service/worker_process.h"

using referee::storage::sql::open_postgres;
using stest::contains;
using stest::TempDir;
using stest::wait_until;
using stest::WorkerProcess;
using SteadyClock = std::chrono::steady_clock;

namespace {

bool skipped(const stest::NetNamespaces& nets) {
  if (nets.available()) return false;
  CHECK_FALSE(nets.reason().empty());
  std::cerr << "SKIPPED netns: " << nets.reason() << "\n";
  WARN("SKIPPED netns: " + nets.reason());
  return true;
}

// A server of the test's own listening on `addresses`; null (after a loud skip, or a failure when
// PostgreSQL is required) when none can be started.
std::unique_ptr<storage_test::PgServer> server_on(const std::vector<std::string>& addresses,
                                                  const std::string& clients) {
  storage_test::PgServer::Options options;
  options.tcp_addresses = addresses;
  options.tcp_clients = clients;
  auto server = std::make_unique<storage_test::PgServer>(options);
  if (server->available()) return server;
  if (storage_test::PgServer::required())
    FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " +
         server->reason());
  WARN("SKIPPED: " + server->reason());
  return nullptr;
}

std::string text_of(referee::storage::sql::Connection& db, const std::string& sql) {
  auto q = db.prepare(sql);
  return q->step() && !q->is_null(0) ? q->text(0) : std::string();
}

std::int64_t int_of(referee::storage::sql::Connection& db, const std::string& sql) {
  auto q = db.prepare(sql);
  return q->step() && !q->is_null(0) ? q->int64(0) : 0;
}

// The server's settings of this connection's end, by name: their raw values (s, ms).
std::map<std::string, std::string> server_timeouts(referee::storage::sql::Connection& db) {
  std::map<std::string, std::string> out;
  auto q = db.prepare(
      "SELECT name, setting FROM pg_settings WHERE name IN ('tcp_keepalives_idle',"
      " 'tcp_keepalives_interval', 'tcp_keepalives_count', 'tcp_user_timeout')");
  while (q->step()) out[q->text(0)] = q->text(1);
  return out;
}

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

// The short timeouts of the cut tests, as a runner would put them in its URL: a statement waits
// at most 2 s for an answer, an idle connection is probed after 1 s, a connection attempt gives
// up after 2 s.
const std::string kShortTimeouts =
    "keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=2000"
    "&connect_timeout=2";
constexpr double kUserTimeoutS = 2.0;

}  // namespace

TEST_CASE("netcut: the URL's timeouts win over the defaults, and the server's end gets the same") {
  using referee::storage::sql::url_sets;
  using referee::storage::sql::with_default_timeouts;
  const std::string bare = with_default_timeouts("postgresql://u@h/db");
  CHECK(bare ==
        "postgresql://u@h/db?connect_timeout=10&keepalives=1&keepalives_idle=10"
        "&keepalives_interval=5&keepalives_count=3&tcp_user_timeout=30000");
  const std::string given =
      with_default_timeouts("postgresql://u@h/db?keepalives_idle=1&tcp_user_timeout=3000");
  CHECK(given ==
        "postgresql://u@h/db?keepalives_idle=1&tcp_user_timeout=3000&connect_timeout=10"
        "&keepalives=1&keepalives_interval=5&keepalives_count=3");
  // A parameter is the key before '=', not a piece of another parameter's value.
  CHECK(url_sets("postgresql://h/db?application_name=a&keepalives=0", "keepalives"));
  CHECK_FALSE(url_sets("postgresql://h/db?application_name=keepalives_idle=7", "keepalives_idle"));
  CHECK_FALSE(url_sets("postgresql://h/db", "keepalives"));
  CHECK(contains(with_default_timeouts("postgresql://h/db?application_name=tcp_user_timeout=1"),
                 "&tcp_user_timeout=30000"));

  auto server = server_on({"127.0.0.1"}, "127.0.0.1/32");
  if (!server) return;
  const std::string name = storage_test::PgServer::database_of(server->new_database());
  const std::string tcp = server->tcp_url(name, "127.0.0.1");
  {
    auto db = open_postgres(tcp);
    REQUIRE(db);
    CHECK(text_of(**db,
                  "SELECT host(client_addr) FROM pg_stat_activity WHERE pid ="
                  " pg_backend_pid()") == "127.0.0.1");
    const std::map<std::string, std::string> defaults = {{"tcp_keepalives_idle", "10"},
                                                         {"tcp_keepalives_interval", "5"},
                                                         {"tcp_keepalives_count", "3"},
                                                         {"tcp_user_timeout", "30000"}};
    CHECK(server_timeouts(**db) == defaults);
  }
  {
    auto db = open_postgres(tcp +
                            "?keepalives_idle=1&keepalives_interval=2&keepalives_count=4"
                            "&tcp_user_timeout=3000");
    REQUIRE(db);
    const std::map<std::string, std::string> given_values = {{"tcp_keepalives_idle", "1"},
                                                             {"tcp_keepalives_interval", "2"},
                                                             {"tcp_keepalives_count", "4"},
                                                             {"tcp_user_timeout", "3000"}};
    CHECK(server_timeouts(**db) == given_values);
  }
  {
    // keepalives=0 asks for none: the server keeps its own (the system's).
    auto db = open_postgres(tcp + "?keepalives=0");
    REQUIRE(db);
    auto own = server_timeouts(**db);
    CHECK(own["tcp_keepalives_idle"] != "10");
    CHECK(own["tcp_user_timeout"] == "0");
  }
}

TEST_CASE("netcut: a backend whose client vanished in a transaction lets its locks go in time") {
  stest::NetNamespaces nets(1);
  if (skipped(nets)) return;
  auto server = server_on({nets.root_address(0)}, nets.clients());
  if (!server) return;
  const std::string db = server->new_database();
  auto admin = open_postgres(db);  // over the Unix socket: not cut
  REQUIRE(admin);
  (*admin)->exec("CREATE TABLE held (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
  (*admin)->exec("INSERT INTO held VALUES (1, 0)");
  const std::string url =
      server->tcp_url(storage_test::PgServer::database_of(db), nets.root_address(0)) +
      "?application_name=locker&" + kShortTimeouts;

  // A client in the namespace: locks the row in an open transaction, says so, then waits.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    const int ns = ::open(nets.ns_file(0).c_str(), O_RDONLY);
    if (ns < 0 || ::setns(ns, CLONE_NEWNET) != 0) ::_exit(2);
    auto c = open_postgres(url);
    if (!c) ::_exit(3);
    try {
      (*c)->exec("BEGIN");
      (*c)->exec("UPDATE held SET v = v + 1 WHERE id = 1");
    } catch (...) {
      ::_exit(4);
    }
    if (::write(fds[1], "ok\n", 3) != 3) ::_exit(5);
    for (;;) ::pause();
  }
  ::close(fds[1]);
  char buf[3] = {};
  const bool locked = ::read(fds[0], buf, 3) == 3;
  ::close(fds[0]);
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  } reaper{child};
  REQUIRE(locked);
  const std::string lockers =
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'locker'";
  CHECK(int_of(**admin, lockers) == 1);
  CHECK(text_of(**admin, "SELECT state FROM pg_stat_activity WHERE application_name = 'locker'") ==
        "idle in transaction");

  REQUIRE(nets.cut(0));
  const auto cut = SteadyClock::now();
  // The server probes the idle connection after 1 s and gives up 2 s after its last answer.
  const bool gone = wait_until([&] { return int_of(**admin, lockers) == 0; }, 30);
  const double took = seconds_since(cut);
  std::cerr << "netcut: the vanished client's backend ended " << took << " s after the cut\n";
  CHECK(gone);
  CHECK(took < 15);
  // Its transaction was rolled back and its lock is free.
  CHECK(int_of(**admin, "SELECT v FROM held WHERE id = 1") == 0);
  CHECK_NOTHROW((*admin)->exec("BEGIN; SELECT v FROM held WHERE id = 1 FOR UPDATE NOWAIT; COMMIT"));
  CHECK(nets.restore(0));
}

namespace {

// Two mock engines writing their pids to `pids`, `cycles` cycles of awale:maxplies=24 with
// `slow_ms` per move.
std::string cut_event(const std::string& name, int cycles, const std::string& pids, int slow_ms) {
  std::string text = "name = \"" + name + "\"\ngames = [\"awale:maxplies=24\"]\ntc = \"10+0.1\"\n" +
                     "cycles = " + std::to_string(cycles) + "\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < 2; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + stest::kMock +
            "\"\nargs = [\"--pid-file=" + pids + "\", \"--slow-ms=" + std::to_string(slow_ms) +
            "\"]\n";
  return text;
}

std::size_t count_of(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (auto p = text.find(piece); p != std::string::npos; p = text.find(piece, p + 1)) ++n;
  return n;
}

bool alive(long pid) {
  const std::string stat = rtest::read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' &&
         stat[close + 2] != 'X';
}

}  // namespace

TEST_CASE("netcut: a worker cut silently mid-game stops, is taken over, reconnects and goes on",
          "[slow]") {
  stest::NetNamespaces nets(2);
  if (skipped(nets)) return;
  auto server = server_on({nets.root_address(0), nets.root_address(1)}, nets.clients());
  if (!server) return;
  const std::string db = server->new_database();  // the test's own reads: the Unix socket
  const std::string name = storage_test::PgServer::database_of(db);
  auto admin = open_postgres(db);
  REQUIRE(admin);
  auto sql_int = [&](const std::string& sql) { return int_of(**admin, sql); };

  TempDir dir;
  const std::string pids = dir.file("pids");
  rtest::write_text(dir.file("first.toml"), cut_event("first", 30, pids, 20));
  const std::int64_t first = stest::queue_file(db, dir.file("first.toml"));
  const long lease_ms = 1000;
  auto args_of = [&](int i) {
    return std::vector<std::string>{"--db",
                                    server->tcp_url(name, nets.root_address(i)) +
                                        "?application_name=w" + std::to_string(i) + "&" +
                                        kShortTimeouts,
                                    "--concurrency",
                                    "2",
                                    "--lease",
                                    std::to_string(static_cast<double>(lease_ms) / 1000),
                                    "--idle-max",
                                    "1",
                                    "--drain-seconds",
                                    "1",
                                    "--name",
                                    "w" + std::to_string(i)};
  };
  std::vector<std::unique_ptr<WorkerProcess>> workers;
  for (int i = 0; i < 2; ++i) {
    const std::string home = dir.file("w" + std::to_string(i));
    std::filesystem::create_directories(home);
    workers.push_back(std::make_unique<WorkerProcess>(home, args_of(i), nets.exec_prefix(i)));
  }
  WorkerProcess& cut_one = *workers[0];
  auto running_of = [&](const std::string& worker) {
    return sql_int("SELECT count(*) FROM games g JOIN owners o ON o.id = g.owner WHERE o.name = '" +
                   worker + "' AND g.status = 'running'");
  };
  {
    INFO(cut_one.err() << workers[1]->err());
    REQUIRE(wait_until([&] { return running_of("w0") >= 1 && running_of("w1") >= 1; }, 60));
  }
  const std::int64_t lost_owner = sql_int("SELECT max(id) FROM owners WHERE name = 'w0'");
  REQUIRE(nets.cut(0));
  const auto cut = SteadyClock::now();

  // Noticed: a statement is sent at least every heartbeat (lease/4) and fails tcp_user_timeout
  // after it went unanswered. Faster than the user timeout would mean a reset got through.
  const double bound = kUserTimeoutS + static_cast<double>(lease_ms) / 4000 + 0.1;
  const std::string noticed = "storage failure, stopping the games";
  REQUIRE(wait_until([&] { return contains(cut_one.err(), noticed); }, 60));
  const double detection = seconds_since(cut);
  std::cerr << "netcut: the worker noticed the cut after " << detection << " s (bound " << bound
            << " s + slack)\n";
  {
    INFO(cut_one.err());
    CHECK(contains(cut_one.err(), "the connection to the server was lost"));
    CHECK(detection >= kUserTimeoutS - 0.5);
    CHECK(detection <= bound + 8);  // slack for a loaded 2-core machine
  }
  // Its games stop: nothing but the worker itself is left in its namespace.
  {
    const std::vector<long> just_the_worker = {static_cast<long>(cut_one.pid())};
    CHECK(wait_until([&] { return nets.pids(0) == just_the_worker; }, 20));
  }
  // Its claims are taken over while it is still cut (lease expired; its server backends gone).
  const std::string held = "SELECT count(*) FROM slots WHERE state = 'claimed' AND owner = " +
                           std::to_string(lost_owner);
  {
    INFO(workers[1]->err());
    CHECK(wait_until([&] { return sql_int(held) == 0; }, 30));
  }
  CHECK(seconds_since(cut) > static_cast<double>(lease_ms) / 1000);
  // It tries to reconnect while the link is down: an attempt gives up after connect_timeout.
  {
    INFO(cut_one.err());
    CHECK(wait_until([&] { return contains(cut_one.err(), "the server is unreachable"); }, 30));
  }
  const std::size_t reconnected_before = count_of(cut_one.err(), "reconnected to");
  REQUIRE(nets.restore(0));
  const auto restored = SteadyClock::now();

  // Back: it reconnects (the backoff reaches 10 s at most) and claims again under a new owner.
  {
    INFO(cut_one.err());
    CHECK(wait_until([&] { return count_of(cut_one.err(), "reconnected to") > reconnected_before; },
                     40));
    std::cerr << "netcut: the worker reconnected " << seconds_since(restored)
              << " s after the link came back\n";
  }
  rtest::write_text(dir.file("second.toml"), cut_event("second", 10, pids, 20));
  const std::int64_t second = stest::queue_file(db, dir.file("second.toml"));
  const std::string finished_events =
      "SELECT count(*) FROM events WHERE state = 'finished' AND id IN (" + std::to_string(first) +
      ", " + std::to_string(second) + ")";
  {
    INFO(cut_one.err() << workers[1]->err());
    REQUIRE(wait_until([&] { return sql_int(finished_events) == 2; }, 120));
  }
  const std::int64_t new_owner = sql_int("SELECT max(id) FROM owners WHERE name = 'w0'");
  CHECK(new_owner > lost_owner);
  CHECK(sql_int("SELECT count(*) FROM games WHERE status = 'finished' AND owner = " +
                std::to_string(new_owner)) >= 1);
  for (auto& w : workers) {
    w->terminate();
    INFO(w->err());
    CHECK(wait_until([&] { return !w->running(); }, 30));
    CHECK(w->wait() == 0);
  }

  // Every slot finished once; the cut worker's half-played games are kept unfinished.
  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  for (const std::int64_t event : {first, second}) {
    auto info = referee::storage::work_queue::event(*store, event);
    REQUIRE(info);
    CHECK(info->state == referee::storage::EventState::Finished);
    CHECK(info->done == info->total());
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
    CHECK(static_cast<std::int64_t>(finished_per_slot.size()) == info->total());
    for (const auto& [slot, n] : finished_per_slot) {
      INFO("event " << event << " slot " << slot);
      CHECK(n == 1);
    }
  }
  const std::string owner = std::to_string(lost_owner);
  CHECK(sql_int("SELECT count(*) FROM games WHERE owner = " + owner +
                " AND status = 'unfinished' AND termination IN ('interrupted', 'lost-claim')") >=
        1);
  CHECK(sql_int("SELECT count(*) FROM games WHERE owner = " + owner +
                " AND status <> 'finished' AND (status <> 'unfinished' OR termination NOT IN"
                " ('interrupted', 'lost-claim'))") == 0);

  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);

  // No process is left behind: none in either namespace, no engine alive.
  CHECK(nets.pids(0).empty());
  CHECK(nets.pids(1).empty());
  std::vector<long> left;
  for (const auto& line : rtest::read_lines(pids))
    if (!line.empty() && alive(std::stol(line))) left.push_back(std::stol(line));
  CHECK(left.empty());
  for (long p : left) ::kill(static_cast<pid_t>(p), SIGKILL);
  if (std::getenv("NETCUT_DEBUG")) std::cerr << cut_one.err();
}

namespace {

// Runs `body` on a thread of its own that entered the network namespace in `file` first (a
// namespace is per thread: the test's other threads stay where they are). False when it could not.
bool in_namespace(const std::string& file, const std::function<void()>& body) {
  bool entered = false;
  std::thread t([&] {
    const int fd = ::open(file.c_str(), O_RDONLY);
    entered = fd >= 0 && ::setns(fd, CLONE_NEWNET) == 0;
    if (fd >= 0) ::close(fd);
    if (entered) body();
  });
  t.join();
  return entered;
}

// One request's fate: its status (0: no answer, `error` says why), body and how long it took.
struct Answer {
  int status = 0;
  std::string body, error;
  double seconds = 0;
};

}  // namespace

TEST_CASE("netcut: the daemon cut from its database answers 503 while away, then serves again",
          "[slow]") {
  stest::NetNamespaces nets(1);
  if (skipped(nets)) return;
  auto server = server_on({nets.root_address(0)}, nets.clients());
  if (!server) return;
  const std::string db = server->new_database();
  const std::string name = storage_test::PgServer::database_of(db);
  TempDir dir;
  stest::Daemon daemon(
      dir,
      {"--db",
       server->tcp_url(name, nets.root_address(0)) + "?application_name=serve&" + kShortTimeouts,
       "--concurrency", "2", "--lease", "1", "--drain-seconds", "1"},
      "serve", nets.exec_prefix(0));
  {
    INFO(daemon.err());
    REQUIRE(daemon.ready());
  }
  // The daemon listens on 127.0.0.1 of its namespace: the requests are sent from there.
  auto request = [&](const std::string& method, const std::string& path,
                     const std::string& body = "") {
    Answer a;
    const bool entered = in_namespace(nets.ns_file(0), [&] {
      auto client = daemon.client();
      client.set_read_timeout(20, 0);
      const auto start = SteadyClock::now();
      auto res = method == "POST" ? client.Post(path.c_str(), body, "application/toml")
                                  : client.Get(path.c_str());
      a.seconds = seconds_since(start);
      if (res) {
        a.status = res->status;
        a.body = res->body;
      } else {
        a.error = httplib::to_string(res.error());
      }
    });
    if (!entered) a.error = "cannot enter " + nets.ns(0);
    return a;
  };
  const Answer submitted =
      request("POST", "/api/events",
              stest::tournament_toml("cut", 2, 20, 24, "args = [\"--slow-ms=20\"]\n"));
  INFO(submitted.error << submitted.body);
  REQUIRE(submitted.status == 201);
  const auto event = stest::Json::parse(submitted.body)["id"].get<std::int64_t>();
  const std::string event_path = "/api/events/" + std::to_string(event);
  REQUIRE(wait_until(
      [&] {
        const Answer a = request("GET", "/api/games?status=running&event=" + std::to_string(event));
        if (a.status != 200) return false;
        const stest::Json page = stest::Json::parse(a.body, nullptr, false);
        return page.is_object() && page.contains("games") && !page["games"].empty();
      },
      60));

  REQUIRE(nets.cut(0));
  const auto cut = SteadyClock::now();
  // While it is cut, every read answers: 200 or 503 from the session that has not noticed yet
  // (a read waits tcp_user_timeout at most), then 503 "unreachable" until it is back. Two
  // unanswered requests are allowed: a connection still queued on the session's socket when it
  // closes is reset (the 503 answerer listens beside it on the same port from the detection on).
  // The first read goes to a pooled connection the cut made dead: it fails after the user
  // timeout, as a storage failure (it once said 404 "no event": the event is not missing).
  std::vector<Answer> answers = {request("GET", event_path)};
  {
    INFO(answers[0].status << " " << answers[0].error << " " << answers[0].body);
    CHECK(answers[0].status == 503);
    CHECK(contains(answers[0].body, "storage: "));
  }
  bool away = false;
  while (!away && seconds_since(cut) < 60) {
    answers.push_back(request("GET", event_path));
    away = answers.back().status == 503 &&
           contains(answers.back().body, "is unreachable: reconnecting");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  {
    INFO(daemon.err());
    REQUIRE(away);
  }
  std::cerr << "netcut: the daemon answered 503 'unreachable' " << seconds_since(cut)
            << " s after the cut\n";
  // Held well past a lease: reads keep answering (checked below with the others).
  while (seconds_since(cut) < 6) {
    answers.push_back(request("GET", "/api/events"));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  int refused = 0;
  double slowest = 0;
  for (const Answer& a : answers) {
    INFO(a.status << " " << a.error << " " << a.body);
    refused += a.status == 0;
    slowest = std::max(slowest, a.seconds);
    CHECK((a.status == 0 || a.status == 200 || a.status == 503));
    if (a.status == 503) {
      const stest::Json body = stest::Json::parse(a.body, nullptr, false);
      REQUIRE(body.is_object());
      CHECK_FALSE(contains(body.value("error", std::string("\n")), "\n"));
    }
  }
  std::cerr << "netcut: " << answers.size() << " reads while cut, slowest " << slowest
            << " s, refused " << refused << "\n";
  CHECK(refused <= 2);
  CHECK(slowest <= kUserTimeoutS + 5);  // one read waits a user timeout at most (+ slack)

  REQUIRE(nets.restore(0));
  const auto restored = SteadyClock::now();
  CHECK(wait_until([&] { return request("GET", event_path).status == 200; }, 40));
  std::cerr << "netcut: the daemon served again " << seconds_since(restored)
            << " s after the link came back\n";
  {
    INFO(daemon.err());
    CHECK(wait_until(
        [&] {
          const Answer a = request("GET", event_path);
          if (a.status != 200) return false;
          const stest::Json e = stest::Json::parse(a.body, nullptr, false);
          return e.is_object() && e.value("state", "") == "finished";
        },
        120));
  }
  CHECK(daemon.signal_and_wait(SIGTERM) == 0);

  auto store = referee::storage::Store::open(db, {true});
  REQUIRE(store);
  auto info = referee::storage::work_queue::event(*store, event);
  REQUIRE(info);
  CHECK(info->state == referee::storage::EventState::Finished);
  CHECK(info->done == info->total());
  referee::storage::GameFilter all;
  all.event_id = event;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games);
  std::map<std::int64_t, int> finished_per_slot;
  int unfinished = 0;
  for (const auto& g : *games) {
    CHECK(g.status != referee::storage::GameStatus::Running);
    if (g.status == referee::storage::GameStatus::Finished) ++finished_per_slot[g.slot];
    unfinished += g.status == referee::storage::GameStatus::Unfinished;
  }
  CHECK(static_cast<std::int64_t>(finished_per_slot.size()) == info->total());
  for (const auto& [slot, n] : finished_per_slot) CHECK(n == 1);
  CHECK(unfinished >= 1);  // the games the cut stopped
  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  INFO(verify.out << verify.err);
  CHECK(verify.status == 0);
  CHECK(nets.pids(0).empty());
}
