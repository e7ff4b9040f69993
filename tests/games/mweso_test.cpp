// mweso: setups, relay, captures, aloka direction choices, relay guard, end, perft, conformance.
// [slow] The conformance sweep takes about 12 s in Release, 50-75 s under the sanitizers: random
// mweso games last about 330 plies and every ply replays every legal move (conformance.h).
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

const std::string kTwos = "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2";
const std::string kZeros = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
// A position where South's 4 ends in his aloka 2, which may go on clockwise since that captures;
// expected results below were checked with an independent implementation of rules.md.
const std::string kChoice =
    "1,4,4,4,1,4,1,1,1,3,1,1,3,1,1,1/2,0,3,1,1,4,0,2,3,1,1,1,1,1,10,1:play:1:0:0";

}  // namespace

TEST_CASE("mweso: BothPlayersSetUpInTurnThenStarterMoves") {
  State s = start("mweso");
  CHECK(s.to_string() == kZeros + "/" + kZeros + ":setup:1:0:0");
  CHECK(s.setup_form() ==
        "=c1,...,c16: 16 counts for holes 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 in this order, "
        "sum 32");
  CHECK(s.legal_moves().empty());
  REQUIRE(s.apply("=" + kTwos).ok());
  CHECK(s.to_string() == kTwos + "/" + kZeros + ":setup:2:1:1");
  CHECK(s.setup_form().find("holes 17,18,") != std::string::npos);
  REQUIRE(s.apply("=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,32").ok());
  CHECK(s.to_string() == kTwos + "/0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,32:play:1:2:2");
  CHECK(s.setup_form().empty());
  CHECK(s.current_player() == 1);
}

TEST_CASE("mweso: BadSetupsRejected") {
  State s = start("mweso");
  check_bad_moves(s, {std::string(), "=" + kZeros, kTwos, "=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2",
                      "=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0", "=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,3",
                      "=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,02", "=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,+2",
                      std::string("1")});
}

TEST_CASE("mweso: AlokaRelayMayTurnClockwiseOnlyToCapture") {
  State s = at("mweso", kChoice);
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "13", "2", "3", "4.ccw", "4.cw", "6"});
  for (const char* bad : {"4", "4.cw.cw", "3.cw", "3.ccw", "5", "1", "17", "4.CW", "4.cw "})
    CHECK_FALSE(s.apply(bad).ok());
  State ccw = after("mweso", kChoice, "4.ccw");
  CHECK(ccw.to_string() ==
        "2,0,5,1,3,6,0,1,3,1,2,2,4,0,2,0/2,0,3,1,1,4,0,2,3,1,1,1,1,1,10,1:play:2:1:1");
  CHECK_FALSE(ccw.last_move_captured());
  State cw = after("mweso", kChoice, "4.cw");
  CHECK(cw.to_string() ==
        "4,1,0,1,3,6,3,1,2,0,2,2,5,2,0,2/2,0,3,1,0,4,0,2,3,1,1,0,1,1,10,1:play:2:0:1");
  CHECK(cw.last_move_captured());
}

TEST_CASE("mweso: CaptureTakesBothOpponentHolesAndSowsThemOn") {
  State s = after("mweso", kChoice, "2");
  CHECK(s.to_string() ==
        "0,1,0,6,3,1,3,3,0,5,3,0,5,3,1,2/2,0,0,1,1,4,0,2,3,1,1,1,1,0,10,1:play:2:0:1");
  CHECK(s.last_move_captured());
  CHECK(s.material() == std::vector<double>{36, 28});
}

TEST_CASE("mweso: LastSeedInEmptyHoleEndsTurn") {
  // 16 holds 2: 1 then 2 (empty): the turn ends.
  const std::string pos =
      "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2/3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,16:play:1:0:0";
  State s = at("mweso", pos);
  CHECK(s.legal_moves() == std::vector<std::string>{"16"});
  REQUIRE(s.apply("16").ok());
  CHECK(s.to_string() ==
        "2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0/3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,16:play:2:1:1");
}

