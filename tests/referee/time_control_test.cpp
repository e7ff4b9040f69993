// referee/time_control: every accepted form of a time control, every bad input (one error naming
// the item), the to_string round trip, and PlayerClock's arithmetic: Fischer increments,
// moves-to-go periods, movetime, the depth/nodes wall cap, and the margin.
#include <catch2/catch.hpp>

#include "referee/match/time_control.h"

using referee::match::Millis;
using referee::match::parse_time_control;
using referee::match::PlayerClock;
using referee::match::TimeControl;

namespace {

TimeControl parsed(const std::string& text) {
  auto tc = parse_time_control(text);
  INFO(text << ": " << (tc ? std::string() : tc.error()));
  REQUIRE(tc.ok());
  return *tc;
}

bool same(const TimeControl& a, const TimeControl& b) {
  return a.base == b.base && a.increment == b.increment && a.moves_to_go == b.moves_to_go &&
         a.movetime == b.movetime && a.depth == b.depth && a.nodes == b.nodes &&
         a.wall_cap == b.wall_cap && a.margin == b.margin;
}

}  // namespace

TEST_CASE("time control: Fischer clock, seconds with an increment") {
  auto tc = parsed("10+0.1");
  CHECK(tc.base == Millis(10000));
  CHECK(tc.increment == Millis(100));
  CHECK(tc.moves_to_go == 0);
  CHECK(tc.movetime == Millis(0));
  CHECK(tc.margin == Millis(50));
  CHECK(tc.has_clock());
}

TEST_CASE("time control: seconds alone, fractions, and moves-to-go periods") {
  auto plain = parsed("60");
  CHECK(plain.base == Millis(60000));
  CHECK(plain.increment == Millis(0));
  CHECK(parsed("0.25").base == Millis(250));
  CHECK(parsed("1.5+0").increment == Millis(0));
  auto periods = parsed("40/60+0.5");
  CHECK(periods.moves_to_go == 40);
  CHECK(periods.base == Millis(60000));
  CHECK(periods.increment == Millis(500));
  CHECK(parsed("40/90").moves_to_go == 40);
}

TEST_CASE("time control: key=value items, alone and after a clock") {
  auto mt = parsed("movetime=200");
  CHECK(mt.movetime == Millis(200));
  CHECK_FALSE(mt.has_clock());
  auto depth = parsed("depth=6");
  CHECK(depth.depth == 6);
  CHECK(depth.wall_cap == Millis(10000));  // default hard cap
  auto nodes = parsed("nodes=5000,cap=3000");
  CHECK(nodes.nodes == 5000);
  CHECK(nodes.wall_cap == Millis(3000));
  auto margin = parsed("10+0.1,margin=100");
  CHECK(margin.base == Millis(10000));
  CHECK(margin.margin == Millis(100));
  CHECK(parsed("movetime=100,margin=0").margin == Millis(0));
  auto both = parsed("5+0,depth=4");
  CHECK(both.depth == 4);
  CHECK(both.base == Millis(5000));
}

TEST_CASE("time control: every bad input is one error naming the culprit") {
  struct Case {
    const char* text;
    const char* names;  // a piece of the error message
  };
  const Case cases[] = {
      {"", "empty time control"},
      {"abc", "'abc'"},
      {"0", "'0'"},
      {"-5", "'-5'"},
      {"+5", "'+5'"},
      {"10+", "'10+'"},
      {"10+x", "'10+x'"},
      {"10+-1", "'10+-1'"},
      {"10++1", "'10++1'"},
      {"/60", "'/60'"},
      {"0/60", "'0/60'"},
      {"040/60", "'040/60'"},
      {"40/", "'40/'"},
      {"40/60/30", "'40/60/30'"},
      {"inf", "'inf'"},
      {"nan", "'nan'"},
      {"0x10", "'0x10'"},
      {"1e3", "'1e3'"},
      {" 10", "' 10'"},
      {"10+ 1", "'10+ 1'"},
      {"10,20", "two clocks"},
      {"movetime=0", "'movetime=0'"},
      {"movetime=abc", "'movetime=abc'"},
      {"movetime=-5", "'movetime=-5'"},
      {"depth=", "'depth='"},
      {"speed=3", "'speed=3'"},
      {"10+0.1,movetime=100", "mixes a clock and movetime"},
      {"margin=100", "sets no limit"},
      {"cap=500", "sets no limit"},
      {"10+0.1,", "empty item"},
      {",10", "empty item"},
  };
  for (const auto& c : cases) {
    auto tc = parse_time_control(c.text);
    INFO("input '" << c.text << "'");
    REQUIRE_FALSE(tc.ok());
    INFO("error: " << tc.error());
    CHECK(tc.error().find(c.names) != std::string::npos);
    CHECK(tc.error().find('\n') == std::string::npos);
  }
}

