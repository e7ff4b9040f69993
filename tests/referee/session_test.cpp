// referee/engine_session: the handshake (identity, declared games, protocol line, options), every
// way a start fails (no ugiok, exit, missing binary), game preparation (setgame only when the game
// changes, isready tokens, stale tokens, stalls, unsupported games, plain UGI engines) and the stop
// flag during a request. Real processes: the mock engine and small /bin/sh scripts.
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <thread>

#include "games/game.h"
#include "referee/match/engine_session.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
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
  CHECK(contains(s.error(),
                 "no ugiok within 300 ms (nothing at all was read from its stdout "
                 "since ugi: does it flush stdout after every line?)"));
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
  CHECK(detail ==
        "no readyok within 200 ms (nothing at all was read from its stdout since isready: does it "
        "flush stdout after every line?)");
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

// ---- Floods, in every phase ----

namespace {

std::size_t engine_bytes(const std::vector<storage::LogLine>& log) {
  std::size_t n = 0;
  for (const auto& l : log)
    if (l.direction != '>') n += l.text.size();
  return n;
}

protocol::Go timed_go() {
  protocol::Go go;
  go.player = 1;
  go.time_ms = {20000, 20000};
  go.inc_ms = {0, 0};
  return go;
}

}  // namespace

TEST_CASE("session: a flood before ugiok fails the start at once") {
  SessionSettings settings;
  settings.start_timeout = Millis(20000);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--flood=ugi", "output flood before ugiok: more than 10000 lines or 1048576 bytes"},
      {"--flood=ugi,stderr", "output flood before ugiok"},
      {"--flood=ugi,raw", "line longer than the limit"},
      {"--flood=ugi,stderr,raw", "output flood before ugiok"}};
  for (const auto& [flag, message] : cases) {
    INFO(flag);
    const auto t0 = std::chrono::steady_clock::now();
    auto s = EngineSession::start(rtest::mock_spec({flag}), settings);
    REQUIRE_FALSE(s.ok());
    CHECK(contains(s.error(), "failed to start: " + message));
    CHECK(ms_since(t0) < 10000);
  }
}

TEST_CASE("session: a flood while readyok is awaited is a protocol violation") {
  SessionSettings settings;
  settings.setgame_timeout = Millis(20000);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--flood=isready", "output flood while waiting for readyok"},
      {"--flood=isready,stderr", "output flood while waiting for readyok"},
      {"--flood=isready,raw", "line longer than the limit"}};
  for (const auto& [flag, message] : cases) {
    INFO(flag);
    auto s = rtest::start_mock({flag}, settings);
    std::string detail;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
    CHECK(contains(detail, message));
    CHECK(ms_since(t0) < 10000);
    // What the game keeps of it is bounded: the first and last MiB, and a note.
    auto log = s.take_log();
    CHECK(engine_bytes(log) < (2u << 20) + 1000);
    s.quit();
  }
}

TEST_CASE("session: a flood between requests ends the engine's game") {
  SECTION("between games: the next game ends before it starts") {
    auto s = rtest::start_mock({"--flood=gameover"});
    std::string detail;
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    auto reply = s.request("", {}, timed_go(), Millis(20000), nullptr);
    REQUIRE(reply.fault == Fault::None);
    s.send("gameover p1win rules");
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
    // Read before isready is sent or while readyok is awaited, as the flood comes.
    CHECK(contains(detail, "output flood "));
    CHECK(contains(detail, ": more than 10000 lines or 1048576 bytes"));
    CHECK(ms_since(t0) < 10000);
    s.quit();
    CHECK_FALSE(s.alive());
  }
  SECTION("between moves: what came after the bestmove is read before the next go") {
    SessionSettings settings;
    settings.max_lines_per_phase = 5;
    auto s = rtest::start_session(rtest::script_spec(R"(
while read -r line; do
  case "$line" in
    ugi) printf 'id name chatty\nid protocol 1\ngame awale\nugiok\n' ;;
    isready*) echo "readyok ${line#isready }" ;;
    go*) printf 'bestmove 1\ninfo 1\ninfo 2\ninfo 3\ninfo 4\ninfo 5\ninfo 6\n' ;;
  esac
done)"),
                                  settings);
    std::string detail;
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    REQUIRE(s.request("", {}, timed_go(), Millis(20000), nullptr).fault == Fault::None);
    auto reply = s.request("", {"1", "7"}, timed_go(), Millis(20000), nullptr);
    CHECK(reply.fault == Fault::Protocol);
    CHECK(reply.detail == "output flood between requests: more than 5 lines or 1048576 bytes");
  }
}

