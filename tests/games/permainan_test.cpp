// permainan (surakarta): one scenario per rule, bad input, perft, conformance.
#include <algorithm>

#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

TEST_CASE("permainan: start position and the surakarta alias") {
  auto game = make_game("permainan");
  auto alias = make_game("surakarta");
  REQUIRE(game.ok());
  REQUIRE(alias.ok());
  CHECK(game->canonical() == "permainan:first=1,nocapture=20,maxplies=2000");
  CHECK(alias->name() == "permainan");
  State s = game->initial_state();
  CHECK(s.to_string() == "oooooo/oooooo/6/6/xxxxxx/xxxxxx:1:0:0");
  CHECK(s.material() == std::vector<double>{12, 12});
  CHECK(s.legal_moves() == Moves{"a2-a3", "a2-b3", "b2-a3", "b2-b3", "b2-c3", "c2-b3", "c2-c3",
                                 "c2-d3", "d2-c3", "d2-d3", "d2-e3", "e2-d3", "e2-e3", "e2-f3",
                                 "f2-e3", "f2-f3"});
}

TEST_CASE("permainan: CaptureAlongACircuitThroughAnArcIsOptional") {
  // d2 reaches e4 by the inner circuit (f2, arc, e1..e4) and by the outer one (d3..d6, arc, f4):
  // several paths, one move; the steps stay legal.
  State s = at("permainan", "5o/6/4o1/6/3x2/x5:1:0:0");
  CHECK(s.legal_moves() == Moves{"a1-a2", "a1-b1", "a1-b2", "d2-c1", "d2-c2", "d2-c3", "d2-d1",
                                 "d2-d3", "d2-e1", "d2-e2", "d2-e3", "d2xe4"});
  CHECK(after_moves("permainan", "5o/6/4o1/6/3x2/x5:1:0:0", {"d2xe4"}).to_string() ==
        "5o/6/4x1/6/6/x5:2:0:1");
}

TEST_CASE("permainan: NoCaptureWithoutAnArc") {
  // a2 sees c2 straight along rank 2, crossing no arc: no capture; the other way round starts
  // with the arc to b1, where its own piece stands. b1 reaches c2 the long way (three arcs).
  auto moves = at("permainan", "6/6/6/6/x1o3/1x4:1:0:0").legal_moves();
  CHECK(std::count(moves.begin(), moves.end(), "a2xc2") == 0);
  CHECK(std::count(moves.begin(), moves.end(), "b1xc2") == 1);
  CHECK(std::count_if(moves.begin(), moves.end(),
                      [](const std::string& m) { return m[2] == 'x'; }) == 1);
}

TEST_CASE("permainan: CornersCanNeitherCaptureNorBeCaptured") {
  // Only steps: the North piece on f1 lies on no circuit, nor does South's a1.
  CHECK(at("permainan", "5o/6/6/6/3x2/x4o:1:0:0").legal_moves() ==
        Moves{"a1-a2", "a1-b1", "a1-b2", "d2-c1", "d2-c2", "d2-c3", "d2-d1", "d2-d3", "d2-e1",
              "d2-e2", "d2-e3"});
}

TEST_CASE("permainan: StartsOtherOccurrenceCountsAsEmpty") {
  // b2 walks a2, arc, b1, b2 (itself again), b3, b4: a capture through one arc. Straight up
  // file b it would cross no arc, and the other ways round are blocked by c2.
  auto moves = at("permainan", "5o/6/1o4/6/1xx3/6:1:0:0").legal_moves();
  CHECK(std::count(moves.begin(), moves.end(), "b2xb4") == 1);
}

TEST_CASE("permainan: ForcedPassWhenNoMove") {
  State s = at("permainan", "6/6/6/6/oo4/xo4:1:0:0");
  CHECK(s.legal_moves() == Moves{"pass"});
  CHECK(s.is_forced());
  s = after_moves("permainan", s.to_string(), {"pass"});
  CHECK(s.to_string() == "6/6/6/6/oo4/xo4:2:1:1");
  CHECK_FALSE(at("permainan", "6/6/6/6/oo4/x1o3:1:0:0").apply("pass").ok());  // a1-b1 is possible
}

TEST_CASE("permainan: NoPieceLoses") {
  State s = after_moves("permainan", "6/6/4o1/6/3x2/6:1:0:0", {"d2xe4"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().scores == std::vector<double>{1, 0});
}

TEST_CASE("permainan: TwentyPliesWithoutCaptureMorePiecesWins") {
  State s = after_moves("permainan", "o5/6/6/6/6/x4x:1:19:80", {"a1-a2"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{2, 1});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("permainan: FirstPlayerParameter") {
  auto game = make_game("surakarta:first=2");
  REQUIRE(game.ok());
  CHECK(game->initial_state().to_string() == "oooooo/oooooo/6/6/xxxxxx/xxxxxx:2:0:0");
  CHECK(game->initial_state().legal_moves().size() == 16);
}

TEST_CASE("permainan: BadPositionsAndMovesAreErrors") {
  check_bad_positions(
      "permainan",
      {"", "oooooo/oooooo/6/6/xxxxxx/xxxxxx:1", "oooooo/oooooo/6/6/xxxxxx:1:0:0",
       "oooooo/oooooo/6/6/xxxxxx/xxxxxxx:1:0:0", "oooooo/oooooo/6/6/xxxxxx/xxxxx:1:0:0",
       "oooooo/oooooo/6/x5/xxxxxx/xxxxxx:1:0:0", "oooooo/oooooo/6/6/xxxxxx/xxxxxx:0:0:0",
       "oooooo/oooooo/6/6/xxxxxx/xxxxxx:1:-:0:0:0", "oooooo/oooooo/6/6/xxxxxx/xxxx-x:1:0:0",
       "oooooo/oooooo/06/6/xxxxxx/xxxxxx:1:0:0", "oooooo/oooooo/6/6/xxxXxx/xxxxxx:1:0:0"});
  State s = start("permainan");
  check_bad_moves(s, {"a2-a4", "a2-a2", "a1-a2", "a2xa5", "a5-a4", "pass", "a2-a3 ", "A2-a3",
                      "a2a3", "a2-g3", "a02-a3", ""});
}

TEST_CASE("permainan: draw shows the grid, pieces and coordinates") {
  const std::string board = make_game("permainan")->initial_state().draw(BoardWords::English);
  CHECK(board.find("  6  o---o---o---o---o---o\n") != std::string::npos);
  CHECK(board.find("  3  .---.---.---.---.---.\n") != std::string::npos);
  CHECK(board.find("     a   b   c   d   e   f\n") != std::string::npos);
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("permainan: perft") {
  check_perft(start("permainan"), {1, 16, 256, 5382, 111122, 2572484});
  State loops = at("permainan", "5o/6/1o4/6/1xx3/6:1:0:0");
  check_perft(loops, {1, 16, 179, 2387, 26240});
}

TEST_CASE("permainan: conformance sweep", "[slow]") {
  auto o = testing::counting_pieces();
  CHECK(testing::conformance_sweep("permainan", o) > 0);
  o.playouts = 250;
  CHECK(testing::conformance_sweep("surakarta:first=2", o) > 0);
}
