// `referee bench`: the speed figures the issues ask for, printed, never asserted in tests.
//  1. A round-robin of instant-moving random engines (default 1000 awale games, concurrency 2) in a
//     temporary database: the referee's own CPU per ply (user+sys of this process, every thread,
//     the database writer's included; engines are children and excluded), its context switches
//     per ply, games per second, engine round trips per ply, peak RSS. The figures are noisy on a
//     shared machine: compare several runs taken in one sitting. The CPU is split by thread: the
//     game threads (RUSAGE_THREAD as each ends), the writer (after its last write), the rest.
//  2. Perft speed per game from the start position (setups sampled first), single thread.
//  3. With --floods, only the referee's peak RSS while engines flood it (bench_floods.cpp).
//  4. With --ratings N ENGINES, only the ratings, crosstable and export figures on N stored games
//     (bench_ratings.cpp).
//  5. With --sandbox, only what the sandbox costs: engine starts with and without it
//     (bench_sandbox.cpp), then the tournament of 1. not pinned, without and with both engines
//     sandboxed.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/bench_floods.h"
#include "cli/bench_ratings.h"
#include "cli/bench_sandbox.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "engines/system.h"
#include "event/tournament.h"
#include "games/registry.h"
#include "storage/store.h"

namespace referee::cli {

namespace {

namespace fs = std::filesystem;

// Plays the tournament and prints its figures; the referee's CPU per ply in `cpu_per_ply_us`.
// With `sandboxed`, both engines run in the sandbox (engines/sandbox.h).
int bench_tournament(const std::string& engine, const std::string& game, int games, int concurrency,
                     bool keep_logs, bool pin_cpus, bool sandboxed, const std::string& database,
                     double& cpu_per_ply_us) {
  const fs::path dir = engines::make_temp_dir("referee-bench-");
  event::TournamentConfig config;
  config.name = "bench";
  // A server database (--db postgresql://...) gets a new event name per run.
  config.database = database.empty() ? (dir / "bench.db").string() : database;
  if (!database.empty())
    config.name = "bench-" + std::to_string(std::chrono::system_clock::now().time_since_epoch() /
                                            std::chrono::milliseconds(1));
  config.games = {game};
  config.cycles = std::max(1, games / 2);
  config.concurrency = concurrency;
  config.tc = *match::parse_time_control("60+1");
  for (const char* name : {"random-a", "random-b"}) {
    event::TournamentEngine e;
    e.config.name = name;
    e.config.command = engine;
    if (sandboxed) {
      const SandboxedCommand inside = sandboxed_command(engine);
      e.config.command = inside.command;
      e.config.working_dir = inside.dir;
      e.config.sandbox = true;
    }
    config.engines.push_back(e);
  }
  config.openings.random_plies = 2;  // different games, not one game replayed
  event::RunOptions options;
  options.keep_logs = keep_logs;
  options.pin_cpus = pin_cpus;
  const auto cpu0 = engines::self_usage();
  const auto wall0 = std::chrono::steady_clock::now();
  auto summary = event::run_tournament(config, options);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const auto cpu1 = engines::self_usage();
  const double user = cpu1.user_seconds - cpu0.user_seconds,
               sys = cpu1.system_seconds - cpu0.system_seconds, cpu = user + sys;
  fs::remove_all(dir);
  if (!summary) {
    std::cerr << "referee bench: " << summary.error() << "\n";
    return 1;
  }
  for (const auto& m : summary->messages) std::cerr << "notice: " << m << "\n";
  const double plies = static_cast<double>(std::max<std::int64_t>(1, summary->plies));
  cpu_per_ply_us = cpu * 1e6 / plies;
  std::printf("tournament: %lld %s games of random engines, concurrency %d%s%s%s\n",
              static_cast<long long>(summary->played), game.c_str(), concurrency,
              keep_logs ? "" : ", no transcripts",
              pin_cpus ? ", games pinned to CPUs" : ", not pinned",
              sandboxed ? ", both engines sandboxed" : "");
  std::printf("  plies                      %lld\n", static_cast<long long>(summary->plies));
  std::printf(
      "  referee CPU per ply        %.1f us (user %.1f + sys %.1f): getrusage of the referee's\n"
      "                             process (game threads, database writer, main thread) over\n"
      "                             the run, divided by the plies; the engines are excluded\n",
      cpu * 1e6 / plies, user * 1e6 / plies, sys * 1e6 / plies);
  const auto& g = summary->game_threads_cpu;
  const auto& w = summary->writer_cpu;
  const double others = cpu - g.user - g.system - w.user - w.system;
  std::printf(
      "    game threads             %.1f us (user %.1f + sys %.1f)\n"
      "    database writer          %.1f us (user %.1f + sys %.1f)\n"
      "    main thread and others   %.1f us (heartbeat, engine check, opening the database)\n",
      (g.user + g.system) * 1e6 / plies, g.user * 1e6 / plies, g.system * 1e6 / plies,
      (w.user + w.system) * 1e6 / plies, w.user * 1e6 / plies, w.system * 1e6 / plies,
      others * 1e6 / plies);
  std::printf(
      "  context switches per ply   %.2f waiting + %.2f preempted (the referee's threads)\n",
      static_cast<double>(cpu1.voluntary_switches - cpu0.voluntary_switches) / plies,
      static_cast<double>(cpu1.involuntary_switches - cpu0.involuntary_switches) / plies);
  std::printf("  games per second           %.1f (wall %.2f s)\n",
              static_cast<double>(summary->played) / wall, wall);
  std::printf(
      "  round trips per engine move %.3f (%lld exchanges for %lld engine moves; the\n"
      "                             handshakes and one isready per game included)\n",
      static_cast<double>(summary->round_trips) /
          static_cast<double>(std::max<std::int64_t>(1, summary->engine_moves)),
      static_cast<long long>(summary->round_trips), static_cast<long long>(summary->engine_moves));
  std::printf("  database per ply           %.2f statements, %.2f transactions (%s)\n",
              static_cast<double>(summary->db_statements) / plies,
              static_cast<double>(summary->db_transactions) / plies,
              storage::database_name(config.database).c_str());
  std::printf("  referee peak RSS           %.1f MB\n",
              static_cast<double>(cpu1.peak_rss_kb) / 1024.0);
  return 0;
}

void bench_perft(const std::string& spec, double min_seconds) {
  auto game = games::make_game(spec);
  if (!game) {
    std::printf("perft %-16s %s\n", spec.c_str(), game.error().c_str());
    return;
  }
  auto state = game->initial_state();
  for (std::uint64_t seed = 1; !state.setup_form().empty(); ++seed)
    (void)state.apply(state.sample_setup(seed));
  for (int depth = 1; depth <= 30; ++depth) {
    auto t0 = std::chrono::steady_clock::now();
    auto nodes = state.perft(depth);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s >= min_seconds || depth == 30 || nodes == 0) {
      std::printf("perft %-16s depth %2d  %12llu nodes  %7.3f s  %6.2f M nodes/s\n", spec.c_str(),
                  depth, static_cast<unsigned long long>(nodes), s,
                  static_cast<double>(nodes) / s / 1e6);
      return;
    }
  }
}

}  // namespace

