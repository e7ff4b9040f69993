// An endgame table in memory, and probing it: the probe API of `referee egdb probe`, of the
// Python module and of adjudication.
//
// Decisions:
// - open_table() reads the whole file and checks its checksum before anything is answered: a
//   table is pinned by its checksum, so a probe never answers from a file that is not the one
//   pinned. The cost is one pass over the file (EGDB.md, Benchmarks).
// - probe() answers for positions of the table's game with at most table.seeds() seeds on the
//   board; others get nullopt (not an error: a game simply is not in the table yet).
// - `exact` says whether value and best moves are perfect play from this state, its counters
//   included, the repetition limit set aside; EGDB.md, "Cycles and exhaustion", says when.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/egdb/model.h"
#include "games/egdb/solver.h"
#include "games/game.h"

namespace referee::games::egdb {

class Table {
 public:
  Table(Model model, Layers layers, std::vector<Settled> settled, std::uint64_t checksum,
        std::vector<int> converged_at)
      : model_(std::move(model)),
        layers_(std::move(layers)),
        settled_(std::move(settled)),
        checksum_(checksum),
        converged_at_(std::move(converged_at)) {}

  const Model& model() const { return model_; }
  const Layers& layers() const { return layers_; }
  const std::vector<Settled>& settled() const { return settled_; }
  // The most seeds on the board of a position in the table.
  int seeds() const { return static_cast<int>(layers_.size()) - 1; }
  std::uint64_t checksum() const { return checksum_; }
  // Per seed count: the iteration its layer converged at, -1 when stopped at the limit.
  int converged_at(int seeds) const { return converged_at_[static_cast<std::size_t>(seeds)]; }

 private:
  Model model_;
  Layers layers_;
  std::vector<Settled> settled_;
  std::uint64_t checksum_;
  std::vector<int> converged_at_;
};

Expected<Table> open_table(const std::string& path);

struct Probe {
  int mover = 1;                        // the player to move (1 South, 2 North)
  int value = 0;                        // the mover's margin from the seeds on the board
  int margin = 0;                       // the final margin, mover's score − opponent's
  std::array<int, 2> final_scores{};    // South's and North's final scores under perfect play
  std::vector<std::string> best_moves;  // every move reaching `value`, sorted like legal_moves()
  // The value and the best moves are perfect play under the game's rules from this state (its
  // nocapture counter and ply included), the repetition limit set aside (EGDB.md).
  bool exact = false;
};

// The position `state` of `game`. An Invalid error when the table is of another game; nullopt
// when the game is over or more seeds than the table's are on the board.
Expected<std::optional<Probe>> probe(const Table& table, const Game& game, const State& state);

}  // namespace referee::games::egdb
