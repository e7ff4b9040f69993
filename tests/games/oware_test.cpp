// oware: the seed's 3-player worked example, one scenario per rule of rules.md §2 oware and the
// relay guard of §0, bad input, perft for 2/3/4/6 players, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("oware: seed example — 3 players, A sows i, B takes a and c, A takes g") {
  // The seed's A owns i (9): our player 3 (holes 9..12); B owns a..d: our player 1, who plays
  // after player 3. i holds 5: j, k, l, a (3 → 4, not the last: B takes it), b (4 → 5, the
  // last): A picks up b's 5: c (3 → 4: B takes it), d, e, f, g (3 → 4, the last): A takes it.
  State s = after("oware:players=3", "3,4,3,4/4,4,3,4/5,5,5,4:0,0,0:3:0:0", "9");
  CHECK(s.to_string() == "0,0,0,5/5,5,0,4/0,6,6,5:8,0,4:1:0:1");
  CHECK(s.current_player() == 1);
  CHECK(s.last_move_captured());
}

TEST_CASE("oware: StartPositionsAndBands") {
  for (auto [spec, start] : std::vector<std::pair<std::string, std::string>>{
           {"oware", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0"},
           {"oware:players=3", "4,4,4,4/4,4,4,4/4,4,4,4:0,0,0:1:0:0"},
           {"oware:players=4", "4,4,4/4,4,4/4,4,4/4,4,4:0,0,0,0:1:0:0"},
           {"oware:players=6", "4,4/4,4/4,4/4,4/4,4/4,4:0,0,0,0,0,0:1:0:0"}}) {
    auto game = make_game(spec);
    REQUIRE(game.ok());
    CHECK(game->initial_state().to_string() == start);
  }
  CHECK(make_game("oware:players=4")->initial_state().legal_moves() ==
        std::vector<std::string>{"1", "2", "3"});
  CHECK(make_game("oware:players=6,first=4")->initial_state().legal_moves() ==
        std::vector<std::string>{"7", "8"});
  CHECK_FALSE(make_game("oware:players=5").ok());
  CHECK_FALSE(make_game("oware:players=3,first=4").ok());
  CHECK(make_game("oware:players=6,first=6").ok());
}

TEST_CASE("oware: TurnsFollowBandsCounterClockwise") {
  State s = start("oware:players=3,first=3");
  CHECK(s.current_player() == 3);
  CHECK(s.legal_moves() == std::vector<std::string>{"10", "11", "12", "9"});
  REQUIRE(s.apply("12").ok());
  CHECK(s.current_player() == 1);
}

TEST_CASE("oware: PassThroughFourGoesToOwner") {
  // South sows 6 (3 seeds): 7 (3 → 4, not the last: North takes it), 8, 9 (empty: turn ends).
  State s = after("oware", "4,4,4,4,4,3/3,4,0,4,4,6:4,0:1:9:20", "6");
  CHECK(s.to_string() == "4,4,4,4,4,0/0,5,1,4,4,6:4,4:2:0:21");
  CHECK(s.last_move_captured());
}

TEST_CASE("oware: PassThroughFourInOwnBandGoesToMover") {
  // South sows 1 (3 seeds): 2 (3 → 4: South's own hole, South takes it), 3, 4 (empty).
  State s = after("oware", "3,3,4,0,4,6/4,4,4,4,4,4:4,0:1:9:20", "1");
  CHECK(s.to_string() == "0,0,5,1,4,6/4,4,4,4,4,4:8,0:2:0:21");
}

TEST_CASE("oware: LastSeedMakingFourSowerTakes") {
  // South sows 6 (2 seeds): 7, 8 (3 → 4, the last): South takes it although it is North's hole.
  State s = after("oware", "0,0,0,1,2,2/4,3,4,4,4,4:12,8:1:9:20", "6");
  CHECK(s.to_string() == "0,0,0,1,2,0/5,0,4,4,4,4:16,8:2:0:21");
}

TEST_CASE("oware: LastSeedInEmptyHoleEndsTurn") {
  State s = after("oware", "0,0,0,1,0,3/4,3,4,4,4,5:12,8:1:9:20", "4");
  CHECK(s.to_string() == "0,0,0,0,1,3/4,3,4,4,4,5:12,8:2:10:21");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("oware: RelayPicksUpLastHoleAndSowsOn") {
  // 1 sows 2..5; 5 now holds 5: picked up and sown on, and so on until a sowing ends in an
  // empty hole. Both chains were replayed by an independent implementation of rules.md.
  State s = after_moves("oware", "", {"1"});
  CHECK(s.to_string() == "2,7,1,6,1,6/6,6,0,1,6,6:0,0:2:1:1");
  State t = after_moves("oware", "", {"1", "7"});
  CHECK(t.to_string() == "2,10,0,2,0,9/1,10,1,0,1,0:8,4:1:0:2");
}

TEST_CASE("oware: OriginSkippedOnFullLap") {
  // 1 holds 12: 2..12, 1 is skipped, the 12th seed lands in 2 (2 → 3 → 4): South takes it.
  // Without the skip it would fall into the empty hole 1.
  State s = after("oware", "12,2,0,0,0,0/0,0,0,0,0,2:16,16:1:0:0", "1");
  CHECK(s.to_string() == "0,0,1,1,1,1/1,1,1,1,1,3:20,16:2:0:1");
}

TEST_CASE("oware: LastFourInPlayGoToCapturer") {
  // South's last seed makes 7 hold 4: he takes them, 4 are left (12): he takes those too.
  State s = after("oware", "0,0,0,0,0,1/3,0,0,0,0,4:20,20:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,0,0,0,0,0:28,20:2:0:1");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().scores == std::vector<double>{28, 20});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("oware: LastFourIncludingHandGoToHoleOwner") {
  // South sows 6 (2): 7 (3 → 4, not the last): North takes it; 1 seed in hand + 5 and 12 hold
  // exactly 4 in play: North takes them too and the game ends at once.
  State s = after("oware", "0,0,0,0,1,2/3,0,0,0,0,2:20,20:1:0:0", "6");
  CHECK(s.to_string() == "0,0,0,0,0,0/0,0,0,0,0,0:20,28:2:0:1");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("oware: EmptyBandPasses") {
  State s = at("oware", "0,0,0,0,0,0/4,4,4,4,4,4:12,12:1:3:50");
  CHECK(s.legal_moves() == std::vector<std::string>{"pass"});
  CHECK(s.is_forced());
  REQUIRE(s.apply("pass").ok());
  CHECK(s.to_string() == "0,0,0,0,0,0/4,4,4,4,4,4:12,12:2:4:51");
  CHECK_FALSE(s.is_forced());
  CHECK_FALSE(at("oware", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0").apply("pass").ok());
}

TEST_CASE("oware: PassesInThreePlayerGame") {
  // Player 2's band (5..8) is empty: after player 1 moves, player 2 passes, then player 3.
  State s = after("oware:players=3", "4,4,4,4/0,0,0,0/0,4,4,4:12,4,4:1:0:0", "1");
  CHECK(s.to_string() == "0,5,5,5/1,0,0,0/0,4,4,4:12,4,4:2:1:1");
  CHECK(s.legal_moves() == std::vector<std::string>{"5"});
  State t = at("oware:players=3", "0,5,5,6/0,0,0,0/0,4,4,4:12,4,4:2:1:1");
  CHECK(t.is_forced());
  REQUIRE(t.apply("pass").ok());
  CHECK(t.current_player() == 3);
}

TEST_CASE("oware: RelayGuardExcludesRepeatingChain") {
  // From 2 the chain is a wave 2,1,0 turning round the board for ever: 2 is not legal.
  State s = at("oware", "1,3,1,0,1,0/2,1,0,1,0,2:20,16:1:0:0");
  CHECK(s.legal_moves() == std::vector<std::string>{"1", "3", "5"});
  CHECK_FALSE(s.apply("2").ok());
}

TEST_CASE("oware: RelayGuardWithNoLegalMoveEndsByExhaustion") {
  // 6 players: player 2 owns 3 and 4; his only move (3) repeats a chain: the game ends, each band's
  // seeds to its owner.
  State s = at("oware:players=6", "2,1/2,0/2,1/0,2/1,0/1,0:8,4,8,4,8,4:2:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "relay");
  CHECK(s.outcome().scores == std::vector<double>{11, 6, 11, 6, 9, 5});
  CHECK(s.outcome().ranks == std::vector<int>{1, 4, 1, 4, 3, 6});
}

TEST_CASE("oware: NoCaptureExhaustionBandsToOwnersSharedRanks") {
  State s =
      after_moves("oware:players=3,nocapture=1", "4,4,4,4/4,4,4,0/4,4,4,4:4,0,0:1:0:0", {"4"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  // 4 (4 seeds) sows 5, 6, 7, 8 (empty): bands 12, 16, 16 plus captures 4, 0, 0: all equal.
  CHECK(s.outcome().scores == std::vector<double>{16, 16, 16});
  CHECK(s.outcome().ranks == std::vector<int>{1, 1, 1});
}

TEST_CASE("oware: AgreementBandsToOwners") {
  State s = at("oware", "1,2,3,0,0,2/5,0,0,0,0,3:20,12:1:0:0");
  REQUIRE(s.agree_to_end().ok());
  CHECK(s.outcome().scores == std::vector<double>{28, 20});
  CHECK(s.outcome().reason == "agreement");
}

TEST_CASE("oware: BadPositionsAreErrors") {
  check_bad_positions(
      "oware", {"", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:3:0:0",
                "4,4,4,4,4,4/4,4,4,4,4,4:0,0,0:1:0:0",  // three capture counts
                "4,4,4,4/4,4,4,4/4,4,4,4:0,0:1:0:0",    // three bands for two players
                "4,4,4,4,4,3/4,4,4,4,4,4:1,0:1:0:0",    // a capture of 1
                "0,0,0,0,0,2/1,1,0,0,0,0:24,20:1:0:0",  // exactly 4 in play
                "4,4,4,4,4,4/4,4,4,4,4,4:4,0:1:0:0",    // 52 seeds
                "4,4,4,4,4,4/4,4,4,4,4,04:0,0:1:0:0", "4,4,4,4,4,4/4,4,4,4,4,4:0,0:pass:0:0"});
  auto three = make_game("oware:players=3");
  REQUIRE(three.ok());
  CHECK_FALSE(three->parse_state("4,4,4,4/4,4,4,4/4,4,4,4:0,0,0:4:0:0").ok());
  CHECK(three->parse_state("4,4,4,4/4,4,4,4/4,4,4,4:0,0,0:3:0:0").ok());
  State s = start("oware");
  check_bad_moves(s, {"0", "7", "13", "", "1 ", "pass", "01", "0000"});
}

// Golden counts cross-checked with an independent implementation of rules.md (which also agrees
// at 2 players depth 9: 771561).
TEST_CASE("oware: perft from the start, 2, 3, 4 and 6 players") {
  struct Case {
    std::string spec;
    std::vector<std::uint64_t> counts;
  };
  for (const auto& c : std::vector<Case>{
           {"oware", {1, 6, 32, 140, 639, 2939, 12830, 51927, 204351}},
           {"oware:players=3", {1, 4, 16, 45, 153, 440, 1253, 3296, 8436, 21045, 52911}},
           {"oware:players=4", {1, 3, 9, 20, 47, 94, 207, 404, 801, 1540, 2922, 5465, 10026}},
           {"oware:players=6", {1, 2, 4, 5, 7, 9, 11, 19, 30, 44, 65, 81, 116, 148, 185}}}) {
    INFO(c.spec);
    check_perft(start(c.spec), c.counts);
  }
}

TEST_CASE("oware: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  CHECK(testing::conformance_sweep("oware", o) > 0);
  CHECK(testing::conformance_sweep("oware:players=3", o) > 0);
  CHECK(testing::conformance_sweep("oware:players=4", o) > 0);
  CHECK(testing::conformance_sweep("oware:players=6", o) > 0);
}
