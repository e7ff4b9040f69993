// The command-line clients (referee submit/status/pause/resume/cancel/watch) against a real
// daemon: a file submitted with its directory, status of all events and of one, watch following
// the live stream to the end (through standings of two unconnected groups at first), and
// the clients' errors on a refused request or an unreachable server.
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

rtest::RunResult client(const TempDir& dir, std::vector<std::string> args) {
  return rtest::run_program(REFEREE_BIN, args, dir);
}

}  // namespace

TEST_CASE("clients: submit, status, watch to the end, cancel, errors are one line") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  const std::string file = dir.file("three.toml");
  rtest::write_text(file, tournament_toml("three", 4, 1, 10, "args = [\"--slow-ms=20\"]\n"));
  auto submitted = client(dir, {"submit", file, "--server", d.url()});
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
  auto refused = client(dir, {"cancel", "1", "--server", d.url()});
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
