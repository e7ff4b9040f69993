// Counted results (storage/results.h) grouped into the tables that `ratings` and `crosstable`
// print: one per canonical game string, in string order, then "all games" when there are several;
// and --min-games applied to a table.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "storage/results.h"

namespace referee::ratings {

// The canonical form of every stored game string of a result set, each through the rules library
// once: `names` holds the distinct canonical strings, `of[k]` the index of results.games[k].
struct Variants {
  std::vector<std::string> names;
  std::vector<std::uint32_t> of;
};
Variants variants_of(const storage::ResultSet& results);

// A table's title and the indices of its patterns.
struct PatternTable {
  std::string title;  // the canonical game string, or "all games"
  std::vector<std::size_t> patterns;
};

// The tables, before --min-games; `game` (canonical, "" = every game) keeps only its table.
std::vector<PatternTable> pattern_tables(const storage::ResultSet& results,
                                         const Variants& variants, const std::string& game);

// Drops the patterns of engines with fewer than min_games pairwise games (N-player games count
// N-1 per player), until every engine left has min_games (a fixpoint).
void drop_rare(const storage::ResultSet& results, std::vector<std::size_t>& patterns,
               int min_games);

// The engines each canonical game string's table keeps under --min-games (drop_rare): what an
// export with --min-games keeps. Only the tables per game string, never "all games": every game
// belongs to exactly one of them.
std::map<std::string, std::set<std::string>> kept_engines(const storage::ResultSet& results,
                                                          int min_games);

}  // namespace referee::ratings
