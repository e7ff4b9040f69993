// Subcommands that read results from the database: ratings, crosstable and sprt. Each selects
// games with the same filters (cli/stored_games.h) and prints text, or CSV/JSON for ratings and
// crosstable.
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <set>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/stored_games.h"
#include "ratings/crosstable.h"
#include "ratings/format_util.h"
#include "ratings/opening_table.h"
#include "ratings/pairs.h"
#include "ratings/report.h"
#include "ratings/sprt.h"
#include "ratings/sprt_games.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

// The help layout and --version every command shares (cli/options.h).
bool parse_or_help(const Args& args, po::options_description& desc, po::variables_map& vm) {
  return !parse_captioned(args, desc, vm).has_value();
}

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "referee " << command << ": " << message << "\n";
  return 2;
}

bool known_format(const std::string& format) {
  return format == "text" || format == "csv" || format == "json";
}

// --confidence in percent, 0 < c < 100; a value below 1 is taken for a fraction and refused.
Expected<double> confidence_of(double percent) {
  if (!std::isfinite(percent) || percent <= 0 || percent >= 100)
    return Error{"--confidence must be a percentage between 0 and 100 (e.g. 95)"};
  if (percent < 1) return Error{"--confidence is in percent: write 95, not 0.95"};
  return percent / 100;
}

// NAME=ELO.
Status parse_anchor(const std::string& text, ratings::RatingOptions& options) {
  const auto eq = text.rfind('=');
  const Error bad{"--anchor '" + text + "' must be NAME=ELO (e.g. --anchor stockfish=3000)"};
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return bad;
  try {
    std::size_t used = 0;
    const double elo = std::stod(text.substr(eq + 1), &used);
    if (used != text.size() - eq - 1 || !std::isfinite(elo)) return bad;
    options.anchor = text.substr(0, eq);
    options.anchor_elo = elo;
  } catch (const std::exception&) {
    return bad;
  }
  return Ok{};
}

}  // namespace

int ratings(const Args& args) {
  std::string db = "referee.db", format = "text", anchor;
  double confidence = 95, prior = 0;
  bool los = false, no_seats = false;
  ratings::GameSelection selection;
  po::options_description desc("referee ratings [options]");
  desc.add_options()("help,h", "show this help")("db", po::value(&db)->value_name("DB"),
                                                 "database: a file or a postgresql:// URL");
  add_selection_options(desc, selection);
  desc.add_options()("anchor", po::value(&anchor),
                     "NAME=ELO: this engine's rating (default: the average is 0)")(
      "confidence", po::value(&confidence), "confidence level of the intervals, in % (95)")(
      "prior", po::value(&prior), "virtual draws per engine against the average (default 0)")(
      "no-seats", po::bool_switch(&no_seats), "do not fit seat (first-player) advantages")(
      "los", po::bool_switch(&los), "print the LOS matrix of each table")(
      "format,f", po::value(&format), "text, csv or json");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  ratings::ReportOptions options;
  options.los_matrix = los;
  options.min_games = selection.min_games;
  options.rating.fit_seats = !no_seats;
  if (!known_format(format)) return usage_error("ratings", "--format must be text, csv or json");
  if (los && format == "csv")
    return usage_error("ratings",
                       "--los is a matrix: use --format text or json (json always has it)");
  auto level = confidence_of(confidence);
  if (!level) return usage_error("ratings", level.error());
  options.rating.confidence = *level;
  if (!std::isfinite(prior) || prior < 0)
    return usage_error("ratings", "--prior must be a number of virtual draws, 0 or more");
  options.rating.prior_draws = prior;
  if (!anchor.empty())
    if (auto ok = parse_anchor(anchor, options.rating); !ok)
      return usage_error("ratings", ok.error());

  auto store = open_database_for_reading(db, "ratings");
  if (!store) return 1;
  int status = 0;
  auto results = load_results(*store, selection, "ratings", status);
  if (!results) return status;
  if (!options.rating.anchor.empty()) {
    auto known = storage::has_engine(*store, options.rating.anchor);
    if (!known) {
      std::cerr << "referee ratings: " << known.error() << "\n";
      return 1;
    }
    if (!*known)
      return usage_error("ratings", "--anchor: no stored game has an engine named '" +
                                        options.rating.anchor + "'");
  }
  options.game = selection.game;
  const auto reports = ratings::rating_reports(std::move(*results), options);
  results.reset();
  if (format == "csv")
    std::cout << ratings::report_csv(reports, options);
  else if (format == "json")
    std::cout << ratings::report_json(reports, options);
  else
    std::cout << ratings::report_text(reports, options);
  return 0;
}

