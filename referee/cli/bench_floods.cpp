// `referee bench --floods`: the referee's peak memory when engines flood it. A gauntlet at
// concurrency 2 of one steady engine against engines that flood in every phase (the test engine's
// --flood=WHEN[,stderr][,raw], tests/support/mock_engine.cpp): before ugiok, while readyok is
// awaited, between games, during go and after quit; on stdout or stderr; lines, or bytes without
// a newline. Prints the referee's peak RSS (the goal: under 64 MB whatever the engines do), the
// wall time, and how each engine's games ended. Figures only: nothing is asserted.
#include "cli/bench_floods.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "engines/system.h"
#include "event/tournament.h"
#include "storage/store.h"

namespace referee::cli {

namespace fs = std::filesystem;

int bench_floods(const std::string& mock, int concurrency) {
  if (!fs::exists(mock)) {
    std::cerr << "referee bench --floods: no test engine at '" << mock
              << "' (build with -DREFEREE_TESTS=ON, or give --mock PATH)\n";
    return 1;
  }
  const fs::path dir = engines::make_temp_dir("referee-floods-");
  event::TournamentConfig config;
  config.name = "floods";
  config.database = (dir / "floods.db").string();
  config.games = {"awale:maxplies=40"};
  config.format = "gauntlet";
  config.cycles = 2;  // each flood in both seats, twice: between-games floods get a next game
  config.concurrency = concurrency;
  config.max_crashes = 1000000;  // every flood is played in every game, none withdrawn
  config.tc = *match::parse_time_control("10+0.1");
  event::TournamentEngine steady;
  steady.config.name = "steady";
  steady.config.command = mock;
  config.engines.push_back(steady);
  for (const char* when : {"ugi", "isready", "gameover", "go", "quit"}) {
    for (const char* stream : {"", ",stderr"}) {
      for (const char* raw : {"", ",raw"}) {
        event::TournamentEngine e;
        e.config.name = std::string("flood-") + when + (*stream ? "-stderr" : "-stdout") +
                        (*raw ? "-raw" : "-lines");
        e.config.command = mock;
        e.config.args = {std::string("--flood=") + when + stream + raw};
        config.engines.push_back(e);
      }
    }
  }
  event::RunOptions
      options;  // engine logs kept: what a game keeps of a flood is part of the figure
  const auto wall0 = std::chrono::steady_clock::now();
  auto summary = event::run_tournament(config, options);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const auto usage = engines::self_usage();
  std::map<std::string, std::map<std::string, int>> endings;  // engine -> termination -> games
  if (summary) {
    auto store = storage::Store::open(config.database);
    storage::GameFilter all;
    all.finished_only = false;  // the games that could not start too
    auto games =
        store ? store->games(all) : Expected<std::vector<storage::GameRecord>>(store.failure());
    if (games)
      for (const auto& g : *games)
        for (const auto& player : g.players)
          if (player != "steady") ++endings[player][g.termination];
  }
  fs::remove_all(dir);
  if (!summary) {
    std::cerr << "referee bench --floods: " << summary.error() << "\n";
    return 1;
  }
  std::printf("floods: %zu flooding engines against a steady one, awale, concurrency %d\n",
              config.engines.size() - 1, concurrency);
  std::printf("  games                      %lld played, %lld not played (wall %.2f s)\n",
              static_cast<long long>(summary->played), static_cast<long long>(summary->not_played),
              wall);
  std::printf("  referee peak RSS           %.1f MB\n",
              static_cast<double>(usage.peak_rss_kb) / 1024.0);
  for (const auto& [engine, ends] : endings) {
    std::string text;
    for (const auto& [termination, count] : ends)
      text += (text.empty() ? "" : ", ") + termination + " x" + std::to_string(count);
    std::printf("  %-26s %s\n", engine.c_str(), text.c_str());
  }
  return 0;
}

}  // namespace referee::cli
