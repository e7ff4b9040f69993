// Subcommands around events and the database: tournament, match, export, verify.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli.h"
#include "cli/stored_games.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "event/tournament.h"
#include "games/game.h"
#include "match/replay.h"
#include "ratings/report.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

bool parse_or_help(const Args& args, po::options_description& desc, po::variables_map& vm,
                   const po::positional_options_description* pos = nullptr) {
  auto parser = po::command_line_parser(args).options(desc);
  if (pos) parser.positional(*pos);
  po::store(parser.run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc;
    return false;
  }
  return true;
}

// Runs the event, then prints its standings, Elo tables and a summary that adds up. Exit status:
// 0 every scheduled game is finished; 1 an error, or a storage failure stopped the event; 3 the
// run ended with games not played (an engine that cannot start, a game an engine does not
// declare, an engine withdrawn); 130 interrupted (Ctrl-C).
int run_and_report(const TournamentConfig& config, bool quiet, double lease_seconds = 30) {
  engines::InterruptWatch interrupt;
  RunOptions options;
  options.progress = quiet ? nullptr : &std::cerr;
  options.progress_is_tty = engines::stderr_is_terminal();
  options.stop = &interrupt.flag();
  options.lease_ms = static_cast<long>(lease_seconds * 1000);
  if (!quiet)
    std::cerr << "tournament '" << config.name << "': " << config.engines.size()
              << " engines, database " << config.database << "\n";
  auto summary = run_tournament(config, options);
  if (!summary) {
    std::cerr << "referee: " << summary.error() << "\n";
    return 1;
  }
  for (const auto& m : summary->messages) std::cerr << "notice: " << m << "\n";
  storage::OpenOptions again;
  again.check_integrity = false;  // checked before the run; a plain open leaves no side files
  if (auto store = storage::Store::open(config.database, again)) {
    storage::GameFilter filter;
    filter.tournament_id = summary->tournament_id;
    if (auto games = store->games(filter)) std::cout << "\n" << ratings_report(*games);
  }
  std::cout << "games: " << summary->scheduled << " scheduled, " << summary->already_done
            << " done before, " << summary->played << " played now, ";
  if (summary->by_others > 0) std::cout << summary->by_others << " played by other processes, ";
  std::cout << summary->not_played << " not played\n";
  for (const auto& r : summary->not_played_reasons) std::cout << "not played: " << r << "\n";
  if (!summary->storage_error.empty()) {
    std::cerr << "referee: storage failure, the event stopped (" << summary->played
              << " games stored by this run; run it again once fixed): " << summary->storage_error
              << "\n";
    return 1;
  }
  if (summary->interrupted) {
    std::cout << "interrupted: run the same command again to play the missing games\n";
    return 130;
  }
  if (!summary->complete()) {
    std::cerr << "referee: " << summary->not_played << " of " << summary->scheduled
              << " games not played (see the 'not played' lines)\n";
    return 3;
  }
  return 0;
}

}  // namespace

int tournament(const Args& args) {
  std::string file, db;
  int concurrency = -1;
  bool quiet = false;
  double lease = 30;
  po::options_description desc("referee tournament FILE [options]");
  desc.add_options()("help,h", "show this help")("concurrency,c", po::value(&concurrency),
                                                 "games at once (overrides the file; 0 = cores)")(
      "db", po::value(&db), "database file (overrides the file)")(
      "quiet,q", po::bool_switch(&quiet), "no progress line")(
      "lease", po::value(&lease),
      "seconds a claimed game stays reserved without a heartbeat (default 30)");
  po::options_description all;
  all.add(desc).add_options()("file", po::value(&file));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse_or_help(args, all, vm, &pos)) return 0;
  if (file.empty()) {
    std::cerr << "usage: referee tournament FILE\n";
    return 2;
  }
  auto config = load_tournament_file(file);
  if (!config) {
    std::cerr << "referee: " << config.error() << "\n";
    return 1;
  }
  if (concurrency >= 0) config->concurrency = concurrency;
  if (!db.empty()) config->database = db;
  if (!(lease >= 0.2 && lease <= 86400)) {
    std::cerr << "referee tournament: --lease must be from 0.2 to 86400 seconds\n";
    return 2;
  }
  return run_and_report(*config, quiet, lease);
}

