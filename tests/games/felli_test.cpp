// felli: the seed's opening and pictures, one scenario per rule, bad input, perft, conformance.
#include <catch2/catch.hpp>

#include "games/conformance.h"
#include "games/game.h"
#include "games/game_test_util.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

const std::string kStart = "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:-:0:0";

}  // namespace

TEST_CASE("felli: start position") {
  auto game = make_game("felli");
  REQUIRE(game.ok());
  CHECK(game->initial_state().to_string() == kStart);
  CHECK(game->initial_state() == at("felli", kStart));
  CHECK(game->canonical() == "felli:first=1,nocapture=20,maxplies=2000");
}

// "Le premier joueur déplace un de ses pions vers la case centrale. C'est ensuite au tour du second
// joueur qui se voit dans l'obligation de prendre. Puis le 1er joueur devra prendre à son tour."
TEST_CASE("felli: SeedOpeningFollowsFromTheRules") {
  CHECK(at("felli", kStart).legal_moves() == Moves{"b2-c3", "c2-c3", "d2-c3"});
  const std::vector<Moves> lines = {
      {"b2-c3", "d4xb2", "a1xc3"}, {"c2-c3", "c4xc2", "c1xc3"}, {"d2-c3", "b4xd2", "e1xc3"}};
  for (const auto& line : lines) {
    State s = after_moves("felli", kStart, {line[0]});
    CHECK(s.legal_moves() == Moves{line[1]});  // the second player must capture
    s = after_moves("felli", s.to_string(), {line[1]});
    CHECK(s.legal_moves() == Moves{line[2]});  // then the first player must capture
  }
  CHECK(after_moves("felli", kStart, {"c2-c3", "c4xc2", "c1xc3"}).to_string() ==
        "o-o-o/-o1o-/--x--/-x1x-/x-1-x:2:-:-:0:3");
}

// "Blanc peut prendre un des 2 pions noirs avec sa dame et s'arrêter juste après ou continuer après
// avoir pris le pion central. Blanc peut aussi prendre avec son pion. Si c'est au tour de noir, le
// pion central peut prendre le pion blanc." White = South: king a5, man b2; Black c5 and c3.
TEST_CASE("felli: seed picture — the king takes either piece, lands anywhere beyond") {
  const std::string white = "X-o-1/-3-/--o--/-x2-/1-1-1:1:-:-:0:0";
  CHECK(at("felli", white).legal_moves() == Moves{"a5xd2", "a5xe1", "a5xe5", "b2xd4"});
  CHECK(after_moves("felli", white, {"a5xe1"}).to_string() ==
        "1-o-1/-3-/--1--/-x2-/1-1-X:2:-:-:0:1");
  const std::string black = "X-o-1/-3-/--o--/-x2-/1-1-1:2:-:-:0:0";
  CHECK(at("felli", black).legal_moves() == Moves{"c3xa1"});
}

// "Noir peut prendre le 1er pion blanc, mais ne peut pas continuer en prenant le deuxième."
TEST_CASE("felli: seed picture — one capture per turn") {
  const std::string man = "1-o-1/-1x1-/--1--/-1x1-/1-1-1:2:-:-:0:0";
  CHECK(at("felli", man).legal_moves() == Moves{"c5xc3"});
  State s = after_moves("felli", man, {"c5xc3"});
  CHECK(s.to_string() == "1-1-1/-3-/--o--/-1x1-/1-1-1:1:-:-:0:1");
  CHECK(s.legal_moves() == Moves{"c2xc4"});  // White's turn: the capture back is compulsory
  // A king cannot take both either: it lands on c3, the only empty point before c2.
  CHECK(at("felli", "1-O-1/-1x1-/--1--/-1x1-/1-1-1:2:-:-:0:0").legal_moves() == Moves{"c5xc3"});
}

TEST_CASE("felli: MenStepForwardOrSidewaysNeverBack") {
  // South man on c3: forward b4 c4 d4 only (c3 has no sideways line).
  CHECK(at("felli", "1-1-O/-3-/--x--/-3-/1-1-1:1:-:-:0:0").legal_moves() ==
        Moves{"c3-b4", "c3-c4", "c3-d4"});
  // South man on c2: forward c3, sideways b2 d2; never c1.
  CHECK(at("felli", "1-1-O/-3-/--1--/-1x1-/1-1-1:1:-:-:0:0").legal_moves() ==
        Moves{"c2-b2", "c2-c3", "c2-d2"});
  // North man on c4: forward (rank down) c3, sideways b4 d4.
  CHECK(at("felli", "1-1-1/-1o1-/--1--/-3-/X-1-1:2:-:-:0:0").legal_moves() ==
        Moves{"c4-b4", "c4-c3", "c4-d4"});
}

