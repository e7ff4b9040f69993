// Subcommands that run events: tournament, match (verify is in cmd_verify.cpp).
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/service_setup.h"
#include "cli/stored_games.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "event/adjudication_settings.h"
#include "event/all_openings.h"
#include "event/tournament.h"
#include "games/game.h"
#include "ratings/pairs.h"
#include "ratings/report.h"
#include "ratings/sprt_games.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

// Random plies the referee plays before the engines in `referee match`, for every game: enough
// that two cycles (and two pairings) do not replay the same games (an awale start has 6^4 = 1296
// lines of four plies), few enough that the engines play nearly the whole game.
constexpr int kMatchRandomPlies = 4;

// Runs the event, then prints its standings, Elo tables and a summary that adds up. Exit status:
// 0 every scheduled game is finished, or the event's sprt test decided; 1 an error, or a storage
// failure stopped the event; 3 the run ended with games not played (an engine that cannot start, a
// game an engine does not declare, an engine withdrawn); 130 interrupted (Ctrl-C). With `debug`,
// every line exchanged with the engines goes to stderr as it happens, and the progress is printed
// as lines (a line rewritten in place would be torn by them).
int run_and_report(const event::TournamentConfig& config, bool quiet, bool debug, bool pin_cpus,
                   double lease_seconds = 30, const event::OwnerLimits& limits = {},
                   const std::string& artifact_cache = "") {
  engines::InterruptWatch interrupt;
  match::DebugLog debug_log(std::cerr);
  event::RunOptions options;
  options.limits = limits;
  options.progress = quiet ? nullptr : &std::cerr;
  options.progress_is_tty = engines::stderr_is_terminal() && !debug;
  options.debug = debug ? &debug_log : nullptr;
  options.stop = &interrupt.flag();
  options.lease_ms = static_cast<long>(lease_seconds * 1000);
  options.pin_cpus = pin_cpus;
  options.artifact_cache = artifact_cache;
  if (!quiet)
    std::cerr << "tournament '" << config.name << "': " << config.engines.size()
              << " engines, database " << storage::database_name(config.database) << "\n";
  auto summary = event::run_tournament(config, options);
  if (!summary) {
    std::cerr << "referee: " << summary.error() << "\n";
    return 1;
  }
  for (const auto& m : summary->messages) std::cerr << "notice: " << m << "\n";
  storage::OpenOptions again;
  again.check_integrity = false;  // checked before the run; a plain open leaves no side files
  std::string pairs_line;
  if (auto store = storage::Store::open(config.database, again)) {
    storage::GameQuery query;  // the event's results, counted in the database
    query.event_id = summary->event_id;
    if (auto results = storage::aggregate_results(*store, query))
      std::cout << "\n" << ratings::ratings_report(*results);
    // Two engines: their game pairs (an opening with seats swapped), from the first one's side.
    if (config.engines.size() == 2)
      if (auto counts = ratings::count_pairs(*store, query)) {
        const std::string& a = config.engines[0].config.name;
        const ratings::PairCount p = pairs_between(*counts, a, config.engines[1].config.name);
        pairs_line = "pairs: " + std::to_string(p.pairs.total()) + ", " +
                     ratings::ptnml_text(p.pairs) + " from " + a + "'s side";
        if (p.unpaired > 0)
          pairs_line += ", " + std::to_string(p.unpaired) +
                        (p.unpaired == 1 ? " unpaired game" : " unpaired games");
      }
  }
  std::cout << "games: " << summary->scheduled << " scheduled, " << summary->already_done
            << " done before, " << summary->played << " played now, ";
  if (summary->by_others > 0) std::cout << summary->by_others << " played by other processes, ";
  std::cout << summary->not_played << " not played\n";
  if (!pairs_line.empty()) std::cout << pairs_line << "\n";
  if (!summary->rounds_text.empty()) std::cout << "\n" << summary->rounds_text;
  for (const auto& r : summary->not_played_reasons) std::cout << "not played: " << r << "\n";
  if (summary->sprt) {
    const auto& t = summary->sprt->tally;
    std::cout << "sprt: " << sprt_progress(summary->sprt->config, t.state) << " after "
              << t.h.pairs.total() << " game pairs: "
              << (summary->sprt->decided() ? ratings::sprt_verdict(t.state)
                                           : std::string("no decision"))
              << "\n";
  }
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
  if (summary->sprt_decided()) return 0;  // the slots left were skipped on purpose
  if (!summary->complete() && summary->not_played == 0) {
    std::cerr << "referee: the event's rounds are not finished (its next games could not be "
                 "made: see the notices)\n";
    return 3;
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
  std::string file, db, artifact_cache;
  int concurrency = 0;
  bool quiet = false, debug = false, pin_cpus = false;
  double lease = 30;
  po::options_description desc;
  desc.add_options()("concurrency,c", po::value(&concurrency)->value_name("N"),
                     "games at once (default: the file's; 0 = cores)")(
      "db", po::value(&db)->value_name("DB"),
      "database: a file or a postgresql:// URL (default: the tournament file's)")(
      "quiet,q", po::bool_switch(&quiet), "no progress line")(
      "debug", po::bool_switch(&debug),
      "print every line exchanged with the engines to stderr, as it happens")(
      "lease", po::value(&lease)->value_name("S")->default_value(lease),
      "seconds a claimed game stays reserved without a heartbeat")(
      "pin-cpus", po::bool_switch(&pin_cpus),
      "pin each game and its engines to one CPU (single-threaded engines; README.md, Benchmarks)")(
      "artifact-cache", po::value(&artifact_cache)->value_name("DIR"),
      "where stored engines are extracted to run (default: engines/ARTIFACTS.md)");
  LimitFlags limit_flags;
  add_limit_options(desc, limit_flags);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  const CommandHelp help{"referee tournament FILE [options]",
                         "Runs, or resumes, the tournament of a TOML or JSON file (README.md)."};
  if (auto done = parse_command(args, help, desc, vm, &hidden, &pos)) return *done;
  if (file.empty()) {
    std::cerr << "referee tournament: missing FILE (usage: " << help.usage << ")\n";
    return 2;
  }
  if (vm.count("concurrency") && (concurrency < 0 || concurrency > event::kMaxConcurrency)) {
    std::cerr << "referee tournament: --concurrency must be from 0 to " << event::kMaxConcurrency
              << ", not " << concurrency << "\n";
    return 2;
  }
  auto config = event::load_tournament_file(file);
  if (!config) {
    std::cerr << "referee: " << config.error() << "\n";
    return 1;
  }
  if (vm.count("concurrency")) config->concurrency = concurrency;
  if (!db.empty()) config->database = db;
  if (!(lease >= 0.2 && lease <= 86400)) {
    std::cerr << "referee tournament: --lease must be from 0.2 to 86400 seconds\n";
    return 2;
  }
  auto limits = limits_of(limit_flags);
  if (!limits) {
    std::cerr << "referee tournament: " << limits.error() << "\n";
    return 2;
  }
  return run_and_report(*config, quiet, debug, pin_cpus, lease, *limits, artifact_cache);
}

namespace {

// "NAME=COMMAND [ARGS]" from the command line.
Expected<event::TournamentEngine> engine_from_flag(const std::string& flag) {
  auto eq = flag.find('=');
  if (eq == std::string::npos || eq == 0)
    return Error{"--engine '" + text::printable(flag) + "' must be NAME=COMMAND"};
  auto words = engines::split_command_line(flag.substr(eq + 1));
  if (!words)
    return Error{"--engine '" + text::printable(flag) + "': " + text::printable(words.error())};
  event::TournamentEngine e;
  e.config.name = flag.substr(0, eq);
  e.config.command = words->front();
  e.config.args.assign(words->begin() + 1, words->end());
  return e;
}

// The match's event as a tournament configuration, checked like a tournament file.
Expected<event::TournamentConfig> match_config(const std::vector<std::string>& engine_flags,
                                               const std::vector<std::string>& game_flags,
                                               const std::string& tc, const std::string& book) {
  event::TournamentConfig config;
  auto parsed_tc = match::parse_time_control(tc);
  if (!parsed_tc) return Error{text::printable(parsed_tc.error())};
  config.tc = *parsed_tc;
  auto games = event::canonical_games(game_flags);
  if (!games) return games.failure();
  config.games = *games;
  for (const auto& flag : engine_flags) {
    auto e = engine_from_flag(flag);
    if (!e) return e.failure();
    config.engines.push_back(std::move(*e));
  }
  if (config.engines.size() < 2) return Error{"give at least two --engine NAME=COMMAND"};
  if (!book.empty()) {
    auto lines = event::read_book(book, config.games);
    if (!lines) return lines.failure();
    config.openings.book = book;
    config.openings.book_lines = std::move(*lines);
  }
  return config;
}

}  // namespace

int match(const Args& args) {
  std::vector<std::string> engine_flags, game_flags;
  std::string tc, db, name, book;
  int cycles = 1, concurrency = 0, plies = kMatchRandomPlies, all_plies = 0;
  unsigned long long seed = 1;
  bool quiet = false, debug = false, pin_cpus = false;
  std::string sprt, draw, resign;
  po::options_description desc;
  desc.add_options()("engine,e",
                     po::value(&engine_flags)->multitoken()->composing()->value_name("NAME=CMD"),
                     "an engine and its command line (quote it); two or more")(
      "game,g",
      po::value(&game_flags)->composing()->value_name("G")->default_value({"awale"}, "awale"),
      "game string, e.g. oware:players=3; repeatable")(
      "tc,t", po::value(&tc)->value_name("TC")->default_value("5+0.05"),
      "time control: 10+0.1, 40/60+0, movetime=200, depth=6,cap=5000")(
      "cycles,n", po::value(&cycles)->value_name("N")->default_value(1),
      "times each pairing plays each opening in every seating")(
      "concurrency,c", po::value(&concurrency)->value_name("N")->default_value(0),
      "games at once (0 = cores)")(
      "random-plies", po::value(&plies)->value_name("N")->default_value(kMatchRandomPlies),
      "random plies the referee plays first, one opening per pairing and cycle")(
      "all-plies", po::value(&all_plies)->value_name("K"),
      "instead of random plies: every distinct position of exactly K plies, each played in "
      "every seating (TOURNAMENTS.md, Every opening)")(
      "book", po::value(&book)->value_name("FILE"),
      "opening book: one opening per line (README.md); random plies follow it")(
      "seed", po::value(&seed)->value_name("N")->default_value(1), "seed of the openings")(
      "sprt", po::value(&sprt)->value_name("E0,E1[,A,B[,MODEL]]"),
      "two engines only: stop when the SPRT of the first against the second decides: "
      "0,5 (elo0 0, elo1 5, alpha = beta = 0.05, normalized Elo) or 0,5,0.05,0.1,logistic; "
      "--cycles then sets the most games (cycles x games x 2)")(
      "draw", po::value(&draw)->value_name("KEYS"),
      "KEYS from_ply=N,score=S,plies=M: a draw when every engine's score stayed within +-S "
      "cp for M plies from ply N on (TOURNAMENTS.md, Adjudication)")(
      "resign", po::value(&resign)->value_name("KEYS"),
      "KEYS score=S,plies=M[,two_sided=true]: a loss for an engine whose own score stayed at "
      "or below -S cp for M plies (two_sided: its opponent's at or above +S too)")(
      "db", po::value(&db)->value_name("DB")->default_value("referee.db"),
      "database: a file or a postgresql:// URL")(
      "name", po::value(&name)->value_name("NAME"),
      "event name, the resume key (default: 'match', the engines and the games)")(
      "quiet,q", po::bool_switch(&quiet), "no progress line")(
      "debug", po::bool_switch(&debug),
      "print every line exchanged with the engines to stderr, as it happens")(
      "pin-cpus", po::bool_switch(&pin_cpus),
      "pin each game and its engines to one CPU (single-threaded engines; README.md, Benchmarks)");
  po::variables_map vm;
  const CommandHelp help{
      "referee match --engine NAME=CMD --engine NAME=CMD [options]",
      "A round robin between engines given on the command line, stored like a tournament;\n"
      "the same command again resumes it."};
  if (auto done = parse_command(args, help, desc, vm)) return *done;
  auto config = match_config(engine_flags, game_flags, tc, book);
  if (!config) {
    std::cerr << "referee match: " << config.error() << "\n";
    return 2;
  }
  config->database = db;
  config->cycles = cycles;
  config->concurrency = concurrency;
  config->seed = seed;
  config->openings.random_plies = plies;
  if (vm.count("all-plies")) {
    if (!vm["random-plies"].defaulted()) {
      std::cerr << "referee match: --all-plies and --random-plies exclude each other\n";
      return 2;
    }
    if (all_plies < 1 || all_plies > event::kMaxAllPlies) {
      std::cerr << "referee match: --all-plies must be 1 to " << event::kMaxAllPlies << "\n";
      return 2;
    }
    config->openings.random_plies = 0;  // the default's: all-plies replaces it
    config->openings.all_plies = all_plies;
  }
  if (!sprt.empty()) {
    auto parsed = ratings::parse_sprt_flag(sprt);
    if (!parsed) {
      std::cerr << "referee match: " << parsed.error() << "\n";
      return 2;
    }
    config->sprt = *parsed;
  }
  for (const auto& [rule, text] : {std::pair{"draw", &draw}, std::pair{"resign", &resign}}) {
    if (!vm.count(rule)) continue;
    auto rules = event::parse_adjudication_flag(rule, *text, config->adjudication);
    if (!rules) {
      std::cerr << "referee match: " << rules.error() << "\n";
      return 2;
    }
    config->adjudication = *rules;
  }
  if (name.empty()) {
    name = "match";
    for (const auto& e : config->engines) name += " " + e.config.name;
    for (const auto& g : game_flags) name += " " + g;
  }
  config->name = name;
  if (auto checked = event::check_tournament(*config); !checked) {
    std::cerr << "referee match: " << checked.error() << "\n";
    return 2;
  }
  return run_and_report(*config, quiet, debug, pin_cpus);
}

}  // namespace referee::cli
