#include "ratings/export_games.h"

#include <map>
#include <set>

#include "ratings/result_tables.h"
#include "ratings/selection.h"
#include "storage/game_stream.h"
#include "storage/results.h"

namespace referee::ratings {

std::optional<storage::ExportFormat> export_format(const std::string& name) {
  if (name == "pgn") return storage::ExportFormat::kPgn;
  if (name == "jsonl") return storage::ExportFormat::kJsonl;
  if (name == "csv") return storage::ExportFormat::kCsv;
  return std::nullopt;
}

std::string export_options_error(storage::ExportFormat format,
                                 const storage::ExportOptions& options) {
  if ((!options.moves || !options.clocks) && format != storage::ExportFormat::kPgn)
    return std::string(!options.moves ? "--no-moves" : "--no-clock") +
           " is for PGN (JSON Lines and CSV records are whole)";
  if (options.pairwise && format == storage::ExportFormat::kJsonl)
    return "--pairwise is for PGN and CSV (JSON Lines records are whole)";
  return "";
}

Expected<ExportTally> export_games(storage::Store& store, const ExportRequest& request,
                                   std::ostream& out) {
  std::map<std::string, std::set<std::string>> kept;
  if (request.min_games > 0) {
    storage::GameQuery finished = request.query;
    finished.finished_only = true;
    auto results = storage::aggregate_results(store, finished);
    if (!results) return results.failure();
    kept = kept_engines(*results, request.min_games);
  }
  std::map<std::string, const std::set<std::string>*> kept_of;  // by stored game string
  auto keeps = [&](const storage::GameRecord& g) {
    auto it = kept_of.find(g.game);
    if (it == kept_of.end()) {
      auto table = kept.find(canonical_game(g.game));
      it = kept_of.emplace(g.game, table == kept.end() ? nullptr : &table->second).first;
    }
    if (!it->second) return false;
    for (const auto& p : g.players)
      if (!it->second->count(p)) return false;
    return true;
  };
  storage::ExportWriter writer(out, request.format, request.options);
  storage::StreamOptions stream;
  stream.moves = request.format != storage::ExportFormat::kCsv && request.options.moves;
  const Error cannot_write{"cannot write " + request.destination};
  Status st = storage::for_each_game(
      store, request.query, stream,
      [&](const storage::GameRecord& g, const std::vector<storage::MoveRecord>& moves) -> Status {
        if (request.min_games > 0 && !keeps(g)) return Ok{};
        if (writer.write(g, moves)) return Ok{};
        return cannot_write;
      });
  if (!st) return st.failure();
  if (!writer.finish()) return cannot_write;
  return ExportTally{writer.written(), writer.skipped()};
}

}  // namespace referee::ratings
