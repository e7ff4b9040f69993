// random_engine: plays a uniformly random legal move (setups: a random valid setup). Seeded by the
// `Seed` option or `--seed N`; the same seed and position give the same move.
#include <random>

#include "protocol/sdk/engine.h"

int main(int argc, char** argv) {
  referee::sdk::EngineInfo info{"random_engine", "referee examples"};
  info.default_seed = referee::sdk::seed_from_args(argc, argv);
  return referee::sdk::run(
      info,
      [](const referee::games::State& state, const referee::sdk::Limits& limits) -> std::string {
        const auto moves = state.legal_moves();
        if (moves.empty()) return state.sample_setup(limits.seed);
        std::mt19937_64 rng(limits.seed);
        std::uniform_int_distribution<std::size_t> pick(0, moves.size() - 1);
        return moves[pick(rng)];
      });
}
