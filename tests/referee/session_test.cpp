// referee/engine_session: the handshake (identity, declared games, protocol line, options), every
// way a start fails (no ugiok, exit, missing binary), game preparation (setgame only when the game
// changes, isready tokens, stale tokens, stalls, unsupported games, plain UGI engines) and the stop
// flag during a request. Real processes: the mock engine and small /bin/sh scripts.
#include <catch2/catch.hpp>
#include <thread>

#include "games/game.h"
#include "referee/match/engine_session.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using rtest::contains;

namespace {

games::Game game_of(const std::string& spec) {
  auto g = games::make_game(spec);
  REQUIRE(g.ok());
  return *g;
}

long ms_since(std::chrono::steady_clock::time_point t) {
  return static_cast<long>(
      std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - t).count());
}

std::vector<std::string> sent_lines(const std::vector<storage::LogLine>& log) {
  std::vector<std::string> out;
  for (const auto& l : log)
    if (l.direction == '>') out.push_back(l.text);
  return out;
}

}  // namespace

TEST_CASE("session: the handshake reads the identity and the declared games") {
  auto s = rtest::start_mock({});
  CHECK(s.identity().name == "mock");
  CHECK(s.identity().author == "test");
  CHECK(s.identity().protocol == 1);
  CHECK(s.declares("awale"));
  CHECK(s.declares("oware"));
  CHECK_FALSE(s.declares("chess"));
  CHECK(s.round_trips() == 1);
  CHECK(s.alive());
  auto sent = sent_lines(s.take_log());
  REQUIRE(sent.size() == 2);
  CHECK(sent[0] == "ugi");
  CHECK(sent[1] == "protocol 1");
  s.quit();
  CHECK_FALSE(s.alive());
  CHECK(s.exit_description() == "exit 0");
}

TEST_CASE("session: options are sent after the handshake, before the first game") {
  rtest::TempDir dir;
  SessionSettings settings;
  settings.options = {{"Hash", "16"}, {"Skill", "3"}};
  auto s = rtest::start_mock({"--log=" + dir.file("log")}, settings);
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  auto lines = rtest::read_lines(dir.file("log"));
  REQUIRE(lines.size() >= 6);
  CHECK(lines[0] == "ugi");
  CHECK(lines[1] == "protocol 1");
  CHECK(lines[2] == "setoption name Hash value 16");
  CHECK(lines[3] == "setoption name Skill value 3");
  CHECK(lines[4].rfind("setgame awale ", 0) == 0);
}

TEST_CASE("session: no ugiok in time is a failure to start, quickly") {
  SessionSettings settings;
  settings.start_timeout = Millis(300);
  const auto t0 = std::chrono::steady_clock::now();
  auto s = EngineSession::start(rtest::mock_spec({"--no-handshake"}), settings);
  REQUIRE_FALSE(s.ok());
  CHECK(contains(s.error(), "failed to start"));
  CHECK(contains(s.error(), "no ugiok within 300 ms"));
  CHECK(contains(s.error(), "mock_engine"));
  CHECK(ms_since(t0) < 2000);
}

TEST_CASE("session: an engine that exits at once fails to start with its exit status") {
  auto s = EngineSession::start(rtest::mock_spec({"--exit-on-start"}), {});
  REQUIRE_FALSE(s.ok());
  CHECK(contains(s.error(), "failed to start"));
  CHECK(contains(s.error(), "exit 1"));
}

TEST_CASE("session: a missing binary is named in the error") {
  rtest::TempDir dir;
  engines::SpawnSpec spec;
  spec.command = dir.file("no-such-engine");
  auto s = EngineSession::start(spec, {});
  REQUIRE_FALSE(s.ok());
  CHECK(contains(s.error(), "no-such-engine"));
  CHECK(contains(s.error(), "No such file"));
}

TEST_CASE("session: setgame only when the game changes, isready tokens count up") {
  rtest::TempDir dir;
  auto s = rtest::start_mock({"--log=" + dir.file("log")});
  auto awale = game_of("awale:maxplies=50");
  auto oware = game_of("oware:players=3");
  std::string detail;
  REQUIRE(s.prepare(awale, detail) == Fault::None);
  REQUIRE(s.prepare(awale, detail) == Fault::None);
  REQUIRE(s.prepare(oware, detail) == Fault::None);
  CHECK(s.round_trips() == 4);
  s.quit();
  auto lines = rtest::read_lines(dir.file("log"));
  const std::vector<std::string> expected = {
      "ugi",
      "protocol 1",
      protocol::format(protocol::RefereeMessage{protocol::setgame_from_spec(awale.canonical())}),
      "uginewgame",
      "isready 1",
      "uginewgame",
      "isready 2",
      protocol::format(protocol::RefereeMessage{protocol::setgame_from_spec(oware.canonical())}),
      "uginewgame",
      "isready 3",
      "quit"};
  CHECK(lines == expected);
  CHECK(contains(expected[2], "maxplies=50"));
  CHECK(contains(expected[7], "players=3"));
}

