// What the commands that read stored games share: opening the database for reading (one helper,
// so that making it read-only is one change) and the game filters --game, --tournament, --engine,
// --since, --until, --tc, --min-games (ratings/selection.h), as command-line options.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ratings/selection.h"
#include "storage/results.h"
#include "storage/store.h"

namespace referee::cli {

// Opens an existing database read-only: the database file is never created or changed. In a
// writable directory SQLite may leave an empty -wal and a -shm side file next to a WAL database
// (storage/store.h, OpenOptions::read_only). On failure prints one line "referee COMMAND: ..."
// and returns nullopt (a missing file is not created).
std::optional<storage::Store> open_database_for_reading(const std::string& path,
                                                        const std::string& command);

// Adds the filter options, writing into `selection`.
void add_selection_options(boost::program_options::options_description& desc,
                           ratings::GameSelection& selection);

// Normalises the selection and checks the names it uses against the database, then returns the
// query that selects its games (every filter in SQL but --min-games). On failure prints one error
// line and sets `status` (2 for a bad option, 1 for the database).
std::optional<storage::GameQuery> prepare_query(storage::Store& store,
                                                ratings::GameSelection& selection,
                                                const std::string& command, int& status);

// prepare_query, then the finished games it selects, as records without moves.
std::optional<std::vector<storage::GameRecord>> load_finished_games(
    storage::Store& store, ratings::GameSelection& selection, const std::string& command,
    int& status);

// prepare_query, then the results counted per game pattern (storage/results.h), --game aside:
// the rating tables apply it (ReportOptions::game), which costs nothing on the counted results.
std::optional<storage::ResultSet> load_results(storage::Store& store,
                                               ratings::GameSelection& selection,
                                               const std::string& command, int& status);

}  // namespace referee::cli
