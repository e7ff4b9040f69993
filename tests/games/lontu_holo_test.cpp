// lontu-holo: setup and forced mirrored setup, one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

// South 1,2,3,10,11,12 = 2,0,1,3,4,4; North 7,8,9,4,5,6 = 10,10,10,2,1,1; South to move.
const std::string kCapture = "2,0,1,2,1,1/10,10,10,3,4,4:play:1:0:0";

}  // namespace

TEST_CASE("lontu-holo: StarterSetsUpFreelyThenMirroredSetupIsForced") {
  State s = start("lontu-holo");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,0,0,0,0,0:setup:1:0:0");
  CHECK(s.setup_form() == "=c1,...,c6: 6 counts for holes 1,2,3,10,11,12 in this order, sum 24");
  CHECK(s.legal_moves().empty());
  CHECK_FALSE(s.is_forced());
  REQUIRE(s.apply("=3,5,2,6,4,4").ok());
  CHECK(s.to_string() == "3,5,2,0,0,0/0,0,0,6,4,4:mirror:2:1:1");
  CHECK(s.setup_form().empty());
  CHECK(s.is_forced());
  CHECK(s.legal_moves() == std::vector<std::string>{"=3,5,2,6,4,4"});
  CHECK_FALSE(s.apply("=24,0,0,0,0,0").ok());
  REQUIRE(s.apply("=3,5,2,6,4,4").ok());
  CHECK(s.to_string() == "3,5,2,6,4,4/3,5,2,6,4,4:play:1:2:2");
  CHECK_FALSE(s.is_forced());
  CHECK(s.current_player() == 1);
}

TEST_CASE("lontu-holo: NorthStarterSetsUpInHisOwnSowingOrder") {
  State s = start("lontu-holo:first=2");
  CHECK(s.current_player() == 2);
  CHECK(s.setup_form() == "=c1,...,c6: 6 counts for holes 7,8,9,4,5,6 in this order, sum 24");
  REQUIRE(s.apply("=1,2,3,4,5,9").ok());
  CHECK(s.to_string() == "0,0,0,4,5,9/1,2,3,0,0,0:mirror:1:1:1");
  CHECK(s.legal_moves() == std::vector<std::string>{"=1,2,3,4,5,9"});
  REQUIRE(s.apply("=1,2,3,4,5,9").ok());
  CHECK(s.to_string() == "1,2,3,4,5,9/1,2,3,4,5,9:play:2:2:2");
  CHECK(s.legal_moves() == std::vector<std::string>{"4", "5", "6", "7", "8", "9"});
}

TEST_CASE("lontu-holo: BadSetupsRejected") {
  State s = start("lontu-holo");
  check_bad_moves(
      s, {"", "=", "4,4,4,4,4,4", "=4,4,4,4,4", "=4,4,4,4,4,4,0", "=4,4,4,4,4,5", "=4,4,4,4,4,04",
          "=4,4,4,4,4,+4", "=4,4,4,4,4,4 ", "=-1,5,5,5,5,5", "=25,0,0,0,0,0", "1", "pass"});
  CHECK(s.apply("=24,0,0,0,0,0").ok());  // zeros allowed
}

TEST_CASE("lontu-holo: SowingFollowsOwnCircuit") {
  // South's 12 (4 seeds) goes 1, 2, 3, 10; North's 9 (2 seeds) goes 4, 5.
  State s = after("lontu-holo", "3,5,2,6,4,4/3,5,2,6,4,4:play:1:0:0", "12");
  CHECK(s.to_string() == "4,6,3,6,4,4/3,5,2,7,4,0:play:2:1:1");
  s = after("lontu-holo", s.to_string(), "9");
  CHECK(s.to_string() == "4,6,3,7,5,4/3,5,0,7,4,0:play:1:2:2");
}

TEST_CASE("lontu-holo: OriginSkippedOnFullLap") {
  // 7 seeds from 1: 2, 3, 10, 11, 12, (1 skipped), 2, 3.
  State s = after("lontu-holo", "7,0,0,10,10,10/5,5,1,0,0,0:play:1:0:0", "1");
  CHECK(s.to_string() == "0,2,2,10,10,10/5,5,1,1,1,1:play:2:1:1");
}

TEST_CASE("lontu-holo: FourGoesToOpponentHoleOfChoice") {
  State s = at("lontu-holo", kCapture);
  // 3 ends in 10 (3 -> 4); 12 ends in 10 too; 1, 10 and 11 capture nothing.
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "10", "11", "12>4", "12>5", "12>6", "12>7",
                                                    "12>8", "12>9", "3>4", "3>5", "3>6", "3>7",
                                                    "3>8", "3>9"});
  for (const char* bad : {"3", "3>3", "3>10", "3>13", "3>0", "3>", "3>08", "7", "0", "13", "pass"})
    CHECK_FALSE(s.apply(bad).ok());
}

TEST_CASE("lontu-holo: NeighbourHoldingFourTakenToo") {
  // 3 -> 10 makes 4; circuit neighbour 11 holds 4 and goes too; 12 (4) is no neighbour of 10.
  State s = after("lontu-holo", kCapture, "3>8");
  CHECK(s.to_string() == "2,0,0,2,1,1/10,18,10,0,0,4:play:2:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("lontu-holo: NeighboursWrapFromTwelveToOne") {
  // 11 -> 12 makes 4; 1 holds 4 and is 12's neighbour on South's circuit: 8 go to 9.
  State s = after("lontu-holo", "4,0,0,10,10,10/5,5,0,0,1,3:play:1:0:0", "11>9");
  CHECK(s.to_string() == "0,0,0,10,10,10/5,5,8,0,0,0:play:2:0:1");
  // South has no seed left in his holes: he wins at once.
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().reason == "rules");
}