TEST_CASE("time control: to_string is parsed back to the same control") {
  const char* texts[] = {"10+0.1",
                         "60",
                         "40/60+0.5",
                         "0.25+0.005",
                         "movetime=200",
                         "depth=6",
                         "nodes=5000,cap=3000",
                         "10+0.1,margin=100",
                         "5+0,depth=4",
                         "movetime=100,margin=0",
                         "3/1.5"};
  for (const char* text : texts) {
    auto tc = parsed(text);
    const std::string shown = tc.to_string();
    INFO(text << " -> " << shown);
    auto again = parsed(shown);
    CHECK(same(tc, again));
    CHECK(again.to_string() == shown);
  }
  CHECK(parsed("10+0.1").to_string() == "10+0.1");
  CHECK(parsed("40/60+0.5").to_string() == "40/60+0.5");
  CHECK(parsed("depth=6").to_string() == "depth=6,cap=10000");
  CHECK(parsed("movetime=200,margin=10").to_string() == "movetime=200,margin=10");
}

TEST_CASE("player clock: Fischer increment is added after each move") {
  PlayerClock clock(parsed("10+0.1"));
  CHECK(clock.left() == Millis(10000));
  CHECK(clock.move_budget() == Millis(10050));  // the clock plus the margin
  CHECK(clock.moves_to_go() == 0);
  REQUIRE(clock.charge(Millis(300)));
  CHECK(clock.left() == Millis(9800));
  REQUIRE(clock.charge(Millis(0)));
  CHECK(clock.left() == Millis(9900));
  CHECK(clock.move_budget() == Millis(9950));
}

TEST_CASE("player clock: a move inside the margin stops the clock at 0, beyond it loses") {
  SECTION("inside the margin") {
    PlayerClock clock(parsed("1+0.1"));
    REQUIRE(clock.charge(Millis(1040)));  // 40 ms over, margin 50
    CHECK(clock.left() == Millis(100));   // 0, then the increment
  }
  SECTION("exactly at the margin") {
    PlayerClock clock(parsed("1+0"));
    REQUIRE(clock.charge(Millis(1050)));
    CHECK(clock.left() == Millis(0));
    CHECK(clock.move_budget() == Millis(50));  // the next move has only the margin
    CHECK_FALSE(clock.charge(Millis(51)));
  }
  SECTION("beyond the margin") {
    PlayerClock clock(parsed("1+0"));
    CHECK_FALSE(clock.charge(Millis(1051)));
  }
  SECTION("a custom margin") {
    PlayerClock clock(parsed("1+0,margin=300"));
    CHECK(clock.move_budget() == Millis(1300));
    CHECK(clock.charge(Millis(1300)));
    CHECK_FALSE(PlayerClock(parsed("1+0,margin=0")).charge(Millis(1001)));
  }
}

TEST_CASE("player clock: moves-to-go periods add the base again") {
  PlayerClock clock(parsed("2/1+0"));
  CHECK(clock.moves_to_go() == 2);
  REQUIRE(clock.charge(Millis(100)));
  CHECK(clock.left() == Millis(900));
  CHECK(clock.moves_to_go() == 1);
  REQUIRE(clock.charge(Millis(100)));
  CHECK(clock.left() == Millis(1800));  // 800 left plus a new period's second
  CHECK(clock.moves_to_go() == 2);
  REQUIRE(clock.charge(Millis(1800)));  // the whole clock, still in time
  CHECK(clock.left() == Millis(0));
  CHECK(clock.moves_to_go() == 1);
  REQUIRE(clock.charge(Millis(0)));
  CHECK(clock.left() == Millis(1000));

  PlayerClock with_inc(parsed("3/2+0.5"));
  REQUIRE(with_inc.charge(Millis(500)));
  CHECK(with_inc.left() == Millis(2000));
}

TEST_CASE("player clock: movetime allows the time plus the margin, every move") {
  PlayerClock clock(parsed("movetime=200"));
  CHECK(clock.move_budget() == Millis(250));
  CHECK(clock.charge(Millis(240)));
  CHECK(clock.charge(Millis(250)));
  CHECK(clock.move_budget() == Millis(250));  // nothing carried over
  CHECK(clock.left() == Millis(0));
  CHECK_FALSE(clock.charge(Millis(251)));
}

