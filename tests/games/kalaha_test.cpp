// kalaha: one scenario per rule of rules.md §2 kalaha, bad input, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("kalaha: StartPosition") {
  auto game = make_game("kalaha");
  REQUIRE(game.ok());
  State s = game->initial_state();
  CHECK(s.to_string() == "6,6,6,6,6,6/6,6,6,6,6,6:0,0:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "3", "4", "5", "6"});
  CHECK(game->canonical() == "kalaha:first=1,nocapture=100,maxplies=2000");
}

TEST_CASE("kalaha: LastSeedInOwnStoreGivesExtraTurn") {
  State s = after("kalaha", "6,6,6,6,6,6/6,6,6,6,6,6:0,0:1:0:0", "1");
  CHECK(s.to_string() == "0,7,7,7,7,7/6,6,6,6,6,6:1,0:1:1:1");
  CHECK(s.current_player() == 1);
  CHECK_FALSE(s.last_move_captured());
  // North's store too: 7 holds 6, last seed in S2.
  State n = after("kalaha", "6,6,6,6,6,6/6,6,6,6,6,6:0,0:2:0:0", "7");
  CHECK(n.to_string() == "6,6,6,6,6,6/0,7,7,7,7,7:0,1:2:1:1");
}

TEST_CASE("kalaha: ExtraTurnsChain") {
  // 1 ends in S1; then 6 (7 seeds) ends in 12 and North moves.
  State s = after_moves("kalaha", "", {"1", "6"});
  CHECK(s.to_string() == "0,7,7,7,7,0/7,7,7,7,7,7:2,0:2:2:2");
  // 6 (1 seed) and 5 (2 seeds) both end in S1: South moves three times in a row.
  State t = after_moves("kalaha", "0,0,0,0,2,1/6,6,6,6,6,6:30,3:1:0:0", {"6", "5"});
  CHECK(t.to_string() == "0,0,0,0,0,1/6,6,6,6,6,6:32,3:1:2:2");
  CHECK(t.current_player() == 1);
}

TEST_CASE("kalaha: EmptyOwnHoleTakesOppositeIntoStore") {
  // 1 holds 1: the seed lands in empty 2; opposite 11 holds 5, taken to S1; the seed stays.
  State s = after("kalaha", "1,0,3,0,0,2/4,4,4,4,5,4:20,21:1:7:30", "1");
  CHECK(s.to_string() == "0,1,3,0,0,2/4,4,4,4,0,4:25,21:2:0:31");
  CHECK(s.last_move_captured());
}

TEST_CASE("kalaha: EmptyOppositeTakesNothingAndIsNoCapture") {
  State s = after("kalaha", "1,0,3,0,0,2/4,4,4,4,0,9:20,21:1:7:30", "1");
  CHECK(s.to_string() == "0,1,3,0,0,2/4,4,4,4,0,9:20,21:2:8:31");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("kalaha: LastSeedInEmptyOpponentHoleTakesNothing") {
  // 6 holds 3: S1, 7, 8 (empty): no capture, the turn ends.
  State s = after("kalaha", "1,1,1,1,1,3/4,0,0,4,4,4:24,24:1:0:10", "6");
  CHECK(s.to_string() == "1,1,1,1,1,0/5,1,0,4,4,4:25,24:2:1:11");
}

TEST_CASE("kalaha: NeverSowsIntoOpponentStore") {
  // 12 holds 9: S2, then 1..6 (6 seeds), then S1 is skipped, 7 and 8 get the last two.
  State s = after("kalaha", "3,3,3,3,3,3/1,1,1,1,1,9:20,20:2:0:10", "12");
  CHECK(s.to_string() == "4,4,4,4,4,4/2,2,1,1,1,0:20,21:1:1:11");
  // South: 6 holds 8: S1, 7..12, then S2 skipped, hole 1 gets the last seed.
  State t = after("kalaha", "1,3,3,3,2,8/1,1,1,1,1,1:20,26:1:0:10", "6");
  CHECK(t.to_string() == "2,3,3,3,2,0/2,2,2,2,2,2:21,26:2:1:11");
}

TEST_CASE("kalaha: OriginSkippedOnFullLap") {
  // 1 holds 13: 2..6, S1, 7..12 (12 seeds), 1 is skipped, the 13th goes to 2 (held 1: no
  // capture).
  State s = after("kalaha", "13,0,0,0,0,0/2,2,2,2,2,2:23,24:1:0:10", "1");
  CHECK(s.to_string() == "0,2,1,1,1,1/3,3,3,3,3,3:24,24:2:1:11");
  // 1 holds 26: two laps of 12, each skips 1; the last two seeds reach 2 and 3 (3 held 2).
  State t = after("kalaha", "26,0,0,0,0,0/0,0,0,0,0,0:23,23:1:0:10", "1");
  CHECK(t.to_string() == "0,3,3,2,2,2/2,2,2,2,2,2:25,23:2:1:11");
}

TEST_CASE("kalaha: FullLapCaptureIntoEmptiedOwnHole") {
  // 2 holds 12: 3..6, S1, 7..12, S2 skipped, then 1, which was empty: the opposite 12, filled
  // by this very sowing, is taken.
  State s = after("kalaha", "0,12,0,0,0,0/0,0,0,0,0,0:30,30:1:0:10", "2");
  CHECK(s.to_string() == "1,0,1,1,1,1/1,1,1,1,1,0:32,30:2:0:11");
  CHECK(s.last_move_captured());
}

TEST_CASE("kalaha: GameEndsWhenMoverRowEmptyRemainderToOwners") {
  State s = at("kalaha", "0,0,0,0,0,0/1,2,0,0,0,3:36,30:1:0:10");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{36, 36});
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
  CHECK(s.outcome().reason == "rules");
}

