// `referee egdb build`: solves the layers of 0..N seeds one after the other and appends each to
// the table's file as soon as it is finished, so an interrupted build loses at most the layer it
// was solving. Run again with the same file, it checks what is there (game, checksum), cuts off
// a partial layer and goes on; with a larger N it extends a finished table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/game.h"

namespace referee::games::egdb {

struct BuildOptions {
  int seeds = 0;     // the most seeds on the board, 0..kMaxSeeds
  std::string path;  // the table's file
  int threads = 1;
  std::function<void(const std::string&)> progress;  // one line at a time, without '\n'
};

struct LayerFigures {
  int seeds = 0;
  std::uint64_t positions = 0;
  int iterations = 0;
  int converged_at = -1;
  double seconds = 0;
};

struct BuildReport {
  int resumed_layers = 0;            // whole layers found in the file
  int seeds = 0;                     // the table's most seeds now (more than asked if it had)
  std::vector<LayerFigures> solved;  // the layers this run solved
  std::uint64_t file_bytes = 0;
  std::uint64_t checksum = 0;
};

Expected<BuildReport> build_table(const Game& game, const BuildOptions& options);

}  // namespace referee::games::egdb