int match(const Args& args) {
  std::vector<std::string> engine_args, game_args;
  std::string tc = "5+0.05", db = "referee.db", name;
  int cycles = 1, concurrency = 0, plies = 0;
  unsigned long long seed = 1;
  bool quiet = false;
  po::options_description desc("referee match --engine NAME=CMD --engine NAME=CMD [options]");
  desc.add_options()("help,h", "show this help")(
      "engine,e", po::value(&engine_args)->multitoken()->composing(),
      "an engine as NAME=COMMAND [ARGS] (quote it); give two or more")(
      "game,g", po::value(&game_args)->composing(), "game string (default awale); repeatable")(
      "tc,t", po::value(&tc), "time control: 10+0.1, 40/60+0, movetime=200, depth=6,cap=5000")(
      "cycles,n", po::value(&cycles), "game pairs per pairing (each pair swaps seats)")(
      "concurrency,c", po::value(&concurrency), "games at once (0 = cores)")(
      "random-plies", po::value(&plies), "random opening plies per pair")(
      "seed", po::value(&seed), "seed for the openings")("db", po::value(&db), "database file")(
      "name", po::value(&name), "event name (resume key; default from the engines and games)")(
      "quiet,q", po::bool_switch(&quiet), "no progress line");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  TournamentConfig config;
  config.database = db;
  config.cycles = cycles;
  config.concurrency = concurrency;
  config.seed = seed;
  config.openings.random_plies = plies;
  config.tc_text = tc;
  auto parsed_tc = parse_time_control(tc);
  if (!parsed_tc) {
    std::cerr << "referee match: " << parsed_tc.error() << "\n";
    return 2;
  }
  config.tc = *parsed_tc;
  if (game_args.empty()) game_args.push_back("awale");
  for (const auto& g : game_args) {
    auto game = referee::games::make_game(g);
    if (!game) {
      std::cerr << "referee match: " << game.error() << "\n";
      return 2;
    }
    config.games.push_back(game->canonical());
  }
  for (const auto& e : engine_args) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "referee match: --engine '" << e << "' must be NAME=COMMAND\n";
      return 2;
    }
    auto words = engines::split_command_line(e.substr(eq + 1));
    if (!words) {
      std::cerr << "referee match: --engine '" << e << "': " << words.error() << "\n";
      return 2;
    }
    TournamentEngine te;
    te.config.name = e.substr(0, eq);
    te.config.command = words->front();
    te.config.args.assign(words->begin() + 1, words->end());
    config.engines.push_back(std::move(te));
  }
  if (config.engines.size() < 2) {
    std::cerr << "referee match: give at least two --engine NAME=COMMAND\n";
    return 2;
  }
  if (name.empty()) {
    name = "match";
    for (const auto& e : config.engines) name += " " + e.config.name;
    for (const auto& g : game_args) name += " " + g;
  }
  config.name = name;
  return run_and_report(config, quiet);
}


int export_games(const Args& args) {
  std::string db = "referee.db", format, game, output;
  po::options_description desc(
      "referee export --format pgn|jsonl|csv [--game G] [--db FILE] [--output FILE]");
  desc.add_options()("help,h", "show this help")(
      "format,f", po::value(&format), "pgn, jsonl or csv")("db", po::value(&db), "database file")(
      "game,g", po::value(&game), "only this game")("output,o", po::value(&output),
                                                    "write to this file instead of stdout");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  if (format != "pgn" && format != "jsonl" && format != "csv") {
    std::cerr << "referee export: --format must be pgn, jsonl or csv\n";
    return 2;
  }
  auto store = open_database_for_reading(db, "export");
  if (!store) return 1;
  storage::GameFilter filter;
  filter.game_prefix = game;
  auto games = store->games(filter);
  if (!games) {
    std::cerr << "referee export: " << games.error() << "\n";
    return 1;
  }
  std::vector<std::vector<storage::MoveRecord>> moves;
  for (const auto& g : *games) {
    auto m = store->moves(g.id);
    if (!m) {
      std::cerr << "referee export: " << m.error() << "\n";
      return 1;
    }
    moves.push_back(std::move(*m));
  }
  std::string text = format == "pgn"     ? storage::export_pgn(*games, moves)
                     : format == "jsonl" ? storage::export_jsonl(*games, moves)
                                         : storage::export_csv(*games);
  if (output.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(output);
  if (!out || !(out << text)) {
    std::cerr << "referee export: cannot write '" << output << "'\n";
    return 1;
  }
  return 0;
}

int verify(const Args& args) {
  std::string db = "referee.db";
  po::options_description desc("referee verify [--db FILE]");
  desc.add_options()("help,h", "show this help")("db", po::value(&db), "database file");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  auto store = open_database_for_reading(db, "verify");
  if (!store) return 1;
  // The file's integrity first (PRAGMA integrity_check), then every game through the rules.
  auto problems = store->integrity_problems();
  if (!problems) {
    std::cerr << "referee verify: " << problems.error() << "\n";
    return 1;
  }
  if (problems->empty()) {
    std::cout << "integrity: ok\n";
  } else {
    std::cout << "integrity: " << problems->size() << (problems->size() >= 20 ? "+" : "")
              << " problems\n";
    for (const auto& p : *problems) std::cout << "DAMAGED " << p << "\n";
  }
  storage::GameFilter filter;
  filter.finished_only = false;
  auto games = store->games(filter);
  if (!games) {
    std::cerr << "referee verify: " << games.error() << "\n";
    return 1;
  }
  int bad = 0;
  for (const auto& g : *games) {
    auto moves = store->moves(g.id);
    Status st = moves ? replay_check(g, *moves) : Status(Error{moves.error()});
    if (!st) {
      ++bad;
      std::cout << "MISMATCH " << st.error() << "\n";
    }
  }
  std::cout << games->size() << " games replayed, " << bad << " mismatches\n";
  return bad || !problems->empty() ? 1 : 0;
}

}  // namespace referee::cli
