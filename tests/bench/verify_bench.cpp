// `referee verify` on a big archive, figures printed (never asserted): the CPU time, wall time and
// peak RSS of each given referee binary verifying the same database, runs alternated.
//
//   verify_bench GAMES DB REFEREE [REFEREE...]  [--runs N]
//
// DB: a new SQLite file, or "postgres" for a database on a PostgreSQL server the bench starts
// (tests/storage/pg_server.h; stopped at the end). The database gets GAMES random awale games
// with their moves (uniformly random legal moves: about 90 plies a game), in 100 tournaments,
// written through the importer in transactions of 1,000 games. Each binary then runs
// `verify --db DB` (stdout to a file; its status is 0: every game replays), alternately, --runs
// times (default 2). Comparing main's binary with a branch's measures a change of verify.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engines/system.h"
#include "storage/game_maker.h"
#include "storage/import.h"
#include "storage/pg_server.h"
#include "storage/store.h"
#include "storage/temp_dir.h"

using namespace referee;

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "verify_bench: %s\n", what.c_str());
  return 1;
}

// A unique started_at per game (the importer finds duplicates by it): one second apart.
std::string started_at(long k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "2026-%02ld-%02ldT%02ld:%02ld:%02ldZ", 1 + k / 2419200 % 12,
                1 + k / 86400 % 28, k / 3600 % 24, k / 60 % 60, k % 60);
  return buf;
}

Status fill(const std::string& db, long games) {
  auto store = storage::Store::open(db);
  if (!store) return store.failure();
  storage::Importer importer(*store);
  constexpr long kBatch = 1000;
  const long per_event = (games + 99) / 100;
  for (long k = 0; k < games; ++k) {
    if (k % kBatch == 0)
      if (Status st = importer.begin(); !st) return st;
    auto made =
        storage_test::random_game("awale", {k % 2 ? "beta" : "alpha", k % 2 ? "alpha" : "beta"},
                                  static_cast<std::uint64_t>(k) + 1, 4);
    storage::ImportedGame in{made.record, made.moves};
    in.game.id = k + 1;
    in.game.event_id = k / per_event + 1;
    in.game.event = "bench " + std::to_string(k / per_event + 1);
    in.game.slot = k % per_event;
    in.game.started_at = in.game.finished_at = started_at(k);
    if (in.game.termination == "normal") in.game.termination = "rules";  // the current word
    auto added = importer.add(in);
    if (!added) return added.failure();
    if (k % kBatch == kBatch - 1 || k == games - 1)
      if (Status st = importer.commit(); !st) return st;
  }
  return Ok{};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int runs = 2;
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--runs") {
      runs = std::atoi(args[i + 1].c_str());
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      break;
    }
  if (args.size() < 3 || std::atol(args[0].c_str()) < 1 || runs < 1) {
    std::fprintf(stderr, "usage: verify_bench GAMES DB REFEREE [REFEREE...] [--runs N]\n");
    return 2;
  }
  const long games = std::atol(args[0].c_str());
  std::string db = args[1];
  const std::vector<std::string> binaries(args.begin() + 2, args.end());
  if (db == "postgres") {
    auto& pg = storage_test::PgServer::get();
    if (!pg.available()) return fail("no PostgreSQL server: " + pg.reason());
    db = pg.new_database();
  } else if (std::filesystem::exists(db)) {
    return fail("'" + db + "' exists: give a new file");
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (Status st = fill(db, games); !st) return fail(st.error());
  const double fill_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("verify_bench: %ld awale games with moves in %s (written in %.1f s)\n", games,
              args[1] == "postgres" ? "a PostgreSQL database" : db.c_str(), fill_s);
  std::fflush(stdout);
  storage_test::TempDir scratch;
  const std::string out = scratch.file("verify.out");
  for (int r = 0; r < runs; ++r)
    for (const auto& bin : binaries) {
      const auto w0 = std::chrono::steady_clock::now();
      auto used = engines::run_measured({bin, "verify", "--db", db}, out);
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      if (!used) return fail(bin + ": " + used.error());
      std::printf(
          "  %-40s run %d: %6.2f s CPU (user %.2f, sys %.2f), %6.2f s wall, peak RSS %.1f MB\n",
          bin.c_str(), r + 1, used->user_seconds + used->system_seconds, used->user_seconds,
          used->system_seconds, wall, static_cast<double>(used->peak_rss_kb) / 1024.0);
      std::fflush(stdout);
    }
  return 0;
}