TEST_CASE("lontu-holo: OnlyAHoleThatHeldThreeCaptures") {
  // 10 (3 seeds) ends in 1 holding 4 (now 5) and 11 (4) would be a neighbour: nothing taken.
  State s = after("lontu-holo", "4,0,0,10,10,10/5,2,0,3,4,0:play:1:0:0", "10");
  CHECK(s.to_string() == "5,0,0,10,10,10/5,2,0,0,5,1:play:2:1:1");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("lontu-holo: PlayerWithEmptyHolesWins") {
  State s = at("lontu-holo", "0,0,0,10,10,10/5,5,8,0,0,0:play:2:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().scores == std::vector<double>{0, 48});
}

TEST_CASE("lontu-holo: ExhaustionFewerSeedsWins") {
  State s = after("lontu-holo:nocapture=1", kCapture, "1");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{14, 34});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  State even = after("lontu-holo:nocapture=1", "3,5,2,6,4,4/3,5,2,6,4,4:play:1:0:0", "12");
  REQUIRE(even.is_terminal());
  CHECK(even.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("lontu-holo: SetupsAreNotCaptures") {
  State s = after_moves("lontu-holo:nocapture=2", "", {"=4,4,4,4,4,4", "=4,4,4,4,4,4"});
  CHECK(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
}

TEST_CASE("lontu-holo: AgreementFewerSeedsWins") {
  State s = at("lontu-holo", kCapture);
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().reason == "agreement");
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("lontu-holo: MaterialIsSeedsGotRidOf") {
  State s = at("lontu-holo", kCapture);
  CHECK(s.material() == std::vector<double>{10, -10});
}

TEST_CASE("lontu-holo: DrawShowsHoleNumbers") {
  State s = at("lontu-holo", kCapture);
  const std::string d = s.draw(BoardWords::Seed);
  CHECK(d.find("   12   11   10    9    8    7") != std::string::npos);
  CHECK(d.find("NORD [ 4] [ 4] [ 3] [10] [10] [10]") != std::string::npos);
  CHECK(d.find("SUD  [ 2] [ 0] [ 1] [ 2] [ 1] [ 1]") != std::string::npos);
}

TEST_CASE("lontu-holo: BadPositionsAreErrors") {
  check_bad_positions(
      "lontu-holo", {"", "0,0,0,0,0,0/0,0,0,0,0,0:setup:1", "0,0,0,0,0,1/0,0,0,0,0,0:setup:1:0:0",
                     "3,5,2,0,0,0/0,0,0,6,4,4:mirror:1:0:0", "3,5,2,6,4,4/3,5,2,6,4,4:mirror:2:0:0",
                     "3,5,2,6,4,4/3,5,2,6,4,5:play:1:0:0", "3,5,2,6,4,4/3,5,2,6,4,4:playing:1:0:0",
                     "3,5,2,6,4,4/3,5,2,6,4,4:play:3:0:0", "3,5,2,6,4,4/3,5,2,6,4:play:1:0:0",
                     "3,5,2,6,4,4/3,5,2,6,4,04:play:1:0:0", "3,5,2,6,4,4/3,5,2,6,4,4:1:0:0",
                     "3,5,2,6,4,4/3,5,2,6,4,4:play:1:x:0"});
}

// Golden counts cross-checked with an independent implementation of rules.md; perft starts after
// the setups (rules.md §1), from setups reached with moves.
TEST_CASE("lontu-holo: perft after the setups") {
  State even = after_moves("lontu-holo", "", {"=4,4,4,4,4,4", "=4,4,4,4,4,4"});
  check_perft(even, {1, 6, 36, 180, 900, 4500, 22500});
  State mixed = after_moves("lontu-holo", "", {"=3,5,2,6,4,4", "=3,5,2,6,4,4"});
  check_perft(mixed, {1, 11, 126, 723, 3971, 19892, 102530});
  State north = after_moves("lontu-holo:first=2", "", {"=3,3,3,3,3,9", "=3,3,3,3,3,9"});
  check_perft(north, {1, 26, 516, 3052, 16585, 94997, 575650});
  // The forced setup is a move perft counts.
  State forced = after_moves("lontu-holo", "", {"=0,0,12,0,0,12"});
  check_perft(forced, {1, 1, 2, 4, 40, 424, 2916, 20608});
}

TEST_CASE("lontu-holo: conformance sweep", "[slow]") {
  testing::SweepOptions o;
  o.quantity = [](const State& s) {
    const std::string p = s.to_string();
    const long pending = p.find(":setup:") != std::string::npos    ? 48
                         : p.find(":mirror:") != std::string::npos ? 24
                                                                   : 0;
    return testing::sum_of_fields(p, 1) + pending;
  };
  o.setup = [](const State& s, std::mt19937_64& rng) { return s.sample_setup(rng()); };
  // Random games last about 310 plies: the 1000 playouts are capped, and a hundred from each
  // side run to the game's own end.
  CHECK(testing::conformance_sweep("lontu-holo:maxplies=120", o) > 0);
  o.playouts = 100;
  CHECK(testing::conformance_sweep("lontu-holo", o) > 0);
  CHECK(testing::conformance_sweep("lontu-holo:first=2", o) > 0);
}
