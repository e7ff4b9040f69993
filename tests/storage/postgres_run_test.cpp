// The referee on PostgreSQL end to end: two `referee tournament` processes share one event on one
// server database (every slot played once, by one of them), `referee verify` and `referee export`
// read it; and the recorder's batching measured in round trips per ply on both backends.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <thread>

#include "storage/backends.h"
#include "storage/game_maker.h"
#include "storage/recorder.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

// Runs a shell command; returns its exit status and its standard output.
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {-1, out};
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("postgres: two tournament processes share one event, verify and export read it") {
  storage_test::PgServer& pg = storage_test::PgServer::get();
  if (!pg.available()) {
    if (storage_test::PgServer::required()) FAIL(pg.reason());
    WARN("SKIPPED on PostgreSQL: " + pg.reason());
    return;
  }
  storage_test::TempDir dir;
  const std::string url = pg.new_database();
  const std::string file = dir.file("t.toml");
  {
    std::ofstream toml(file);
    toml << "name = \"pg-cup\"\ndatabase = \"" << url
         << "\"\ngames = [\"awale\"]\ncycles = 3\nconcurrency = 2\ntc = \"10+0.1\"\n"
            "[openings]\nrandom_plies = 2\n";
    for (const char* name : {"r1", "r2", "r3"})
      toml << "[[engine]]\nname = \"" << name
           << "\"\ncommand = \"" ENGINES_DIR "/random_engine\"\n";
  }
  const std::string command = std::string(REFEREE_BIN) + " tournament --quiet " + file;
  std::pair<int, std::string> first, second;
  std::thread other([&] { second = run(command + " 2>" + dir.file("err2")); });
  first = run(command + " 2>" + dir.file("err1"));
  other.join();
  INFO(first.second << "\n"
                    << second.second << storage_test::read_bytes(dir.file("err1"))
                    << storage_test::read_bytes(dir.file("err2")));
  CHECK(first.first == 0);
  CHECK(second.first == 0);

  auto store = Store::open(url);
  REQUIRE(store.ok());
  auto games = store->games(GameFilter{});
  REQUIRE(games.ok());
  REQUIRE(games->size() == 18);  // 3 engines, 3 pairs x 2 seats x 3 cycles
  std::set<std::int64_t> slots;
  std::set<std::int64_t> owners;
  for (const auto& g : *games) {
    slots.insert(g.slot);
    if (g.owner) owners.insert(*g.owner);
  }
  CHECK(slots.size() == games->size());  // every slot once
  auto event_slots = work_queue::slots(*store, games->front().event_id.value_or(0));
  REQUIRE(event_slots.ok());
  for (const auto& s : *event_slots) CHECK(s.state == referee::storage::SlotState::Done);

  auto verify = run(std::string(REFEREE_BIN) + " verify --db '" + url + "' 2>&1");
  CHECK(verify.first == 0);
  CHECK(verify.second.find("integrity: skipped") != std::string::npos);
  auto csv = run(std::string(REFEREE_BIN) + " export --format csv --db '" + url + "' 2>&1");
  CHECK(csv.first == 0);
  CHECK(std::count(csv.second.begin(), csv.second.end(), '\n') == 19);  // header + 18 games
}

TEST_CASE("backends: the recorder batches moves: round trips per ply (figures printed)") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      auto store = Store::open(db.url());
      REQUIRE(store.ok());
      Recorder recorder(std::move(*store));
      auto get = [&] {
        return *recorder.call<RoundTrips>(
            [](Store& s) -> referee::Expected<RoundTrips> { return s.round_trips(); });
      };
      const RoundTrips before = get();
      std::int64_t plies = 0;
      for (int g = 0; g < 10; ++g) {
        auto made = storage_test::random_game("awale", {"a", "b"}, static_cast<std::uint64_t>(g));
        auto id = recorder.begin_game(made.record);
        REQUIRE(id.ok());
        for (auto& m : made.moves) {
          recorder.add_move(*id, m);
          // An instant engine: a move every ~100 us.
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        plies += static_cast<std::int64_t>(made.moves.size());
        recorder.finish_game(*id, made.record);
      }
      recorder.flush();
      const RoundTrips after = get();
      const double statements = static_cast<double>(after.statements - before.statements - 1);
      const double transactions = static_cast<double>(after.transactions - before.transactions);
      WARN(backend << ": " << plies << " plies, " << statements / static_cast<double>(plies)
                   << " statements and " << transactions / static_cast<double>(plies)
                   << " transactions per ply");
      CHECK(transactions < static_cast<double>(plies) / 2);  // moves are grouped
      REQUIRE(
          recorder.call<std::vector<GameRecord>>([](Store& s) { return s.games(GameFilter{}); })
              ->size() == 10);
    }
}
