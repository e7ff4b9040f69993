// greedy_engine: plays the move that maximises its own material() (captures, store, pieces) right
// after the move; ties are broken at random (seeded by the `Seed` option or `--seed N`).
#include <random>

#include "protocol/sdk/engine.h"

int main(int argc, char** argv) {
  referee::sdk::EngineInfo info{"greedy_engine", "referee examples"};
  info.default_seed = referee::sdk::seed_from_args(argc, argv);
  return referee::sdk::run(
      info,
      [](const referee::games::State& state, const referee::sdk::Limits& limits) -> std::string {
        const auto moves = state.legal_moves();
        if (moves.empty()) return state.sample_setup(limits.seed);
        const auto me = static_cast<std::size_t>(limits.player - 1);
        std::vector<std::string> best;
        double best_value = 0;
        for (const auto& move : moves) {
          referee::games::State next = state;
          if (!next.apply(move)) continue;
          const auto material = next.material();
          const double value = me < material.size() ? material[me] : 0.0;
          if (best.empty() || value > best_value) {
            best = {move};
            best_value = value;
          } else if (value == best_value) {
            best.push_back(move);
          }
        }
        if (best.empty()) return moves.front();
        std::mt19937_64 rng(limits.seed);
        return best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(rng)];
      });
}
