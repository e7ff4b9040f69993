// The streamed export of stored games: the one code path of `referee export` and the daemon's
// GET /api/export (service/api_stream.cpp), so that both give the same file for the same filters.
//
// Decisions:
// - The games of a query (ratings/selection.h: selection_query) in schedule order, written one at
//   a time through storage::ExportWriter: memory stays flat whatever the number of games.
// - --min-games N keeps the games whose every engine is kept by the rating table of the game's
//   canonical game string under --min-games N (ratings/result_tables.h: engines with fewer than N
//   pairwise finished games in the selection leave, with their games, to a fixpoint). That is
//   exactly the games the per-game tables of `referee ratings --min-games N` rate, with the same
//   filters. An unfinished game (--unfinished) is kept when its engines are kept; an engine with
//   no finished game of that game string in the selection is not. The engines are counted first
//   (storage/results.h: counted results, memory like `referee ratings`), then the games streamed.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "base/expected.h"
#include "storage/export.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::ratings {

struct ExportRequest {
  storage::GameQuery query;
  storage::ExportFormat format = storage::ExportFormat::kJsonl;
  storage::ExportOptions options;
  int min_games = 0;
  std::string destination = "the output";  // for the message when writing fails
};

struct ExportTally {
  std::int64_t written = 0;
  std::int64_t skipped = 0;  // games of more than two players left out of a PGN (no pairwise)
};

// The format of its name: "pgn", "jsonl" or "csv"; nothing otherwise.
std::optional<storage::ExportFormat> export_format(const std::string& name);

// What does not fit the format among the options, in the CLI's words ("--no-moves is for PGN
// ..."; the API puts its parameter names in); "" when they fit.
std::string export_options_error(storage::ExportFormat format,
                                 const storage::ExportOptions& options);

// Writes the request's games to `out`; an error is one line ("cannot write <destination>", or the
// database's failure). `out` is not flushed on failure.
Expected<ExportTally> export_games(storage::Store& store, const ExportRequest& request,
                                   std::ostream& out);

}  // namespace referee::ratings
