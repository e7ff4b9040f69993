// kakua: the seed's worked example, one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("kakua: seed example — South starts from d and keeps 4 seeds") {
  // d (4): e, f, g, keep one; h (2): i, keep one; j (3): k, l, keep one; a (1): keep it; b is
  // empty: the turn ends with 4 seeds captured.
  State s = after("kakua", "1,0,4,4,4,4/4,2,4,3,4,4:5,5:1:0:0", "4");
  CHECK(s.to_string() == "0,0,4,0,5,5/5,0,5,0,5,5:9,5:2:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("kakua: NextHoleIsEmptiedOriginEndsTurn") {
  // 12 seeds: 11 sown into 2..12, the last kept; the next hole is the emptied origin 1.
  State s = after("kakua", "12,0,0,0,0,0/0,0,0,0,0,0:18,18:1:0:0", "1");
  CHECK(s.to_string() == "0,1,1,1,1,1/1,1,1,1,1,1:19,18:2:0:1");
}

TEST_CASE("kakua: SingleSeedIsKeptAndTheNextHoleTaken") {
  // Hole 1's single seed is kept; hole 2 (2 seeds) sows 3 and keeps one; hole 4 is empty.
  State s = after("kakua", "1,2,0,0,0,0/0,0,0,0,0,1:22,22:1:0:0", "1");
  CHECK(s.to_string() == "0,0,1,0,0,0/0,0,0,0,0,1:24,22:2:0:1");
}

TEST_CASE("kakua: OriginSkippedOnFullLap") {
  // 13 seeds: 12 sown into 2..12 and 2 again (1 skipped), one kept; then 3..12 hold one seed
  // each, kept one after the other, until the emptied origin.
  State s = after("kakua", "13,0,0,0,0,0/0,0,0,0,0,0:17,18:1:0:0", "1");
  CHECK(s.to_string() == "0,2,0,0,0,0/0,0,0,0,0,0:28,18:2:0:1");
}

TEST_CASE("kakua: EmptyRowPasses") {
  State s = at("kakua", "0,0,0,0,0,0/3,0,0,0,0,0:20,25:1:0:12");
  CHECK(s.legal_moves() == std::vector<std::string>{"pass"});
  CHECK(s.is_forced());
  REQUIRE(s.apply("pass").ok());
  CHECK_FALSE(s.last_move_captured());
  CHECK(s.to_string() == "0,0,0,0,0,0/3,0,0,0,0,0:20,25:2:1:13");
}

TEST_CASE("kakua: EmptyBoardEndsGameOnCapturesOnly") {
  State s = after("kakua", "0,0,0,0,0,1/1,0,0,0,0,0:23,23:1:0:0", "6");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().scores == std::vector<double>{25, 23});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("kakua: AgreementCountsCapturesOnly") {
  State s = at("kakua", "0,0,0,0,0,0/9,9,0,0,0,0:15,15:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{15, 15});
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("kakua: MaxPliesEndsByExhaustionOnCapturesOnly") {
  State s = after_moves("kakua:maxplies=1", "", {"1"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "maxplies");
  CHECK(s.material()[0] == s.outcome().scores[0]);
  CHECK(s.outcome().scores[1] == 0);
}

TEST_CASE("kakua: FirstPlayerParameterAndDrawing") {
  State s = start("kakua:first=2");
  CHECK(s.current_player() == 2);
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "12", "7", "8", "9"});
  CHECK(s.draw(BoardWords::Seed).find("SUD  [ 4] [ 4]") != std::string::npos);
}

TEST_CASE("kakua: BadPositionsAndMovesAreErrors") {
  check_bad_positions("kakua",
                      {"", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:3:0:0",
                       "4,4,4,4,4,4/4,4,4,4,4,4:1,0:1:0:0", "4,4,4,4,4,4,4/4,4,4,4,4:0,0:1:0:0",
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0,0:1:0:0", "a:b:c:0:0"});
  State s = start("kakua");
  check_bad_moves(s, {"0", "8", "12", "", "pass", "+1", "1,2"});
  State empty_hole = at("kakua", "0,4,4,4,4,4/4,4,4,4,4,4:4,0:1:0:0");
  CHECK_FALSE(empty_hole.apply("1").ok());
}

// Golden counts agreed with an independent implementation of rules.md.
TEST_CASE("kakua: perft from the start") {
  check_perft(start("kakua"), {1, 6, 28, 129, 600, 2650, 11406, 45194, 175953});
}

TEST_CASE("kakua: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("kakua", o) > 0);
}
