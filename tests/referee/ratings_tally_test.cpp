// Ratings from counted results (what `referee ratings` reads from the database): identical games
// given once with their count give the same table as the games one by one, error bars included;
// reports from the database's counts equal reports from the records; the SQL filters select what
// the in-memory filters select.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "games/game.h"
#include "ratings/ratings.h"
#include "ratings/report.h"
#include "ratings/selection.h"
#include "storage/game_query.h"
#include "storage/results.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;

namespace {

// A mix: three engines of which one wins everything against one other (a bound), draws, a
// three-player variant, seats that matter.
std::vector<ratings::RatedGame> fixture() {
  std::vector<ratings::RatedGame> games;
  std::mt19937_64 rng(5);
  const std::vector<std::string> names = {"A", "B", "C", "D"};
  for (int i = 0; i < 400; ++i) {
    const auto a = rng() % 3, b = (a + 1 + rng() % 2) % 3;
    const auto u = rng() % 10;
    games.push_back({{names[a], names[b]},
                     u < 4   ? std::vector<int>{1, 2}
                     : u < 7 ? std::vector<int>{1, 1}
                             : std::vector<int>{2, 1},
                     "g2"});
  }
  for (int i = 0; i < 30; ++i)  // D loses every game to A: an upper bound
    games.push_back(
        {i % 2 ? std::vector<std::string>{"A", "D"} : std::vector<std::string>{"D", "A"},
         i % 2 ? std::vector<int>{1, 2} : std::vector<int>{2, 1}, "g2"});
  for (int i = 0; i < 120; ++i) {
    std::vector<std::string> seats = {"A", "B", "C"};
    std::shuffle(seats.begin(), seats.end(), rng);
    std::vector<int> ranks = {1, 2, 3};
    std::shuffle(ranks.begin(), ranks.end(), rng);
    if (i % 5 == 0) ranks[2] = ranks[1] = 2;
    games.push_back({seats, ranks, "g3"});
  }
  return games;
}

ratings::GameTallies counted(const std::vector<ratings::RatedGame>& games) {
  ratings::GameTallies t;
  std::map<std::string, std::uint32_t> engines, variants;
  std::map<std::tuple<std::uint32_t, std::vector<std::uint32_t>, std::vector<int>>, std::size_t>
      index;
  auto id = [](std::map<std::string, std::uint32_t>& ids, std::vector<std::string>& names,
               const std::string& name) {
    auto [it, fresh] = ids.emplace(name, static_cast<std::uint32_t>(names.size()));
    if (fresh) names.push_back(name);
    return it->second;
  };
  for (const auto& g : games) {
    ratings::GameTallies::Entry e;
    e.variant = id(variants, t.variants, g.variant);
    e.players = static_cast<std::uint32_t>(g.players.size());
    std::vector<std::uint32_t> seats;
    for (std::size_t s = 0; s < g.players.size(); ++s) {
      e.engines[s] = id(engines, t.engines, g.players[s]);
      e.ranks[s] = static_cast<std::uint8_t>(g.ranks[s]);
      seats.push_back(e.engines[s]);
    }
    auto [it, fresh] = index.emplace(std::tuple{e.variant, seats, g.ranks}, t.games.size());
    if (fresh) {
      e.count = 0;
      t.games.push_back(e);
    }
    ++t.games[it->second].count;
  }
  return t;
}

void check_same(const ratings::RatingTable& a, const ratings::RatingTable& b) {
  REQUIRE(a.groups.size() == b.groups.size());
  for (std::size_t k = 0; k < a.groups.size(); ++k) {
    const auto &x = a.groups[k], &y = b.groups[k];
    CHECK(x.robust == y.robust);
    REQUIRE(x.ratings.size() == y.ratings.size());
    for (std::size_t i = 0; i < x.ratings.size(); ++i) {
      INFO(x.ratings[i].name);
      CHECK(x.ratings[i].name == y.ratings[i].name);
      CHECK(x.ratings[i].bound == y.ratings[i].bound);
      CHECK(x.ratings[i].elo == Approx(y.ratings[i].elo).margin(1e-6));
      if (x.ratings[i].bound == ratings::Bound::kNone)
        CHECK(x.ratings[i].error == Approx(y.ratings[i].error).margin(1e-6));
      CHECK(x.ratings[i].games == y.ratings[i].games);
      CHECK(x.ratings[i].wins == y.ratings[i].wins);
      CHECK(x.ratings[i].draws == y.ratings[i].draws);
    }
    REQUIRE(x.seats.size() == y.seats.size());
    for (std::size_t s = 0; s < x.seats.size(); ++s) {
      CHECK(x.seats[s].first == Approx(y.seats[s].first).margin(1e-6));
      CHECK(x.seats[s].first_error == Approx(y.seats[s].first_error).margin(1e-6));
    }
    CHECK(x.draws.equal == Approx(y.draws.equal).margin(1e-6));
    CHECK(x.draws.low == Approx(y.draws.low).margin(1e-5));
    CHECK(x.draws.high == Approx(y.draws.high).margin(1e-5));
  }
}

}  // namespace

