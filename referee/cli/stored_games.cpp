#include "cli/stored_games.h"

#include <filesystem>
#include <iostream>

namespace referee::cli {

namespace po = boost::program_options;

std::optional<storage::Store> open_database_for_reading(const std::string& path,
                                                        const std::string& command) {
  if (!storage::is_server_database(path) && !std::filesystem::exists(path)) {
    std::cerr << "referee " << command << ": no database '" << path << "'\n";
    return std::nullopt;
  }
  storage::OpenOptions read_only;
  read_only.read_only = true;  // never creates or changes the database file
  auto store = storage::Store::open(path, read_only);
  if (!store) {
    std::cerr << "referee " << command << ": " << store.error() << "\n";
    return std::nullopt;
  }
  return std::move(*store);
}

void add_selection_options(po::options_description& desc, ratings::GameSelection& s) {
  desc.add_options()("game,g", po::value(&s.game),
                     "only this game string, canonicalised (oware = oware:players=2,...)")(
      "tournament", po::value(&s.event_name), "only games of this tournament (its name)")(
      "engine,e", po::value(&s.engines)->composing(),
      "only games of this engine; repeated: only games among these engines")(
      "since", po::value(&s.since), "only games finished on or after this date (YYYY-MM-DD)")(
      "until", po::value(&s.until), "only games finished on or before this date (YYYY-MM-DD)")(
      "tc", po::value(&s.tc), "only games at this time control, as stored (e.g. 10+0.1)")(
      "min-games", po::value(&s.min_games),
      "leave out engines with fewer pairwise games (per table)");
}

std::optional<storage::GameQuery> prepare_query(storage::Store& store,
                                                ratings::GameSelection& selection,
                                                const std::string& command, int& status) {
  auto prepared = ratings::selection_query(store, selection);
  if (!prepared.query) {
    std::cerr << "referee " << command << ": " << prepared.error << "\n";
    status = prepared.bad_option ? 2 : 1;
  }
  return std::move(prepared.query);
}

std::optional<std::vector<storage::GameRecord>> load_finished_games(
    storage::Store& store, ratings::GameSelection& selection, const std::string& command,
    int& status) {
  auto query = prepare_query(store, selection, command, status);
  if (!query) return std::nullopt;
  auto games = storage::query_games(store, *query);
  if (!games) {
    std::cerr << "referee " << command << ": " << games.error() << "\n";
    status = 1;
    return std::nullopt;
  }
  return std::move(*games);
}

std::optional<storage::ResultSet> load_results(storage::Store& store,
                                               ratings::GameSelection& selection,
                                               const std::string& command, int& status) {
  if (auto ok = ratings::normalise_selection(selection); !ok) {
    std::cerr << "referee " << command << ": " << ok.error() << "\n";
    status = 2;
    return std::nullopt;
  }
  // --game aside: the rating tables apply it (ReportOptions::game).
  ratings::GameSelection every_game = selection;
  every_game.game.clear();
  auto query = prepare_query(store, every_game, command, status);
  if (!query) return std::nullopt;
  auto results = storage::aggregate_results(store, *query);
  if (!results) {
    std::cerr << "referee " << command << ": " << results.error() << "\n";
    status = 1;
    return std::nullopt;
  }
  return std::move(*results);
}

}  // namespace referee::cli
