// Benchmark of `referee worker` (not a test; prints figures for storage/SCALING.md):
// 1. Games per second with 1, 2 and 4 worker processes (each --concurrency 1) sharing one
//    database, playing one queued event of instant mock engines; the clock runs from starting the
//    workers until the database counts every slot done.
// 2. The database cost of one game's life on the worker's path, measured on the Store alone:
//    claim_slots (one slot), begin_game, the moves (written as the Recorder writes them: every
//    `--batch` plies in one transaction, through Store::add_moves, Store::kMovesPerInsert rows
//    per INSERT), finish_claimed, and renew_claims; in milliseconds per call, and statements and
//    transactions per call (counted by the storage layer, Store::round_trips: each statement
//    executed, and commits with the statements run outside a transaction).
//
// Usage: workers_bench [--db PATH|postgresql://...] [--games N] [--workers 1,2,4] [--claims N]
//                      [--batch PLIES]
// Defaults: a temporary SQLite file, 300 games, workers 1,2,4, 2000 claims, 16 plies per batch
// (one INSERT: about what a server database's 100 ms commit interval gathers from a worker of
// 16 games at a fast time control).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "event/event_spec.h"
#include "event/schedule.h"
#include "service/worker.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace st = referee::storage;

std::string event_file(const std::string& dir, const std::string& name, int games) {
  const std::string path = dir + "/" + name + ".toml";
  std::ofstream out(path);
  out << "name = \"" << name << "\"\ngames = [\"awale\"]\ntc = \"60+1\"\ncycles = " << games / 2
      << "\n[openings]\nrandom_plies = 4\n";
  for (int e = 0; e < 2; ++e)
    out << "[[engine]]\nname = \"m" << e << "\"\ncommand = \"" << SUPPORT_DIR << "/mock_engine\"\n";
  return path;
}

pid_t start_worker(const std::string& db, const std::string& dir, int i) {
  std::vector<std::string> text = {REFEREE_BIN,  "worker", "--db",
                                   db,           "--name", "b" + std::to_string(i),
                                   "--idle-max", "1",      "--no-logs"};
  std::vector<char*> argv;
  for (auto& a : text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);  // the child must not write this process's buffered lines again
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string err = dir + "/worker" + std::to_string(i) + ".err";
    std::freopen("/dev/null", "r", stdin);
    std::freopen("/dev/null", "w", stdout);
    std::freopen(err.c_str(), "w", stderr);
    ::execv(REFEREE_BIN, argv.data());
    ::_exit(127);
  }
  return pid;
}