TEST_CASE("session: no readyok is a stall") {
  SessionSettings settings;
  settings.ready_timeout = Millis(200);
  settings.setgame_timeout = Millis(200);
  auto s = rtest::start_mock({"--no-readyok"}, settings);
  std::string detail;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(s.prepare(game_of("awale"), detail) == Fault::Stall);
  CHECK(detail == "no readyok within 200 ms");
  CHECK(ms_since(t0) < 1500);
}

TEST_CASE("session: a readyok with a stale token is not an answer") {
  SessionSettings settings;
  settings.setgame_timeout = Millis(200);
  auto stale = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name stale\nid protocol 1\ngame awale\nugiok\n' ;;
    isready*) echo "readyok 99" ;;
  esac
done)"),
                                    settings);
  std::string detail;
  CHECK(stale.prepare(game_of("awale"), detail) == Fault::Stall);

  auto fresh = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name late\nid protocol 1\ngame awale\nugiok\n' ;;
    isready*) echo "readyok 0"; echo "readyok ${line#isready }" ;;
  esac
done)"),
                                    settings);
  CHECK(fresh.prepare(game_of("awale"), detail) == Fault::None);
}

TEST_CASE("session: error unsupported-game at setgame excludes the engine from the game") {
  auto s = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name picky\nid protocol 1\ngame awale\nugiok\n' ;;
    isready*) echo "error unsupported-game not this one" ;;
  esac
done)"));
  std::string detail;
  CHECK(s.prepare(game_of("awale"), detail) == Fault::Unsupported);
  CHECK(contains(detail, "unsupported-game"));
  CHECK(contains(detail, "not this one"));
}

TEST_CASE("session: a plain UGI engine gets no setgame, no protocol line, no token") {
  auto s = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name plain\nugiok\n' ;;
    isready*) echo "readyok" ;;
  esac
done)"));
  CHECK(s.identity().protocol == 0);
  CHECK(s.declares("awale"));  // trusted to play what it is configured for
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  auto sent = sent_lines(s.take_log());
  const std::vector<std::string> expected = {"ugi", "uginewgame", "isready"};
  CHECK(sent == expected);
}

TEST_CASE("session: junk before ugiok is tolerated") {
  auto s = rtest::start_session(rtest::script_spec(R"(
read -r line
printf 'Welcome to SlowBot\n* banner *\nid name banner\nid protocol 1\ngame awale\nugiok\n'
while read -r line; do :; done)"));
  CHECK(s.identity().name == "banner");
}

TEST_CASE("session: the stop flag ends a request early with no move and no fault") {
  auto s = rtest::start_mock({"--slow-ms=3000"});
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  std::atomic<bool> stop{false};
  std::thread setter([&] {
    std::this_thread::sleep_for(Millis(150));
    stop = true;
  });
  protocol::Go go;
  go.player = 1;
  go.movetime = 5000;
  const auto t0 = std::chrono::steady_clock::now();
  auto reply = s.request("", {}, go, Millis(5000), &stop);
  setter.join();
  CHECK(reply.fault == Fault::None);
  CHECK(reply.move.empty());
  CHECK(ms_since(t0) < 1000);
}

TEST_CASE("session: fault names are the stored terminations") {
  CHECK(fault_name(Fault::Timeout) == "time");
  CHECK(fault_name(Fault::Crash) == "crash");
  CHECK(fault_name(Fault::Stall) == "stall");
  CHECK(fault_name(Fault::Protocol) == "protocol");
  CHECK(fault_name(Fault::Illegal) == "illegal");
  CHECK(fault_name(Fault::Resign) == "resign");
  CHECK(fault_name(Fault::NoStart) == "nostart");
  CHECK(fault_name(Fault::Unsupported) == "unsupported");
}

TEST_CASE("session: unsupported-option and unknown-command replies are only logged") {
  SessionSettings settings;
  settings.options = {{"Hash", "16"}};
  auto s = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name fussy\nid protocol 1\ngame awale\nugiok\n' ;;
    setoption*) echo "error unsupported-option Hash" ;;
    protocol*) echo "error unknown-command protocol" ;;
    isready*) echo "readyok ${line#isready }" ;;
  esac
done)"),
                                settings);
  std::string detail;
  CHECK(s.prepare(game_of("awale"), detail) == Fault::None);
  auto log = s.take_log();
  bool logged = false;
  for (const auto& l : log)
    logged = logged || (l.direction == '<' && l.text == "error unsupported-option Hash");
  CHECK(logged);
}

TEST_CASE("session: any other error before readyok is a protocol violation") {
  auto s = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name broken\nid protocol 1\ngame awale\nugiok\n' ;;
    isready*) echo "error internal out of memory" ;;
  esac
done)"));
  std::string detail;
  CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
  CHECK(detail == "engine replied: error internal out of memory");
}
