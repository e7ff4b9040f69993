// Multi-round games (pallankuli): one stored game whose record shows where each round begins.
#include <catch2/catch.hpp>
#include <random>

#include "games/game.h"
#include "match/match.h"
#include "match/replay.h"

using namespace referee;
using namespace referee::match;

namespace {

// A pallankuli position (and its game) in which the first legal move ends the round.
std::pair<std::string, int> position_before_round_end(const games::Game& game) {
  std::mt19937_64 rng(7);
  for (int attempt = 0; attempt < 200; ++attempt) {
    auto state = game.initial_state();
    while (!state.is_terminal()) {
      auto moves = state.legal_moves();
      auto next = state;
      REQUIRE(next.apply(moves.front()).ok());
      if (next.round() != state.round() && !next.is_terminal())
        return {state.to_string(), state.ply()};
      REQUIRE(
          state.apply(moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)])
              .ok());
    }
  }
  FAIL("no round end found");
  return {};
}

}  // namespace

TEST_CASE("rounds: a move that begins a new round is marked in the record") {
  auto probe = games::make_game("pallankuli");
  REQUIRE(probe.ok());
  auto [position, ply] = position_before_round_end(*probe);
  // A few plies more, then the game ends by maxplies: the test stays short.
  auto game = games::make_game("pallankuli:maxplies=" + std::to_string(ply + 6));
  REQUIRE(game.ok());
  engines::SpawnSpec spec;
  spec.command = SUPPORT_DIR "/mock_engine";
  auto a = EngineSession::start(spec, {});
  auto b = EngineSession::start(spec, {});
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  std::string detail;
  REQUIRE(a->prepare(*game, detail) == Fault::None);
  REQUIRE(b->prepare(*game, detail) == Fault::None);
  MatchSetup setup{*game, position, {}, {&*a, &*b}, {}, nullptr, {}, {}, {}};
  setup.time_controls.assign(2, *parse_time_control("movetime=500"));
  auto result = play_match(setup);
  REQUIRE(result.finished);
  REQUIRE_FALSE(result.moves.empty());
  auto start = game->parse_state(position);
  REQUIRE(start.ok());
  CHECK(result.moves.front().note == "round " + std::to_string(start->round() + 1));
  for (std::size_t i = 1; i < result.moves.size(); ++i) CHECK(result.moves[i].note.empty());
  // The position string carries the round too.
  CHECK(result.final_position.find(":" + std::to_string(start->round() + 1) + ":") !=
        std::string::npos);
  a->quit();
  b->quit();
}

TEST_CASE("rounds: games of one round are round 1 throughout") {
  auto game = games::make_game("awale");
  REQUIRE(game.ok());
  auto state = games::state_after(*game, "", {"1", "7", "2"});
  REQUIRE(state.ok());
  CHECK(state->round() == 1);
}
