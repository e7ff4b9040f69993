// wali: one scenario per rule of rules.md §2 wali (both values of anyrow), bad input, perft,
// conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

const std::vector<std::string> kAllHoles = {"1", "10", "11", "12", "2", "3",
                                            "4", "5",  "6",  "7",  "8", "9"};

}  // namespace

TEST_CASE("wali: StartPositionAnyHoleOfEitherRow") {
  auto game = make_game("wali");
  REQUIRE(game.ok());
  CHECK(game->canonical() == "wali:anyrow=always,first=1,nocapture=100,maxplies=2000");
  State s = game->initial_state();
  CHECK(s.to_string() == "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0,0:0:0");
  CHECK(s.legal_moves() == kAllHoles);
}

TEST_CASE("wali: SowFromOpponentRowCounterClockwise") {
  // South sows North's 9: 10, 11, 12, 1; the last seed is in South's own row: nothing taken.
  State s = after("wali", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0,0:0:0", "9");
  CHECK(s.to_string() == "5,4,4,4,4,4/4,4,0,5,5,5:0,0:2:1,0:1:1");
}

TEST_CASE("wali: AnyRowEveryTurnByDefault") {
  State s = after_moves("wali", "", {"9", "2", "8"});
  CHECK(s.to_string().substr(s.to_string().find(':')) == ":0,0:2:1,1:3:3");
  // After three moves North may still sow South's holes.
  auto moves = s.legal_moves();
  CHECK(std::find(moves.begin(), moves.end(), "1") != moves.end());
}

TEST_CASE("wali: CaptureTakesLastHoleOnly") {
  // 6 holds 3: 7, 8, 9 each become 2; only the last (9) is taken.
  State s = after("wali", "0,0,0,0,0,3/1,1,1,4,4,4:15,15:1:1,1:5:40", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/2,2,0,4,4,4:17,15:2:1,1:0:41");
  CHECK(s.last_move_captured());
}

TEST_CASE("wali: CaptureOfThree") {
  State s = after("wali", "0,0,0,0,0,3/1,1,2,4,4,4:15,14:1:1,1:5:40", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/2,2,0,4,4,4:18,14:2:1,1:0:41");
}

TEST_CASE("wali: CaptureWhenSowingStartedInOpponentRow") {
  // South sows North's 7 (2 seeds): 8, 9; 9 held 1 and is in North's row: South takes 2.
  State s = after("wali", "4,4,4,4,4,4/2,4,1,4,4,4:3,2:1:1,1:5:40", "7");
  CHECK(s.to_string() == "4,4,4,4,4,4/0,5,0,4,4,4:5,2:2:1,1:0:41");
}

TEST_CASE("wali: NoCaptureInMoverOwnRow") {
  // North sows South's 5 (2 seeds): 6, then 7, North's own row, now 2: nothing taken.
  State s = after("wali", "4,4,4,4,2,1/1,4,4,4,4,4:4,4:2:1,1:5:40", "5");
  CHECK(s.to_string() == "4,4,4,4,0,2/2,4,4,4,4,4:4,4:1:1,1:6:41");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("wali: NoCaptureOfOneOrFourOrMore") {
  // 6 holds 1: 7 held 0, now 1: nothing.
  State a = after("wali", "4,4,4,4,4,1/0,4,4,4,4,4:2,5:1:1,1:5:40", "6");
  CHECK(a.to_string() == "4,4,4,4,4,0/1,4,4,4,4,4:2,5:2:1,1:6:41");
  // 6 holds 1: 7 held 3, now 4: nothing.
  State b = after("wali", "4,4,4,4,4,1/3,4,4,4,4,4:2,2:1:1,1:5:40", "6");
  CHECK(b.to_string() == "4,4,4,4,4,0/4,4,4,4,4,4:2,2:2:1,1:6:41");
}

TEST_CASE("wali: NoGrandSlamRule") {
  // The capture takes every seed of North's row: it stands (and empties the board: North has
  // no move, the game ends 24-24).
  State s = after("wali", "0,0,0,0,0,1/1,0,0,0,0,0:22,24:1:1,1:5:40", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,0,0,0,0,0:24,24:2:1,1:0:41");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("wali: NoFeedingRule") {
  // North's row is empty; South may play 1, which does not reach it.
  State s = at("wali:anyrow=first", "2,0,0,0,0,1/0,0,0,0,0,0:22,23:1:1,1:5:40");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "6"});
}

TEST_CASE("wali: OriginSkippedOnFullLap") {
  // 1 holds 12: 2..12 get one each, 1 is skipped, 2 gets the last (own row: nothing taken).
  State s = after("wali", "12,0,0,0,0,0/1,1,1,1,1,1:15,15:1:1,1:5:40", "1");
  CHECK(s.to_string() == "0,2,1,1,1,1/2,2,2,2,2,2:15,15:2:1,1:6:41");
}

TEST_CASE("wali: AnyRowFirstOnlyOnEachPlayersFirstMove") {
  State s = start("wali:anyrow=first");
  CHECK(s.legal_moves() == kAllHoles);
  REQUIRE(s.apply("9").ok());
  // North's own first move: any row too.
  CHECK(s.legal_moves() ==
        std::vector<std::string>{"1", "10", "11", "12", "2", "3", "4", "5", "6", "7", "8"});
  REQUIRE(s.apply("2").ok());
  // South has moved: his own row only.
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "3", "4", "5", "6"});
  REQUIRE(s.apply("3").ok());
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "12", "7", "8"});
  CHECK(s.to_string() == "5,0,0,6,6,6/5,5,0,5,5,5:0,0:2:1,1:3:3");
}