TEST_CASE("mweso: RelayGuardExcludesRepeatingLine") {
  // Sowing 1 here comes back to a sub-sowing state of the same line: 1 is no move.
  State s =
      at("mweso", "2,0,1,2,3,4,2,1,4,0,0,2,4,1,2,1/2,5,0,2,3,1,1,1,3,0,1,3,8,2,3,0:play:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"12", "13", "15", "4", "5", "6", "7", "9"});
  CHECK_FALSE(s.apply("1").ok());
}

TEST_CASE("mweso: NoHoleWithTwoSeedsLoses") {
  State s =
      at("mweso", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1/3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3:play:1:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
  CHECK(s.outcome().scores == std::vector<double>{16, 48});
}

TEST_CASE("mweso: ExhaustionMoreSeedsOnOwnSideWins") {
  State even = after("mweso:nocapture=1", kChoice, "10");
  REQUIRE(even.is_terminal());
  CHECK(even.outcome().reason == "nocapture");
  CHECK(even.outcome().ranks == std::vector<int>{1, 1});
  auto game = make_game("mweso:maxplies=1");
  REQUIRE(game.ok());
  auto s = game->parse_state(
      "0,1,0,6,3,1,3,3,0,5,3,0,5,3,1,2/2,0,0,1,1,4,0,2,3,1,1,1,1,0,10,1:play:2:0:0");
  REQUIRE(s.ok());
  auto moves = s->legal_moves();
  REQUIRE_FALSE(moves.empty());
  REQUIRE(s->apply(moves[0]).ok());
  REQUIRE(s->is_terminal());
  CHECK(s->outcome().reason == "maxplies");
  CHECK(s->outcome().scores[0] + s->outcome().scores[1] == 64);
}

TEST_CASE("mweso: SetupsAreNotCaptures") {
  State s = after_moves("mweso:nocapture=2", "", {"=" + kTwos, "=" + kTwos});
  CHECK(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("mweso: DrawShowsFourRowsWithNumbers") {
  State s = at("mweso", kChoice);
  const std::string d = s.draw(BoardWords::Seed);
  CHECK(d.find("   24   23   22   21   20   19   18   17") != std::string::npos);
  CHECK(d.find("    1    2    3    4    5    6    7    8") != std::string::npos);
  CHECK(d.find("Alokas") != std::string::npos);
}

TEST_CASE("mweso: BadPositionsAreErrors") {
  auto game = make_game("mweso");
  REQUIRE(game.ok());
  check_bad_positions(
      "mweso", {std::string(), kTwos + "/" + kTwos + ":play:1", kTwos + "/" + kTwos + ":play:3:0:0",
                kTwos + "/" + kTwos + ":game:1:0:0", kTwos + "/" + kTwos + "," + "0:play:1:0:0",
                kTwos + "/" + kZeros + ":play:1:0:0", kTwos + "/" + kZeros + ":setup:1:0:0",
                kZeros + "/" + kZeros.substr(2) + ",1:setup:1:0:0", kTwos + "/" + kTwos + ":1:0:0",
                "02" + kTwos.substr(1) + "/" + kTwos + ":play:1:0:0"});
  CHECK(game->parse_state(kTwos + "/" + kZeros + ":setup:2:1:1").ok());
}

// Golden counts cross-checked with an independent implementation of rules.md; perft starts after
// the setups (rules.md §1), from setups reached with moves.
TEST_CASE("mweso: perft after the setups") {
  State even = after_moves("mweso", "", {"=" + kTwos, "=" + kTwos});
  check_perft(even, {1, 21, 348, 3538, 34355, 294711});
  State north =
      at("mweso", "3,1,2,0,0,2,4,2,5,0,1,3,2,2,4,1/1,3,2,1,2,2,2,0,3,3,4,2,0,2,4,1:play:2:0:0");
  check_perft(north, {1, 11, 116, 1131, 11326, 100275});
}

TEST_CASE("mweso: conformance sweep", "[slow]") {
  testing::SweepOptions o;
  o.quantity = [](const State& s) {
    const std::string p = s.to_string();
    const long board = testing::sum_of_fields(p, 1);
    const bool setup = p.find(":setup:") != std::string::npos;
    return board + (setup ? 64 - board : 0);
  };
  o.setup = [](const State& s, std::mt19937_64& rng) { return s.sample_setup(rng()); };
  // Random games last about 330 plies and every ply replays every legal move: the 1000 playouts
  // are capped, and a hundred run to the game's own end.
  CHECK(testing::conformance_sweep("mweso:maxplies=100", o) > 0);
  o.playouts = 100;
  CHECK(testing::conformance_sweep("mweso:first=2", o) > 0);
}
