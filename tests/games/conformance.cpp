#include "games/conformance.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <catch2/catch.hpp>

#include "sanitizers.h"

namespace referee::games::testing {

long sum_of_fields(const std::string& position, int fields) {
  long total = 0, current = 0;
  int field = 0;
  bool in_number = false;
  for (char c : position) {
    if (c == ':' && ++field >= fields) break;
    if (c >= '0' && c <= '9') {
      current = current * 10 + (c - '0');
      in_number = true;
    } else {
      if (in_number) total += current;
      current = 0;
      in_number = false;
    }
  }
  if (in_number) total += current;
  return total;
}

SweepOptions counting_seeds(int fields) {
  SweepOptions o;
  o.quantity = [fields](const State& s) { return sum_of_fields(s.to_string(), fields); };
  return o;
}

SweepOptions counting_pieces() {
  SweepOptions o;
  o.quantity = [](const State& s) {
    const std::string p = s.to_string();
    long n = 0;
    for (char c : p.substr(0, p.find(':')))
      n += std::isalpha(static_cast<unsigned char>(c)) ? 1 : 0;
    return n;
  };
  o.quantity_may_shrink = true;
  return o;
}

long conformance_sweep(const std::string& spec, const SweepOptions& options) {
  auto game = make_game(spec);
  REQUIRE(game.ok());
  std::mt19937_64 rng(options.seed);
  long plies = 0;
  // Half under AddressSanitizer (conformance.h says why).
  const int playouts = REFEREE_TEST_ASAN ? (options.playouts + 1) / 2 : options.playouts;
  for (int playout = 0; playout < playouts; ++playout) {
    State state = game->initial_state();
    const long start_quantity = options.quantity ? options.quantity(state) : 0;
    long previous = start_quantity;
    std::vector<std::string> history;
    while (!state.is_terminal()) {
      INFO(spec << " playout " << playout << " position " << state.to_string());
      // Position strings round-trip.
      auto parsed = game->parse_state(state.to_string());
      REQUIRE(parsed.ok());
      REQUIRE(parsed->to_string() == state.to_string());
      REQUIRE(parsed->hash() == state.hash());
      std::string move;
      if (!state.setup_form().empty()) {
        REQUIRE(options.setup);
        REQUIRE(state.legal_moves().empty());
        move = options.setup(state, rng);
      } else {
        auto moves = state.legal_moves();
        REQUIRE_FALSE(moves.empty());
        REQUIRE(std::is_sorted(moves.begin(), moves.end()));
        REQUIRE(std::adjacent_find(moves.begin(), moves.end()) == moves.end());
        for (const auto& m : moves) {
          REQUIRE(m.find_first_of(" \t\n") == std::string::npos);
          State copy = state;
          REQUIRE(copy.apply(m).ok());
        }
        if (state.is_forced()) REQUIRE(moves.size() == 1);
        move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      }
      const int before = state.ply();
      REQUIRE(state.apply(move).ok());
      REQUIRE(state.ply() == before + 1);
      history.push_back(move);
      ++plies;
      REQUIRE(state.ply() <= game->max_plies());
      if (options.quantity) {
        long now = options.quantity(state);
        if (options.quantity_may_shrink)
          REQUIRE(now <= previous);
        else
          REQUIRE(now == start_quantity);
        previous = now;
      }
    }
    // A finished game has no moves and a consistent outcome; replaying its moves reproduces it.
    REQUIRE(state.legal_moves().empty());
    REQUIRE(state.current_player() == 0);
    auto outcome = state.outcome();
    REQUIRE(outcome.ranks.size() == static_cast<std::size_t>(state.num_players()));
    REQUIRE_FALSE(outcome.reason.empty());
    REQUIRE(std::count(outcome.ranks.begin(), outcome.ranks.end(), 1) >= 1);
    auto replay = state_after(*game, "", history);
    REQUIRE(replay.ok());
    REQUIRE(*replay == state);
  }
  return plies;
}

}  // namespace referee::games::testing
