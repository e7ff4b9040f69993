// perali-kotuma and kotu-ellima: the seed's double capture, one scenario per rule (huffing off and
// on), bad input, perft, conformance.
#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

bool has(const Moves& moves, const std::string& m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

const std::string kPeraliStart =
    "--o-o-o--/---ooo---/x-ooooo-o/-xoooooo-/xxx3ooo/-xxxxxxo-/x-xxxxx-o/---xxx---/--x-x-x--:1:-:0:"
    "0";
const std::string kKotuStart =
    "--o-o-o--/---ooo---/x-ooooo-o/-xoooooo-/xxxx1oooo/-xxxxxxo-/x-xxxxx-o/---xxx---/--x-x-x--:1:-:"
    "0:0";
// North's piece on c7 takes d6 and f5 (c7xe5xg5); South keeps a3, North keeps i3.
const std::string kDouble =
    "--1-1-1--/---3---/1-o4-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--:2:-:0:0";

}  // namespace

TEST_CASE("perali-kotuma: start positions, 23 and 24 pieces a side") {
  auto perali = make_game("perali-kotuma");
  auto kotu = make_game("kotu-ellima");
  REQUIRE(perali.ok());
  REQUIRE(kotu.ok());
  CHECK(perali->canonical() == "perali-kotuma:huffing=off,first=1,nocapture=20,maxplies=2000");
  CHECK(perali->initial_state().to_string() == kPeraliStart);
  CHECK(kotu->initial_state().to_string() == kKotuStart);
  CHECK(perali->initial_state().material() == std::vector<double>{23, 23});
  CHECK(kotu->initial_state().material() == std::vector<double>{24, 24});
  CHECK(perali->initial_state().legal_moves() ==
        Moves{"c5-d5", "d4-d5", "d4-e5", "e4-e5", "f4-e5", "f4-f5"});
  CHECK(kotu->initial_state().legal_moves() == Moves{"d4-e5", "d5-e5", "e4-e5", "f4-e5"});
}

// "Dans cette configuration, le pion noir prend les deux pions blancs."
TEST_CASE("perali-kotuma: seed picture — the black piece takes both white pieces") {
  State s = at("perali-kotuma", kDouble);
  CHECK(s.legal_moves() == Moves{"c7xe5xg5"});  // the chain must be completed
  s = after_moves("perali-kotuma", kDouble, {"c7xe5xg5"});
  CHECK(s.to_string() == "--1-1-1--/---3---/1-5-1/-7-/6o2/-7-/x-5-o/---3---/--1-1-1--:1:-:0:1");
  CHECK(s.material() == std::vector<double>{1, 2});
}

TEST_CASE("perali-kotuma: StepsAlongLinesOnlyAnyDirection") {
  const std::string empty_but = "--1-1-1--/---3---/1-5-1/-7-/4x4/-7-/1-5-1/---3---/--1-1-1--";
  // e5 (diagonal point): eight neighbours, backwards included.
  CHECK(at("perali-kotuma", empty_but + ":1:-:0:0").legal_moves() ==
        Moves{"e5-d4", "e5-d5", "e5-d6", "e5-e4", "e5-e6", "e5-f4", "e5-f5", "e5-f6"});
  // d5 (no diagonals), d2 and e1 (triangle points: no edge but the lines'), a5.
  CHECK(at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/3x5/-7-/1-5-1/---3---/--1-1-1--:1:-:0:0")
            .legal_moves() == Moves{"d5-c5", "d5-d4", "d5-d6", "d5-e5"});
  CHECK(at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/9/-7-/1-5-1/---x2---/--1-1-1--:1:-:0:0")
            .legal_moves() == Moves{"d2-c1", "d2-e2", "d2-e3"});
  CHECK(at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/9/-7-/1-5-1/---3---/--1-x-1--:1:-:0:0")
            .legal_moves() == Moves{"e1-c1", "e1-e2", "e1-g1"});
  CHECK(at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/x8/-7-/1-5-1/---3---/--1-1-1--:1:-:0:0")
            .legal_moves() == Moves{"a5-a3", "a5-a7", "a5-b5"});
}

