// Retrograde analysis of one seed count ("layer"), given the layers below it.
//
// A move that captures (awale) or sows into a store (kalaha) leaves fewer seeds on the board: its
// value comes from a finished layer. A move that does neither stays in the layer, and the layer's
// positions may form cycles (awale), so the layer is solved by value iteration (EGDB.md):
//   V0(p) = rows_value(p)   (the exhaustion scoring: each keeps the seeds of his row)
//   Vi(p) = the game's own end when p is over, else the best of the moves, a move staying in the
//           layer being worth −V(i−1) of its position (+V(i−1) after kalaha's extra turn).
// Vi is exactly the value of the game in which i plies without leaving the layer end it by
// exhaustion, so iteration stops at the game's `nocapture` (awale) or as soon as Vi = V(i−1),
// after which every later Vi is the same (the layer "converged").
// Each iteration reads V(i−1) and writes Vi (never in place: Vi must not see part of itself);
// the positions are split between threads in contiguous slices.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "games/egdb/model.h"

namespace referee::games::egdb {

using Values = std::vector<std::int8_t>;
// Per position: the last iteration that changed its value (0: never). V(k) equals the stored
// value for every k at or after it, up to the iteration limit.
using Settled = std::vector<std::uint8_t>;
using Layers = std::vector<Values>;  // Layers[n]: the values of the positions of n seeds

// Iterations stop here whatever happens (a layer that neither converges nor has a nocapture):
// Settled holds iteration numbers in a byte.
inline constexpr int kIterationLimit = kMaxNocapture;

// The value of `pos` (n seeds, n < layers.size(), or n == seeds of `current`).
int value_of(const Model& m, const Layers& layers, const Pos& pos, int seeds,
             const Values* current = nullptr, int current_seeds = -1);
// A move's worth to the mover of the position it is played from.
int child_value(const Model& m, const Layers& layers, const Child& c,
                const Values* current = nullptr, int current_seeds = -1);

struct LayerResult {
  Values values;
  Settled settled;
  int iterations = 0;     // iterations run
  int converged_at = -1;  // the first i with Vi = V(i+1) = ..., or -1 when stopped at the limit
};

// progress(iteration, positions changed by it), called after each iteration.
using IterationProgress = std::function<void(int, std::uint64_t)>;

LayerResult solve_layer(const Model& m, const Layers& below, int seeds, int threads,
                        const IterationProgress& progress = {});

}  // namespace referee::games::egdb