int crosstable(const Args& args) {
  std::string db = "referee.db", format = "text";
  ratings::GameSelection selection;
  po::options_description desc("referee crosstable [options]");
  desc.add_options()("help,h", "show this help")("db", po::value(&db)->value_name("DB"),
                                                 "database: a file or a postgresql:// URL");
  add_selection_options(desc, selection);
  bool by_opening = false;
  desc.add_options()("format,f", po::value(&format), "text, csv or json")(
      "by-opening", po::bool_switch(&by_opening),
      "results by opening instead: games won by seat and each engine's points, per game string "
      "and opening (two-player games)");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  if (!known_format(format)) return usage_error("crosstable", "--format must be text, csv or json");
  auto store = open_database_for_reading(db, "crosstable");
  if (!store) return 1;
  int status = 0;
  auto query = prepare_query(*store, selection, "crosstable", status);
  if (!query) return status;
  if (by_opening) {
    auto table = ratings::opening_table(*store, *query);
    if (!table) {
      std::cerr << "referee crosstable: " << table.error() << "\n";
      return 1;
    }
    std::cout << (format == "csv"    ? ratings::opening_table_csv(*table)
                  : format == "json" ? ratings::opening_table_json(*table)
                                     : ratings::opening_table_text(*table));
    return 0;
  }
  // Counted, never a game record in memory. The pairs are read first: a game finished in between
  // is then in the results and in no pair, never in a pair without its result.
  auto pairs = ratings::count_pairs(*store, *query);
  if (!pairs) {
    std::cerr << "referee crosstable: " << pairs.error() << "\n";
    return 1;
  }
  auto results = storage::aggregate_results(*store, *query);
  if (!results) {
    std::cerr << "referee crosstable: " << results.error() << "\n";
    return 1;
  }
  const auto tables = ratings::crosstables(*results, *pairs, selection.min_games);
  if (format == "csv")
    std::cout << ratings::crosstable_csv(tables);
  else if (format == "json")
    std::cout << ratings::crosstable_json(tables);
  else
    std::cout << (tables.empty() ? "no finished games\n" : ratings::crosstable_text(tables));
  return 0;
}

