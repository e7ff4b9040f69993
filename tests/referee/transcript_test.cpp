// referee/match/transcript: a game's log keeps every referee line and the head and tail of what
// the engine wrote on stdout and on stderr, in time order, with a note where lines were dropped;
// it starts afresh with every game and cannot grow past its caps.
#include "referee/match/transcript.h"

#include <catch2/catch.hpp>
#include <thread>

using namespace referee;
using namespace referee::match;

namespace {

std::vector<std::string> texts(const std::vector<storage::LogLine>& log) {
  std::vector<std::string> out;
  for (const auto& l : log) out.push_back(std::string(1, l.direction) + " " + l.text);
  return out;
}

// A cap that holds exactly `lines` lines of `width` bytes.
std::size_t room(std::size_t lines, std::size_t width) {
  return lines * (width + Transcript::kLineOverhead);
}

}  // namespace

TEST_CASE("transcript: below its caps every line is kept, in order, with its seat and time") {
  Transcript t;
  const auto since = std::chrono::steady_clock::now();
  t.start(since, 2);
  t.add('>', "go");
  t.add('!', "thinking");
  t.add('<', "bestmove 3");
  auto log = t.take();
  CHECK(texts(log) == std::vector<std::string>{"> go", "! thinking", "< bestmove 3"});
  for (const auto& l : log) {
    CHECK(l.seat == 2);
    CHECK(l.at_ms >= 0);
  }
  CHECK(t.take().empty());  // afresh
}

TEST_CASE("transcript: lines from before the game start at 0 ms, later ones count from it") {
  Transcript t;
  t.add('>', "ugi");
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  t.start(std::chrono::steady_clock::now(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  t.add('>', "go");
  auto log = t.take();
  REQUIRE(log.size() == 2);
  CHECK(log[0].at_ms == 0);
  CHECK(log[1].at_ms >= 25);
}

TEST_CASE("transcript: the engine's stdout keeps its head and tail, with a note in between") {
  Transcript t({room(3, 6), room(2, 10), room(10, 6), room(10, 6)});
  t.start(std::chrono::steady_clock::now(), 1);
  t.add('>', "go");
  for (int i = 0; i < 10; ++i) t.add('<', "info " + std::to_string(i));
  t.add('>', "go again");  // the referee's lines are always kept
  t.add('<', "bestmove 3");
  auto got = texts(t.take());
  const std::vector<std::string> expected = {
      "> go",
      "< info 0",
      "< info 1",
      "< info 2",
      "! referee: 6 lines (36 bytes) of stdout dropped here (kept per game: the first 210 and the "
      "last 148 bytes)",
      "< info 9",
      "> go again",
      "< bestmove 3"};
  CHECK(got == expected);
}

TEST_CASE("transcript: stderr has caps of its own, both notes land where lines were dropped") {
  Transcript t({room(1, 6), room(1, 6), room(1, 5), room(1, 5)});
  t.add('<', "out  0");
  t.add('!', "err 0");
  t.add('!', "err 1");
  t.add('<', "out  1");
  t.add('!', "err 2");
  t.add('<', "out  2");
  auto got = texts(t.take());
  REQUIRE(got.size() == 6);
  CHECK(got[0] == "< out  0");
  CHECK(got[1] == "! err 0");
  CHECK(got[2].rfind("! referee: 1 lines (5 bytes) of stderr dropped here", 0) == 0);
  CHECK(got[3].rfind("! referee: 1 lines (6 bytes) of stdout dropped here", 0) == 0);
  CHECK(got[4] == "! err 2");
  CHECK(got[5] == "< out  2");
}

TEST_CASE("transcript: a flood of empty lines is bounded too, and the next game starts afresh") {
  Transcript t({1000, 1000, 1000, 1000});
  for (int i = 0; i < 100000; ++i) t.add('<', "");
  auto log = t.take();
  CHECK(log.size() < 2 * 1000 / Transcript::kLineOverhead + 2);
  CHECK(texts(log).back() == "< ");
  t.add('<', "fresh");
  CHECK(texts(t.take()) == std::vector<std::string>{"< fresh"});
}

TEST_CASE("transcript: disabled, it keeps nothing") {
  Transcript t({}, false);
  t.add('>', "go");
  t.add('!', "x");
  CHECK(t.take().empty());
}
