// `referee bench --ratings N ENGINES`: a database of N games between engines of known ratings,
// then the CPU time, peak RSS and accuracy of `referee ratings` on it, the CPU time and peak RSS
// of `referee crosstable`, and the speed of the streamed export (bench_ratings.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace referee::cli {

// `db_path` empty: a temporary file, removed afterwards; else a new file that is kept.
int bench_ratings(long games, int engines, std::uint64_t seed, const std::string& db_path);

}  // namespace referee::cli