int sprt(const Args& args) {
  std::string db = "referee.db", model = "normalized";
  double confidence = 95;
  ratings::SprtConfig config;
  ratings::GameSelection selection;
  po::options_description desc(
      "referee sprt --engine A --engine B --elo0 E0 --elo1 E1 [options]\n"
      "The SPRT of A against B on their stored two-player games, from A's side");
  desc.add_options()("help,h", "show this help")("db", po::value(&db)->value_name("DB"),
                                                 "database: a file or a postgresql:// URL");
  add_selection_options(desc, selection);
  desc.add_options()("elo0", po::value(&config.elo0), "H0: A is elo0 better")(
      "elo1", po::value(&config.elo1), "H1: A is elo1 better")("alpha", po::value(&config.alpha),
                                                               "false positive rate (0.05)")(
      "beta", po::value(&config.beta), "false negative rate (0.05)")(
      "model", po::value(&model),
      "normalized (elo0/elo1 in normalised Elo, default) or logistic (in Elo)")(
      "confidence", po::value(&confidence), "confidence level of the Elo intervals, in % (95)");
  po::variables_map vm;
  if (!parse_or_help(args, desc, vm)) return 0;
  if (!vm.count("elo0") || !vm.count("elo1"))
    return usage_error("sprt", "give both hypotheses: --elo0 E0 --elo1 E1");
  if (vm.count("min-games"))
    return usage_error("sprt", "--min-games is for tables, not a test of two engines");
  if (selection.engines.size() != 2 || selection.engines[0] == selection.engines[1])
    return usage_error("sprt", "give two different engines: --engine A --engine B");
  if (model == "normalized")
    config.model = ratings::SprtModel::kNormalized;
  else if (model == "logistic")
    config.model = ratings::SprtModel::kLogistic;
  else
    return usage_error("sprt", "--model must be normalized or logistic");
  if (auto ok = ratings::validate_sprt(config); !ok) return usage_error("sprt", "--" + ok.error());
  auto level = confidence_of(confidence);
  if (!level) return usage_error("sprt", level.error());
  auto store = open_database_for_reading(db, "sprt");
  if (!store) return 1;
  int status = 0;
  auto games = load_finished_games(*store, selection, "sprt", status);
  if (!games) return status;
  const std::string a = selection.engines[0], b = selection.engines[1];
  std::set<std::string> variants;
  for (const auto& g : *games)
    if (g.players.size() == 2 && g.ranks.size() == 2 && g.status == storage::GameStatus::Finished)
      variants.insert(ratings::canonical_game(g.game));
  // The same computation as a live test (event/sprt_event.h), so both agree on the same games.
  const ratings::SprtTally tally = sprt_tally(*games, a, b, config);
  const ratings::HeadToHead& h = tally.h;
  std::cout << "SPRT " << a << " vs " << b << ": " << h.games.total() << " games";
  for (const auto& v : variants) std::cout << (v == *variants.begin() ? " of " : ", ") << v;
  std::cout << "\n";
  if (h.games.total() == 0) {
    std::cout << "no finished two-player games between them\n";
    return 0;
  }
  const double points = double(h.games.wins) + double(h.games.draws) / 2;
  std::cout << "games: W " << h.games.wins << " D " << h.games.draws << " L " << h.games.losses
            << ", " << text::fixed(points, 1) << " points (" << text::percent(h.score()) << ")\n";
  auto estimate_line = [&](const char* name, const char* unit, const ratings::EloEstimate& e) {
    std::cout << "Elo (" << name << "): " << text::fixed(e.elo, 1, true) << " ("
              << text::short_percent(*level) << ": " << text::fixed(e.elo_low, 1, true) << " to "
              << text::fixed(e.elo_high, 1, true) << "), ";
    if (e.sigma > 0)
      std::cout << "nElo " << text::fixed(e.nelo, 1, true) << " +/- "
                << text::fixed(e.nelo_error, 1);
    else
      std::cout << "nElo undefined (every " << unit << " scored the same)";
    std::cout << ", LOS " << text::percent(e.los) << "\n";
  };
  const bool paired = tally.paired;
  if (paired) {
    const auto& p = h.pairs;
    std::cout << "pairs: " << p.total() << " (LL " << p.ll << ", LD " << p.ld << ", WL " << p.wl
              << ", DD " << p.dd << ", WD " << p.wd << ", WW " << p.ww << "); " << h.unpaired
              << " unpaired games left out\n";
    estimate_line("pentanomial", "pair", ratings::pentanomial_estimate(p, *level));
  } else {
    std::cout << "no game pairs (same opening, seats swapped): the test uses single games\n";
  }
  estimate_line("trinomial", "game", ratings::trinomial_estimate(h.games, *level));
  const auto& state = tally.state;
  std::cout << "SPRT (" << ratings::model_name(config.model) << ", "
            << (paired ? "pentanomial" : "trinomial") << "): elo0 " << text::fixed(config.elo0, 2)
            << ", elo1 " << text::fixed(config.elo1, 2) << ", alpha " << config.alpha << ", beta "
            << config.beta << "\n";
  std::cout << ratings::sprt_line(state) << "\n";
  return 0;
}

}  // namespace referee::cli
