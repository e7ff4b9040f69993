// Rating tables from stored games, as `referee ratings`, `referee tournament` and `referee match`
// print them: one table per canonical game string (so oware and oware:players=3 are apart), and
// one across all games when there are several; as text, CSV or JSON.
//
// The text states the model (prior, anchor or average), the confidence level and how the errors
// were estimated, the seat advantages and the draw rate, warns about groups that never met, and
// explains LOS and the bounds in footnotes. CSV has one row per engine; JSON has everything,
// including the LOS matrix.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ratings/ratings.h"
#include "storage/results.h"
#include "storage/store.h"

namespace referee::ratings {

// The games of one table.
struct GameTable {
  std::string title;  // the canonical game string, or "all games"
  std::vector<const storage::GameRecord*> games;
};

// One table per canonical game string (in string order), then "all games" when there are
// several. Only finished games with a rank per player count. --min-games applies per table.
std::vector<GameTable> tables_by_game(const std::vector<const storage::GameRecord*>& games,
                                      int min_games);

struct ReportOptions {
  RatingOptions rating;
  std::string game;  // canonical game string: only its table ("" = every table)
  int min_games = 0;
  bool los_matrix = false;  // text: print each group's LOS matrix
};

struct RatingReport {
  std::string title;
  std::size_t games = 0;
  std::map<std::string, int> terminations;
  RatingTable table;
};

// From results counted in the database (storage/results.h): what `referee ratings` uses. The
// results are taken by value so that their memory is free before the last table is fitted.
std::vector<RatingReport> rating_reports(storage::ResultSet results, const ReportOptions& options);
// From whole records: the same, through tally_games.
std::vector<RatingReport> rating_reports(const std::vector<const storage::GameRecord*>& games,
                                         const ReportOptions& options);
// The finished games with a rank per seat, counted as aggregate_results counts them.
storage::ResultSet tally_games(const std::vector<const storage::GameRecord*>& games);

// "lower", "upper", "unrated", or "" for a finite rating: the word in JSON and CSV.
std::string bound_name(Bound b);

std::string report_text(const std::vector<RatingReport>& reports, const ReportOptions& options);
// One row per engine; every row also carries the model the figures depend on: the confidence
// level of `error` in percent, the prior (virtual draws per engine) and, in a group whose scale
// the anchor fixes, the anchor's name and rating (empty: the group's average is 0).
std::string report_csv(const std::vector<RatingReport>& reports, const ReportOptions& options);
std::string report_json(const std::vector<RatingReport>& reports, const ReportOptions& options);

// The text report with default options (what a tournament prints at its end).
std::string ratings_report(const std::vector<storage::GameRecord>& games);
std::string ratings_report(const storage::ResultSet& results);

}  // namespace referee::ratings
