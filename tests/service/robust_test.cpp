// The daemon under bad input and hard stops, run as a real process: malformed JSON, unknown
// fields, oversized bodies, bad ids, path traversal, wrong content types, unknown endpoints and
// parameters each get a 4xx with a JSON error body and the daemon keeps serving; a missing or
// wrong token is refused, and so are bad token files and Host names (at start); SIGTERM drains
// (running games finish, or are interrupted at the deadline) and exits 0, and the next start
// completes the event; kill -9 at moments during an event, then a restart, leaves each game once;
// SIGHUP after the log file was moved away (logrotate) goes on in a new file of the same name.
#include <SQLiteCpp/Database.h>
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "service/http_server.h"
#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

std::int64_t count(const std::string& db, const std::string& query) {
  SQLite::Database sql(db, SQLite::OPEN_READONLY);
  return sql.execAndGet(query).getInt64();
}

// A count from a database another process writes; -1 while it cannot be read.
std::int64_t count_live(const std::string& db, const std::string& query) {
  try {
    return count(db, query);
  } catch (const std::exception&) {
    return -1;
  }
}

// Every slot of the database's only event finished exactly once; the file verifies.
void check_exactly_once(const std::string& db, std::int64_t scheduled) {
  CHECK(count(db, "SELECT count(*) FROM slots") == scheduled);
  CHECK(count(db, "SELECT count(*) FROM slots WHERE state = 'done'") == scheduled);
  CHECK(count(db, "SELECT count(*) FROM games WHERE status = 'finished'") == scheduled);
  CHECK(count(db, "SELECT count(DISTINCT slot) FROM games WHERE status = 'finished'") == scheduled);
  CHECK(count(db,
              "SELECT count(*) FROM slots s JOIN games g ON g.id = s.game_id WHERE g.slot = s.slot "
              "AND g.status = 'finished'") == scheduled);
  CHECK(count(db, "SELECT count(*) FROM games WHERE status = 'running'") == 0);
  TempDir scratch;
  auto verify = rtest::run_program(REFEREE_BIN, {"verify", "--db", db}, scratch);
  CHECK(verify.status == 0);
  CHECK(contains(verify.out, "integrity: ok\n"));
}

}  // namespace

