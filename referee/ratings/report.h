// Standings and Elo tables from stored games: per game, and across all games when there are
// several. Used by `referee tournament`, `referee match` and `referee ratings`.
#pragma once

#include <string>
#include <vector>

#include "storage/store.h"

namespace referee {

// The name part of a canonical game string: "oware:players=3,..." -> "oware".
std::string game_name(const std::string& canonical);

// Text with, for each game name present (and "all games" when there are several), a title line
// and the Elo table of fit_elo over the finished games, plus a terminations summary.
std::string ratings_report(const std::vector<storage::GameRecord>& games);

}  // namespace referee
