// Head-to-head results and the crosstable (`referee crosstable`): for every two engines that met,
// their wins, draws and losses (N-player games split into pairwise results by rank), their score,
// and for two-player games their game pairs (pentanomial counts); printed as text, CSV or JSON.
#pragma once

#include <string>
#include <vector>

#include "ratings/pairs.h"
#include "ratings/pentanomial.h"
#include "storage/results.h"
#include "storage/store.h"

namespace referee::ratings {

struct HeadToHead {
  std::string engine, opponent;
  Trinomial games;    // from `engine`'s side
  Pentanomial pairs;  // from `engine`'s side
  int unpaired = 0;   // two-player games between them without a partner
  double score() const {
    const auto n = games.total();
    return n ? (double(games.wins) + double(games.draws) / 2) / double(n) : 0;
  }
};

// The results between a and b, from a's side.
HeadToHead head_to_head(const std::vector<const storage::GameRecord*>& games, const std::string& a,
                        const std::string& b);

struct CrossEngine {
  std::string name;
  int games = 0;  // pairwise
  double points = 0;
};

struct Crosstable {
  std::string title;  // the canonical game string, or "all games"
  std::size_t games = 0;
  std::vector<CrossEngine> engines;  // by score share, best first (then name)
  // Every two engines that met, once, `engine` the higher in `engines`.
  std::vector<HeadToHead> pairs;
};

// The crosstable of these games (whole records: a live event, the daemon's views).
Crosstable make_crosstable(const std::string& title,
                           const std::vector<const storage::GameRecord*>& games);

// From results counted in the database and the game pairs counted from the same selection (what
// `referee crosstable` uses, in bounded memory): one table per canonical game string, then "all
// games" when there are several; --min-games per table, as the rating tables apply it.
std::vector<Crosstable> crosstables(const storage::ResultSet& results, const PairCounts& pairs,
                                    int min_games);

std::string crosstable_text(const std::vector<Crosstable>& tables);
std::string crosstable_csv(const std::vector<Crosstable>& tables);
std::string crosstable_json(const std::vector<Crosstable>& tables);

}  // namespace referee::ratings
