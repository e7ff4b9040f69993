// referee check-engine: every example engine passes the compliance walk (exit 0, "ALL PASSED");
// the mock engine, misbehaving in one way at a time, fails with the right FAIL line and exit 1.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

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
  CHECK(contains(r.out, "PASS awale: a game to its end, then gameover: "));
  CHECK(contains(r.out, "PASS awale: game 2 in the same process: uginewgame, isready"));
  CHECK(contains(r.out, "PASS awale: game 2: legal bestmove from startpos"));
  CHECK(contains(r.out, "PASS stop: go infinite, then stop -> bestmove"));
  CHECK(contains(r.out, "PASS stop while idle: ignored, then uginewgame, isready -> readyok"));
  CHECK(contains(r.out, "PASS quit: the engine exits by itself: exit 0"));
  CHECK(contains(r.out, "PASS end of input: the engine exits by itself: exit 0"));
  CHECK(rtest::lines_of(r.out).back().rfind("ALL PASSED (", 0) == 0);
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
  // The summary names the first failing step.
  CHECK(rtest::lines_of(r.out).back().rfind("FAILED: ", 0) == 0);
  CHECK(contains(rtest::lines_of(r.out).back(), "; the first failing step: " + step));
}

}  // namespace

TEST_CASE("check-engine: the example engines pass") {
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/random_engine"});
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/greedy_engine"});
  expect_pass({"check-engine", "--game", "awale", ENGINES_DIR "/alphabeta_engine"});
  expect_pass({"check-engine", "--game", "awale", SOURCE_DIR "/examples/engines/random_engine.py"});
}

TEST_CASE("check-engine: the MCTS engine passes, through Debian's Python") {
  if (!std::filesystem::exists("/usr/bin/python3")) return;
  expect_pass({"check-engine", "--game", "awale", "/usr/bin/python3",
               SOURCE_DIR "/examples/engines/mcts_engine.py"});
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

TEST_CASE("check-engine: 3, 4 and 6 players, setups, a forced pass: the mock passes them all") {
  auto r = check_engine({"check-engine", "-g", "oware:players=3", "-g", "oware:players=4", "-g",
                         "oware:players=6", "-g", "mweso", "-g", "lontu-holo", "-g", "pallankuli",
                         rtest::kMock});
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(failures(r.out).empty());
  for (const char* p : {"3", "4", "6"}) {
    const std::string g = std::string("oware:players=") + p;
    CHECK(contains(r.out, "PASS " + g + ": turn order: player 2 to move after 1 plies"));
    CHECK(contains(r.out, "PASS " + g + ": turn order: player " + p + " to move after "));
  }
  CHECK(contains(r.out, "PASS mweso: setup, then play: ply 1 (setup)"));
  CHECK(contains(r.out, "PASS lontu-holo: setup, then play: ply 1 (setup)"));
  CHECK(contains(r.out, "PASS pallankuli: a position after a forced move ('pass' at ply "));
}

TEST_CASE("check-engine: an engine with the wrong turn order fails with 3, 4 and 6 players") {
  for (const char* p : {"3", "4", "6"}) {
    const std::string g = std::string("oware:players=") + p;
    auto r = check_engine({"check-engine", "-g", g, rtest::kMock, "--wrong-turn-order"});
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(contains(r.out, "PASS " + g + ": legal bestmove from startpos with clocks"));
    CHECK(contains(r.out, "FAIL " + g + ": turn order: player 2 to move after 1 plies: bestmove"));
    CHECK(contains(r.out, "hint: `referee moves " + g));
  }
  // With two players there is one turn order: the same engine passes.
  auto two = check_engine({"check-engine", "-g", "oware", rtest::kMock, "--wrong-turn-order"});
  CHECK(two.status == 0);
}

TEST_CASE("check-engine: only declared games and values are sent, a refused declaration fails") {
  rtest::TempDir dir;
  const std::string log = dir.file("sent.txt");
  auto declared = check_engine(
      {"check-engine", rtest::kMock, "--games=oware players=2|3;kalaha", "--log=" + log});
  INFO(declared.out);
  CHECK(declared.status == 0);
  CHECK(contains(declared.out, "PASS oware:players=2: turn order") == false);
  CHECK(contains(declared.out, "PASS oware:players=3: turn order: player 2 to move after 1 plies"));
  CHECK(contains(declared.out, "PASS kalaha: game 2: legal bestmove from startpos"));
  const std::string sent = rtest::read_text(log);
  CHECK(contains(sent, "setgame oware players=2 "));
  CHECK(contains(sent, "setgame oware players=3 "));
  CHECK_FALSE(contains(sent, "players=4"));
  CHECK_FALSE(contains(sent, "players=6"));
  CHECK_FALSE(contains(sent, "setgame awale"));

  const std::string log2 = dir.file("sent2.txt");
  auto outside = check_engine({"check-engine", "-g", "oware:players=3", rtest::kMock,
                               "--games=oware players=2", "--log=" + log2});
  CHECK(outside.status == 1);
  CHECK(contains(outside.out,
                 "FAIL oware:players=3: within the engine's declaration: players=3 "
                 "is not among the declared players=2: not sent to the engine"));
  CHECK_FALSE(contains(rtest::read_text(log2), "players=3"));

  expect_fail({"--refuse-setgame"}, "awale: game 1: setgame, uginewgame, isready",
              "the engine declares 'game awale' but refused it");
}

TEST_CASE("check-engine: stop, and end of input, each fail on their own") {
  expect_fail({"--ignore-stop"}, "stop: go infinite, then stop -> bestmove",
              "no bestmove within 2000 ms of stop");
  expect_fail({"--ignore-eof"}, "end of input: the engine exits by itself", "signal");
}

TEST_CASE("check-engine: go infinite answered before stop fails, and stop is sent all the same") {
  expect_fail({"--instant-infinite"}, "stop: go infinite, then stop -> bestmove",
              "before any stop");
  rtest::TempDir dir;
  const std::string log = dir.file("lines.txt");
  auto r = check_engine(
      {"check-engine", "-g", "awale", rtest::kMock, "--instant-infinite", "--log=" + log});
  CHECK(contains(r.out, "hint: under 'go infinite' keep the bestmove until 'stop' comes"));
  const auto lines = rtest::read_lines(log);
  auto infinite = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.rfind("go ", 0) == 0 && contains(l, " infinite");
  });
  REQUIRE(infinite != lines.end());
  CHECK(std::find(infinite, lines.end(), "stop") != lines.end());
  // An engine that holds its bestmove until stop passes (the mock's default).
  auto patient = check_engine({"check-engine", "-g", "awale", rtest::kMock});
  CHECK(contains(patient.out, "PASS stop: go infinite, then stop -> bestmove"));
}