TEST_CASE("serve: bad requests get a 4xx with a JSON error, and the daemon keeps serving") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto json = "application/json";

  // Malformed JSON, a body that is not an object, unknown fields, wrong content types.
  check_error(c.Post("/api/events", "{", json), 400, "not valid JSON");
  check_error(c.Post("/api/events", "[1, 2]", json), 400);
  check_error(c.Post("/api/events", R"({"name": "x", "bogus": 1})", json), 400, "'bogus'");
  check_error(c.Post("/api/events", "name = \"x\"\nbogus = 1\n", "application/toml"), 400, "bogus");
  check_error(c.Post("/api/events", "name = [", "application/toml"), 400);
  check_error(c.Post("/api/events", "x", "text/plain"), 415);
  check_error(c.Post("/api/engines", "{\"name\": 1", json), 400, "not valid JSON");
  check_error(c.Post("/api/engines", R"({"name": "e"})", json), 400, "'command'");
  check_error(c.Post("/api/engines", R"({"name": "e"})", "text/plain"), 415);
  check_error(c.Post("/api/events", R"({"kind": "bracket"})", json), 400, "unknown kind");
  check_error(c.Post("/api/events", R"({"kind": "sprt", "name": "s"})", json), 400,
              "kind 'sprt' needs an 'sprt' table");

  // An oversized body (the limit is 1 MiB).
  check_error(c.Post("/api/events", std::string(2 << 20, 'a'), "application/toml"), 413,
              "too large");

  // Bad ids, and ids of nothing.
  for (const char* id : {"abc", "0", "-1", "1.5", "99999999999999999999", "%00"})
    check_error(c.Get(std::string("/api/events/") + id), 400, "bad event id");
  check_error(c.Get("/api/events/77"), 404, "no event 77");
  check_error(c.Get("/api/events/77/standings"), 404, "no event 77");
  check_error(c.Post("/api/events/77/cancel", "", json), 404);
  check_error(c.Get("/api/games/x1"), 400, "bad game id");
  check_error(c.Get("/api/games/123"), 404, "no game 123");
  check_error(c.Get("/api/games/123/position?ply=1"), 404);
  check_error(c.Get("/api/games?event=zero"), 400, "bad event id");

  // A PATCH with an unknown key or a bad priority.
  const auto id = submit_ok(c, tournament_toml("held", 2, 1, 8));
  const std::string path = "/api/events/" + std::to_string(id);
  check_error(c.Patch(path, R"({"priority": 1, "x": 2})", json), 400, "unknown key 'x'");
  check_error(c.Patch(path, R"({"priority": "high"})", json), 400, "'priority'");
  check_error(c.Patch(path, R"({"priority": 100000})", json), 400, "'priority'");
  check_error(c.Patch(path, "{}", json), 400, "missing");

  // Unknown endpoints, query parameters and bad parameter values.
  check_error(c.Get("/api/nothing"), 404, "no such endpoint");
  check_error(c.Get("/api/games?bogus=1"), 400, "unknown query parameter 'bogus'");
  check_error(c.Get("/api/games?limit=abc"), 400, "bad limit");
  check_error(c.Get("/api/games?limit=1&limit=2"), 400, "twice");
  check_error(c.Get("/api/games?result=2-0"), 400, "bad result");
  check_error(c.Get("/api/events?state=sleeping"), 400, "bad state");
  check_error(c.Get("/api/export?format=xml"), 400);
  check_error(c.Get("/api/stream?event=abc"), 400);

  // Path traversal in static paths: never a file outside the embedded ones.
  for (const char* p : {"/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
                        "/static/..%2f..%2fetc%2fpasswd", "/static//etc/passwd", "/static/nope.js",
                        "/static/", "/../etc/passwd"}) {
    auto res = c.Get(p);
    REQUIRE(res);
    INFO(p << " -> " << res->status << " " << res->body);
    CHECK(res->status >= 400);
    CHECK(res->status < 500);
    CHECK_FALSE(contains(res->body, "root:"));
  }
  check_error(c.Get("/static/../../etc/passwd"), 404);

  // Still serving, and the event is untouched by all of it.
  REQUIRE(d.running());
  CHECK(get_json(c, "/api/health")["status"] == "ok");
  CHECK(wait_state(c, id, "finished"));
  CHECK(get_json(c, "/api/events")["total"] == 1);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: with a token, changes need it, reads from loopback do not") {
  TempDir dir;
  const std::string token = "0123456789abcdef0123";
  const std::string token_file = dir.file("token");
  rtest::write_text(token_file, token + "\n");
  ::chmod(token_file.c_str(), 0600);
  Daemon d(dir, {"-c", "1", "--token-file", token_file});
  REQUIRE(d.ready());
  auto c = d.anonymous();
  const std::string toml = tournament_toml("guarded", 2, 1, 8);

  check_error(submit(c, toml), 401, "Authorization: Bearer");
  {
    httplib::Headers wrong = {{"Authorization", "Bearer 0123456789abcdef0124"}};
    check_error(c.Post("/api/events", wrong, toml, "application/toml"), 401, "wrong token");
    httplib::Headers prefix = {{"Authorization", "Bearer 0123456789abcdef012"}};
    check_error(c.Post("/api/events", prefix, toml, "application/toml"), 401, "wrong token");
    httplib::Headers basic = {{"Authorization", "Basic " + token}};
    check_error(c.Post("/api/events", basic, toml, "application/toml"), 401);
  }
  CHECK(get_json(c, "/api/events")["total"] == 0);  // reads are open on loopback
  httplib::Headers good = {{"Authorization", "Bearer " + token}};
  auto ok = c.Post("/api/events", good, toml, "application/toml");
  REQUIRE(ok);
  CHECK(ok->status == 201);
  const auto id = Json::parse(ok->body)["id"].get<std::int64_t>();
  check_error(c.Post("/api/events/" + std::to_string(id) + "/cancel", "", "application/json"), 401);
  CHECK(wait_state(c, id, "finished"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: refuses to start on bad addresses and token files") {
  TempDir dir;
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"serve", "--db", dir.file("x.db")});
    return rtest::run_program(REFEREE_BIN, args, dir);
  };
  auto open = run({"--listen", "0.0.0.0:0", "--allowed-host", "evil.example/x"});
  CHECK(open.status == 2);
  CHECK(contains(open.err, "--allowed-host 'evil.example/x' must be a host name"));
  const std::string readable = dir.file("readable"), short_token = dir.file("short");
  rtest::write_text(readable, "0123456789abcdef0123\n");
  ::chmod(readable.c_str(), 0644);
  auto world = run({"--listen", "0.0.0.0:0", "--token-file", readable});
  CHECK(world.status == 2);
  CHECK(contains(world.err, "readable by every user"));
  rtest::write_text(short_token, "abc\n");
  ::chmod(short_token.c_str(), 0600);
  auto too_short = run({"--token-file", short_token});
  CHECK(too_short.status == 2);
  CHECK(contains(too_short.err, "too short"));
  auto missing = run({"--token-file", dir.file("no/such/dir/token")});
  CHECK(missing.status == 2);
  CHECK(contains(missing.err, "cannot create the token file"));
  auto bad_listen = run({"--listen", "localhost"});
  CHECK(bad_listen.status == 2);
  CHECK(contains(bad_listen.err, "--listen 'localhost'"));
  for (const auto& r : {open, world, too_short, missing, bad_listen})
    CHECK(rtest::lines_of(r.err).size() == 1);
}

