// Ratings: maximum-likelihood Elo checked against values computed by hand (closed forms, or the
// stationarity equation solved by bisection outside the program; each derivation is in a comment).
#include <catch2/catch.hpp>

#include <cmath>

#include "ratings/ratings.h"

using namespace referee;

namespace {

const double kK = std::log(10.0) / 400.0;

// `wins` games A beats B, `losses` B beats A, `draws` drawn.
std::vector<RatedGame> match(int wins, int draws, int losses) {
  std::vector<RatedGame> games;
  for (int i = 0; i < wins; ++i) games.push_back({{"A", "B"}, {1, 2}});
  for (int i = 0; i < draws; ++i) games.push_back({{"B", "A"}, {1, 1}});
  for (int i = 0; i < losses; ++i) games.push_back({{"B", "A"}, {1, 2}});
  return games;
}

const Rating& find(const std::vector<Rating>& ratings, const std::string& name) {
  for (const auto& r : ratings)
    if (r.name == name) return r;
  FAIL("no rating for " << name);
  return ratings.front();
}

}  // namespace

TEST_CASE("ratings: 75 % over 100 games is 400·log10(3) = 190.85 without prior") {
  auto r = fit_elo(match(75, 0, 25), EloOptions{0});
  REQUIRE(r.size() == 2);
  CHECK(r[0].name == "A");
  CHECK(r[0].elo - r[1].elo == Approx(190.848501887865).margin(1e-6));
  CHECK(r[0].elo == Approx(95.4242509).margin(1e-6));  // centred: mean 0
  CHECK(r[0].elo + r[1].elo == Approx(0).margin(1e-9));
  // Fisher information a = n·p·q·k² on the difference; Var(Ra) = 1/(4a) (centred), so
  // error95 = 1.96 / (2 √(100 · 0.75 · 0.25) k) = 39.3153.
  CHECK(r[0].error95 == Approx(39.3153152).margin(1e-5));
  CHECK(r[1].error95 == Approx(r[0].error95).margin(1e-9));  // symmetric
  // LOS = Φ(190.85 / √(1/a)) = Φ(190.85 / 40.1184) = 0.99999902.
  CHECK(r[0].los == Approx(0.99999902).margin(1e-7));
  CHECK(r[0].games == 100);
  CHECK(r[0].wins == 75);
  CHECK(r[0].losses == 25);
  CHECK(r[0].score == Approx(0.75));
  CHECK(r[1].wins == 25);
}

TEST_CASE("ratings: the default prior is one virtual draw against a 0-rated opponent") {
  // With the prior, d = Ra - Rb (Ra = d/2 by symmetry) solves the stationarity equation
  // 75 + 0.5 - 100·σ(k·d) - σ(k·d/2) = 0, solved by bisection: d = 189.617039.
  auto r = fit_elo(match(75, 0, 25));
  REQUIRE(r.size() == 2);
  const double d = r[0].elo - r[1].elo;
  CHECK(d == Approx(189.617039143).margin(1e-5));
  auto sigma = [](double x) { return 1 / (1 + std::exp(-x)); };
  CHECK(75.5 - 100 * sigma(kK * d) - sigma(kK * d / 2) == Approx(0).margin(1e-9));
  // F = [[A+b, -A], [-A, A+b]], A = 100·p(1-p)k², b = σ'(k·d/2)k²: the centred variance of Ra is
  // 1 / (2 (2A + b)).
  const double p = sigma(kK * d), q = sigma(kK * d / 2);
  const double A = 100 * p * (1 - p) * kK * kK, b = q * (1 - q) * kK * kK;
  CHECK(r[0].error95 == Approx(1.959963985 * std::sqrt(1 / (2 * (2 * A + b)))).epsilon(1e-9));
  CHECK(r[1].error95 == Approx(r[0].error95).epsilon(1e-12));
}

TEST_CASE("ratings: draws count half: 1 win and 2 draws is 2/3, 400·log10(2) = 120.41") {
  auto r = fit_elo(match(1, 2, 0), EloOptions{0});
  REQUIRE(r.size() == 2);
  CHECK(r[0].name == "A");
  CHECK(r[0].elo - r[1].elo == Approx(120.411998266).margin(1e-6));
  CHECK(r[0].draws == 2);
  CHECK(r[1].draws == 2);
  CHECK(r[1].losses == 1);
  CHECK(r[0].score == Approx(2.0 / 3));
}

