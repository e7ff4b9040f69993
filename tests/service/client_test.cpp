// The command-line clients (referee submit/status/pause/resume/cancel/watch) against a real
// daemon: a file submitted with its directory, status of all events and of one, watch following
// the live stream to the end (through standings of two unconnected groups at first), and
// the clients' errors on a refused request (a change without a token among them) or an
// unreachable server; pause, resume and cancel
// that succeed, each seen in the event's state through the API afterwards. The daemon's Unix
// socket: changes without a token through it, the order in which a client looks for the daemon
// (--socket, --server, $REFEREE_SOCKET, then ./referee.db.sock), and a socket missing named in one
// line.
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

rtest::RunResult client(const TempDir& dir, std::vector<std::string> args) {
  return rtest::run_program(REFEREE_BIN, args, dir);
}

// A client run in `cwd` with the environment's REFEREE_* variables replaced by `env` ("NAME=value"
// each): nothing of the caller's environment chooses the daemon.
rtest::RunResult client_in(const TempDir& dir, const std::string& cwd,
                           const std::vector<std::string>& env, std::vector<std::string> args) {
  std::vector<std::string> all = {"-u", "REFEREE_SERVER",    "-u", "REFEREE_SOCKET",
                                  "-u", "REFEREE_TOKEN_FILE"};
  all.insert(all.end(), env.begin(), env.end());
  all.push_back(REFEREE_BIN);
  all.insert(all.end(), args.begin(), args.end());
  return rtest::run_program("/usr/bin/env", all, dir, cwd);
}

}  // namespace

TEST_CASE("clients: submit, status, watch to the end, cancel, errors are one line") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  const std::string file = dir.file("three.toml");
  rtest::write_text(file, tournament_toml("three", 4, 1, 10, "args = [\"--slow-ms=20\"]\n"));
  auto anonymous = client(dir, {"submit", file, "--server", d.url()});
  CHECK(anonymous.status == 1);  // every change needs a token; the client says which
  CHECK(contains(anonymous.err, "401"));
  CHECK(contains(anonymous.err, "--token-file"));
  CHECK(contains(anonymous.err, "--socket"));  // the other way, on the daemon's machine
  auto submitted =
      client(dir, {"submit", file, "--server", d.url(), "--token-file", d.token_file()});
  INFO(submitted.out << submitted.err);
  REQUIRE(submitted.status == 0);
  CHECK(contains(submitted.out, "event 1 \"three\": 12 games"));
  // Watch from the start to the end: progress lines on stderr, the final standings on stdout.
  auto watched = client(dir, {"watch", "1", "--server", d.url()});
  INFO(watched.out << watched.err);
  CHECK(watched.status == 0);
  for (const char* name : {" m0 ", " m1 ", " m2 ", " m3 "}) CHECK(contains(watched.out, name));
  CHECK(contains(watched.out, "(12 games)"));
  auto all = client(dir, {"status", "--server", d.url()});
  CHECK(all.status == 0);
  CHECK(contains(all.out, "finished"));
  CHECK(contains(all.out, "12/12"));
  auto one = client(dir, {"status", "1", "--server", d.url()});
  CHECK(one.status == 0);
  CHECK(contains(one.out, "event 1 \"three\""));
  auto refused = client(dir, {"cancel", "1", "--server", d.url(), "--token-file", d.token_file()});
  CHECK(refused.status == 1);
  CHECK(contains(refused.err, "event 1 is finished"));
  CHECK(rtest::lines_of(refused.err).size() == 1);
  auto missing = client(dir, {"status", "9", "--server", d.url()});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "no event 9"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  auto gone = client(dir, {"status", "--server", d.url()});
  CHECK(gone.status == 1);
  CHECK(rtest::lines_of(gone.err).size() == 1);
  CHECK(contains(gone.err, d.url()));
}