TEST_CASE("session: a flood during go is a protocol violation") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--flood=go", "output flood for one move: more than 100000 lines or 8388608 bytes"},
      {"--flood=go,stderr", "output flood for one move"},
      {"--flood=go,raw", "line longer than the limit"},
      {"--flood=go,stderr,raw", "output flood for one move"}};
  for (const auto& [flag, message] : cases) {
    INFO(flag);
    auto s = rtest::start_mock({flag});
    std::string detail;
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    const auto t0 = std::chrono::steady_clock::now();
    auto reply = s.request("", {}, timed_go(), Millis(20000), nullptr);
    CHECK(reply.fault == Fault::Protocol);
    CHECK(contains(reply.detail, message));
    CHECK(ms_since(t0) < 10000);
    CHECK(engine_bytes(s.take_log()) < (2u << 20) + (128u << 10) + 1000);
    s.quit();
  }
}

TEST_CASE("session: a flood after quit does not hold the referee up") {
  SessionSettings settings;
  settings.quit_grace = Millis(20000);
  settings.term_grace = Millis(20000);
  for (const std::string flags : {"--flood=quit", "--flood=quit,stderr"}) {
    INFO(flags);
    auto s = rtest::start_mock({flags, "--ignore-quit"}, settings);
    const auto t0 = std::chrono::steady_clock::now();
    s.quit();
    CHECK(ms_since(t0) < 10000);  // far below the 40 s of graces
    CHECK_FALSE(s.alive());
    CHECK(s.exit_description() == "signal 9 (Killed)");
  }
}

// ---- Death, and protocol state ----

TEST_CASE("session: an engine that exits while its child holds stdout is a crash at once") {
  auto s = rtest::start_mock({"--fork-exit-on-go", "--stderr=1"});
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  const auto t0 = std::chrono::steady_clock::now();
  auto reply = s.request("", {}, timed_go(), Millis(20000), nullptr);
  CHECK(reply.fault == Fault::Crash);
  CHECK(reply.detail == "(exit 5)");
  CHECK(ms_since(t0) < 5000);  // not the 20 s of its clock
}

TEST_CASE("session: a second bestmove to one go is a protocol violation, not the next move") {
  SECTION("at the next go") {
    auto s = rtest::start_mock({"--double-bestmove"});
    std::string detail;
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    auto first = s.request("", {}, timed_go(), Millis(20000), nullptr);
    REQUIRE(first.fault == Fault::None);
    CHECK(first.move == "1");
    auto go = timed_go();
    auto second = s.request("", {"1", "7"}, go, Millis(20000), nullptr);
    CHECK(second.fault == Fault::Protocol);
    CHECK(second.detail == "second bestmove to one go: 'bestmove 1' after 'bestmove 1'");
    CHECK(second.move.empty());
    // The position and go were not sent: the stray line was read first.
    auto sent = sent_lines(s.take_log());
    CHECK(std::count(sent.begin(), sent.end(),
                     "go player 1 p1time 20000 p2time 20000 p1inc 0 "
                     "p2inc 0") == 1);
  }
  SECTION("at the next game") {
    auto s = rtest::start_mock({"--double-bestmove"});
    std::string detail;
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    REQUIRE(s.request("", {}, timed_go(), Millis(20000), nullptr).fault == Fault::None);
    s.send("gameover p1win rules");
    CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
    CHECK(contains(detail, "second bestmove to one go"));
  }
  SECTION("a bestmove nobody asked for") {
    auto s = rtest::start_session(rtest::script_spec(R"(
read -r line
printf 'id name eager\nid protocol 1\ngame awale\nugiok\nbestmove 3\n'
while read -r line; do
  case "$line" in
    isready*) echo "readyok ${line#isready }" ;;
  esac
done)"));
    std::string detail;
    CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
    CHECK(detail == "bestmove without a go: 'bestmove 3'");
  }
}

