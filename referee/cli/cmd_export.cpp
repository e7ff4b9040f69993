// `referee export`: stored games as PGN, JSON Lines or CSV, streamed (memory stays flat whatever
// the number of games).
//
// Decisions:
// - export takes the filters of `ratings`, --min-games included (ratings/export_games.h says which
//   games it keeps), and writes the games in the order they were scheduled
//   (storage/game_stream.h), through the code GET /api/export uses too.
// - --output F is written as F.partial and renamed to F once complete, so a failed export never
//   leaves a truncated F that looks whole.
// - Finished games by default (what rating tools read); --unfinished adds the others, so that a
//   JSON Lines export is the whole archive (`referee import` takes it back).
// - PGN has two sides: games of more than two players are left out, counted on stderr, unless
//   --pairwise (one PGN game per pair of seats, for rating tools). JSON Lines is the whole record.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/stored_games.h"
#include "ratings/export_games.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "referee " << command << ": " << message << "\n";
  return 2;
}

}  // namespace

int export_games(const Args& args) {
  std::string db = "referee.db", format, output;
  bool no_moves = false, no_clock = false, pairwise = false, unfinished = false;
  ratings::GameSelection selection;
  po::options_description desc(
      "referee export --format pgn|jsonl|csv [filters] [options]\n"
      "Stored games as PGN, JSON Lines or CSV, in the order they were scheduled, written as\n"
      "they are read (memory stays flat whatever the number of games).");
  desc.add_options()("format,f", po::value(&format)->value_name("F"), "pgn, jsonl or csv")(
      "db", po::value(&db)->value_name("DB")->default_value(db),
      "database: a file or a postgresql:// URL")(
      "output,o", po::value(&output)->value_name("FILE"),
      "write to this file (whole or not at all) instead of standard output");
  add_selection_options(desc, selection);
  desc.add_options()("no-moves", po::bool_switch(&no_moves),
                     "PGN: tags and results only (what rating tools read)")(
      "no-clock", po::bool_switch(&no_clock), "PGN: leave out the [%emt] and [%clk] comments")(
      "pairwise", po::bool_switch(&pairwise),
      "PGN, CSV: a game of more than two players as one game (row) per pair of seats")(
      "unfinished", po::bool_switch(&unfinished),
      "also the games that did not finish (unfinished, running): the whole archive");
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm)) return *done;
  const auto kind = ratings::export_format(format);
  if (!kind) return usage_error("export", "--format must be pgn, jsonl or csv");
  storage::ExportOptions options;
  options.moves = !no_moves;
  options.clocks = !no_clock;
  options.pairwise = pairwise;
  if (auto bad = ratings::export_options_error(*kind, options); !bad.empty())
    return usage_error("export", bad);
  auto store = open_database_for_reading(db, "export");
  if (!store) return 1;
  int status = 0;
  auto query = prepare_query(*store, selection, "export", status);
  if (!query) return status;
  if (unfinished) query->finished_only = false;

  namespace fs = std::filesystem;
  const std::string partial = output.empty() ? "" : output + ".partial";
  std::ofstream file;
  if (!output.empty()) {
    file.open(partial, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "referee export: cannot write '" << partial << "'\n";
      return 1;
    }
  }
  std::ostream& out = output.empty() ? std::cout : file;
  ratings::ExportRequest request;
  request.query = std::move(*query);
  request.format = *kind;
  request.options = options;
  request.min_games = selection.min_games;
  request.destination = output.empty() ? "standard output" : "'" + partial + "'";
  auto tally = export_games(*store, request, out);
  Status st = tally ? Status(Ok{}) : Status(tally.failure());
  if (!output.empty()) {
    file.close();
    std::error_code ec;
    if (st && !file) st = Error{"cannot write " + request.destination};
    if (st) {
      fs::rename(partial, output, ec);
      if (ec) st = Error{"cannot rename '" + partial + "' to '" + output + "': " + ec.message()};
    }
    if (!st) fs::remove(partial, ec);
  }
  if (!st) {
    std::cerr << "referee export: " << st.error() << "\n";
    return 1;
  }
  if (tally->skipped > 0)
    std::cerr << "referee export: " << tally->skipped << (tally->skipped == 1 ? " game" : " games")
              << " of more than two players left out of the PGN (--pairwise writes one game per "
                 "pair of seats; --format jsonl the whole records)\n";
  return 0;
}

}  // namespace referee::cli
