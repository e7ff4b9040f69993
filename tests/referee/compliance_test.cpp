// referee check-engine: every example engine passes the compliance walk (exit 0, "ALL PASSED");
// the mock engine, misbehaving in one way at a time, fails with the right FAIL line and exit 1.
#include <catch2/catch.hpp>

#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

rtest::RunResult check_engine(const std::vector<std::string>& args) {
  rtest::TempDir scratch;
  return rtest::run_program(REFEREE_BIN, args, scratch);
}

// The FAIL lines of a report.
std::vector<std::string> failures(const std::string& out) {
  std::vector<std::string> lines;
  for (const auto& l : rtest::lines_of(out))
    if (l.rfind("FAIL ", 0) == 0) lines.push_back(l);
  return lines;
}

void expect_pass(const std::vector<std::string>& args) {
  auto r = check_engine(args);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(failures(r.out).empty());
  CHECK(contains(r.out, "PASS handshake: ugi answered by ugiok"));
  CHECK(contains(r.out, "PASS awale: legal bestmove from startpos with clocks"));
  CHECK(contains(r.out, "PASS awale: go depth 1"));
  CHECK(contains(r.out, "PASS quit: the engine exits by itself: exit 0"));
  CHECK(rtest::lines_of(r.out).back() == "ALL PASSED");
}

// Runs check-engine on the mock engine with `flags`; expects exit 1 and a FAIL line starting with
// `step` and containing `detail`.
void expect_fail(const std::vector<std::string>& flags, const std::string& step,
                 const std::string& detail) {
  std::vector<std::string> args = {"check-engine",    "--game", "awale",
                                   "--start-timeout", "300",    rtest::kMock};
  args.insert(args.end(), flags.begin(), flags.end());
  auto r = check_engine(args);
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  auto failed = failures(r.out);
  REQUIRE_FALSE(failed.empty());
  CHECK(failed[0].rfind("FAIL " + step, 0) == 0);
  CHECK(contains(failed[0], detail));
  CHECK(rtest::lines_of(r.out).back().rfind("FAILED: ", 0) == 0);
}

}  // namespace

TEST_CASE("check-engine: the example engines pass") {
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/random_engine"});
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/greedy_engine"});
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/alphabeta_engine"});
  expect_pass({"check-engine", "--game", "awale", SOURCE_DIR "/examples/engines/random_engine.py"});
}

TEST_CASE("check-engine: the well-behaved mock engine passes") {
  expect_pass({"check-engine", "--game", "awale", "--game", "kalaha", rtest::kMock});
}

TEST_CASE("check-engine: an illegal move is a FAIL naming the move") {
  expect_fail({"--illegal"}, "awale: legal bestmove from startpos with clocks", "is illegal in");
}

TEST_CASE("check-engine: no handshake is a FAIL at the first step") {
  expect_fail({"--no-handshake"}, "handshake: ugi answered by ugiok", "no ugiok within 300 ms");
}

TEST_CASE("check-engine: a crash on go is a FAIL with the exit status") {
  expect_fail({"--crash-on-go"}, "awale: legal bestmove from startpos with clocks",
              "crash: (exit 3)");
}

TEST_CASE("check-engine: an unparseable bestmove is a FAIL quoting the line") {
  expect_fail({"--garbage"}, "awale: legal bestmove from startpos with clocks",
              "unparseable move line 'bestmove'");
}

TEST_CASE("check-engine: an engine that ignores quit is a FAIL at the last step") {
  expect_fail({"--ignore-quit"}, "quit: the engine exits by itself", "signal 9");
}

TEST_CASE("check-engine: usage errors") {
  auto none = check_engine({"check-engine"});
  CHECK(none.status == 2);
  CHECK(contains(none.err, "usage: referee check-engine"));
  auto bad = check_engine({"check-engine", "--frob", rtest::kMock});
  CHECK(bad.status == 2);
  CHECK(bad.err == "referee check-engine: unknown option '--frob'\n");
  auto timeout = check_engine({"check-engine", "--start-timeout", "0", rtest::kMock});
  CHECK(timeout.status == 2);
  CHECK(contains(timeout.err, "--start-timeout"));
}