TEST_CASE("kalaha: GameEndsAfterExtraTurnWithEmptyRow") {
  // South's last seed goes into S1: South is to move again with an empty row: the game ends.
  State s = after("kalaha", "0,0,0,0,0,1/1,2,0,0,0,3:34,31:1:0:10", "6");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{35, 37});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("kalaha: OpponentEmptyRowDoesNotEndGame") {
  // Only the player to move's row counts: North is empty but South moves on.
  State s = at("kalaha", "1,2,0,0,0,3/0,0,0,0,0,0:36,30:1:0:10");
  CHECK_FALSE(s.is_terminal());
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "6"});
}

TEST_CASE("kalaha: NoCaptureLimitEndsByExhaustion") {
  State s = after_moves("kalaha:nocapture=2", "", {"1", "2"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  // "2" sows 3..6, S1, 7, 8. Stores 2 and 0, rows 32 and 38 to their owners.
  CHECK(s.outcome().scores == std::vector<double>{34, 38});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("kalaha: AgreementRemainderToOwners") {
  State s = at("kalaha", "1,2,3,0,0,0/5,0,0,0,0,0:30,31:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{36, 36});
  CHECK(s.outcome().reason == "agreement");
}

TEST_CASE("kalaha: FirstPlayerParameter") {
  auto game = make_game("kalaha:first=2");
  REQUIRE(game.ok());
  CHECK(game->initial_state().current_player() == 2);
  CHECK(game->initial_state().legal_moves() ==
        std::vector<std::string>{"10", "11", "12", "7", "8", "9"});
}

TEST_CASE("kalaha: BadPositionsAreErrors") {
  check_bad_positions("kalaha",
                      {"", "6,6,6,6,6,6/6,6,6,6,6,6:0,0:1", "6,6,6,6,6/6,6,6,6,6,6:0,0:1:0:0",
                       "6,6,6,6,6,6/6,6,6,6,6,6:0,0:3:0:0", "6,6,6,6,6,6/6,6,6,6,6,6:0,1:1:0:0",
                       "6,6,6,6,6,6/6,6,6,6,6,6:0:1:0:0", "6,6,6,6,6,6/6,6,6,6,6,6/0:0,0:1:0:0",
                       "6,6,6,6,6,06/6,6,6,6,6,6:0,0:1:0:0", "6,6,6,6,6,6/6,6,6,6,6,6:0,0:1:x:0",
                       "6,6,6,6,6,6/6,6,6,6,6,-6:0,0:1:0:0", "6,6,6,6,6,6/6,6,6,6,6,6:0,0:0:0:0"});
  State s = start("kalaha");
  check_bad_moves(s, {"0", "7", "13", "", "1 ", "pass", "01", "S1", "-1"});
  State t = at("kalaha", "0,1,1,1,1,1/6,6,6,6,6,37:0,0:1:0:0");
  CHECK_FALSE(t.apply("1").ok());  // an empty hole
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("kalaha: perft from the start") {
  check_perft(start("kalaha"), {1, 6, 35, 190, 1056, 5882, 32243, 177888, 963121});
}

TEST_CASE("kalaha: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("kalaha", o) > 0);
  CHECK(testing::conformance_sweep("kalaha:first=2", o) > 0);
}
