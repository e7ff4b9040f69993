// alphabeta_engine: iterative-deepening alpha-beta on a generic evaluation, for every game.
// - Evaluation, from the root player's side: 100 × (own material() − the others' material());
//   a finished game scores by ranks: WIN × (players ranked below − players ranked above) / (N−1),
//   shortened by the distance so that quicker wins (and slower losses) are preferred.
// - Turn order is whatever the state says (kalaha extra turns, oware's N players): a node
//   maximises when the root player moves and minimises otherwise ("paranoid" search for N > 2,
//   plain minimax for 2).
// - A state with no listed move that is not finished (a setup phase deep in the tree) is a leaf.
// - Limits: `movetime`, or a share of the own clock plus increment (Limits::budget_ms); `depth`
//   and `nodes` cap the search; `stop` ends it; with no limit at all it thinks for one second.
//   The move of the last completed iteration is played; one info line per iteration.
// - Root moves are shuffled by the seed so that equal moves vary between games.
#include <algorithm>
#include <random>

#include "protocol/sdk/engine.h"

namespace {

using referee::games::State;
using referee::sdk::Limits;

constexpr long kWin = 1000000;
constexpr long kInfinity = 2 * kWin;

class Searcher {
 public:
  Searcher(const Limits& limits, int root) : limits_(limits), root_(root) {
    budget_ = limits.budget_ms();
    if (!budget_ && !limits.depth && !limits.nodes && !limits.infinite) budget_ = 1000;
  }

  std::string best_move(const State& state) {
    std::vector<std::string> moves = state.legal_moves();
    std::mt19937_64 rng(limits_.seed);
    std::shuffle(moves.begin(), moves.end(), rng);
    std::string best = moves.front();
    if (moves.size() == 1) return best;
    const int max_depth = limits_.depth ? std::max(1, *limits_.depth) : 100;
    for (int depth = 1; depth <= max_depth; ++depth) {
      depth_limited_ = false;
      long best_value = -kInfinity;
      std::string iteration_best;
      for (const auto& move : moves) {
        State next = state;
        if (!next.apply(move)) continue;
        const long value = search(next, depth - 1, best_value, kInfinity, 1);
        if (aborted_) break;
        if (value > best_value) {
          best_value = value;
          iteration_best = move;
        }
      }
      if (aborted_) break;
      best = iteration_best;
      // Search the best move first next time.
      std::rotate(moves.begin(), std::find(moves.begin(), moves.end(), best),
                  std::find(moves.begin(), moves.end(), best) + 1);
      limits_.info("depth " + std::to_string(depth) + " score " + score_text(best_value) +
                   " nodes " + std::to_string(nodes_) + " time " +
                   std::to_string(limits_.elapsed_ms()) + " pv " + best);
      if (!depth_limited_) break;  // every line reached the end of the game
    }
    return best;
  }

 private:
  long search(const State& state, int depth, long alpha, long beta, int ply) {
    ++nodes_;
    if ((nodes_ & 255) == 0) check_limits();
    if (aborted_) return 0;
    if (state.is_terminal()) return terminal_value(state, ply);
    std::vector<std::string> moves = state.legal_moves();
    if (moves.empty()) return evaluate(state);  // a setup phase: not searched
    if (depth <= 0) {
      depth_limited_ = true;
      return evaluate(state);
    }
    const bool maximise = state.current_player() == root_;
    long best = maximise ? -kInfinity : kInfinity;
    for (const auto& move : moves) {
      State next = state;
      if (!next.apply(move)) continue;
      const long value = search(next, depth - 1, alpha, beta, ply + 1);
      if (aborted_) return 0;
      if (maximise) {
        best = std::max(best, value);
        alpha = std::max(alpha, value);
      } else {
        best = std::min(best, value);
        beta = std::min(beta, value);
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  long evaluate(const State& state) const {
    const auto material = state.material();
    double value = 0;
    for (std::size_t i = 0; i < material.size(); ++i)
      value += static_cast<int>(i) + 1 == root_ ? material[i] : -material[i];
    return static_cast<long>(value * 100);
  }

  long terminal_value(const State& state, int ply) const {
    const auto ranks = state.outcome().ranks;
    const auto me = static_cast<std::size_t>(root_ - 1);
    if (me >= ranks.size() || ranks.size() < 2) return 0;
    long balance = 0;  // players ranked below me minus players ranked above me
    for (int r : ranks) balance += (r > ranks[me]) - (r < ranks[me]);
    const long value = balance * kWin / static_cast<long>(ranks.size() - 1);
    if (value > 0) return value - ply;
    if (value < 0) return value + ply;
    return 0;
  }

  void check_limits() {
    if (limits_.stopped()) aborted_ = true;
    if (limits_.nodes && nodes_ >= *limits_.nodes) aborted_ = true;
    if (budget_ && limits_.elapsed_ms() >= *budget_) aborted_ = true;
  }

  static std::string score_text(long value) {
    if (value >= kWin - 10000) return "mate " + std::to_string(kWin - value);
    if (value <= -kWin + 10000) return "mate -" + std::to_string(kWin + value);
    return "cp " + std::to_string(value);
  }

  const Limits& limits_;
  int root_;
  std::optional<long> budget_;
  long long nodes_ = 0;
  bool aborted_ = false;
  bool depth_limited_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  referee::sdk::EngineInfo info{"alphabeta_engine", "referee examples"};
  info.default_seed = referee::sdk::seed_from_args(argc, argv);
  return referee::sdk::run(info, [](const State& state, const Limits& limits) -> std::string {
    if (state.legal_moves().empty()) return state.sample_setup(limits.seed);
    return Searcher(limits, limits.player).best_move(state);
  });
}