TEST_CASE("serve: SIGTERM lets running games finish and exits 0, the next start completes") {
  TempDir dir;
  const std::string db = dir.file("serve.db");
  std::int64_t under_way = 0;
  {
    Daemon d(dir, {"-c", "2", "--lease", "2"}, "first");
    REQUIRE(d.ready());
    auto c = d.client();
    const auto id =
        submit_ok(c, tournament_toml("drained", 2, 3, 16, "args = [\"--slow-ms=25\"]\n"));
    REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 2; }));
    ::kill(d.pid(), SIGTERM);
    CHECK(d.wait() == 0);
    INFO(d.err());
    CHECK(contains(d.err(), "stopping: 2 games running"));
    // The two games under way finished; none was started after the signal, none is left running.
    under_way = count(db, "SELECT count(*) FROM games");
    CHECK(count(db, "SELECT count(*) FROM games WHERE status = 'running'") == 0);
    CHECK(count(db, "SELECT count(*) FROM games WHERE status = 'unfinished'") == 0);
    CHECK(count(db, "SELECT count(*) FROM slots WHERE state = 'claimed'") == 0);
    CHECK(under_way < 6);
  }
  {
    // A drain deadline shorter than the games: they are interrupted, the slots released.
    Daemon d(dir, {"-c", "2", "--drain-seconds", "0.3"}, "second");
    REQUIRE(d.ready());
    auto c = d.client();
    REQUIRE(wait_until([&] { return event_of(c, 1)["running"] == 2; }));
    CHECK(d.signal_and_wait(SIGTERM) == 0);
    CHECK(count(db, "SELECT count(*) FROM games WHERE status = 'running'") == 0);
    CHECK(count(db, "SELECT count(*) FROM slots WHERE state = 'claimed'") == 0);
  }
  Daemon d(dir, {"-c", "2"}, "third");
  REQUIRE(d.ready());
  auto c = d.client();
  REQUIRE(wait_state(c, 1, "finished"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  check_exactly_once(db, 6);
}

TEST_CASE("serve: SIGHUP after the log file was renamed goes on in a new file of that name") {
  TempDir dir;
  const std::string log = dir.file("serve.log"), rotated = dir.file("serve.log.1");
  Daemon d(dir, {"-c", "1", "--log", log});
  REQUIRE(d.ready());
  INFO(d.err());
  CHECK(contains(rtest::read_text(log), "info: serving "));
  // logrotate's way: the file is renamed (the daemon still writes to it), then SIGHUP.
  REQUIRE(std::rename(log.c_str(), rotated.c_str()) == 0);
  ::kill(d.pid(), SIGHUP);
  REQUIRE(wait_until([&] { return contains(rtest::read_text(log), "info: log reopened"); }, 10));
  // The daemon keeps serving, and what it logs from now on goes to the new file only.
  auto c = d.client();
  const auto id = submit_ok(c, tournament_toml("after hup", 2, 1, 6));
  REQUIRE(wait_state(c, id, "finished"));
  CHECK(d.running());
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  const std::string fresh = rtest::read_text(log), old = rtest::read_text(rotated);
  INFO("new file:\n" << fresh << "old file:\n" << old);
  CHECK(contains(fresh, "event 1 submitted"));
  CHECK(contains(fresh, "info: stopped"));
  CHECK_FALSE(contains(fresh, "info: serving "));
  CHECK(contains(old, "info: serving "));
  CHECK_FALSE(contains(old, "log reopened"));
  CHECK_FALSE(contains(old, "event 1 submitted"));
  // Every line of both files is one timestamped line (a file log, not the journal's form).
  for (const auto& line : rtest::lines_of(old + fresh)) CHECK(line.rfind("20", 0) == 0);
  // Nothing was written to stderr instead.
  CHECK(d.err().empty());
}

TEST_CASE("serve: the listening socket takes a burst of connections (a deep backlog)") {
  // A shallow backlog drops the SYNs of a burst while the I/O thread is busy, and those clients
  // wait 1, 3, 7 s for their retransmissions. For a listening socket `ss` shows the backlog as
  // its Send-Q.
  const std::string ss = rtest::find_on_path("ss");
  REQUIRE_FALSE(ss.empty());  // iproute2, installed by deps.sh
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  TempDir scratch;
  const auto shown =
      rtest::run_program(ss, {"-Hltn", "sport = :" + std::to_string(d.port())}, scratch);
  INFO(shown.out << shown.err);
  REQUIRE(shown.status == 0);
  std::istringstream row(shown.out);
  std::string state;
  long queued = -1, backlog = -1;
  row >> state >> queued >> backlog;
  CHECK(state == "LISTEN");
  std::ifstream somaxconn("/proc/sys/net/core/somaxconn");
  long cap = referee::service::http::kListenBacklog;
  if (long limit = 0; somaxconn >> limit) cap = std::min(cap, limit);
  CHECK(backlog == cap);
  CHECK(d.client().Get("/api/health")->status == 200);
}

TEST_CASE("serve: killed with kill -9 at moments during an event, restarted: each game once") {
  TempDir dir;
  const std::string db = dir.file("serve.db");
  std::mt19937 random(Catch::rngSeed());
  std::uniform_int_distribution<int> wait_ms(0, 300);
  const std::string running = "SELECT count(*) FROM games WHERE status = 'running'";
  for (int round = 0; round < 4; ++round) {
    Daemon d(dir, {"-c", "2", "--lease", "1"}, "round" + std::to_string(round));
    REQUIRE(d.ready());
    if (round == 0) {
      auto c = d.client();
      submit_ok(c, tournament_toml("killed", 3, 2, 12, "args = [\"--slow-ms=30\"]\n"));  // 12
    }
    if (count(db, "SELECT count(*) FROM games WHERE status = 'finished'") == 12) break;
    // While a game is under way: from just begun to a few moves into it.
    REQUIRE(wait_until([&] { return count_live(db, running) >= 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms(random)));
    ::kill(d.pid(), SIGKILL);
    CHECK(d.wait() == 128 + SIGKILL);
  }
  Daemon d(dir, {"-c", "2", "--lease", "1"}, "last");
  REQUIRE(d.ready());
  auto c = d.client();
  REQUIRE(wait_state(c, 1, "finished", 90));
  CHECK(event_of(c, 1)["finished"] == 12);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  check_exactly_once(db, 12);
  // Games cut by a kill are kept, as interrupted; no game is left running.
  CHECK(count(db,
              "SELECT count(*) FROM games WHERE status = 'unfinished' AND termination = "
              "'interrupted'") >= 1);
}