void games_per_second(const std::string& db_base, const std::string& dir, int games, int workers) {
  const std::string db = db_base.empty() ? dir + "/w" + std::to_string(workers) + ".db" : db_base;
  auto store = st::Store::open(db);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().c_str());
    std::exit(1);
  }
  auto row =
      referee::service::queue_event(*store, event_file(dir, "e" + std::to_string(workers), games));
  if (!row) {
    std::fprintf(stderr, "%s\n", row.error().c_str());
    std::exit(1);
  }
  const auto start = Clock::now();
  std::vector<pid_t> pids;
  for (int i = 0; i < workers; ++i) pids.push_back(start_worker(db, dir, i));
  std::int64_t done = 0, total = 0, plies = 0;
  while (Clock::now() - start < std::chrono::minutes(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto info = referee::storage::work_queue::event(*store, row->id);
    if (!info) continue;
    done = info->done;
    total = info->total();
    if (done >= total) break;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (pid_t p : pids) ::kill(p, SIGTERM);
  for (pid_t p : pids) ::waitpid(p, nullptr, 0);
  st::GameFilter f;
  f.event_id = row->id;
  if (auto list = store->games(f))
    for (const auto& g : *list) plies += g.plies;
  std::printf("  %d worker%s: %lld games in %.2f s = %.1f games/s, %.0f plies/s\n", workers,
              workers == 1 ? " " : "s", static_cast<long long>(done), seconds,
              static_cast<double>(done) / seconds, static_cast<double>(plies) / seconds);
}

void claim_costs(const std::string& db_base, const std::string& dir, int claims, int batch) {
  const std::string db = db_base.empty() ? dir + "/claims.db" : db_base;
  auto store = st::Store::open(db);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().c_str());
    std::exit(1);
  }
  auto row = referee::service::queue_event(*store, event_file(dir, "claims", claims));
  if (!row) {
    std::fprintf(stderr, "%s\n", row.error().c_str());
    std::exit(1);
  }
  auto owner = referee::storage::work_queue::register_owner(
      *store, {"bench", "here", 1, referee::storage::OwnerKind::Worker, 30000});
  if (!owner) std::exit(1);
  struct Cost {
    const char* what;
    double seconds = 0;
    long calls = 0, statements = 0, commits = 0;
  };
  Cost claim{"claim_slots (1 slot)"}, begin{"begin_game"}, ply{"add_move (per ply)"},
      finish{"finish_claimed"}, renew{"renew_claims"};
  auto measure = [&](Cost& cost, auto&& op, long calls = 1) {
    const st::RoundTrips r0 = store->round_trips();
    const auto t0 = Clock::now();
    op();
    cost.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    cost.calls += calls;
    const st::RoundTrips r1 = store->round_trips();
    cost.statements += static_cast<long>(r1.statements - r0.statements);
    cost.commits += static_cast<long>(r1.transactions - r0.transactions);
  };
  const int kPlies = 60;
  for (int i = 0; i < claims; ++i) {
    std::vector<st::Claim> got;
    measure(claim, [&] {
      got = *referee::storage::work_queue::claim_slots(*store, *owner, row->id, 1, 30000, {});
    });
    if (got.empty()) break;
    st::GameRecord g;
    g.event_id = row->id;
    g.slot = got[0].slot.slot;
    g.game = got[0].slot.game;
    g.players = got[0].slot.seats;
    g.opening = got[0].slot.opening;
    g.owner = *owner;
    std::int64_t id = 0;
    measure(begin, [&] { id = *store->begin_game(g); });
    measure(
        ply,
        [&] {
          for (int p = 1; p <= kPlies; p += batch) {
            std::vector<st::MoveRecord> moves;
            for (int k = p; k < p + batch && k <= kPlies; ++k) {
              st::MoveRecord m;
              m.ply = k;
              m.player = (k - 1) % 2 + 1;
              m.move = "1";
              m.time_ms = 0;
              moves.push_back(m);
            }
            std::vector<std::pair<std::int64_t, const st::MoveRecord*>> queued;
            for (const auto& m : moves) queued.emplace_back(id, &m);
            (void)store->begin_batch();
            (void)store->add_moves(queued);
            (void)store->commit_batch();
          }
        },
        kPlies);
    // A finished game (the results table's triggers run as for a real one); the moves are not
    // a legal game: this database is thrown away.
    g.status = referee::storage::GameStatus::Finished;
    g.ranks = {1, 2};
    g.scores = {25, 23};
    g.termination = "maxplies";
    g.plies = kPlies;
    measure(finish,
            [&] { (void)referee::storage::work_queue::finish_claimed(*store, id, g, *owner); });
    if (i % 8 == 0)
      measure(renew,
              [&] { (void)referee::storage::work_queue::renew_claims(*store, *owner, 30000); });
  }
  std::printf(
      "\nDatabase cost per call on the worker's path (%s, %d games, %d plies a game, "
      "%d plies per moves transaction):\n",
      st::is_server_database(db) ? "PostgreSQL" : "SQLite", claims, kPlies, batch);
  for (const Cost* x : {&claim, &begin, &ply, &finish, &renew}) {
    if (x->calls == 0) continue;
    const double n = static_cast<double>(x->calls);
    std::printf("  %-22s %8.3f ms  %5.2f statements  %5.3f commits\n", x->what,
                1000 * x->seconds / n, static_cast<double>(x->statements) / n,
                static_cast<double>(x->commits) / n);
  }
  const double per_game = (claim.seconds + begin.seconds + ply.seconds + finish.seconds) /
                          static_cast<double>(std::max(1L, claim.calls));
  std::printf("  one game of %d plies      %8.3f ms", kPlies, 1000 * per_game);
  if (claim.calls > 0)
    std::printf("  %5.1f statements  %5.2f commits",
                static_cast<double>(claim.statements + begin.statements + ply.statements +
                                    finish.statements) /
                    static_cast<double>(claim.calls),
                static_cast<double>(claim.commits + begin.commits + ply.commits + finish.commits) /
                    static_cast<double>(claim.calls));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string db, worker_list = "1,2,4";
  int games = 300, claims = 2000, batch = 16;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--db")
      db = next();
    else if (a == "--games")
      games = std::atoi(next().c_str());
    else if (a == "--workers")
      worker_list = next();
    else if (a == "--claims")
      claims = std::atoi(next().c_str());
    else if (a == "--batch")
      batch = std::max(1, std::atoi(next().c_str()));
    else {
      std::fprintf(stderr,
                   "usage: workers_bench [--db D] [--games N] [--workers 1,2,4] "
                   "[--claims N] [--batch PLIES]\n");
      return 2;
    }
  }
  char pattern[] = "/tmp/workers-bench-XXXXXX";
  if (!::mkdtemp(pattern)) return 1;
  const std::string dir = pattern;
  std::printf(
      "Games per second, instant mock engines, awale (whole games), %d games, "
      "workers --concurrency 1, on %u cores:\n",
      games, std::thread::hardware_concurrency());
  std::size_t start = 0;
  while (start < worker_list.size()) {
    std::size_t end = worker_list.find(',', start);
    if (end == std::string::npos) end = worker_list.size();
    games_per_second(db, dir, games, std::atoi(worker_list.substr(start, end - start).c_str()));
    start = end + 1;
  }
  claim_costs(db, dir, claims, batch);
  std::filesystem::remove_all(dir);
  return 0;
}