TEST_CASE("ratings: identical games counted once rate exactly as the games one by one") {
  const auto games = fixture();
  const ratings::GameTallies t = counted(games);
  REQUIRE(t.games.size() < games.size() / 3);  // the counts do merge games
  for (double prior : {0.0, 2.0}) {
    ratings::RatingOptions o;
    o.prior_draws = prior;
    const ratings::RatingTable one_by_one = rate(games, o);
    const ratings::RatingTable tallied = rate(t, o);
    check_same(one_by_one, tallied);
    REQUIRE(!one_by_one.groups.empty());
    CHECK(one_by_one.groups[0].robust);  // the cluster-robust errors are compared
    bool bound = false;
    for (const auto& r : one_by_one.groups[0].ratings)
      bound = bound || r.bound == ratings::Bound::kUpper;
    CHECK(bound == (prior == 0));
  }
}

TEST_CASE("ratings: reports from the database's counts equal reports from the records") {
  rtest::TempDir dir;
  const auto db = dir.file("t.db");
  auto store = storage::Store::open(db);
  REQUIRE(store.ok());
  auto t = referee::storage::work_queue::open_tournament(*store, "ev", "{}");
  REQUIRE(t.ok());
  REQUIRE(store->begin_batch().ok());
  std::int64_t slot = 0;
  for (const auto& g : fixture()) {
    storage::GameRecord r;
    r.event_id = *t;
    r.slot = slot++;
    r.game = games::make_game(g.variant == "g2" ? "awale" : "oware:players=3")->canonical();
    r.players = g.players;
    r.time_control = slot % 3 ? "10+0.1" : "5";  // stored canonical: --tc 5+0 finds it
    auto id = store->begin_game(r);
    REQUIRE(id.ok());
    storage::GameRecord result;
    result.ranks = g.ranks;
    result.termination = slot % 7 ? "normal" : "time";
    result.finished_at = "2026-05-0" + std::to_string(1 + slot % 5) + "T00:00:00Z";
    REQUIRE(store->finish_game(*id, result).ok());
  }
  REQUIRE(store->commit_batch().ok());
  auto records = store->games({});
  REQUIRE(records.ok());

  std::vector<ratings::GameSelection> selections(1);
  selections.push_back({});
  selections.back().game = "oware:players=3";
  selections.push_back({});
  selections.back().engines = {"A", "B"};
  selections.push_back({});
  selections.back().engines = {"D"};
  selections.push_back({});
  selections.back().tc = "5+0";
  selections.back().since = "2026-05-02";
  selections.push_back({});
  selections.back().min_games = 40;
  selections.push_back({});
  selections.back().until = "2026-05-03";
  for (auto& s : selections) {
    REQUIRE(ratings::normalise_selection(s).ok());
    ratings::ReportOptions options;
    options.min_games = s.min_games;
    options.game = s.game;
    INFO("game '" << s.game << "' engines " << s.engines.size() << " tc '" << s.tc << "'");
    // Records: every filter in memory.
    const auto from_records = ratings::report_text(
        ratings::rating_reports(ratings::select_games(*records, s), options), options);
    // Counts: the filters in SQL (the game string on the tables), as `referee ratings` does.
    ratings::GameSelection every_game = s;
    every_game.game.clear();
    auto results = storage::aggregate_results(*store, ratings::game_query(every_game));
    REQUIRE(results.ok());
    const auto from_counts = report_text(rating_reports(std::move(*results), options), options);
    CHECK(from_counts == from_records);
    // The selected records through SQL are the records selected in memory.
    auto stored = storage::stored_game_strings(*store);
    REQUIRE(stored.ok());
    auto queried = storage::query_games(*store, game_query(s, *stored));
    REQUIRE(queried.ok());
    std::vector<std::int64_t> a, b;
    for (const auto& g : *queried) a.push_back(g.id);
    for (const auto* g : select_games(*records, s)) b.push_back(g->id);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
    if (!s.tc.empty()) CHECK_FALSE(a.empty());  // --tc 5+0 found the games stored as 5
  }
}

TEST_CASE("ratings: names that match nothing stored are named, from the database") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("n.db"));
  REQUIRE(store.ok());
  storage::GameRecord r;
  r.game = "awale";
  r.players = {"A", "B"};
  r.time_control = "10+0.1";
  REQUIRE(store->begin_game(r).ok());
  auto problem = [&](ratings::GameSelection s) {
    auto p = ratings::name_problem(*store, s);
    REQUIRE(p.ok());
    return *p;
  };
  CHECK(problem({}) == "");
  ratings::GameSelection s;
  s.engines = {"A", "Z"};
  CHECK(problem(s) == "--engine: no stored game has an engine named 'Z'");
  s = {};
  s.event_name = "nope";
  CHECK(problem(s) == "--tournament: no stored game belongs to a tournament named 'nope'");
  s = {};
  s.tc = "1+0";
  CHECK(problem(s) == "--tc: no stored game has the time control '1+0'");
  s.tc = "10+0.1";
  CHECK(problem(s) == "");
}