TEST_CASE("felli: KingsSlideAnyDistanceAnyDirection") {
  CHECK(at("felli", "1-1-O/-3-/--1--/-3-/X-1-1:1:-:-:0:0").legal_moves() ==
        Moves{"a1-b2", "a1-c1", "a1-c3", "a1-d4", "a1-e1"});
  // Blocked by an own piece: no slide past it.
  CHECK(at("felli", "1-1-O/-3-/--x--/-3-/X-1-1:1:-:-:0:0").legal_moves() ==
        Moves{"a1-b2", "a1-c1", "a1-e1", "c3-b4", "c3-c4", "c3-d4"});
}

TEST_CASE("felli: CaptureIsCompulsory") {
  // The man on e1 could step, but the man on c3 must capture d4.
  CHECK(at("felli", "1-1-1/-2o-/--x--/-3-/1-1-x:1:-:-:0:0").legal_moves() == Moves{"c3xe5"});
}

TEST_CASE("felli: ManCapturesBackwardsWithoutPromotion") {
  State s = after_moves("felli", "o-1-1/-3-/--x--/-1o1-/1-1-1:1:-:-:0:0", {"c3xc1"});
  CHECK(s.to_string() == "o-1-1/-3-/--1--/-3-/1-x-1:2:-:-:0:1");
}

TEST_CASE("felli: PromotionOnTheFarRow") {
  CHECK(after_moves("felli", "1-1-1/-1x1-/--1--/-3-/O-1-1:1:-:-:0:0", {"c4-c5"}).to_string() ==
        "1-X-1/-3-/--1--/-3-/O-1-1:2:c4-c5:-:1:1");
  // By a capture too.
  CHECK(after_moves("felli", "1-1-1/-1o1-/--x--/-3-/O-1-1:1:-:-:0:0", {"c3xc5"}).to_string() ==
        "1-X-1/-3-/--1--/-3-/O-1-1:2:-:-:0:1");
  // North promotes on rank 1.
  CHECK(after_moves("felli", "1-1-X/-3-/--1--/-1o1-/1-1-1:2:-:-:0:0", {"c2-c1"}).to_string() ==
        "1-1-X/-3-/--1--/-3-/1-O-1:1:-:c2-c1:1:1");
}

TEST_CASE("felli: NoReturnToThePreviousPoint") {
  // The king slid c3 -> c4; on its next turn it may not end on c3, but may slide over it.
  State s = at("felli", "1-1-1/-1X1-/--1--/-3-/O-1-1:1:c3-c4:-:0:0");
  auto moves = s.legal_moves();
  CHECK(std::count(moves.begin(), moves.end(), "c4-c3") == 0);
  CHECK(std::count(moves.begin(), moves.end(), "c4-c2") == 1);
  CHECK(std::count(moves.begin(), moves.end(), "c4-c1") == 1);
  // Sideways men too: b2 -> c2 then c2 -> b2 is forbidden on the next turn.
  State m = after_moves("felli", "1-1-O/-3-/--1--/-x2-/1-1-1:1:-:-:0:0", {"b2-c2", "e5-d4"});
  CHECK(m.legal_moves() == Moves{"c2-c3", "c2-d2"});
}

TEST_CASE("felli: MarkStaysAfterPromotion") {
  State s = after_moves("felli", "1-1-1/-x2-/--1--/-3-/1-1-O:1:-:-:0:0", {"b4-a5", "e1-c1"});
  CHECK(s.to_string() == "X-1-1/-3-/--1--/-3-/1-O-1:1:b4-a5:e1-c1:2:2");
  auto moves = s.legal_moves();
  CHECK(std::count(moves.begin(), moves.end(), "a5-b4") == 0);
  CHECK(std::count(moves.begin(), moves.end(), "a5-c3") == 1);
}

TEST_CASE("felli: CapturesIgnoreTheNoReturnMark") {
  // The king slid b2 -> e5; it may capture d4 and land on b2 all the same.
  State s = at("felli", "1-1-X/-2o-/--1--/-3-/1-1-1:1:b2-e5:-:0:0");
  CHECK(s.legal_moves() == Moves{"e5xa1", "e5xb2", "e5xc3"});
}

TEST_CASE("felli: OnlyForbiddenReturnsMeansNoMoveAndLoses") {
  // South's only piece, a man on a1 that came from c1, can only go back to c1: b2 holds a North
  // piece that a1 cannot take (c3 behind it is occupied).
  State s = at("felli", "1-1-1/-3-/--o--/-o2-/x-1-1:1:c1-a1:-:0:0");
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "rules");
  CHECK(s.outcome().ranks == std::vector<int>{2, 1});
  // Without the mark the step back is legal.
  CHECK(at("felli", "1-1-1/-3-/--o--/-o2-/x-1-1:1:-:-:0:0").legal_moves() == Moves{"a1-c1"});
}

