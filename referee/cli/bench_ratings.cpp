// `referee bench --ratings N ENGINES`: the figures of "a million games in under a second".
//  1. Creates a database (a temporary one, or --db) of N finished awale games between ENGINES
//     engines whose true ratings are known: N(0, 200) Elo from --seed, a first-player advantage of
//     30 Elo and drawelo 100 (equal engines draw 28 %); random pairs. The games are written
//     through the Store in batches (results only, no moves), so the results table is filled by
//     the same triggers as in a tournament.
//  2. Runs `referee ratings --format json` on it as a child process and prints that process's
//     CPU time and peak RSS (what a user pays), the mean and largest error of the fitted ratings
//     against the truth (both centred on their mean), and how many true ratings fall inside their
//     95 % bars.
//  3. Runs `referee crosstable --format csv` the same way (CPU time and peak RSS: counted results
//     and game pairs streamed in schedule order).
//  4. Runs `referee export --format pgn --no-moves` the same way and prints games per second and
//     peak RSS (the streamed export).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/bench_ratings.h"
#include "engines/system.h"
#include "ratings/draw_model.h"
#include "ratings/stats_math.h"
#include "storage/store.h"

namespace referee::cli {

namespace {

namespace fs = std::filesystem;

// "  referee ratings CPU         0.45 s (user 0.34 + sys 0.11)" and its peak RSS line.
void print_usage(const std::string& what, const engines::Usage& u) {
  std::printf("  %-27s %.2f s (user %.2f + sys %.2f)\n", (what + " CPU").c_str(),
              u.user_seconds + u.system_seconds, u.user_seconds, u.system_seconds);
  std::printf("  %-27s %.1f MB\n", (what + " peak RSS").c_str(),
              static_cast<double>(u.peak_rss_kb) / 1024.0);
}

std::string engine_name(std::size_t i) {
  return "engine" + std::to_string(i);
}

Status fill_database(const std::string& path, long count, const std::vector<double>& truth,
                     std::uint64_t seed) {
  auto store = storage::Store::open(path);
  if (!store) return store.failure();
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<std::size_t> pick(0, truth.size() - 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  constexpr long kBatch = 20000;
  for (long done = 0; done < count;) {
    if (auto ok = store->begin_batch(); !ok) return ok;
    for (long i = 0; i < kBatch && done < count; ++i, ++done) {
      const std::size_t a = pick(rng);
      std::size_t b = pick(rng);
      while (b == a) b = pick(rng);
      storage::GameRecord game;
      game.game = "awale";
      game.players = {engine_name(a), engine_name(b)};
      game.time_control = "10+0.1";
      game.started_at = "2026-11-01T00:00:00Z";
      auto id = store->begin_game(game);
      if (!id) return id.failure();
      const auto p = ratings::split_score(ratings::score_of_elo(truth[a] - truth[b] + 30), 100);
      const double u = uniform(rng);
      game.ranks = u < p[0]          ? std::vector<int>{1, 2}
                   : u < p[0] + p[1] ? std::vector<int>{1, 1}
                                     : std::vector<int>{2, 1};
      game.scores = {0, 0};
      game.status = storage::GameStatus::Finished;
      game.termination = "normal";
      game.reason = "game over by the rules";
      game.finished_at = "2026-11-01T00:05:00Z";
      if (auto ok = store->finish_game(*id, game); !ok) return ok;
    }
    if (auto ok = store->commit_batch(); !ok) return ok;
  }
  return Ok{};
}

struct Accuracy {
  double mean_error = 0, max_error = 0;
  int rated = 0, covered = 0;
};

// The one table's ratings against the truth, both centred on their mean over the rated engines.
Expected<Accuracy> accuracy(const std::string& json_path, const std::vector<double>& truth) {
  std::ifstream in(json_path);
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    return Error{json_path + ": " + e.what()};
  }
  std::vector<std::pair<std::size_t, std::pair<double, double>>> fitted;  // engine, (elo, error)
  for (const auto& table : report.at("tables"))
    for (const auto& group : table.at("groups"))
      for (const auto& r : group.at("ratings")) {
        if (!r.at("elo").is_number() || !r.at("error").is_number()) continue;
        const std::string name = r.at("name").get<std::string>();
        const std::size_t index = std::stoul(name.substr(std::string("engine").size()));
        if (index >= truth.size()) continue;
        fitted.push_back({index, {r.at("elo").get<double>(), r.at("error").get<double>()}});
      }
  if (fitted.empty()) return Error{json_path + ": no rated engine"};
  double mean_fit = 0, mean_truth = 0;
  for (const auto& [i, f] : fitted) {
    mean_fit += f.first;
    mean_truth += truth[i];
  }
  mean_fit /= static_cast<double>(fitted.size());
  mean_truth /= static_cast<double>(fitted.size());
  Accuracy a;
  for (const auto& [i, f] : fitted) {
    const double error = std::abs((f.first - mean_fit) - (truth[i] - mean_truth));
    a.mean_error += error;
    a.max_error = std::max(a.max_error, error);
    a.covered += error <= f.second ? 1 : 0;
    ++a.rated;
  }
  a.mean_error /= a.rated;
  return a;
}

}  // namespace

int bench_ratings(long games, int engines_count, std::uint64_t seed, const std::string& db_path) {
  if (games < 1 || engines_count < 2) {
    std::cerr << "referee bench: --ratings needs N >= 1 games and at least 2 engines\n";
    return 2;
  }
  const fs::path dir = engines::make_temp_dir("referee-bench-ratings-");
  const std::string db = db_path.empty() ? (dir / "ratings.db").string() : db_path;
  if (fs::exists(db)) {
    std::cerr << "referee bench: " << db << " exists; --db must name a new file\n";
    fs::remove_all(dir);
    return 2;
  }
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> spread(0, 200);
  std::vector<double> truth(static_cast<std::size_t>(engines_count));
  for (auto& t : truth) t = spread(rng);

  const auto wall0 = std::chrono::steady_clock::now();
  if (auto ok = fill_database(db, games, truth, seed); !ok) {
    std::cerr << "referee bench: " << ok.error() << "\n";
    fs::remove_all(dir);
    return 1;
  }
  const double fill_wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("ratings: %ld awale games between %d engines (seed %llu), %s\n", games, engines_count,
              static_cast<unsigned long long>(seed), db.c_str());
  std::printf("  database written in         %.1f s (%.0f games/s, %.0f MB)\n", fill_wall,
              static_cast<double>(games) / fill_wall, static_cast<double>(fs::file_size(db)) / 1e6);

  const std::string referee = (fs::path(engines::executable_dir()) / "referee").string();
  const std::string json = (dir / "ratings.json").string();
  auto rated = engines::run_measured({referee, "ratings", "--db", db, "--format", "json"}, json);
  int rc = 0;
  if (!rated) {
    std::cerr << "referee bench: " << rated.error() << "\n";
    rc = 1;
  } else {
    print_usage("referee ratings", *rated);
    auto a = accuracy(json, truth);
    if (!a) {
      std::cerr << "referee bench: " << a.error() << "\n";
      rc = 1;
    } else {
      std::printf("  error against the truth     mean %.1f Elo, max %.1f Elo (%d engines rated)\n",
                  a->mean_error, a->max_error, a->rated);
      std::printf("  95 %% bars covering truth    %d of %d (%.1f %%)\n", a->covered, a->rated,
                  100.0 * a->covered / a->rated);
    }
  }
  const std::string csv = (dir / "crosstable.csv").string();
  auto crossed = engines::run_measured({referee, "crosstable", "--db", db, "--format", "csv"}, csv);
  if (!crossed) {
    std::cerr << "referee bench: " << crossed.error() << "\n";
    rc = 1;
  } else {
    print_usage("referee crosstable", *crossed);
  }
  const std::string pgn = (dir / "games.pgn").string();
  const auto export0 = std::chrono::steady_clock::now();
  auto exported =
      engines::run_measured({referee, "export", "--db", db, "--format", "pgn", "--no-moves"}, pgn);
  const double export_wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - export0).count();
  if (!exported) {
    std::cerr << "referee bench: " << exported.error() << "\n";
    rc = 1;
  } else {
    const double cpu = exported->user_seconds + exported->system_seconds;
    std::printf(
        "  export pgn --no-moves       %.2f s CPU, %.2f s wall, %.0f games/s of CPU, "
        "%.0f MB written\n",
        cpu, export_wall, static_cast<double>(games) / cpu,
        static_cast<double>(fs::file_size(pgn)) / 1e6);
    std::printf("  export peak RSS             %.1f MB\n",
                static_cast<double>(exported->peak_rss_kb) / 1024.0);
  }
  fs::remove_all(dir);
  return rc;
}

}  // namespace referee::cli