TEST_CASE("player clock: depth and nodes limits have a hard wall cap and no margin") {
  PlayerClock depth(parsed("depth=6,cap=3000"));
  CHECK(depth.move_budget() == Millis(3000));
  CHECK(depth.charge(Millis(3000)));
  CHECK_FALSE(depth.charge(Millis(3001)));
  PlayerClock nodes(parsed("nodes=100"));
  CHECK(nodes.move_budget() == Millis(10000));
  CHECK(nodes.charge(Millis(9999)));
  // With a clock, the clock decides, not the cap.
  PlayerClock clocked(parsed("1+0,depth=3"));
  CHECK(clocked.move_budget() == Millis(1050));
}

TEST_CASE("time control: numbers beyond the limits are refused, naming the limit") {
  struct Case {
    const char* text;
    const char* names;
  };
  const Case cases[] = {
      // Seconds: a huge number once went through double and llround (undefined beyond 2^63).
      {"99999999999999999999999", "'99999999999999999999999': base and increment are at most"},
      {"1000001", "base and increment are at most 1000000 s"},
      {"10+1000001", "base and increment are at most 1000000 s"},
      {"1000000+1", "'1000000+1': a period (base + increment x moves) holds 1000001 s, more than"},
      {"40/1000+25000", "holds 1001000 s, more than 1000000 s"},
      {"100001/60", "'100001/60': at most 100000 moves per period"},
      {"99999999999999999999/60", "at most 100000 moves per period"},
      {"0.0004", "'0.0004'"},  // rounds to 0 ms: no clock at all
      {"movetime=1000000001",
       "'movetime=1000000001' is out of range (movetime is from 1 to "
       "1000000000 ms)"},
      {"movetime=99999999999999999999999999", "movetime is from 1 to 1000000000 ms"},
      {"depth=1000001", "depth is from 1 to 1000000)"},
      {"nodes=1000000000000001", "nodes is from 1 to 1000000000000000)"},
      {"depth=3,cap=0", "cap is from 1 to 1000000000 ms"},
      {"10,margin=1000000001", "margin is from 0 to 1000000000 ms"},
      {"movetime=0200", "'movetime=0200'"},
      {"depth=3,depth=4", "sets depth twice"},
      {"1..5", "'1..5'"},
      {".", "'.'"},
      {"+", "'+'"},
  };
  for (const auto& c : cases) {
    auto tc = parse_time_control(c.text);
    INFO("input '" << c.text << "'");
    REQUIRE_FALSE(tc.ok());
    INFO("error: " << tc.error());
    CHECK(tc.error().find(c.names) != std::string::npos);
  }
}

TEST_CASE("time control: the limits themselves are accepted, to the millisecond") {
  CHECK(parsed("1000000").base == Millis(referee::match::kMaxTimeMs));
  CHECK(parsed("999999+1").increment == Millis(1000));
  CHECK(parsed("100000/1+0").moves_to_go == 100000);
  CHECK(parsed("movetime=1000000000").movetime == Millis(1000000000));
  CHECK(parsed("nodes=1000000000000000").nodes == 1000000000000000LL);
  CHECK(parsed("depth=1000000").depth == 1000000);
  // Exact decimal seconds, rounded half up at the fourth decimal; no binary floating point.
  CHECK(parsed("0.0005").base == Millis(1));
  CHECK(parsed("1.2345").base == Millis(1235));
  CHECK(parsed("1.2344999").base == Millis(1234));
  CHECK(parsed("0.001").base == Millis(1));
  CHECK(parsed("2.").base == Millis(2000));
  CHECK(parsed(".5").base == Millis(500));
  CHECK(parsed("4.35").base == Millis(4350));  // 4.35 * 1000 is 4349.999... in a double
}

TEST_CASE("time control: a cap given with a clock survives the round trip") {
  auto tc = parsed("10+0.1,cap=3000");
  CHECK(tc.to_string() == "10+0.1,cap=3000");
  CHECK(parsed(tc.to_string()) == tc);
}

TEST_CASE("player clock: a clock that keeps growing stops at its cap") {
  // One move per period, a million seconds each: the clock would pass any int64 of nanoseconds.
  PlayerClock clock(parsed("1/1000000"));
  for (int i = 0; i < 2000; ++i) REQUIRE(clock.charge(Millis(0)));
  CHECK(clock.left() == Millis(referee::match::kMaxClockMs));
  CHECK(clock.move_budget() == Millis(referee::match::kMaxClockMs + 50));
}
