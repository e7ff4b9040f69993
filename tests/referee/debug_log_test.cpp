// --debug (match/debug_log.h): every line exchanged, as it happens, with the time, the engine's
// name and instance and the direction; whole lines even when sessions on several threads write at
// once; and the commands that take --debug print them on stderr.
#include "match/debug_log.h"

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "games/game.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using rtest::contains;

namespace {

const std::regex kLine(R"(\d+\.\d{3} [^ ()]+\(\d+\) [<>!] .*)");

}  // namespace

TEST_CASE("debug log: the time since it began, the engine and instance, the direction, the text") {
  std::ostringstream out;
  const auto t0 = DebugLog::Clock::now();
  DebugLog log(out, t0);
  CHECK(log.next_instance() == 1);
  CHECK(log.next_instance() == 2);
  log.line("mybot", 2, '>', "go player 2 p1time 100 p2time 100",
           t0 + std::chrono::milliseconds(12345));
  log.line("other", 1, '<', "bestmove 3", t0 + std::chrono::milliseconds(7));
  log.line("other", 1, '!', "thinking", t0 - std::chrono::milliseconds(5));  // never negative
  CHECK(out.str() ==
        "12.345 mybot(2) > go player 2 p1time 100 p2time 100\n"
        "0.007 other(1) < bestmove 3\n"
        "0.000 other(1) ! thinking\n");
}

TEST_CASE("debug log: lines from many threads at once are never mixed") {
  std::ostringstream out;
  DebugLog log(out);
  const std::string payload(300, 'x');
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i)
        log.line("e" + std::to_string(t), t + 1, '<', payload + std::to_string(i),
                 DebugLog::Clock::now());
    });
  for (auto& th : threads) th.join();
  auto lines = rtest::lines_of(out.str());
  REQUIRE(lines.size() == 2000);
  for (const auto& l : lines) {
    INFO(l.substr(0, 80));
    REQUIRE(std::regex_match(l, kLine));
    REQUIRE(contains(l, payload));
  }
}

TEST_CASE("debug log: a session writes every line it sends and reads, stderr included") {
  std::ostringstream out;
  DebugLog log(out);
  SessionSettings settings;
  settings.name = "mybot";
  settings.debug = &log;
  settings.keep_log = false;  // --debug does not need the transcript
  auto s = rtest::start_mock({"--stderr=1"}, settings);
  auto game = games::make_game("awale");
  REQUIRE(game.ok());
  std::string detail;
  REQUIRE(s.prepare(*game, detail) == Fault::None);
  protocol::Go go;
  go.player = 1;
  go.movetime = 100;
  REQUIRE(s.request("", {}, go, Millis(5000), nullptr).fault == Fault::None);
  s.quit();
  auto lines = rtest::lines_of(out.str());
  std::vector<std::string> tail;  // without the time
  for (const auto& l : lines) {
    REQUIRE(std::regex_match(l, kLine));
    tail.push_back(l.substr(l.find(' ') + 1));
  }
  auto at = [&](const std::string& t) { return std::find(tail.begin(), tail.end(), t); };
  CHECK(at("mybot(1) > ugi") == tail.begin());
  CHECK(at("mybot(1) < id name mock") != tail.end());
  CHECK(at("mybot(1) < ugiok") < at("mybot(1) > protocol 1"));
  CHECK(at("mybot(1) > isready 1") < at("mybot(1) < readyok 1"));
  const auto go_line = at("mybot(1) > go player 1 movetime 100");
  REQUIRE(go_line != tail.end());
  CHECK(at("mybot(1) > position startpos") == go_line - 1);
  CHECK(go_line < at("mybot(1) ! mock stderr 1.0"));
  CHECK(at("mybot(1) ! mock stderr 1.0") < at("mybot(1) < bestmove 1"));
  CHECK(at("mybot(1) > quit") == tail.end() - 1);
}

TEST_CASE("debug log: match --debug prints both engines' lines on stderr, numbered apart") {
  rtest::TempDir dir;
  auto r = rtest::run_program(REFEREE_BIN,
                              {"match", "--engine", "a=" + rtest::kMock, "--engine",
                               "b=" + rtest::kMock, "--game", "awale:maxplies=4", "--random-plies",
                               "0", "--tc", "10+0", "--db", dir.file("m.db"), "--debug"},
                              dir);
  INFO(r.err);
  CHECK(r.status == 0);
  int sent_go = 0, a = 0, b = 0;
  for (const auto& l : rtest::lines_of(r.err)) {
    if (!std::regex_match(l, kLine)) continue;
    a += contains(l, " a(");
    b += contains(l, " b(");
    sent_go += contains(l, ") > go player ");
  }
  CHECK(a > 10);
  CHECK(b > 10);
  CHECK(sent_go == 8);  // 2 games of 4 plies
  CHECK(contains(r.err, " a(1) > ugi\n"));
  CHECK(contains(r.err, " b(2) > ugi\n"));
  CHECK(
      std::regex_search(r.err, std::regex(R"(\nfinished game \d+ \(slot 1\): )")));  // the progress
}
