// The crosstable of `referee crosstable` is counted (results in SQL, game pairs from a stream in
// schedule order) instead of computed on every game record; it must give exactly what the records
// give. Random archives: several tournaments and none, openings shared by many games, games
// missing from their pair, three-player games, two game strings, --min-games.
#include <catch2/catch.hpp>

#include <random>

#include "games/game.h"
#include "ratings/crosstable.h"
#include "ratings/pairs.h"
#include "ratings/report.h"
#include "storage/game_query.h"
#include "storage/results.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;

namespace {

// Seeded: a few hundred games whose pairs are of every kind the pairing rule meets.
void write_random_archive(const std::string& path, std::uint64_t seed) {
  auto store = storage::Store::open(path);
  REQUIRE(store.ok());
  std::mt19937_64 rng(seed);
  const std::vector<std::string> engines = {"A", "B", "C", "D", "E"};
  const std::vector<std::string> games = {games::make_game("awale")->canonical(),
                                          games::make_game("kalaha")->canonical()};
  const std::string oware3 = games::make_game("oware:players=3")->canonical();
  REQUIRE(store->begin_batch().ok());
  for (int t = 0; t < 4; ++t) {
    std::optional<std::int64_t> tid;
    if (t > 0) {
      auto id =
          referee::storage::work_queue::open_tournament(*store, "t" + std::to_string(t), "{}");
      REQUIRE(id.ok());
      tid = *id;
    }
    std::vector<storage::GameRecord> scheduled;
    for (std::int64_t slot = 0; slot < 120; slot += 2) {
      storage::GameRecord g;
      g.event_id = tid;
      g.game = games[rng() % 2];
      g.opening = {std::to_string(rng() % 3)};  // few openings: sets with many games
      g.time_control = "10+0.1";
      const std::size_t a = rng() % engines.size();
      const std::size_t b = (a + 1 + rng() % (engines.size() - 1)) % engines.size();
      g.players = {engines[a], engines[b]};
      g.slot = tid ? slot : -1;
      scheduled.push_back(g);
      g.players = {engines[b], engines[a]};
      g.slot = tid ? slot + 1 : -1;
      if (rng() % 5 == 0) g.players = {engines[a], engines[b]};  // the same seating twice
      scheduled.push_back(g);
      if (rng() % 10 == 0) {
        storage::GameRecord three = g;
        three.game = oware3;
        three.slot = tid ? 1000 + slot : -1;  // a slot of its own (one finished game per slot)
        three.players = {engines[a], engines[b], engines[(b + 1) % engines.size()]};
        if (three.players[2] == engines[a]) three.players[2] = engines[(b + 2) % engines.size()];
        scheduled.push_back(three);
      }
    }
    std::shuffle(scheduled.begin(), scheduled.end(), rng);  // stored out of schedule order
    for (auto& g : scheduled) {
      if (rng() % 8 == 0) continue;  // never played
      auto id = store->begin_game(g);
      REQUIRE(id.ok());
      storage::GameRecord result;
      const auto r = rng() % 3;
      result.ranks = g.players.size() == 3 ? std::vector<int>{1, int(1 + r % 2), 3}
                     : r == 0              ? std::vector<int>{1, 2}
                     : r == 1              ? std::vector<int>{2, 1}
                                           : std::vector<int>{1, 1};
      result.status = rng() % 15 == 0 ? referee::storage::GameStatus::Unfinished
                                      : referee::storage::GameStatus::Finished;
      result.termination = "rules";
      result.finished_at = "2026-05-01T12:00:00Z";
      auto finished = store->finish_game(*id, result);
      INFO((finished.ok() ? "" : finished.error()));
      REQUIRE(finished.ok());
    }
  }
  REQUIRE(store->commit_batch().ok());
}

std::vector<const storage::GameRecord*> pointers(const std::vector<storage::GameRecord>& games) {
  std::vector<const storage::GameRecord*> out;
  for (const auto& g : games) out.push_back(&g);
  return out;
}

}  // namespace

TEST_CASE("pair matcher: the k-th game of one seating pairs with the k-th of the other") {
  ratings::PairMatcher<int> m;
  const ratings::PairKey key{1, 0, 0, 1, "", "[]"};
  ratings::PairKey other = key;
  other.opening = R"(["3"])";
  CHECK_FALSE(m.offer(key, true, 1));
  CHECK_FALSE(m.offer(key, true, 2));
  CHECK_FALSE(m.offer(other, false, 10));  // another opening: never a partner
  CHECK(m.offer(key, false, 3) == 1);
  CHECK(m.offer(key, false, 4) == 2);
  CHECK_FALSE(m.offer(key, false, 5));
  CHECK(m.offer(key, true, 6) == 5);
  CHECK_FALSE(m.offer(key, true, 7));
  std::vector<int> left;
  m.drain([&](const ratings::PairKey&, int g) { left.push_back(g); });
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<int>{7, 10});
  std::vector<int> none;
  m.drain([&](const ratings::PairKey&, int g) { none.push_back(g); });
  CHECK(none.empty());
}

TEST_CASE("crosstable counted: the same pairs and tables as from every game record") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    DYNAMIC_SECTION("seed " << seed) {
      rtest::TempDir dir;
      const std::string path = dir.file("c.db");
      write_random_archive(path, seed);
      storage::OpenOptions read_only;
      read_only.read_only = true;
      auto store = storage::Store::open(path, read_only);
      REQUIRE(store.ok());
      for (const auto& query : {storage::GameQuery{}, [] {
                                  storage::GameQuery q;
                                  q.engines = {"A", "B", "C"};
                                  return q;
                                }()}) {
        auto records = storage::query_games(*store, query);
        REQUIRE(records.ok());
        auto streamed = ratings::count_pairs(*store, query);
        REQUIRE(streamed.ok());
        const ratings::PairCounts expected = ratings::count_pairs(pointers(*records));
        REQUIRE(expected.size() > 5);
        std::int64_t pairs = 0, unpaired = 0;
        for (const auto& [key, c] : *streamed) {
          pairs += c.pairs.total();
          unpaired += c.unpaired;
          const auto it = expected.find(key);
          REQUIRE(it != expected.end());
          const auto& e = it->second;
          INFO(std::get<0>(key) << " " << std::get<1>(key) << " " << std::get<2>(key));
          CHECK(c.pairs.ll == e.pairs.ll);
          CHECK(c.pairs.ld == e.pairs.ld);
          CHECK(c.pairs.wl == e.pairs.wl);
          CHECK(c.pairs.dd == e.pairs.dd);
          CHECK(c.pairs.wd == e.pairs.wd);
          CHECK(c.pairs.ww == e.pairs.ww);
          CHECK(c.unpaired == e.unpaired);
        }
        CHECK(streamed->size() == expected.size());
        CHECK(pairs > 20);  // the archive has both, so the comparison means something
        CHECK(unpaired > 3);

        auto results = storage::aggregate_results(*store, query);
        REQUIRE(results.ok());
        for (int min_games : {0, 30}) {
          std::vector<ratings::Crosstable> from_records;
          for (const auto& t : ratings::tables_by_game(pointers(*records), min_games))
            from_records.push_back(ratings::make_crosstable(t.title, t.games));
          const auto counted = ratings::crosstables(*results, *streamed, min_games);
          INFO("min-games " << min_games);
          REQUIRE_FALSE(counted.empty());
          CHECK(ratings::crosstable_json(counted) == crosstable_json(from_records));
          CHECK(ratings::crosstable_text(counted) == crosstable_text(from_records));
        }
      }
    }
  }
}
