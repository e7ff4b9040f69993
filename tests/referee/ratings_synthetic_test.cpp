// Ratings on synthetic games drawn from known models (fixed seeds, so deterministic): the fit
// recovers the ratings, the first-player advantage and the draw rate inside its own intervals, its
// error bars for N-player games match a bootstrap over whole games (and are wider than the
// model-based ones, which treat the pairs of one game as independent), and its intervals for
// two-player games with many draws have the coverage they claim.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "ratings/draw_model.h"
#include "ratings/elo_fit.h"
#include "ratings/ratings.h"
#include "ratings/stats_math.h"

using namespace referee;

namespace {

const double kK = std::log(10.0) / 400.0;

double sigma(double x) {
  return 1 / (1 + std::exp(-x));
}

// One two-player game: the seat-1 engine scores 1, ½ or 0 with the probabilities of the draw model
// at expected score σ(k(Ri − Rj + advantage)).
int play(std::mt19937_64& rng, double ri, double rj, double advantage, double drawelo) {
  const auto p = ratings::split_score(sigma(kK * (ri - rj + advantage)), drawelo);
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  return u < p[0] ? 0 : u < p[0] + p[1] ? 1 : 2;  // 0: seat 1 wins, 1: draw, 2: seat 2 wins
}

ratings::RatedGame two_player(const std::string& a, const std::string& b, int outcome) {
  const std::vector<int> ranks = outcome == 0   ? std::vector<int>{1, 2}
                                 : outcome == 1 ? std::vector<int>{1, 1}
                                                : std::vector<int>{2, 1};
  return {{a, b}, ranks, "g"};
}

const ratings::Rating& find(const ratings::RatingGroup& group, const std::string& name) {
  for (const auto& r : group.ratings)
    if (r.name == name) return r;
  FAIL("no rating for " << name);
  return group.ratings.front();
}

}  // namespace

TEST_CASE("ratings: the BayesElo split of an expected score matches its closed form") {
  // e = 100, δ = 120: P(win) = σ(k·(−20)), P(loss) = σ(k·(−220)), s = P(win) + P(draw)/2.
  const double win = sigma(kK * -20), loss = sigma(kK * -220), draw = 1 - win - loss;
  const auto p = ratings::split_score(win + draw / 2, 120);
  CHECK(p[0] == Approx(win).epsilon(1e-12));
  CHECK(p[1] == Approx(draw).epsilon(1e-12));
  CHECK(p[2] == Approx(loss).epsilon(1e-12));
  // δ = 0: no draws, and the split is the logistic score itself.
  const auto q = ratings::split_score(0.8, 0);
  CHECK(q[0] == Approx(0.8).epsilon(1e-12));
  CHECK(q[1] == Approx(0).margin(1e-12));
  CHECK(ratings::split_score(0.5, 200)[1] == Approx(1 - 2 * sigma(-kK * 200)).epsilon(1e-12));
}

