// owani: the seed's 21-seed sowing, one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

// The seed's pictures are lost: these replay its 21-seed sowing on boards of our own. After the
// origin is reached the rest goes only into North's holes: 11 seeds round the board, 6 + 4 into
// North's row, the last in hole 10 whatever the origin.
TEST_CASE("owani: seed example — a 21-seed sowing goes on in the opponent's row only") {
  State s = after("owani", "21,0,0,0,0,0/1,1,0,1,0,0:12,12:1:0:0", "1");
  CHECK(s.to_string() == "0,1,1,1,1,1/4,4,3,4,2,2:12,12:2:1:1");  // hole 10 held 3: no capture
  State t = after("owani", "0,0,21,0,0,0/1,1,0,2,0,0:11,12:1:0:0", "3");
  CHECK(t.to_string() == "1,1,0,1,1,1/4,4,3,5,2,2:11,12:2:1:1");
}

TEST_CASE("owani: LapThenCaptureInOpponentRow") {
  // Hole 10 gets a seed on each lap, holds 2 before the last one: South takes 3.
  State s = after("owani", "21,0,0,0,0,0/0,0,0,0,0,0:13,14:1:0:0", "1");
  CHECK(s.to_string() == "0,1,1,1,1,1/3,3,3,0,2,2:16,14:2:0:1");
}

TEST_CASE("owani: RelayFromOwnHoleEvenIfItWasEmptyThenCaptureOfThree") {
  // 5 → 6 (empty, own row): picked up and sown into 7, which held 2: South takes 3.
  State s = after("owani", "0,0,0,0,1,0/2,4,4,4,4,4:13,12:1:0:0", "5");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,4,4,4,4,4:16,12:2:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("owani: RelayFromOccupiedOwnHole") {
  // 4 → 5 (held 1): picked up, 6 and 7; 7 held 4: the turn ends.
  State s = after("owani", "0,0,0,1,1,0/4,4,4,4,4,4:11,11:1:0:0", "4");
  CHECK(s.to_string() == "0,0,0,0,0,1/5,4,4,4,4,4:11,11:2:1:1");
}

TEST_CASE("owani: OpponentHoleThatHeldZeroOrMoreThanTwoIsNotTaken") {
  State zero = after("owani", "0,0,0,0,0,1/0,4,4,4,4,4:15,12:1:0:0", "6");
  CHECK(zero.to_string() == "0,0,0,0,0,0/1,4,4,4,4,4:15,12:2:1:1");
  State three = after("owani", "0,0,0,0,0,1/3,4,4,4,4,4:12,12:1:0:0", "6");
  CHECK(three.to_string() == "0,0,0,0,0,0/4,4,4,4,4,4:12,12:2:1:1");
}

TEST_CASE("owani: CaptureOfTwo") {
  State s = after("owani", "0,0,0,0,0,1/1,0,0,0,0,0:23,23:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,0,0,0,0,0:25,23:2:0:1");
  REQUIRE(s.is_terminal());  // the board is empty
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("owani: EmptyRowPasses") {
  State s = at("owani", "0,0,0,0,0,0/1,0,0,0,0,0:23,24:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"pass"});
  CHECK(s.is_forced());
  REQUIRE(s.apply("pass").ok());
  CHECK(s.legal_moves() == std::vector<std::string>{"7"});
}

TEST_CASE("owani: AgreementCountsCapturesOnly") {
  State s = at("owani", "0,0,0,0,0,0/10,0,0,0,0,0:20,18:2:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{20, 18});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("owani: BadPositionsAndMovesAreErrors") {
  check_bad_positions("owani",
                      {"", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:2:x:0",
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,1:1:0:0", "4,4,4,4,4,4/4,4,4,4,4,4,0:0,0:1:0:0",
                       "4,4,4,4,4,4/4,4,4,4,4,4:0,0:12:0:0", "4,4,4,4,4,4:4,4,4,4,4,4:0,0:1:0:0"});
  State s = start("owani");
  check_bad_moves(s, {"0", "9", "-1", "", "pass", "1x"});
}

// Golden counts agreed with an independent implementation of rules.md.
TEST_CASE("owani: perft from the start") {
  check_perft(start("owani"), {1, 6, 36, 187, 997, 5117, 27301, 143542, 755453});
}

TEST_CASE("owani: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("owani", o) > 0);
}
