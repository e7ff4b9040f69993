#include "games/game_test_util.h"

#include <catch2/catch.hpp>

namespace referee::games::testing {

namespace {

Game game_of(const std::string& spec) {
  auto game = make_game(spec);
  INFO(spec << ": " << (game.ok() ? std::string() : game.error()));
  REQUIRE(game.ok());
  return *game;
}

}  // namespace

State start(const std::string& spec) {
  return game_of(spec).initial_state();
}

State at(const std::string& spec, const std::string& position) {
  auto state = game_of(spec).parse_state(position);
  INFO((state.ok() ? std::string() : state.error()));
  REQUIRE(state.ok());
  return *state;
}

State after(const std::string& spec, const std::string& position, const std::string& move) {
  State s = at(spec, position);
  auto status = s.apply(move);
  INFO((status.ok() ? std::string() : status.error()));
  REQUIRE(status.ok());
  return s;
}

State after_moves(const std::string& spec, const std::string& position, const Moves& moves) {
  State s = position.empty() ? start(spec) : at(spec, position);
  for (const auto& m : moves) {
    auto status = s.apply(m);
    INFO(m << ": " << (status.ok() ? std::string() : status.error()));
    REQUIRE(status.ok());
  }
  return s;
}

void check_perft(const State& s, const std::vector<std::uint64_t>& counts) {
  for (std::size_t d = 0; d < counts.size(); ++d) {
    INFO("depth " << d);
    CHECK(s.perft(static_cast<int>(d)) == counts[d]);
  }
}

void check_bad_positions(const std::string& spec, const std::vector<std::string>& positions) {
  const Game game = game_of(spec);
  for (const auto& bad : positions) {
    INFO("position \"" << bad << "\"");
    CHECK_FALSE(game.parse_state(bad).ok());
  }
}

void check_bad_moves(State& s, const Moves& moves) {
  const int ply = s.ply();
  for (const auto& bad : moves) {
    INFO("move \"" << bad << "\"");
    CHECK_FALSE(s.apply(bad).ok());
  }
  CHECK(s.ply() == ply);
}

}  // namespace referee::games::testing
