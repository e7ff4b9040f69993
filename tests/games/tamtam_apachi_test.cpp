// tamtam-apachi: the seed's worked example, one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("tamtam-apachi: seed example — South sows e to i, relays to empty c, takes 5 from j") {
  // e (5) holds 4: f, g, h, i; i held 5, now 6: picked up and sown j, k, l, a, b, c; c was empty:
  // South takes the 5 seeds of j (10), opposite c.
  State s = after("tamtam-apachi", "4,4,0,7,4,4/4,4,5,4,4,4:0,0:1:0:0", "5");
  CHECK(s.to_string() == "5,5,1,7,0,5/5,5,0,0,5,5:5,0:2:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("tamtam-apachi: EmptyOpponentHoleEndsTurnWithoutCapture") {
  State s = after("tamtam-apachi", "0,0,0,0,0,1/0,4,4,4,4,4:12,15:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/1,4,4,4,4,4:12,15:2:1:1");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("tamtam-apachi: EmptyOppositeHoleTakesNothing") {
  State s = after("tamtam-apachi", "1,0,0,0,0,0/4,4,4,4,0,4:13,14:1:7:9", "1");
  CHECK(s.to_string() == "0,1,0,0,0,0/4,4,4,4,0,4:13,14:2:8:10");
}

TEST_CASE("tamtam-apachi: OriginSkippedOnFullLapAndRelayChains") {
  // 12 seeds: 2..12 and 2 again (1 skipped), then relays from 2, 4, 6, 8, 10, 12 end in the
  // emptied hole 2: South takes the 2 seeds of 11.
  State s = after("tamtam-apachi", "12,0,0,0,0,0/0,0,0,0,0,0:18,18:1:0:0", "1");
  CHECK(s.to_string() == "1,1,2,0,2,0/2,0,2,0,0,0:20,18:2:0:1");
}

TEST_CASE("tamtam-apachi: RelayGuardExcludesEndlessMove") {
  // Hole 4's relay comes back to a sub-sowing state it already met: not a legal move.
  State s = at("tamtam-apachi", "3,2,3,2,0,1/0,1,2,1,0,1:16,16:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "3", "6"});
  CHECK_FALSE(s.apply("4").ok());
}

TEST_CASE("tamtam-apachi: EmptyRowPasses") {
  State s = at("tamtam-apachi", "0,0,0,0,0,0/1,0,0,0,0,0:20,27:1:3:40");
  CHECK(s.legal_moves() == std::vector<std::string>{"pass"});
  CHECK(s.is_forced());
  REQUIRE(s.apply("pass").ok());
  CHECK(s.to_string() == "0,0,0,0,0,0/1,0,0,0,0,0:20,27:2:4:41");
  CHECK(s.legal_moves() == std::vector<std::string>{"7"});
  CHECK_FALSE(s.is_forced());
}

TEST_CASE("tamtam-apachi: EmptyBoardEndsGameOnCapturesOnly") {
  State s = at("tamtam-apachi", "0,0,0,0,0,0/0,0,0,0,0,0:20,28:1:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().scores == std::vector<double>{20, 28});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("tamtam-apachi: AgreementCountsCapturesOnly") {
  State s = at("tamtam-apachi", "9,9,9,0,0,0/0,0,0,0,0,1:10,10:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{10, 10});
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
  CHECK(s.outcome().reason == "agreement");
}

TEST_CASE("tamtam-apachi: NoCaptureLimitScoresCapturesOnly") {
  State s = after_moves("tamtam-apachi:nocapture=1", "0,0,0,0,0,1/0,4,4,4,4,4:12,15:1:0:0", {"6"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{12, 15});
}

TEST_CASE("tamtam-apachi: FirstPlayerParameterAndDrawing") {
  State s = start("tamtam-apachi:first=2");
  CHECK(s.current_player() == 2);
  CHECK(s.to_string() == "4,4,4,4,4,4/4,4,4,4,4,4:0,0:2:0:0");
  CHECK(s.draw(BoardWords::Seed).find("NORD [ 4] [ 4]") != std::string::npos);
  CHECK(s.material() == std::vector<double>{0, 0});
}

TEST_CASE("tamtam-apachi: BadPositionsAndMovesAreErrors") {
  check_bad_positions(
      "tamtam-apachi",
      {"", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1", "4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0",
       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:0:0:0", "4,4,4,4,4,4/4,4,4,4,4,5:0,0:1:0:0",
       "4,4,4,4,4,4/4,4,4,4,4,4:0:1:0:0", "4,4,4,4,4,4/4,4,4,4,4,-4:0,0:1:0:0",
       "4,4,4,4,4,4/4,4,4,4,4,4/0:0,0:1:0:0", "4,4,4,4,4,4/4,4,4,4,4,4:0,00:1:0:0"});
  State s = start("tamtam-apachi");
  check_bad_moves(s, {"0", "7", "13", "", "pass", "05", "5 "});
  State empty_hole = at("tamtam-apachi", "0,4,4,4,4,4/4,4,4,4,4,4:4,0:1:0:0");
  CHECK_FALSE(empty_hole.apply("1").ok());
}

// Golden counts agreed with an independent implementation of rules.md.
TEST_CASE("tamtam-apachi: perft from the start") {
  check_perft(start("tamtam-apachi"), {1, 6, 28, 130, 604, 2779, 12723, 58144, 263994});
}

TEST_CASE("tamtam-apachi: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("tamtam-apachi", o) > 0);
}
