// awale and awale-v1: the seed's worked example, one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("awale: seed example — South sows C and captures 9 from J, K, I, H") {
  // C (hole 3) holds 7: seeds land in 4..10, the last in J (10). J, K, I, H hold 2 or 3 after.
  State s = after("awale", "4,4,7,4,4,4/0,1,2,1,2,1:7,7:1:0:0", "3");
  CHECK(s.to_string() == "4,4,0,5,5,5/1,0,0,0,0,1:16,7:2:0:1");
}

TEST_CASE("awale-v1: captures before the last hole only") {
  State s = after("awale-v1", "4,4,7,4,4,4/0,1,2,1,2,1:7,7:1:0:0", "3");
  CHECK(s.to_string() == "4,4,0,5,5,5/1,0,0,0,2,1:14,7:2:0:1");
}

TEST_CASE("awale: CaptureStopsAtHoleWithFourOrMore") {
  State s = after("awale", "0,0,0,0,0,3/5,3,1,2,3,5:13,13:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/6,4,0,0,0,5:20,13:2:0:1");
}

TEST_CASE("awale: GrandSlamCapturesNothing") {
  State s = after("awale", "0,0,0,0,0,2/1,1,0,0,0,0:22,22:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/2,2,0,0,0,0:22,22:2:1:1");
}

TEST_CASE("awale: GrandSlamIllegalOption") {
  State s = at("awale:grandslam=illegal", "0,0,0,0,1,2/1,1,0,0,0,0:21,22:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"5"});
}

TEST_CASE("awale: MustFeedEmptyOpponent") {
  State s = at("awale", "0,0,0,5,1,0/0,0,0,0,0,0:20,22:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"4"});
}

TEST_CASE("awale: NoFeedingMoveEndsGameRemainderToOwners") {
  State s = at("awale", "1,1,0,0,0,0/0,0,0,0,0,0:23,23:1:0:0");
  CHECK(s.is_terminal());
}

TEST_CASE("awale: EmptyRowAtTurnEndsGame") {
  State s = at("awale", "0,0,0,0,0,0/1,0,0,0,0,0:23,24:1:0:0");
  REQUIRE(s.is_terminal());
  auto o = s.outcome();
  CHECK(o.scores == std::vector<double>{23, 25});
  CHECK(o.ranks == std::vector<int>{2, 1});
}

TEST_CASE("awale: TwentyFiveCapturedEndsGame") {
  State s = after("awale", "0,0,0,0,0,3/5,3,1,2,3,5:18,8:1:0:0", "6");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{25, 23});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("awale: OriginSkippedOnFullLap") {
  State s = after("awale", "12,0,0,0,0,0/0,0,0,0,0,0:18,18:1:0:0", "1");
  CHECK(s.to_string() == "0,2,1,1,1,1/1,1,1,1,1,1:18,18:2:1:1");
}

TEST_CASE("awale: NoCaptureLimitEndsByExhaustion") {
  State s = after_moves("awale:nocapture=3", "", {"1", "7", "2"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{23, 25});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("awale: MaxPliesEndsByExhaustion") {
  State s = after_moves("awale:maxplies=2", "", {"1", "7"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "maxplies");
}

TEST_CASE("awale: FirstPlayerParameter") {
  auto game = make_game("awale:first=2");
  REQUIRE(game.ok());
  CHECK(game->initial_state().current_player() == 2);
  CHECK(game->initial_state().legal_moves() ==
        std::vector<std::string>{"10", "11", "12", "7", "8", "9"});
}

TEST_CASE("awale: AgreementRemainderToOwners") {
  State s = at("awale", "1,2,3,0,0,0/5,0,0,0,0,0:20,17:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{26, 22});
  CHECK(s.outcome().reason == "agreement");
}

TEST_CASE("awale: BadPositionsAreErrors") {
  check_bad_positions(
      "awale", {"", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1", "4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0",
                "4,4,4,4,4,4/4,4,4,4,4,4:0,0:3:0:0", "4,4,4,4,4,4/4,4,4,4,4,5:0,0:1:0:0", "x:0:0",
                "4,4,4,4,4,04/4,4,4,4,4,4:0,0:1:0:0"});
  State s = start("awale");
  check_bad_moves(s, {"0", "7", "13", "", "1 ", "pass", "01"});
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("awale: perft from the start") {
  check_perft(start("awale"), {1, 6, 36, 190, 1014, 5219, 27332, 138783, 707716});
}

TEST_CASE("awale-v1: perft from the start") {
  check_perft(start("awale-v1"), {1, 6, 36, 190, 1014, 5219, 27332, 139157, 711414});
}

TEST_CASE("awale: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("awale", o) > 0);
  CHECK(testing::conformance_sweep("awale-v1", o) > 0);
  CHECK(testing::conformance_sweep("awale:grandslam=illegal", o) > 0);
}
