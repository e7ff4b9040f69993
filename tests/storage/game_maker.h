// Real games for the storage tests: random legal playouts through the rules library, recorded the
// way the match runner records them (every move with its mover and source, ranks and scores from
// the rules' outcome).
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "games/game.h"
#include "storage/store.h"

namespace storage_test {

struct MadeGame {
  referee::storage::GameRecord record;
  std::vector<referee::storage::MoveRecord> moves;
};

// A whole random game of `game` between `players` (seeded); the first `opening` plies are
// recorded as the referee's opening ("opening" moves, also listed in record.opening).
inline MadeGame random_game(const std::string& game, std::vector<std::string> players,
                            std::uint64_t seed, int opening = 0) {
  auto rules = referee::games::make_game(game);
  if (!rules) throw std::runtime_error(rules.error());
  MadeGame out;
  auto& g = out.record;
  g.game = rules->canonical();
  g.players = std::move(players);
  g.time_control = "10+0.1";
  g.started_at = "2026-03-0" + std::to_string(1 + seed % 9) + "T10:00:00Z";
  g.finished_at = "2026-03-0" + std::to_string(1 + seed % 9) + "T10:05:00Z";
  std::mt19937_64 rng(seed);
  auto state = rules->initial_state();
  long clock = 10000;
  while (!state.is_terminal()) {
    std::string move;
    if (!state.setup_form().empty()) {
      move = state.sample_setup(rng());
    } else {
      const auto legal = state.legal_moves();
      move = legal[rng() % legal.size()];
    }
    referee::storage::MoveRecord m;
    m.ply = static_cast<int>(out.moves.size()) + 1;
    m.player = state.current_player();
    m.move = move;
    const int ply = static_cast<int>(out.moves.size());
    if (ply < opening) {
      m.source = "opening";
      g.opening.push_back(move);
    } else if (state.is_forced()) {
      m.source = "forced";
    } else {
      m.time_ms = static_cast<long>(rng() % 300);
      clock = clock - m.time_ms + 100;
      m.clock_ms = clock;
      m.info = "depth " + std::to_string(ply % 7) + " score cp " + std::to_string(ply * 3);
    }
    if (!state.apply(move)) throw std::runtime_error("illegal random move " + move);
    out.moves.push_back(std::move(m));
  }
  const auto outcome = state.outcome();
  g.status = referee::storage::GameStatus::Finished;
  g.ranks = outcome.ranks;
  g.scores = outcome.scores;
  g.termination = outcome.reason == "rules" ? "normal" : outcome.reason;
  g.reason = "game over by the rules (" + outcome.reason + ")";
  g.plies = static_cast<std::int64_t>(out.moves.size());
  return out;
}

}  // namespace storage_test