TEST_CASE("clients: pause, resume and cancel succeed, the event's state follows") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // 12 games of a few seconds each: the event is still under way when it is cancelled.
  const auto id = submit_ok(c, tournament_toml("steered", 2, 6, 60, "args = [\"--slow-ms=40\"]\n"));
  const std::string eid = std::to_string(id);
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 2; }));
  auto run = [&](const std::string& action) {
    auto r = client(dir, {action, eid, "--server", d.url(), "--token-file", d.token_file()});
    INFO(action << ": " << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    return r.out;
  };

  CHECK(run("pause") == "event " + eid + " \"steered\": paused\n");
  CHECK(event_of(c, id)["state"] == "paused");
  // Paused: the games under way finish, none starts.
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 0; }));
  const auto paused_at = event_of(c, id)["finished"].get<int>();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(event_of(c, id)["finished"] == paused_at);
  CHECK(event_of(c, id)["running"] == 0);

  CHECK(run("resume") == "event " + eid + " \"steered\": running\n");
  CHECK(event_of(c, id)["state"] == "running");
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 2; }));

  CHECK(run("cancel") == "event " + eid + " \"steered\": cancelled\n");
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["slots"]["busy"] == 0; }, 10));
  const auto event = event_of(c, id);
  CHECK(event["state"] == "cancelled");
  CHECK(event["running"] == 0);
  CHECK(event["finished"].get<int>() < 12);
  CHECK(get_json(c, "/api/games?event=" + eid + "&status=running")["total"] == 0);
  // What status prints agrees.
  auto status = client(dir, {"status", eid, "--server", d.url()});
  CHECK(status.status == 0);
  CHECK(contains(status.out, "event " + eid + " cancelled: ["));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("clients: over the daemon's socket no token is needed, over TCP it is") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  const std::string socket = dir.file("serve.db.sock");  // serve's default: DB.sock
  const std::string file = dir.file("sock.toml");
  rtest::write_text(file, tournament_toml("sock", 2, 1, 10));
  // Over TCP without a token: refused, with the ways to a credential named.
  auto tcp = client_in(dir, dir.path(), {}, {"submit", file, "--server", d.url()});
  CHECK(tcp.status == 1);
  CHECK(contains(tcp.err, "401"));
  CHECK(contains(tcp.err, "--socket PATH"));
  // Over the socket: the operator, without a token.
  auto submitted = client_in(dir, dir.path(), {}, {"submit", file, "--socket", socket});
  INFO(submitted.out << submitted.err);
  REQUIRE(submitted.status == 0);
  CHECK(contains(submitted.out, "event 1 \"sock\": 2 games"));
  auto watched = client_in(dir, dir.path(), {}, {"watch", "1", "--socket", socket});
  INFO(watched.out << watched.err);
  CHECK(watched.status == 0);
  CHECK(contains(watched.out, "(2 games)"));
  // $REFEREE_SOCKET too.
  auto status = client_in(dir, dir.path(), {"REFEREE_SOCKET=" + socket}, {"status", "1"});
  CHECK(status.status == 0);
  CHECK(contains(status.out, "event 1 \"sock\""));
  // A change the daemon refuses is still one line, over the socket as over TCP.
  auto refused = client_in(dir, dir.path(), {}, {"cancel", "1", "--socket", socket});
  CHECK(refused.status == 1);
  CHECK(contains(refused.err, "event 1 is finished"));
  CHECK(rtest::lines_of(refused.err).size() == 1);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("clients: where a client looks: --socket, --server, then the socket found here") {
  TempDir dir;
  // The default database's name, so that its socket is the one a client looks for here.
  Daemon d(dir, {"-c", "1", "--db", dir.file("referee.db")});
  REQUIRE(d.ready());
  REQUIRE(std::filesystem::exists(dir.file("referee.db.sock")));
  const std::string file = dir.file("found.toml");
  rtest::write_text(file, tournament_toml("found", 2, 1, 10));
  // Nothing named: ./referee.db.sock is found and used, no token needed.
  auto found = client_in(dir, dir.path(), {}, {"submit", file});
  INFO(found.out << found.err);
  CHECK(found.status == 0);
  CHECK(contains(found.out, "event 1 \"found\""));
  // --server (or $REFEREE_SERVER) named: TCP, where a change needs a token.
  auto tcp = client_in(dir, dir.path(), {}, {"pause", "1", "--server", d.url()});
  CHECK(tcp.status == 1);
  CHECK(contains(tcp.err, "401"));
  auto env_tcp = client_in(dir, dir.path(), {"REFEREE_SERVER=" + d.url()}, {"pause", "1"});
  CHECK(env_tcp.status == 1);
  CHECK(contains(env_tcp.err, "401"));
  // --socket beats the socket found, and $REFEREE_SOCKET: a missing one fails, named in one line.
  const std::string missing = dir.file("elsewhere.sock");
  auto named = client_in(dir, dir.path(), {"REFEREE_SOCKET=" + dir.file("referee.db.sock")},
                         {"status", "--socket", missing});
  CHECK(named.status == 1);
  CHECK(rtest::lines_of(named.err).size() == 1);
  CHECK(contains(named.err, "cannot reach the socket " + missing));
  // Both named: a usage error, nothing sent.
  auto both = client_in(dir, dir.path(), {}, {"status", "--socket", missing, "--server", d.url()});
  CHECK(both.status != 0);
  CHECK(contains(both.err, "not both"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  // The daemon gone: the socket $REFEREE_SOCKET names answers no more, and the one line says
  // which socket was tried and why that one.
  auto gone =
      client_in(dir, dir.path(), {"REFEREE_SOCKET=" + dir.file("referee.db.sock")}, {"status"});
  CHECK(gone.status == 1);
  CHECK(rtest::lines_of(gone.err).size() == 1);
  CHECK(contains(gone.err, "the socket " + dir.file("referee.db.sock")));
  CHECK(contains(gone.err, "$REFEREE_SOCKET"));
}
