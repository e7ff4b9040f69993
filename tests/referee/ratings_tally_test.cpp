// Ratings from counted results: identical games given once with their count give the same table
// as the games one by one, error bars included.
#include <catch2/catch.hpp>

#include <map>
#include <algorithm>
#include <random>
#include <tuple>

#include "ratings/ratings.h"

using namespace referee;

namespace {

// A mix: three engines of which one wins everything against one other (a bound), draws, a
// three-player variant, seats that matter.
std::vector<RatedGame> fixture() {
  std::vector<RatedGame> games;
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

GameTallies counted(const std::vector<RatedGame>& games) {
  GameTallies t;
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
    GameTallies::Entry e;
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

void check_same(const RatingTable& a, const RatingTable& b) {
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
      if (x.ratings[i].bound == Bound::kNone)
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
  const GameTallies t = counted(games);
  REQUIRE(t.games.size() < games.size() / 3);  // the counts do merge games
  for (double prior : {0.0, 2.0}) {
    RatingOptions o;
    o.prior_draws = prior;
    const RatingTable one_by_one = rate(games, o);
    const RatingTable tallied = rate(t, o);
    check_same(one_by_one, tallied);
    REQUIRE(!one_by_one.groups.empty());
    CHECK(one_by_one.groups[0].robust);  // the cluster-robust errors are compared
    bool bound = false;
    for (const auto& r : one_by_one.groups[0].ratings) bound = bound || r.bound == Bound::kUpper;
    CHECK(bound == (prior == 0));
  }
}