TEST_CASE("wali: AnyRowFirstWithFirstTwo") {
  State s = after_moves("wali:anyrow=first,first=2", "", {"3", "12"});
  CHECK(s.to_string() == "5,5,1,6,5,5/5,4,4,4,4,0:0,0:2:1,1:2:2");
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "7", "8", "9"});
}

TEST_CASE("wali: EmptyOwnRowEndsGameWithAnyRowFirst") {
  State s = at("wali:anyrow=first", "0,0,0,0,0,0/1,2,0,0,0,3:20,22:1:1,1:5:40");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{20, 28});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
  CHECK(s.outcome().reason == "rules");
}

TEST_CASE("wali: EmptyOwnRowPlaysOtherRowWithAnyRowAlways") {
  State s = at("wali", "0,0,0,0,0,0/1,2,0,0,0,3:20,22:1:1,1:5:40");
  CHECK_FALSE(s.is_terminal());
  CHECK(s.legal_moves() == std::vector<std::string>{"12", "7", "8"});
}

TEST_CASE("wali: FirstMoveMayUseOtherRowEvenIfOwnRowEmpty") {
  // anyrow=first, South has not moved yet: his empty row does not end the game.
  State s = at("wali:anyrow=first", "0,0,0,0,0,0/1,2,0,0,0,3:20,22:1:0,1:5:40");
  CHECK(s.legal_moves() == std::vector<std::string>{"12", "7", "8"});
}

TEST_CASE("wali: TwentyFiveCapturedEndsGame") {
  State s = after("wali", "0,0,0,0,0,3/1,1,1,4,4,4:23,7:1:1,1:5:40", "6");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{25, 23});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("wali: NoCaptureLimitEndsByExhaustion") {
  State s = after_moves("wali:nocapture=2", "", {"9", "2"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  // "9" then North's "2" (3, 4, 5, 6 of South's row): 25 on South's row, 23 on North's.
  CHECK(s.outcome().scores == std::vector<double>{25, 23});
}

TEST_CASE("wali: AgreementRemainderToOwners") {
  State s = at("wali", "1,2,3,0,0,0/5,0,0,0,0,0:20,17:1:1,1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{26, 22});
  CHECK(s.outcome().reason == "agreement");
}

TEST_CASE("wali: BadPositionsAreErrors") {
  check_bad_positions("wali",
                      {"",
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0,0",         // no counters
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0",         // no flags
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0,2:0:0",     // flag 2
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0,0:0:0",   // one flag
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:1,0:0:0",     // mover moved, opponent not
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:2:0,1:0:0",     // the same for North
                       "4,4,4,4,4,0/4,4,4,4,4,4:4,0:1:0,0:0:0",     // captures before any move
                       "4,4,4,4,4,4/4,4,4,4,4,5:0,0:1:0,0:0:0",     // 49 seeds
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:3:0,0:0:0",     // player 3
                       "4,4,4,4,4,4/4,4,4,4,4,4,4:0,0:1:0,0:0:0",   // 7 holes
                       "4,4,4,4,4,04/4,4,4,4,4,4:0,0:1:0,0:0:0"});  // non-canonical count
  State s = start("wali");
  check_bad_moves(s, {"0", "13", "", "1 ", "pass", "01", "+1"});
  State t = at("wali:anyrow=first", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:1,1:0:0");
  CHECK_FALSE(t.apply("7").ok());  // another row after one's first move
  State u = at("wali", "0,4,4,4,4,4/4,4,4,4,4,8:0,0:1:0,0:0:0");
  CHECK_FALSE(u.apply("1").ok());  // an empty hole
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("wali: perft from the start") {
  check_perft(start("wali"), {1, 12, 132, 1368, 13746, 135972});
}

TEST_CASE("wali:anyrow=first: perft from the start") {
  check_perft(start("wali:anyrow=first"), {1, 12, 132, 684, 3711, 19087, 100018, 511380});
}

TEST_CASE("wali: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("wali", o) > 0);
  CHECK(testing::conformance_sweep("wali:anyrow=first", o) > 0);
}
