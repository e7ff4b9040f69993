// The conformance sweep every game runs (design.md §2): seeded random playouts checking that the
// game ends within its cap, a conserved (or never-growing) quantity, position strings that
// round-trip, and legal moves that are sorted, unique and play back.
// Each sweep's test case is tagged [slow]: 2-12 s in Release, 5-55 s under the sanitizers, as
// every ply replays every legal move. The size is what catches rare rule bugs (a planted capture
// that loses a seed only when it takes 15 or more first failed at awale's playout 853 of 1,000):
// the Release build plays every playout. The sanitizer build plays the first half of them, the
// same seeds: it looks for memory errors and undefined behaviour, which every move generator and
// capture path meets within the first hundreds of playouts, and its full sweeps were 30 % of its
// suite's time.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "games/game.h"

namespace referee::games::testing {

struct SweepOptions {
  int playouts = 1000;
  std::uint64_t seed = 20261123;
  // A quantity computed from a state that must stay equal (seeds) or never grow (pieces).
  std::function<long(const State&)> quantity;
  bool quantity_may_shrink = false;
  // Plays a setup move when the state asks for one (setup_form() non-empty).
  std::function<std::string(const State&, std::mt19937_64&)> setup;
};

// Options for mancala games: the seeds in the position's first `fields` ':'-separated fields
// (board, stores, captures) stay equal.
SweepOptions counting_seeds(int fields);

// Options for board games: the pieces on the board (the letters of the position's first field)
// never grow.
SweepOptions counting_pieces();

// Runs the sweep on `spec`, reporting failures through Catch2; returns the number of plies played.
long conformance_sweep(const std::string& spec, const SweepOptions& options);

// The sum of every decimal number in the position string's first `fields` ':'-separated fields
// (seeds on the board, in stores and captured for most mancala games).
long sum_of_fields(const std::string& position, int fields);

}  // namespace referee::games::testing
