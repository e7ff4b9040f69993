// State equality: the same position of the same game, never a position of another game that
// happens to share its C++ core type or its position string.
#include <catch2/catch.hpp>

#include "games/game.h"

using referee::games::Game;
using referee::games::make_game;

namespace {

Game game(const char* spec) {
  auto g = make_game(spec);
  REQUIRE(g.ok());
  return *g;
}

}  // namespace

TEST_CASE("state ==: equal positions of one game are equal, from any Game object") {
  auto a = game("awale").initial_state();
  auto b = game("awale").initial_state();  // another Game object, the same canonical string
  CHECK(a == b);
  REQUIRE(a.apply("3").ok());
  CHECK_FALSE(a == b);
  REQUIRE(b.apply("3").ok());
  CHECK(a == b);
  auto parsed = game("awale").parse_state(a.to_string());
  REQUIRE(parsed.ok());
  CHECK(*parsed == a);
}

TEST_CASE("state ==: awale and awale-v1 positions are never equal, though their strings are") {
  auto awale = game("awale").initial_state();
  auto v1 = game("awale-v1").initial_state();
  REQUIRE(awale.to_string() == v1.to_string());
  CHECK_FALSE(awale == v1);
  CHECK_FALSE(v1 == awale);
}

TEST_CASE("state ==: one game with other parameters is another game") {
  auto plain = game("awale").initial_state();
  auto illegal = game("awale:grandslam=illegal").initial_state();
  REQUIRE(plain.to_string() == illegal.to_string());
  CHECK_FALSE(plain == illegal);
  CHECK(game("awale:grandslam=nocapture").initial_state() == plain);  // the default, spelt out
}

TEST_CASE("state ==: games with different cores are never equal") {
  CHECK_FALSE(game("awale").initial_state() == game("kalaha").initial_state());
  CHECK_FALSE(game("oware").initial_state() == game("oware:players=3").initial_state());
}