TEST_CASE(
    "ratings: ratings, first-player advantage and draw rate are recovered from synthetic games") {
  // Four engines, a round robin in both seatings, 400 times: 4800 games. True model: ratings
  // −100, 0, 60, 150 (average 27.5), first-player advantage +40, drawelo 120 (equal engines draw
  // 1 − 2σ(−120k) = 33.2 %). Every estimate must lie in its own 99.9 % interval.
  const std::vector<std::string> names = {"a", "b", "c", "d"};
  const std::vector<double> truth = {-100, 0, 60, 150};
  const double advantage = 40, drawelo = 120;
  std::mt19937_64 rng(20261123);
  std::vector<ratings::RatedGame> games;
  for (int rep = 0; rep < 400; ++rep)
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j)
        if (i != j)
          games.push_back(
              two_player(names[i], names[j], play(rng, truth[i], truth[j], advantage, drawelo)));
  ratings::RatingOptions o;
  o.confidence = 0.999;
  o.anchor = "b";
  o.anchor_elo = 0;
  const ratings::RatingTable t = rate(games, o);
  REQUIRE(t.groups.size() == 1);
  const ratings::RatingGroup& g = t.groups[0];
  CHECK(g.robust);
  for (std::size_t i = 0; i < 4; ++i) {
    if (names[i] == "b") continue;
    const ratings::Rating& r = find(g, names[i]);
    INFO(names[i] << ": " << r.elo << " +/- " << r.error);
    CHECK(std::abs(r.elo - truth[i]) < r.error);
  }
  REQUIRE(g.seats.size() == 1);
  INFO("advantage " << g.seats[0].first << " +/- " << g.seats[0].first_error);
  CHECK(std::abs(g.seats[0].first - advantage) < g.seats[0].first_error);
  const double equal = 1 - 2 * sigma(-kK * drawelo);
  INFO("draws " << g.draws.equal << " in " << g.draws.low << " .. " << g.draws.high);
  CHECK(g.draws.low < equal);
  CHECK(equal < g.draws.high);
  CHECK(g.draws.high - g.draws.low < 0.06);  // and informative: a proportion's would be 0.045
}

namespace {

// A 3-player game by Plackett–Luce: the winner is drawn with probability ∝ 10^(R/400), then the
// second among the rest. Its pairwise marginals are exactly Bradley–Terry: P(i above j) =
// πi/(πi + πj), so the pairwise fit is consistent; but the three pairs of one game are dependent.
std::vector<int> plackett_luce(std::mt19937_64& rng, const std::vector<double>& ratings) {
  std::vector<int> ranks(ratings.size(), 0);
  std::vector<std::size_t> left = {0, 1, 2};
  for (int place = 1; !left.empty(); ++place) {
    double total = 0;
    for (std::size_t s : left) total += std::pow(10.0, ratings[s] / 400);
    double u = std::uniform_real_distribution<double>(0, total)(rng);
    std::size_t pick = left.size() - 1;
    for (std::size_t k = 0; k < left.size(); ++k) {
      u -= std::pow(10.0, ratings[left[k]] / 400);
      if (u <= 0) {
        pick = k;
        break;
      }
    }
    ranks[left[pick]] = place;
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return ranks;
}

struct Game3 {
  std::size_t seat[3];
  std::vector<int> ranks;
};

ratings::FitProblem problem_of(const std::vector<Game3>& games,
                               const std::vector<std::size_t>& pick) {
  ratings::FitProblem p;
  p.engines = 6;
  for (std::size_t k = 0; k < pick.size(); ++k) {
    const Game3& g = games[pick[k]];
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b) {
        const int ra = g.ranks[static_cast<std::size_t>(a)],
                  rb = g.ranks[static_cast<std::size_t>(b)];
        p.results.push_back({g.seat[a], g.seat[b], -1, -1, ra < rb ? 1.0 : ra > rb ? 0.0 : 0.5, k});
      }
  }
  return p;
}

}  // namespace

