// chongkak: one scenario per rule of rules.md §2 chongkak and the relay guard of §0, bad input,
// perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("chongkak: StartPosition") {
  auto game = make_game("chongkak");
  REQUIRE(game.ok());
  CHECK(game->canonical() == "chongkak:first=1,nocapture=200,maxplies=2000");
  State s = game->initial_state();
  CHECK(s.to_string() == "7,7,7,7,7,7,7/7,7,7,7,7,7,7:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"});
  auto north = make_game("chongkak:first=2");
  REQUIRE(north.ok());
  CHECK(north->initial_state().legal_moves() ==
        std::vector<std::string>{"10", "11", "12", "13", "14", "8", "9"});
}

TEST_CASE("chongkak: EmptyOwnHoleTakesOppositeOffTheBoard") {
  // 1 holds 1: the seed lands in South's empty 2; the 5 seeds of 13 leave the game.
  State s = after("chongkak", "1,0,7,7,7,7,7/7,7,7,7,7,5,7:1:3:9", "1");
  CHECK(s.to_string() == "0,1,7,7,7,7,7/7,7,7,7,7,0,7:2:0:10");
  CHECK(s.last_move_captured());
}

TEST_CASE("chongkak: EmptyOppositeTakesNothingAndIsNoCapture") {
  State s = after("chongkak", "1,0,7,7,7,7,7/7,7,7,7,7,0,7:1:3:9", "1");
  CHECK(s.to_string() == "0,1,7,7,7,7,7/7,7,7,7,7,0,7:2:4:10");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("chongkak: EmptyHoleOfOtherRowEndsTurn") {
  State s = after("chongkak", "7,7,7,7,7,7,1/0,7,7,7,7,7,7:1:0:0", "7");
  CHECK(s.to_string() == "7,7,7,7,7,7,0/1,7,7,7,7,7,7:2:1:1");
}

TEST_CASE("chongkak: OccupiedHoleRelaysEitherRow") {
  // From the start, 1 sows 2..8; 8 (North's) held 7: picked up and sown on, and so on, until a
  // sowing ends in an empty hole. The chain was replayed by an independent implementation.
  State s = after("chongkak", "7,7,7,7,7,7,7/7,7,7,7,7,7,7:1:0:0", "1");
  CHECK(s.to_string() == "0,2,3,5,0,6,1/0,15,15,6,15,15,15:2:1:1");
}

TEST_CASE("chongkak: OriginSkippedOnFullLap") {
  // 1 holds 14: 2..14 get one each, 1 is skipped and the 14th seed relays from 2; without the
  // skip it would fall into the empty 1 and take 14's seeds. Replayed independently.
  State s = after("chongkak", "14,0,0,0,0,0,0/0,0,0,0,0,0,1:1:0:0", "1");
  CHECK(s.to_string() == "1,1,0,1,3,1,2/0,0,0,2,0,2,0:2:0:1");
}

TEST_CASE("chongkak: MoverWhoEmptiesHisRowWins") {
  State s = after("chongkak", "0,0,0,0,0,0,1/0,3,3,3,3,3,3:1:0:0", "7");
  CHECK(s.to_string() == "0,0,0,0,0,0,0/1,3,3,3,3,3,3:2:1:1");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().scores == std::vector<double>{0, 19});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("chongkak: OpponentRowEmptiedWinsForOpponent") {
  // South takes North's last 2 seeds: North's row is empty, so North wins.
  State s = after("chongkak", "1,0,1,0,0,0,0/0,0,0,0,0,2,0:1:0:0", "1");
  CHECK(s.to_string() == "0,1,1,0,0,0,0/0,0,0,0,0,0,0:2:0:1");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{2, 0});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("chongkak: EmptyRowNeverHasToMove") {
  // A parsed position with South to move and an empty row: South has won already.
  State s = at("chongkak", "0,0,0,0,0,0,0/0,0,0,0,0,2,0:1:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.legal_moves().empty());
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("chongkak: RelayGuardExcludesRepeatingChain") {
  // From 5 the chain turns round the board for ever: 5 is not legal.
  State s = at("chongkak", "2,1,0,1,2,2,3/2,0,1,2,1,0,3:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "4", "6", "7"});
  CHECK_FALSE(s.apply("5").ok());
}

TEST_CASE("chongkak: NoCaptureExhaustionFewerSeedsWins") {
  State s = after_moves("chongkak:nocapture=1", "7,7,7,7,7,7,1/0,7,7,7,7,7,7:1:0:0", {"7"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{42, 43});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("chongkak: AgreementFewerSeedsWins") {
  State s = at("chongkak", "1,2,3,0,0,0,0/5,0,0,0,0,0,4:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{6, 9});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().reason == "agreement");
  State t = at("chongkak", "1,2,3,0,0,0,0/5,0,0,0,0,0,1:1:0:0");
  REQUIRE(t.agree_to_end().ok());
  CHECK(t.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("chongkak: MaterialIsNegatedRowSeeds") {
  State s = at("chongkak", "1,2,3,0,0,0,0/5,0,0,0,0,0,4:1:0:0");
  CHECK(s.material() == std::vector<double>{-6, -9});
}

TEST_CASE("chongkak: BadPositionsAreErrors") {
  auto game = make_game("chongkak");
  REQUIRE(game.ok());
  check_bad_positions(
      "chongkak",
      {"", "7,7,7,7,7,7,7/7,7,7,7,7,7,7:1", "7,7,7,7,7,7/7,7,7,7,7,7,7:1:0:0",
       "7,7,7,7,7,7,7/7,7,7,7,7,7,7:3:0:0", "7,7,7,7,7,7,7/7,7,7,7,7,7,8:1:0:0",  // 99 seeds
       "7,7,7,7,7,7,7/7,7,7,7,7,7,7:0,0:1:0:0", "7,7,7,7,7,7,07/7,7,7,7,7,7,7:1:0:0",
       "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0:1:0:0"});
  CHECK(game->parse_state("1,0,0,0,0,0,0/0,0,0,0,0,0,1:2:0:0").ok());
  State s = start("chongkak");
  check_bad_moves(s, {"0", "8", "15", "", "1 ", "pass", "01"});
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("chongkak: perft from the start") {
  check_perft(start("chongkak"), {1, 7, 38, 222, 1247, 7167, 40948});
}

TEST_CASE("chongkak: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(1);
  o.quantity_may_shrink = true;
  CHECK(testing::conformance_sweep("chongkak", o) > 0);
  CHECK(testing::conformance_sweep("chongkak:first=2", o) > 0);
}