TEST_CASE("felli: NoPieceLoses") {
  State s = after_moves("felli", "1-1-1/-3-/--1--/-1o1-/1-x-1:1:-:-:0:0", {"c1xc3"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  CHECK(s.outcome().scores == std::vector<double>{1, 0});
}

TEST_CASE("felli: TwentyPliesWithoutCaptureMorePiecesWins") {
  State s = after_moves("felli", "1-1-O/-3-/--1--/-x1x-/1-1-1:1:-:-:19:40", {"b2-c3"});
  REQUIRE(s.is_terminal());
  CHECK(s.outcome().reason == "nocapture");
  CHECK(s.outcome().scores == std::vector<double>{2, 1});  // a king counts one
  CHECK(s.outcome().ranks == std::vector<int>{1, 2});
  State d = after_moves("felli", "1-1-O/-3-/--1--/-x2-/1-1-1:1:-:-:19:40", {"b2-c3"});
  REQUIRE(d.is_terminal());
  CHECK(d.outcome().ranks == std::vector<int>{1, 1});
}

TEST_CASE("felli: NoReturnMarksArePartOfThePosition") {
  State a = at("felli", "1-1-1/-1X1-/--1--/-3-/O-1-1:1:c3-c4:-:0:0");
  State b = at("felli", "1-1-1/-1X1-/--1--/-3-/O-1-1:1:-:-:0:0");
  CHECK_FALSE(a == b);
  CHECK(a.hash() != b.hash());
  // A captured piece's mark is dropped (it can no longer restrict anything).
  CHECK(after_moves("felli", "1-1-1/-1o1-/--x--/-3-/1-1-1:1:-:c5-c4:0:0", {"c3xc5"}).to_string() ==
        "1-X-1/-3-/--1--/-3-/1-1-1:2:-:-:0:1");
}

TEST_CASE("felli: FirstPlayerParameter") {
  auto game = make_game("felli:first=2");
  REQUIRE(game.ok());
  CHECK(game->initial_state().to_string() == "o-o-o/-ooo-/--1--/-xxx-/x-x-x:2:-:-:0:0");
  CHECK(game->initial_state().legal_moves() == Moves{"b4-c3", "c4-c3", "d4-c3"});
}

TEST_CASE("felli: BadPositionsAreErrors") {
  check_bad_positions(
      "felli",
      {"",
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:-",          // no counters
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:0:0",        // a mark missing
       "o-o-o/-ooo-/--1--/-xxx-:1:-:-:0:0",            // four ranks
       "o-o-o/-ooo-/--1--/-xxx-/x-x-xx:1:-:-:0:0",     // rank too long
       "o-o-o/-ooo-/---/-xxx-/x-x-x:1:-:-:0:0",        // '-' on c3
       "o-o-o/-ooo-/-x1--/-xxx-/x-x-x:1:-:-:0:0",      // piece on a non-point
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:3:-:-:0:0",      // player 3
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:-:x:0",      // bad counter
       "o-o-o/-ooo-/--o--/-xxx-/x-x-x:1:-:-:0:0",      // 7 North pieces
       "x-1-1/-3-/--1--/-3-/1-1-o:1:-:-:0:0",          // South man on its far row
       "1-1-1/-3-/--1--/-1x1-/1-o-1:1:-:-:0:0",        // North man on rank 1
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:b4-a1:-:0:0",  // mark not along a line
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:c1-c2:-:0:0",  // mark: own piece on its first point
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:c2-c4:-:0:0",  // mark's piece is not South's
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:c9-c2:-:0:0",  // not a point
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:c1:-:0:0",     // not P-Q
       "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:b4-c3:0:0",  // North's mark: no North piece on c3
       "o-o-o/-ooo-/--x--/-xx1-/x-x-x:1:-:c3-c4:0:0",  // North's just-made mark: c3 occupied
       "o-o-o/-ooo-/--y--/-xxx-/x-x-x:1:-:-:0:0",      // unknown letter
       "o-o-o/-ooo-/--01--/-xxx-/x-x-x:1:-:-:0:0"});
  State s = start("felli");
  check_bad_moves(s, {"c3", "c2-c4", "c2xc3", "a1-b2", "c2-c3 ", "pass", "", "C2-c3", "c2c3"});
}

// Golden counts cross-checked with an independent implementation of rules.md (the first 12 plies
// include repetitions: the history rules of rules.md §0 apply in both).
TEST_CASE("felli: perft from the start") {
  State s = at("felli", kStart);
  check_perft(s, {1, 3, 3, 3, 7, 19, 28, 54, 176, 722, 1902, 6772, 17082});
}

TEST_CASE("felli: perft from the seed's king picture") {
  State s = at("felli", "X-o-1/-3-/--o--/-x2-/1-1-1:1:-:-:0:0");
  check_perft(s, {1, 4, 9, 55, 87, 298, 411, 1290, 2338});
}

TEST_CASE("felli: draw shows points, lines, pieces and coordinates") {
  const std::string board = at("felli", kStart).draw(BoardWords::English);
  CHECK(board.find("  5  o-------o-------o\n") != std::string::npos);
  CHECK(board.find("  3          .\n") != std::string::npos);
  CHECK(board.find("     a   b   c   d   e\n") != std::string::npos);
}

TEST_CASE("felli: conformance sweep", "[slow]") {
  auto o = testing::counting_pieces();
  CHECK(testing::conformance_sweep("felli", o) > 0);
  CHECK(testing::conformance_sweep("felli:first=2", o) > 0);
}