TEST_CASE("ratings: all draws give equal ratings and LOS one half") {
  auto r = fit_elo(match(0, 10, 0));
  REQUIRE(r.size() == 2);
  CHECK(r[0].elo == Approx(0).margin(1e-9));
  CHECK(r[1].elo == Approx(0).margin(1e-9));
  CHECK(r[0].los == Approx(0.5).margin(1e-9));
}

TEST_CASE("ratings: a three-engine cycle rates everyone equal") {
  std::vector<RatedGame> games = {
      {{"A", "B"}, {1, 2}}, {{"B", "C"}, {1, 2}}, {{"C", "A"}, {1, 2}},
      {{"A", "B"}, {1, 2}}, {{"B", "C"}, {1, 2}}, {{"C", "A"}, {1, 2}},
  };
  for (double prior : {0.0, 1.0}) {
    auto r = fit_elo(games, EloOptions{prior});
    REQUIRE(r.size() == 3);
    for (const auto& x : r) {
      CHECK(x.elo == Approx(0).margin(1e-9));
      CHECK(x.error95 == Approx(r[0].error95).epsilon(1e-9));
      CHECK(std::isfinite(x.error95));
      CHECK(x.wins == 2);
      CHECK(x.losses == 2);
    }
    CHECK(r[0].name == "A");  // ties by name
  }
}

TEST_CASE("ratings: a multi-player game is split into pairwise results by rank") {
  // Ranks 1, 2, 2: P1 beats P2 and P3; P2 and P3 draw.
  auto r = fit_elo({{{"P1", "P2", "P3"}, {1, 2, 2}}});
  REQUIRE(r.size() == 3);
  CHECK(r[0].name == "P1");
  const Rating& p1 = find(r, "P1");
  const Rating& p2 = find(r, "P2");
  const Rating& p3 = find(r, "P3");
  CHECK(p1.wins == 2);
  CHECK(p1.games == 2);
  CHECK(p2.draws == 1);
  CHECK(p2.losses == 1);
  CHECK(p3.draws == 1);
  CHECK(p2.elo == Approx(p3.elo).margin(1e-9));
  CHECK(p1.elo > p2.elo);
  CHECK(p1.elo + p2.elo + p3.elo == Approx(0).margin(1e-9));
}

TEST_CASE("ratings: an engine that wins every game stays finite with the prior") {
  auto r = fit_elo(match(10, 0, 0));
  REQUIRE(r.size() == 2);
  CHECK(std::isfinite(r[0].elo));
  CHECK(r[0].elo > 200);
  CHECK(std::isfinite(r[0].error95));
  CHECK(r[0].error95 > 100);  // wide: ten games say little about how much stronger
  CHECK(r[0].los > 0.95);
}

TEST_CASE("ratings: without prior, groups that never met are undetermined") {
  std::vector<RatedGame> games = {
      {{"A", "B"}, {1, 2}}, {{"A", "B"}, {2, 1}}, {{"C", "D"}, {1, 2}}, {{"C", "D"}, {2, 1}}};
  auto r = fit_elo(games, EloOptions{0});
  REQUIRE(r.size() == 4);
  for (const auto& x : r) CHECK(std::isinf(x.error95));
  auto with_prior = fit_elo(games);
  for (const auto& x : with_prior) CHECK(std::isfinite(x.error95));
}

TEST_CASE("ratings: a game with the same engine in two seats counts nothing between them") {
  auto r = fit_elo({{{"A", "A"}, {1, 2}}, {{"A", "B"}, {1, 1}}});
  REQUIRE(r.size() == 2);
  CHECK(find(r, "A").games == 1);
  CHECK(find(r, "A").draws == 1);
}

TEST_CASE("ratings: no games, no ratings") {
  CHECK(fit_elo({}).empty());
}

TEST_CASE("ratings: the table lists rank, name, Elo, error, games, W D L, score, LOS") {
  auto text = format_ratings(fit_elo(match(75, 0, 25), EloOptions{0}));
  CHECK(text ==
        "Rank  Name      Elo     +/-   Games       W       D       L   Score     LOS\n"
        "   1  A        95.4    39.3     100      75       0      25   75.0%  100.0%\n"
        "   2  B       -95.4    39.3     100      25       0      75   25.0%       -\n");
}