TEST_CASE("perali-kotuma: JumpAlongTheTriangleCrossLines") {
  // c1 over e1 lands on g1 (the cross line's points are two files apart).
  CHECK(at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/9/-7-/1-5-1/---3---/--x-o-1--:1:-:0:0")
            .legal_moves() == Moves{"c1xg1"});
}

TEST_CASE("perali-kotuma: CaptureCompulsoryNoMajorityRule") {
  // c7 can take two pieces, e1 one: both are legal, no step is.
  const std::string p = "--1-1-1--/---3---/1-o4-1/-2x4-/5x3/-7-/x-5-o/---1x1---/--1-o-1--:2:-:0:0";
  CHECK(at("perali-kotuma", p).legal_moves() == Moves{"c7xe5xg5", "e1xe3"});
}

TEST_CASE("perali-kotuma: ChainMayReturnToItsStartPoint") {
  // rules.md: "c3xc5xe5xc3"; the two orders are two moves.
  const std::string p = "--1-1-o--/---3---/1-5-1/-7-/3o5/-1oo4-/x-x4-1/---3---/--1-1-1--:1:-:0:0";
  CHECK(at("perali-kotuma", p).legal_moves() == Moves{"c3xc5xe3", "c3xc5xe5xc3", "c3xe5xc5xc3"});
  CHECK(after_moves("perali-kotuma", p, {"c3xc5xe5xc3"}).to_string() ==
        "--1-1-o--/---3---/1-5-1/-7-/9/-7-/x-x4-1/---3---/--1-1-1--:2:-:0:1");
}

