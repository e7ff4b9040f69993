// pallankuli: clockwise relay, cows, captures, passes, rounds and blind holes, relay guard, perft,
// conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("pallankuli: start position and first move") {
  State s = start("pallankuli");
  CHECK(s.to_string() == "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"});
  // 1 sows 14..9; 8 is picked up and sown 7..2; the next hole, 1, is empty and South's own: the 7
  // seeds of 14 go to his reserve.
  REQUIRE(s.apply("1").ok());
  CHECK(s.to_string() == "0,7,7,7,7,7,7/0,7,7,7,7,7,0:7,0:2:1:1:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("pallankuli: RelayFromNextHoleThenCaptureOpposite") {
  // 2 sows 1, 14; 13 is picked up and sown 12..6; 5 is empty and South's: 10's seed is taken.
  State s = after("pallankuli", "0,2,0,0,0,0,0/0,0,0,0,0,7,0:40,35:1:1:1:0:0", "2");
  CHECK(s.to_string() == "1,0,0,0,0,1,1/1,1,0,1,1,0,1:41,35:2:1:1:0:1");
}

TEST_CASE("pallankuli: EmptyOwnNextHoleOppositeEmptyTakesNothing") {
  // 6 sows 5, 4; 3 is empty and South's, 12 opposite holds nothing: no capture.
  State s = after("pallankuli", "0,0,0,0,0,2,0/0,0,0,0,0,0,6:40,36:1:1:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,1,1,0,0/0,0,0,0,0,0,6:40,36:2:1:1:1:1");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("pallankuli: CowGoesToHoleOwnersReserve") {
  // South's seed makes North's 14 hold 4: the cow goes to North.
  State s = after("pallankuli", "1,0,0,0,0,0,5/0,0,0,0,0,0,3:40,35:1:1:1:0:0", "1");
  CHECK(s.to_string() == "0,0,0,0,0,0,5/0,0,0,0,0,0,0:40,39:2:1:1:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("pallankuli: PlayerWithoutSeedsPasses") {
  State s = at("pallankuli", "0,0,0,0,0,0,5/0,0,0,0,0,0,0:40,39:2:1:1:0:1");
  CHECK(s.legal_moves() == std::vector<std::string>{"pass"});
  CHECK(s.is_forced());
  REQUIRE(s.apply("pass").ok());
  CHECK(s.to_string() == "0,0,0,0,0,0,5/0,0,0,0,0,0,0:40,39:1:1:1:1:2");
  CHECK_FALSE(s.apply("pass").ok());
}

TEST_CASE("pallankuli: OriginSownOnFullLap") {
  // 14 seeds from 1 go once round the 14 holes, the origin included: the last one lands in 1, so
  // the next hole is 14 (now 3), which is picked up and sown on (checked independently).
  State s = at("pallankuli", "14,0,0,0,0,0,0/2,2,2,2,2,2,2:28,28:1:1:1:0:0");
  State lap = s;
  REQUIRE(lap.apply("1").ok());
  CHECK(lap.to_string() == "2,0,2,0,2,0,2/0,0,0,0,0,0,0:28,48:2:1:1:0:1");
  // 13 seeds stop short of the origin: the last lands in 2, the next hole 1 is empty and South's,
  // and 14's single seed is taken.
  State short_lap = after("pallankuli", "13,0,0,0,0,0,0/2,2,2,2,2,2,0:30,29:1:1:1:0:0", "1");
  CHECK(short_lap.to_string() == "0,1,1,1,1,1,1/3,3,3,3,3,3,0:31,29:2:1:1:0:1");
}

TEST_CASE("pallankuli: RoundEndsOnEmptyBoardAndLoserGetsBlindHoles") {
  // The cow empties the board: rows to owners (64-20). Round 2: North starts; South fills all 7
  // and keeps 22; North fills 8, 9, 10, puts 2 in 11, and 12..14 are blind.
  State s = after("pallankuli", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:60,20:1:1:1:5:7", "2");
  CHECK(s.to_string() == "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:2:2:0:8");
  CHECK_FALSE(s.is_terminal());
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "8", "9"});
}

TEST_CASE("pallankuli: SetUpFourIsCowAtOnce") {
  // North has 40: six holes of 6 and 4 in hole 14, a cow at once: back to his reserve, 14 playable.
  State s = after("pallankuli", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:40,40:1:1:1:0:0", "2");
  CHECK(s.to_string() == "6,6,6,6,6,6,6/6,6,6,6,6,6,0:2,4:2:2:2:0:1");
}

TEST_CASE("pallankuli: BlindHoleSkippedBySowing") {
  // From 1, 14, 13 and 12 are blind: the 2 seeds go to 11 and 10; 9 is picked up, and so on.
  State s = after("pallankuli", "2,6,6,6,6,6,6/6,6,6,2,x,x,x:26,0:1:2:1:0:0", "1");
  CHECK(s.to_string() == "3,2,9,9,9,1,0/9,0,10,2,x,x,x:26,4:2:2:1:0:1");
}

TEST_CASE("pallankuli: BlindHoleNeverTheNextHole") {
  // The seed lands in 1; the next playable hole is 11 (empty): the turn ends there.
  State s = after("pallankuli", "0,1,6,6,6,6,6/6,6,6,0,x,x,x:33,2:1:2:1:0:0", "2");
  CHECK(s.to_string() == "1,0,6,6,6,6,6/6,6,6,0,x,x,x:33,2:2:2:1:1:1");
}

TEST_CASE("pallankuli: FewerThanSixAfterRoundLosesGame") {
  State s = after("pallankuli", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:76,4:1:1:1:0:0", "2");
  REQUIRE(s.is_terminal());
  CHECK(s.to_string() == "0,0,0,0,0,0,0/0,0,0,0,0,0,0:80,4:2:1:1:0:1");
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().scores == std::vector<double>{80, 4});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("pallankuli: MaxRoundsEndsGame") {
  State s = after("pallankuli:maxrounds=2", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:40,40:1:2:2:0:0", "2");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{44, 40});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  State next = after("pallankuli", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:40,40:1:2:2:0:0", "2");
  CHECK(next.to_string() == "6,6,6,6,6,6,6/6,6,6,6,6,6,0:2,4:1:3:1:0:1");
}

TEST_CASE("pallankuli: NoCaptureLimitEndsRoundNotGame") {
  // Rows to owners: 42-42, both fill all 7; North starts round 2 and the count starts afresh.
  State s = after("pallankuli:nocapture=1", "0,0,0,0,0,2,0/0,0,0,0,0,0,6:40,36:1:1:1:0:0", "6");
  CHECK_FALSE(s.is_terminal());
  CHECK(s.to_string() == "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:2:2:2:0:1");
  CHECK(s.plies_without_capture() == 0);
}

TEST_CASE("pallankuli: ExhaustionInLastRoundEndsGame") {
  State s = after("pallankuli:nocapture=1,maxrounds=1",
                  "0,0,0,0,0,2,0/0,0,0,0,0,0,6:41,35:1:1:1:0:0", "6");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{43, 41});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("pallankuli: MaxPliesEndsWholeGameRowsToOwners") {
  State s = after_moves("pallankuli:maxplies=1", "", {"1"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "maxplies");
  CHECK(s.outcome().scores == std::vector<double>{49, 35});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("pallankuli: RelayGuardExcludesLoopingMove") {
  // Sowing 1 here comes back to a sub-sowing state it has been in: 1 is not a legal move.
  State s = at("pallankuli", "3,5,0,1,0,1,2/0,1,0,3,0,1,2:32,33:1:1:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"2", "4", "6", "7"});
  CHECK_FALSE(s.apply("1").ok());
}

TEST_CASE("pallankuli: FirstPlayerAlternatesFromParameter") {
  State s = start("pallankuli:first=2");
  CHECK(s.to_string() == "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:2:1:2:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "12", "13", "14", "8", "9"});
}

TEST_CASE("pallankuli: DrawShowsHolesReservesAndRound") {
  State s = at("pallankuli", "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:2:2:0:0");
  const std::string d = s.draw(BoardWords::Seed);
  CHECK(d.find("   14   13   12   11   10    9    8") != std::string::npos);
  CHECK(d.find("NORD  [ x] [ x] [ x] [ 2] [ 6] [ 6] [ 6]") != std::string::npos);
  CHECK(d.find("manche 2") != std::string::npos);
  CHECK(s.material() == std::vector<double>{64, 20});
}

TEST_CASE("pallankuli: BadPositionsAreErrors") {
  auto game = make_game("pallankuli");
  REQUIRE(game.ok());
  check_bad_positions("pallankuli",
                      {"", "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:1",    // no counters
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:0:0",      // no starter
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,7:0,0:1:1:1:0:0",    // 85 seeds
                       "6,6,6,6,6,6,4/6,6,6,6,6,6,6:2,0:1:1:1:0:0",    // a 4 is a cow
                       "6,6,6,6,6,6,6/6,6,6,6,6,6:6,0:1:1:1:0:0",      // short row
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:3:1:1:0:0",    // player
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:0:1:0:0",    // round 0
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:31:1:0:0",   // round > maxrounds
                       "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:3:0:0",    // starter
                       "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:1:2:0:0",   // blind holes in round 1
                       "6,6,6,6,6,6,6/6,6,6,x,2,x,x:22,0:2:2:2:0:0",   // blind not at the end
                       "6,6,6,6,6,6,x/6,6,6,6,6,6,x:24,0:2:2:2:0:0",   // both have blind holes
                       "6,6,6,6,6,6,6/6,6,6,2,X,x,x:22,0:2:2:2:0:0",   // bad cell
                       "0,0,0,0,0,0,0/0,0,0,0,0,0,0:42,42:1:1:1:0:0",  // empty board mid-game
                       "6,6,6,6,6,6,06/6,6,6,6,6,6,6:0,0:1:1:1:0:0"});
  // A finished game: an empty board after the last round.
  auto done = game->parse_state("0,0,0,0,0,0,0/0,0,0,0,0,0,0:80,4:2:1:1:0:9");
  REQUIRE(done.ok());
  CHECK(done->is_terminal());
  State s = start("pallankuli");
  check_bad_moves(s, {"0", "8", "15", "", "1 ", "pass", "01", "x"});
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("pallankuli: perft") {
  State s = at("pallankuli", "6,6,6,6,6,6,6/6,6,6,6,6,6,6:0,0:1:1:1:0:0");
  check_perft(s, {1, 7, 36, 195, 907, 4184, 17791, 72570});
  State blind = at("pallankuli", "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:2:2:0:0");
  check_perft(blind, {1, 4, 21, 60, 277, 617, 2386, 4754});
  State loops = at("pallankuli", "3,5,0,1,0,1,2/0,1,0,3,0,1,2:32,33:1:1:1:0:0");
  check_perft(loops, {1, 4, 16, 42, 134, 366, 1051, 3080});
  State rounds = at("pallankuli", "3,1,0,0,0,0,0/0,0,0,0,0,0,0:60,20:1:1:1:0:0");
  check_perft(rounds, {1, 2, 7, 24, 67, 284, 640, 2409});
  State passes = at("pallankuli", "0,0,0,0,0,0,5/0,0,0,0,0,0,0:40,39:2:1:1:0:0");
  check_perft(passes, {1, 1, 1, 1, 5, 5, 19, 19, 58});
}

TEST_CASE("pallankuli: conformance sweep", "[slow]") {
  // Random play rarely finishes a round within 50 quiet plies, so the default game nearly always
  // runs to maxplies: the long sweep is capped, and shorter rounds reach the game's own end.
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("pallankuli:maxplies=300", o) > 0);
  o.playouts = 200;
  CHECK(testing::conformance_sweep("pallankuli:first=2,nocapture=10,maxrounds=5", o) > 0);
  o.playouts = 30;
  CHECK(testing::conformance_sweep("pallankuli", o) > 0);
}
