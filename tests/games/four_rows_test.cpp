// four_rows: the 4×n hole numbering of rules.md §1, checked on n = 8 and n = 16.
#include <catch2/catch.hpp>

#include "games/four_rows.h"

using namespace referee::games;

TEST_CASE("four_rows: numbering of rules.md §1 on 4x8") {
  const int n = 8;
  CHECK(four_rows::outer_hole(n, 1, 0) == 1);
  CHECK(four_rows::inner_hole(n, 1, 0) == 16);
  CHECK(four_rows::outer_hole(n, 2, 0) == 24);
  CHECK(four_rows::inner_hole(n, 2, 0) == 25);
  CHECK(four_rows::inner_hole(n, 2, 7) == 32);
  for (int h = 1; h <= 4 * n; ++h) {
    const int c = four_rows::column(n, h);
    const int p = four_rows::owner(n, h);
    const int back =
        four_rows::is_inner(n, h) ? four_rows::inner_hole(n, p, c) : four_rows::outer_hole(n, p, c);
    CHECK(back == h);
  }
  CHECK(four_rows::facing(n, 16) == 25);
  CHECK(four_rows::facing(n, 9) == 32);
  CHECK(four_rows::facing(n, 32) == 9);
  CHECK(four_rows::behind(n, 16) == 1);
  CHECK(four_rows::behind(n, 9) == 8);
  CHECK(four_rows::behind(n, 25) == 24);
  CHECK(four_rows::behind(n, 32) == 17);
  CHECK_FALSE(four_rows::is_inner(n, 8));
  CHECK(four_rows::is_inner(n, 9));
  CHECK_FALSE(four_rows::is_inner(n, 24));
  CHECK(four_rows::is_inner(n, 25));
}

TEST_CASE("four_rows: sowing stays in the owner's block") {
  const int n = 16;
  CHECK(four_rows::ccw(n, 32) == 1);
  CHECK(four_rows::ccw(n, 1) == 2);
  CHECK(four_rows::ccw(n, 64) == 33);
  CHECK(four_rows::cw(n, 33) == 64);
  CHECK(four_rows::cw(n, 1) == 32);
  CHECK(four_rows::facing(n, 32) == 49);
  CHECK(four_rows::ring(n, 2).front() == 33);
  CHECK(four_rows::ring(n, 2).size() == 32);
}

TEST_CASE("four_rows: draw shows every hole number and count") {
  std::vector<int> holes(32);
  for (int h = 1; h <= 32; ++h) holes[static_cast<std::size_t>(h - 1)] = h % 10;
  const std::string board = four_rows::draw(8, holes, 3, 5, BoardWords::Seed);
  CHECK(board.find("NORD  [ 4] [ 3]") != std::string::npos);  // holes 24, 23
  CHECK(board.find("SUD   [ 1] [ 2]") != std::string::npos);  // holes 1, 2
  CHECK(board.find("   24   23") != std::string::npos);
  CHECK(board.find("   16   15") != std::string::npos);
  CHECK(board.find("NORD a 3 bille(s).\nSUD a 5 bille(s).\n") != std::string::npos);
}