TEST_CASE("check-engine: an engine that ignores setgame's parameters fails") {
  // Declared with grandslam only: the FAIL is grandslam=illegal's, where a grand slam is legal
  // by default and forbidden by the parameter.
  expect_fail({"--ignore-params", "--games=awale grandslam=nocapture|illegal first=1"},
              "awale with grandslam=illegal: legal bestmoves where grandslam=illegal changes the "
              "legal moves",
              "illegal");
  auto r = check_engine({"check-engine", "-g", "awale", rtest::kMock, "--ignore-params",
                         "--games=awale grandslam=nocapture|illegal first=1"});
  CHECK(contains(r.out, "hint: play by the parameters 'setgame' gives"));
  // Every value of every parameter the engine declares is tried, `first` included.
  auto all = check_engine({"check-engine", "-g", "awale", rtest::kMock, "--ignore-params"});
  CHECK(all.status == 1);
  CHECK(contains(all.out, "FAIL awale with first=2: legal bestmoves where first=2 changes"));
  // The engine that plays by them passes those steps.
  auto good = check_engine({"check-engine", "-g", "awale", rtest::kMock});
  INFO(good.out);
  CHECK(contains(good.out,
                 "PASS awale with grandslam=illegal: legal bestmoves where "
                 "grandslam=illegal changes the legal moves"));
  CHECK(contains(good.out, "PASS awale with first=2: legal bestmoves where first=2 changes"));
}

TEST_CASE("check-engine: hints for a bot author under a FAIL") {
  // Nothing at all on stdout: flushing is the likely cause.
  auto mute = check_engine(
      {"check-engine", "--start-timeout", "300", "/bin/sh", "-c", "read line; sleep 5"});
  CHECK(mute.status == 1);
  CHECK(contains(mute.out, "FAIL handshake: ugi answered by ugiok"));
  CHECK(contains(mute.out, "hint: flush stdout after every line"));
  auto missing = check_engine({"check-engine", "/nonexistent/engine"});
  CHECK(missing.status == 1);
  CHECK(contains(missing.out, "hint: check the command: the path of an executable file"));
  auto illegal = check_engine({"check-engine", "-g", "awale", rtest::kMock, "--illegal"});
  CHECK(contains(illegal.out, "hint: `referee moves awale:"));
  auto bare = check_engine({"check-engine", "-g", "awale", rtest::kMock, "--bare-readyok"});
  CHECK(bare.status == 1);
  CHECK(contains(bare.out, "readyok without its token (expected 'readyok "));
  CHECK(contains(bare.out, "answers 'isready N' with 'readyok N'"));
  auto undeclared = check_engine({"check-engine", "-g", "kalaha", rtest::kMock, "--games=awale"});
  CHECK(
      contains(undeclared.out, "FAIL kalaha: declared by the engine: missing 'game kalaha' line"));
  CHECK(contains(undeclared.out, "hint: print 'game kalaha' between 'ugi' and 'ugiok'"));
}

TEST_CASE("check-engine: --debug prints the lines exchanged on stderr") {
  auto r = check_engine({"check-engine", "--debug", "-g", "awale", rtest::kMock});
  CHECK(r.status == 0);
  CHECK(contains(r.err, " mock_engine(1) > ugi\n"));
  CHECK(contains(r.err, " mock_engine(1) < ugiok\n"));
  CHECK(contains(r.err, " > stop\n"));
}