TEST_CASE("ratings: N-player error bars match a bootstrap over whole games") {
  // Six engines, every 3-subset in its 3 rotations, 25 times: 1500 games. The cluster-robust
  // standard errors are compared with the standard deviation of 400 bootstrap refits (games drawn
  // with replacement); the model-based ones (pairs taken as independent, as before) are narrower.
  const std::vector<double> truth = {-150, -60, 0, 40, 90, 200};
  std::mt19937_64 rng(7);
  std::vector<Game3> games;
  for (int rep = 0; rep < 25; ++rep)
    for (std::size_t a = 0; a < 6; ++a)
      for (std::size_t b = a + 1; b < 6; ++b)
        for (std::size_t c = b + 1; c < 6; ++c)
          for (int r = 0; r < 3; ++r) {
            Game3 g;
            const std::size_t set[3] = {a, b, c};
            for (int s = 0; s < 3; ++s) g.seat[s] = set[(s + r) % 3];
            g.ranks = plackett_luce(rng, {truth[g.seat[0]], truth[g.seat[1]], truth[g.seat[2]]});
            games.push_back(g);
          }
  std::vector<std::size_t> all(games.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  const ratings::FitResult fit = ratings::fit_ratings(problem_of(games, all));
  REQUIRE(fit.ok);
  REQUIRE(fit.robust);

  const int kResamples = 400;
  std::vector<double> sum(6, 0), sum2(6, 0);
  std::uniform_int_distribution<std::size_t> draw(0, games.size() - 1);
  for (int b = 0; b < kResamples; ++b) {
    std::vector<std::size_t> pick(games.size());
    for (auto& k : pick) k = draw(rng);
    const ratings::FitResult boot = ratings::fit_ratings(problem_of(games, pick));
    REQUIRE(boot.ok);
    for (std::size_t i = 0; i < 6; ++i) {
      sum[i] += boot.elo[i];
      sum2[i] += boot.elo[i] * boot.elo[i];
    }
  }
  double robust_ratio = 0, model_ratio = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    const double mean = sum[i] / kResamples;
    const double sd = std::sqrt((sum2[i] - kResamples * mean * mean) / (kResamples - 1));
    const double robust = std::sqrt(fit.covariance[i][i]);
    const double model = std::sqrt(fit.model_covariance[i][i]);
    INFO("engine " << i << ": bootstrap " << sd << ", robust " << robust << ", model " << model);
    // One engine's bootstrap SD is itself uncertain by about 1/√(2·400) = 3.5 %.
    CHECK(robust / sd == Approx(1).margin(0.12));
    robust_ratio += robust / sd / 6;
    model_ratio += model / sd / 6;
  }
  CHECK(robust_ratio == Approx(1).margin(0.05));
  // The old, model-based bars are too narrow (here by 12 %; the issue measured 8 % on its data:
  // the size depends on the spread of the ratings and the number of players).
  CHECK(model_ratio < 0.94);
}

TEST_CASE("ratings: two-player intervals with many draws have the coverage they claim") {
  // 400 matches of 200 games, A 50 Elo stronger, drawelo 250 (about 60 % draws): the 95 %
  // interval of A − B (twice the centred error with two engines) must cover 50 about 95 % of the
  // time. The model-based interval, blind to draws, covers far more (it is too wide).
  std::mt19937_64 rng(11);
  int covered = 0, covered_model = 0;
  const int kMatches = 400;
  for (int m = 0; m < kMatches; ++m) {
    std::vector<ratings::RatedGame> games;
    ratings::FitProblem problem;
    problem.engines = 2;
    for (int k = 0; k < 200; ++k) {
      const bool a_first = k % 2 == 0;
      const int outcome = play(rng, a_first ? 50 : 0, a_first ? 0 : 50, 0, 250);
      games.push_back(two_player(a_first ? "A" : "B", a_first ? "B" : "A", outcome));
      const double first = outcome == 0 ? 1 : outcome == 1 ? 0.5 : 0;
      problem.results.push_back(
          {a_first ? 0u : 1u, a_first ? 1u : 0u, -1, -1, first, static_cast<std::size_t>(k)});
    }
    ratings::RatingOptions o;
    o.fit_seats = false;
    const ratings::RatingGroup g = rate(games, o).groups.at(0);
    const double diff = find(g, "A").elo - find(g, "B").elo;
    covered += std::abs(diff - 50) < 2 * find(g, "A").error;
    const ratings::FitResult fit = ratings::fit_ratings(problem);
    covered_model += std::abs(diff - 50) < 2 * 1.959964 * std::sqrt(fit.model_covariance[0][0]);
  }
  const double coverage = double(covered) / kMatches;
  INFO("coverage " << coverage << ", model-based " << double(covered_model) / kMatches);
  // 400 matches: the coverage estimate has a standard deviation of about 1.1 %.
  CHECK(coverage > 0.92);
  CHECK(coverage < 0.98);
  CHECK(double(covered_model) / kMatches > 0.985);
}