TEST_CASE("perali-kotuma: NoMoveLoses") {
  // South's c1 is hemmed in by e1 and d2, whose landing points g1 and e3 are taken.
  State s =
      at("perali-kotuma", "--1-1-1--/---3---/1-5-1/-7-/9/-7-/1-2o2-1/---o2---/--x-o-o--:1:-:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
}

TEST_CASE("perali-kotuma: NoPieceLoses") {
  State s =
      after_moves("perali-kotuma",
                  "--1-1-1--/---3---/1-5-1/-7-/9/-7-/1-5-1/---3---/--x-o-1--:1:-:0:0", {"c1xg1"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().scores == std::vector<double>{1, 0});
}

TEST_CASE("perali-kotuma: TwentyPliesWithoutCaptureMorePiecesWins") {
  State s = after_moves("perali-kotuma",
                        "--1-1-1--/---3---/1-5-1/-7-/9/-7-/x-x4-1/---3---/--1-1-o--:1:-:19:50",
                        {"a3-a5"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{2, 1});
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
}

TEST_CASE("perali-kotuma: huffing=on — every prefix of a chain is a move, capture optional") {
  auto moves = at("perali-kotuma:huffing=on", kDouble).legal_moves();
  CHECK(moves == Moves{"c7-c6", "c7-d7", "c7xe5", "c7xe5xg5", "i3-h4", "i3-i5"});
}

TEST_CASE("perali-kotuma: HuffAfterAStepThatLeftACapture") {
  State s = after_moves("perali-kotuma:huffing=on", kDouble, {"c7-d7"});
  // The piece that could have captured now stands on d7.
  CHECK(s.to_string() ==
        "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--:1:d7:1:1");
  auto moves = s.legal_moves();
  CHECK(has(moves, "a3-a5"));
  CHECK(has(moves, "!d7,a3-a5"));
  CHECK_FALSE(has(moves, "!i3,a3-a5"));
  CHECK_FALSE(has(moves, "!d7"));  // a huff only comes with a move
  s = after_moves("perali-kotuma:huffing=on", s.to_string(), {"!d7,a3-a5"});
  CHECK(s.to_string() == "--1-1-1--/---3---/1-5-1/-2x4-/x4x3/-7-/1-5-o/---3---/--1-1-1--:2:-:2:2");
  CHECK(s.material() == std::vector<double>{3, 1});
  CHECK_FALSE(s.last_move_captured());  // a huff is not a capture
}

TEST_CASE("perali-kotuma: HuffAfterAChainStoppedEarly") {
  State s = after_moves("perali-kotuma:huffing=on", kDouble, {"c7xe5"});
  CHECK(s.to_string() == "--1-1-1--/---3---/1-5-1/-7-/4ox3/-7-/x-5-o/---3---/--1-1-1--:1:e5:0:1");
  // The completed chain leaves no right.
  CHECK(after_moves("perali-kotuma:huffing=on", kDouble, {"c7xe5xg5"}).to_string() ==
        "--1-1-1--/---3---/1-5-1/-7-/6o2/-7-/x-5-o/---3---/--1-1-1--:1:-:0:1");
  // Nor does a step when nothing could capture; an unused right lapses.
  CHECK(after_moves("perali-kotuma:huffing=on", kDouble, {"c7-d7", "a3-a5"}).to_string() ==
        "--1-1-1--/---3---/1-1o3-1/-2x4-/x4x3/-7-/1-5-o/---3---/--1-1-1--:2:-:2:2");
  // North's d7 could now take d6 (landing d5): stepping i3-i5 gives South the right again.
  CHECK(after_moves("perali-kotuma:huffing=on", kDouble, {"c7-d7", "a3-a5", "i3-i5"}).to_string() ==
        "--1-1-1--/---3---/1-1o3-1/-2x4-/x4x2o/-7-/1-5-1/---3---/--1-1-1--:1:d7:3:3");
}

TEST_CASE("perali-kotuma: HuffRightsArePartOfThePosition") {
  const std::string with =
      "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--:1:d7:1:1";
  const std::string without =
      "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--:1:-:1:1";
  State a = at("perali-kotuma:huffing=on", with), b = at("perali-kotuma:huffing=on", without);
  CHECK_FALSE(a == b);
  CHECK(a.hash() != b.hash());
  CHECK_FALSE(make_game("perali-kotuma")->parse_state(with).ok());  // huffing=off has no rights
}

TEST_CASE("perali-kotuma: BadPositionsAreErrors") {
  const std::string grid = "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--";
  check_bad_positions(
      "perali-kotuma:huffing=on",
      {
          std::string(),
          kKotuStart,             // 24 a side
          grid + ":1:d7",         // no counters
          grid + ":1:0:0",        // huff field missing
          grid + ":3:-:0:0",      // player 3
          grid + ":1:d6:0:0",     // d6 holds a South piece
          grid + ":1:e5:0:0",     // e5 is empty
          grid + ":1:d7,i3:0:0",  // not in grid order
          grid + ":1:d7,d7:0:0",  // twice
          grid + ":1:j7:0:0",     // not a point
          grid + ":1:b7:0:0",     // not a point either
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1-:1:-:0:0",  // short
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--1-1-1--1:1:-:0:0",
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/--2-1-1--:1:-:0:0",  // run over
                                                                                      // '-'
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---/-x1-1-1--:1:-:0:0",  // off board
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5x3/-7-/x-5-o/---3---:1:-:0:0",            // 8 ranks
          "--1-1-1--/---3---/1-1o3-1/-2x4-/5X3/-7-/x-5-o/---3---/--1-1-1--:1:-:0:0",  // no kings
      });
  State s = start("perali-kotuma");
  check_bad_moves(s, {"!e5,d4-d5", "d4-d5 ", "d4xd6", "c5-d5,", "d4-d6", "e5-d4", "pass", ""});
}

TEST_CASE("perali-kotuma: FirstPlayerParameter") {
  auto game = make_game("kotu-ellima:first=2");
  REQUIRE(game.ok());
  CHECK(game->initial_state().current_player() == 2);
  CHECK(game->initial_state().legal_moves() == Moves{"d6-e5", "e6-e5", "f5-e5", "f6-e5"});
}

TEST_CASE("perali-kotuma: draw shows points, lines, pieces and coordinates") {
  const std::string board = make_game("perali-kotuma")->initial_state().draw(BoardWords::English);
  CHECK(board.find("  5  x---x---x---.---.---.---o---o---o\n") != std::string::npos);
  CHECK(board.find("  1          x-------x-------x\n") != std::string::npos);
  CHECK(board.find("     a   b   c   d   e   f   g   h   i\n") != std::string::npos);
  CHECK(board.find("to move: x") != std::string::npos);
}

// Golden counts cross-checked with an independent implementation of rules.md.
TEST_CASE("perali-kotuma: perft from the start") {
  struct Case {
    const char* spec;
    std::vector<std::uint64_t> counts;
  };
  const Case cases[] = {
      {"perali-kotuma", {1, 6, 13, 38, 116, 438, 1910, 9702, 53210}},
      {"kotu-ellima", {1, 4, 5, 6, 12, 29, 118, 669, 3398}},
      {"perali-kotuma:huffing=on", {1, 6, 33, 617, 15042, 382241}},
      {"kotu-ellima:huffing=on", {1, 4, 8, 49, 771, 18760}},
  };
  for (const auto& c : cases) {
    INFO(c.spec);
    check_perft(start(c.spec), c.counts);
  }
}

TEST_CASE("perali-kotuma: perft from the double-capture picture") {
  State on = at("perali-kotuma:huffing=on", kDouble);
  check_perft(on, {1, 6, 122, 567, 8572, 55596});
  State off = at("perali-kotuma", kDouble);
  check_perft(off, {1, 1, 2, 20, 60, 420, 1540, 11573, 45150});
}

TEST_CASE("perali-kotuma: conformance sweep", "[slow]") {
  auto o = testing::counting_pieces();
  CHECK(testing::conformance_sweep("perali-kotuma", o) > 0);
  CHECK(testing::conformance_sweep("kotu-ellima:huffing=on,first=2", o) > 0);
  o.playouts = 250;  // the other two pairings, fewer playouts to keep the suite fast
  CHECK(testing::conformance_sweep("kotu-ellima", o) > 0);
  CHECK(testing::conformance_sweep("perali-kotuma:huffing=on", o) > 0);
}

// legal_move() parses a move instead of listing them all: it must accept exactly the listed moves.
TEST_CASE("perali-kotuma: MoveParserAcceptsExactlyTheListedMoves") {
  std::vector<std::string> points;
  for (char f = 'a'; f <= 'i'; ++f)
    for (char r = '1'; r <= '9'; ++r) points.push_back(std::string{f, r});
  for (const char* spec : {"perali-kotuma", "perali-kotuma:huffing=on"}) {
    auto game = make_game(spec);
    REQUIRE(game.ok());
    State s = game->initial_state();
    std::mt19937_64 rng(7);
    for (int ply = 0; ply < 60 && !s.is_terminal(); ++ply) {
      const auto legal = s.legal_moves();
      std::vector<std::string> candidates = legal;
      for (const auto& p : points)
        for (const auto& q : points) {
          candidates.push_back(p + "-" + q);
          candidates.push_back(p + "x" + q);
          candidates.push_back("!" + q + "," + p + "-" + q);
        }
      for (const auto& m : legal)
        for (const auto& q : points) {
          candidates.push_back(m + "x" + q);
          candidates.push_back("!" + q + "," + m);
        }
      int disagreements = 0;
      for (const auto& c : candidates) {
        State copy = s;
        if (copy.apply(c).ok() != has(legal, c)) {
          ++disagreements;
          FAIL_CHECK(spec << " " << s.to_string() << " " << c);
        }
      }
      CHECK(disagreements == 0);
      REQUIRE(s.apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)])
                  .ok());
    }
  }
}