TEST_CASE("session: a readyok without its token fails at once and says which was expected") {
  SessionSettings settings;
  settings.setgame_timeout = Millis(20000);
  auto s = rtest::start_mock({"--bare-readyok"}, settings);
  std::string detail;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(s.prepare(game_of("awale"), detail) == Fault::Protocol);
  CHECK(detail ==
        "readyok without its token (expected 'readyok 1': an engine that says 'id protocol 1' "
        "answers 'isready N' with 'readyok N')");
  CHECK(ms_since(t0) < 5000);
}

// ---- The game's log ----

TEST_CASE("session: stderr goes into the game's log as it arrives, afresh with each game") {
  auto s = rtest::start_mock({"--stderr=2"});
  std::string detail;
  for (int game = 1; game <= 2; ++game) {
    s.start_log(std::chrono::steady_clock::now(), 2);
    REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
    REQUIRE(s.request("", {}, timed_go(), Millis(20000), nullptr).fault == Fault::None);
    auto log = s.take_log();
    std::vector<std::string> tail;  // from the go on
    bool seen_go = false;
    for (const auto& l : log) {
      CHECK(l.seat == 2);
      seen_go = seen_go || l.text.rfind("go ", 0) == 0;
      if (seen_go) tail.push_back(std::string(1, l.direction) + " " + l.text);
    }
    const std::string g = std::to_string(game);
    const std::vector<std::string> expected = {
        "> go player 1 p1time 20000 p2time 20000 p1inc 0 p2inc 0", "! mock stderr " + g + ".0",
        "! mock stderr " + g + ".1", "< bestmove 1"};
    CHECK(tail == expected);
  }
}

TEST_CASE("session: what a game keeps of an engine's output is capped, with a note") {
  SessionSettings settings;
  settings.log_caps = {4000, 4000, 2000, 2000};
  auto s = rtest::start_mock({"--stderr=200", "--spam-info=300"}, settings);
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  s.take_log();
  REQUIRE(s.request("", {}, timed_go(), Millis(20000), nullptr).fault == Fault::None);
  auto log = s.take_log();
  std::vector<std::string> texts;
  for (const auto& l : log) texts.push_back(std::string(1, l.direction) + " " + l.text);
  auto has = [&](const std::string& t) {
    return std::find(texts.begin(), texts.end(), t) != texts.end();
  };
  CHECK(has("! mock stderr 1.0"));    // the first ...
  CHECK(has("! mock stderr 1.199"));  // ... and the last stderr lines
  CHECK_FALSE(has("! mock stderr 1.100"));
  CHECK(has("< info depth 1 nodes 1"));
  CHECK(has("< bestmove 1"));
  CHECK_FALSE(has("< info depth 150 nodes 1"));
  int notes = 0;
  for (const auto& t : texts)
    if (t.rfind("! referee: ", 0) == 0) {
      ++notes;
      CHECK((contains(t, " of stderr dropped here") || contains(t, " of stdout dropped here")));
    }
  CHECK(notes == 2);
  CHECK(engine_bytes(log) < 4000 + 4000 + 2000 + 2000 + 400);
}

TEST_CASE("session: the crash reason of an engine killed by a signal is built from its number") {
  // SIGUSR1 on go: an engine that dies of a signal, without a core dump.
  auto s = rtest::start_session(rtest::script_spec(R"(read -r line
printf 'id name sig\nid protocol 1\ngame awale\nugiok\n'
while read -r cmd arg rest; do
  case "$cmd" in
    isready) printf 'readyok %s\n' "$arg" ;;
    go) kill -USR1 $$ ;;
  esac
done)"));
  std::string detail;
  REQUIRE(s.prepare(game_of("awale"), detail) == Fault::None);
  auto reply = s.request("", {}, timed_go(), Millis(20000), nullptr);
  CHECK(reply.fault == Fault::Crash);
  CHECK(reply.detail ==
        "(signal " + std::to_string(SIGUSR1) + ": " + engines::signal_description(SIGUSR1) + ")");
  CHECK(engines::signal_description(SIGUSR1) == "User defined signal 1");
  CHECK(s.exit_description() == "signal " + std::to_string(SIGUSR1) + " (User defined signal 1)");
}
