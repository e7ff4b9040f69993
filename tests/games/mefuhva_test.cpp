// mefuhva (4×16): one scenario per rule, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

// The hole field (and its ':') of a board with every hole empty but the given ones.
std::string cells(const std::vector<std::pair<int, int>>& holes) {
  std::vector<int> b(64, 0);
  for (auto [h, n] : holes) b[static_cast<std::size_t>(h - 1)] = n;
  std::string out;
  for (int h = 1; h <= 64; ++h)
    out += std::to_string(b[static_cast<std::size_t>(h - 1)]) + (h == 32   ? "/"
                                                                 : h == 64 ? ":"
                                                                           : ",");
  return out;
}

// That board with the other seeds split between the captures, `player` to move.
std::string board(const std::vector<std::pair<int, int>>& holes, int player) {
  int on_board = 0;
  for (auto [h, n] : holes) on_board += n;
  const int rest = 128 - on_board;
  return cells(holes) + std::to_string(rest / 2) + "," + std::to_string(rest - rest / 2) + ":" +
         std::to_string(player) + ":0:0";
}

}  // namespace

TEST_CASE("mefuhva: LastSeedInEmptyInnerHoleTakesFacingHole") {
  // 20 → 21 (inner, column 11, was empty); North's 60 faces it with 3: South takes them.
  State s = after("mefuhva", board({{20, 1}, {60, 3}, {40, 5}}, 1), "20");
  CHECK(s.to_string() == cells({{21, 1}, {40, 5}}) + "62,60:2:0:1");
  CHECK(s.last_move_captured());
}

TEST_CASE("mefuhva: OccupiedInnerHoleCapturesNothing") {
  State s = after("mefuhva", board({{20, 1}, {21, 1}, {60, 3}, {40, 5}}, 1), "20");
  CHECK(s.to_string() == cells({{21, 2}, {60, 3}, {40, 5}}) + "59,59:2:1:1");
  CHECK_FALSE(s.last_move_captured());
}

TEST_CASE("mefuhva: EmptyFacingHoleTakesNothing") {
  State s = after("mefuhva", board({{20, 1}, {40, 5}}, 1), "20");
  CHECK(s.to_string() == cells({{21, 1}, {40, 5}}) + "61,61:2:1:1");
}

TEST_CASE("mefuhva: OuterRowNeverCaptures") {
  State s = after("mefuhva", board({{5, 1}, {60, 3}, {40, 5}}, 1), "5");
  CHECK(s.to_string() == cells({{6, 1}, {60, 3}, {40, 5}}) + "59,60:2:1:1");
}

TEST_CASE("mefuhva: NorthCapturesAndSowingWrapsInOwnBlock") {
  // North 50 → 51 (inner, column 2, empty); South's 30 faces it with 4.
  State take = after("mefuhva", board({{50, 1}, {30, 4}, {1, 2}}, 2), "50");
  CHECK(take.to_string() == cells({{51, 1}, {1, 2}}) + "60,65:1:0:1");
  // South 32 → 1, 2: his block wraps, North's 33 gets nothing.
  State wrap = after("mefuhva", board({{32, 2}, {33, 2}}, 1), "32");
  CHECK(wrap.to_string() == cells({{1, 1}, {2, 1}, {33, 2}}) + "62,62:2:1:1");
}

TEST_CASE("mefuhva: NoSeedEndsGameRemainderToOwners") {
  State s = at("mefuhva", board({{40, 6}}, 1));
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().scores == std::vector<double>{61, 67});
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("mefuhva: NoCaptureLimitRemainderToOwners") {
  State s = after_moves("mefuhva:nocapture=2", "", {"16", "48"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{64, 64});
  CHECK(s.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("mefuhva: StartAndDrawing") {
  State s = start("mefuhva");
  CHECK(s.legal_moves().size() == 32);
  CHECK(s.draw(BoardWords::Seed).find("   48   47   46") != std::string::npos);
  CHECK(s.draw(BoardWords::Seed).find("   49   50   51") != std::string::npos);
  CHECK(s.material() == std::vector<double>{64, 64});
}

TEST_CASE("mefuhva: BadPositionsAndMovesAreErrors") {
  auto game = make_game("mefuhva");
  REQUIRE(game.ok());
  const std::string good = board({{1, 2}}, 1);
  CHECK(game->parse_state(good).ok());
  check_bad_positions("mefuhva", {std::string(""), good.substr(0, good.size() - 4), "1" + good,
                                  good.substr(2), board({{1, 2}}, 3)});
  State s = start("mefuhva");
  check_bad_moves(s, {"0", "33", "65", "", "pass", "1.5"});
}

// Golden counts agreed with an independent implementation of rules.md.
TEST_CASE("mefuhva: perft from the start") {
  check_perft(start("mefuhva"), {1, 32, 1024, 31744, 983568, 29554640});
}

TEST_CASE("mefuhva: conformance sweep", "[slow]") {
  auto o = testing::counting_seeds(2);
  // Random games last long on this board: a ply cap keeps the sweep fast (the game's own ends are
  // pinned by the scenario tests above).
  CHECK(testing::conformance_sweep("mefuhva:maxplies=100", o) > 0);
}