int bench(const Args& args) {
  int games = 1000, concurrency = 2;
  double min_seconds = 1.0;
  std::string engine, game = "awale";
  std::vector<std::string> perft_games;
  bool skip_tournament = false, no_logs = false, floods = false, pin_cpus = false, no_pin = false,
       sandbox = false;
  int starts = 50;
  std::string mock, ratings_db;
  std::vector<long> ratings;
  std::uint64_t seed = 1;
  po::options_description desc;
  desc.add_options()("games,n", po::value(&games)->value_name("N")->default_value(games),
                     "games in the tournament")(
      "concurrency,c", po::value(&concurrency)->value_name("N")->default_value(concurrency),
      "games at once")("game", po::value(&game)->value_name("G")->default_value(game),
                       "tournament game")("engine", po::value(&engine)->value_name("CMD"),
                                          "engine (default: the build's random_engine)")(
      "perft", po::value(&perft_games)->multitoken()->value_name("G..."),
      "games whose perft speed to measure (default: all)")(
      "perft-seconds", po::value(&min_seconds)->value_name("S")->default_value(min_seconds),
      "deepen perft until one depth takes this long")(
      "no-tournament", po::bool_switch(&skip_tournament), "perft figures only")(
      "no-logs", po::bool_switch(&no_logs),
      "do not store the lines exchanged (to measure their cost)")(
      "pin-cpus", po::bool_switch(&pin_cpus),
      "only the tournament with each game thread and its engines pinned to one CPU (as "
      "`tournament --pin-cpus`; default: both, pinned and not)")(
      "no-pin", po::bool_switch(&no_pin),
      "only the tournament not pinned (the default of `tournament`)")(
      "floods", po::bool_switch(&floods), "peak RSS while engines flood the referee (only)")(
      "sandbox", po::bool_switch(&sandbox),
      "only: engine starts and the tournament, without and with the sandbox")(
      "starts", po::value(&starts)->value_name("N")->default_value(starts),
      "engine starts of each kind with --sandbox")(
      "mock", po::value(&mock)->value_name("CMD"),
      "the test engine for --floods (default: the build's)")(
      "ratings", po::value(&ratings)->multitoken()->value_name("N ENGINES"),
      "only: N stored games between ENGINES engines of known ratings, then the time, memory "
      "and error of `referee ratings`, the time and memory of `referee crosstable` and the speed "
      "of `referee export` on them")("seed", po::value(&seed)->value_name("S")->default_value(seed),
                                     "the true ratings and results of --ratings")(
      "db", po::value(&ratings_db)->value_name("FILE"),
      "keep the --ratings database in this new file; without --ratings: the tournament's "
      "database (a file or postgresql://...; default a temporary file)");
  po::variables_map vm;
  const CommandHelp help{"referee bench [options]",
                         "Speed figures: the referee's CPU per ply in a tournament of instant "
                         "engines, and\nperft speed per game (README.md, Benchmarks)."};
  if (auto done = parse_command(args, help, desc, vm)) return *done;
  if (vm.count("ratings")) {
    if (ratings.size() != 2) {
      std::cerr << "referee bench: --ratings takes two numbers: N games and ENGINES\n";
      return 2;
    }
    if (ratings[1] > 100000) {
      std::cerr << "referee bench: --ratings: at most 100000 engines\n";
      return 2;
    }
    return bench_ratings(ratings[0], static_cast<int>(ratings[1]), seed, ratings_db);
  }
  if (floods) {
    if (mock.empty())
      mock =
          (fs::path(engines::executable_dir()).parent_path() / "support" / "mock_engine").string();
    return bench_floods(mock, concurrency);
  }
  if (engine.empty())
    engine =
        (fs::path(engines::executable_dir()).parent_path() / "engines" / "random_engine").string();
  if (sandbox) {
    if (starts < 1 || starts > 100000) {
      std::cerr << "referee bench: --starts must be 1 to 100000\n";
      return 2;
    }
    if (int rc = bench_sandbox_starts(engine, starts)) return rc;
    double cpu[2] = {0, 0};
    for (bool sandboxed : {false, true})
      if (int rc = bench_tournament(engine, game, games, concurrency, !no_logs, false, sandboxed,
                                    ratings_db, cpu[sandboxed]))
        return rc;
    std::printf(
        "referee CPU per ply: %.1f us without the sandbox, %.1f us with both engines in it\n",
        cpu[0], cpu[1]);
    return 0;
  }
  if (pin_cpus && no_pin) {
    std::cerr << "referee bench: --pin-cpus and --no-pin exclude each other\n";
    return 2;
  }
  if (!skip_tournament) {
    // Pinned and not pinned differ by the cross-CPU wake-ups of every ply (README.md, Benchmarks):
    // both are shown unless one is asked for.
    double pinned = 0, unpinned = 0;
    if (!no_pin)
      if (int rc = bench_tournament(engine, game, games, concurrency, !no_logs, true, false,
                                    ratings_db, pinned))
        return rc;
    if (!pin_cpus)
      if (int rc = bench_tournament(engine, game, games, concurrency, !no_logs, false, false,
                                    ratings_db, unpinned))
        return rc;
    if (!pin_cpus && !no_pin)
      std::printf("referee CPU per ply: %.1f us with games pinned to CPUs, %.1f us not pinned\n",
                  pinned, unpinned);
  }
  if (perft_games.empty())
    for (const auto& e : games::registry()) perft_games.push_back(e.name);
  for (const auto& g : perft_games) bench_perft(g, min_seconds);
  return 0;
}

}  // namespace referee::cli
