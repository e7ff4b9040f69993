// Maximum-likelihood logistic Elo over pairwise results (design.md §5).
//
// Model: P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)) = σ(k (Ra - Rb)), k = ln 10 / 400.
// A draw is half a win and half a loss (the log-likelihood term is s·log P + (1-s)·log(1-P) with
// s = 1, ½, 0). A game of N players gives N(N-1)/2 pairwise results by rank (better rank wins,
// equal ranks draw); a pair of seats held by the same engine is skipped.
//
// Prior (EloOptions::prior_draws, default 1): every engine also plays that many virtual draws
// against a fixed opponent rated 0. It makes the log-likelihood strictly concave, so an engine
// that won (or lost) every game still gets a finite rating, and engines in separate groups that
// never met are still comparable (through the virtual opponent). Its pull is weak: two engines,
// 75 % over 100 games give a difference of 189.6 instead of 190.8.
//
// Fit: Newton's method on the log-likelihood, with step halving when a step would lower it;
// stops when no rating moves by more than 1e-9 Elo. Ratings are then shifted so their mean is 0.
//
// Errors: the covariance is the inverse of the Fisher information F (minus the Hessian at the
// optimum) projected on the centred ratings: C = P F⁻¹ P with P = I - 11ᵀ/n. Without prior F is
// singular along 1 and C is its pseudo-inverse, (F + c11ᵀ)⁻¹ - 11ᵀ/(c n²). error95 = 1.96 √Cii.
// LOS of an engine over the next one down = Φ((Ra - Rb) / √(Caa + Cbb - 2Cab)).
#include "ratings/ratings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

namespace referee {

namespace {

constexpr double kZ95 = 1.959963984540054;
const double kK = std::log(10.0) / 400.0;

using Matrix = std::vector<std::vector<double>>;

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// log σ(x) without overflow.
double log_sigmoid(double x) {
  return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

// Inverse by Gauss–Jordan with partial pivoting; nullopt when (numerically) singular.
std::optional<Matrix> inverse(Matrix a) {
  const std::size_t n = a.size();
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(a[i][i]));
  if (scale == 0) return std::nullopt;
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    if (std::abs(a[pivot][col]) < 1e-12 * scale) return std::nullopt;
    std::swap(a[pivot], a[col]);
    std::swap(inv[pivot], inv[col]);
    const double d = a[col][col];
    for (std::size_t c = 0; c < n; ++c) {
      a[col][c] /= d;
      inv[col][c] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || a[r][col] == 0) continue;
      const double f = a[r][col];
      for (std::size_t c = 0; c < n; ++c) {
        a[r][c] -= f * a[col][c];
        inv[r][c] -= f * inv[col][c];
      }
    }
  }
  return inv;
}

struct Tally {
  Matrix games;   // games[i][j]: pairwise games between i and j
  Matrix points;  // points[i][j]: points i scored against j (win 1, draw ½)
};

struct Problem {
  const Tally& t;
  double prior;

  double log_likelihood(const std::vector<double>& r) const {
    const std::size_t n = r.size();
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        if (t.games[i][j] == 0) continue;
        const double x = kK * (r[i] - r[j]);
        sum += t.points[i][j] * log_sigmoid(x) + t.points[j][i] * log_sigmoid(-x);
      }
      sum += prior * 0.5 * (log_sigmoid(kK * r[i]) + log_sigmoid(-kK * r[i]));
    }
    return sum;
  }

  std::vector<double> gradient(const std::vector<double>& r) const {
    const std::size_t n = r.size();
    std::vector<double> g(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j)
        if (j != i && t.games[i][j] > 0)
          g[i] += kK * (t.points[i][j] - t.games[i][j] * sigmoid(kK * (r[i] - r[j])));
      g[i] += prior * kK * (0.5 - sigmoid(kK * r[i]));
    }
    return g;
  }

  // Fisher information: minus the Hessian of the log-likelihood.
  Matrix information(const std::vector<double>& r) const {
    const std::size_t n = r.size();
    Matrix f(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i || t.games[i][j] == 0) continue;
        const double p = sigmoid(kK * (r[i] - r[j]));
        const double w = t.games[i][j] * p * (1 - p) * kK * kK;
        f[i][j] -= w;
        f[i][i] += w;
      }
      const double p = sigmoid(kK * r[i]);
      f[i][i] += prior * p * (1 - p) * kK * kK;
    }
    return f;
  }

  // The matrix whose inverse gives Newton steps and covariances; without prior, F + c11ᵀ.
  std::optional<Matrix> solver(const Matrix& f, double& c) const {
    Matrix m = f;
    c = 0;
    if (prior <= 0) {
      const std::size_t n = f.size();
      for (std::size_t i = 0; i < n; ++i) c += f[i][i];
      c = c > 0 ? c / static_cast<double>(n * n) : 1.0;
      for (auto& row : m)
        for (double& v : row) v += c;
    }
    return inverse(m);
  }
};

std::vector<double> multiply(const Matrix& m, const std::vector<double>& v) {
  std::vector<double> out(v.size(), 0.0);
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) out[i] += m[i][j] * v[j];
  return out;
}

}  // namespace

std::vector<Rating> fit_elo(const std::vector<RatedGame>& games) {
  return fit_elo(games, EloOptions{});
}

std::vector<Rating> fit_elo(const std::vector<RatedGame>& games, const EloOptions& options) {
  // Engines, by name order (deterministic).
  std::map<std::string, std::size_t> index;
  for (const auto& g : games)
    for (const auto& p : g.players) index.emplace(p, 0);
  std::vector<Rating> ratings;
  for (auto& [name, i] : index) {
    i = ratings.size();
    ratings.push_back(Rating{});
    ratings.back().name = name;
  }
  const std::size_t n = ratings.size();
  if (n == 0) return ratings;

  Tally tally{Matrix(n, std::vector<double>(n, 0.0)), Matrix(n, std::vector<double>(n, 0.0))};
  for (const auto& g : games) {
    if (g.ranks.size() != g.players.size()) continue;  // not a finished game
    for (std::size_t a = 0; a < g.players.size(); ++a)
      for (std::size_t b = a + 1; b < g.players.size(); ++b) {
        const std::size_t i = index[g.players[a]], j = index[g.players[b]];
        if (i == j) continue;
        const double s = g.ranks[a] < g.ranks[b] ? 1.0 : g.ranks[a] > g.ranks[b] ? 0.0 : 0.5;
        tally.games[i][j] += 1;
        tally.games[j][i] += 1;
        tally.points[i][j] += s;
        tally.points[j][i] += 1 - s;
        for (auto [k, score] : {std::pair{i, s}, std::pair{j, 1 - s}}) {
          Rating& r = ratings[k];
          r.games += 1;
          if (score == 1.0)
            r.wins += 1;
          else if (score == 0.0)
            r.losses += 1;
          else
            r.draws += 1;
        }
      }
  }

  const Problem problem{tally, std::max(0.0, options.prior_draws)};
  std::vector<double> r(n, 0.0);
  bool determined = true;
  for (int iteration = 0; iteration < 500; ++iteration) {
    double c = 0;
    auto inv = problem.solver(problem.information(r), c);
    if (!inv) {
      determined = false;
      break;
    }
    std::vector<double> step = multiply(*inv, problem.gradient(r));
    const double before = problem.log_likelihood(r);
    double t = 1.0, moved = 0;
    for (; t > 1e-6; t /= 2) {
      std::vector<double> next(n);
      for (std::size_t i = 0; i < n; ++i) next[i] = r[i] + t * step[i];
      if (problem.log_likelihood(next) >= before - 1e-12) {
        moved = 0;
        for (std::size_t i = 0; i < n; ++i) moved = std::max(moved, std::abs(next[i] - r[i]));
        r = next;
        break;
      }
    }
    if (moved < 1e-9) break;
  }

  double mean = 0;
  for (double v : r) mean += v / static_cast<double>(n);
  for (double& v : r) v -= mean;

  // Covariance of the centred ratings.
  Matrix cov(n, std::vector<double>(n, std::numeric_limits<double>::infinity()));
  double c = 0;
  auto inv = determined ? problem.solver(problem.information(r), c) : std::nullopt;
  if (inv) {
    if (c > 0)
      for (auto& row : *inv)
        for (double& v : row) v -= 1.0 / (c * static_cast<double>(n * n));
    // P M P with P = I - 11ᵀ/n.
    std::vector<double> row_mean(n, 0.0), col_mean(n, 0.0);
    double all = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        row_mean[i] += (*inv)[i][j] / static_cast<double>(n);
        col_mean[j] += (*inv)[i][j] / static_cast<double>(n);
        all += (*inv)[i][j] / static_cast<double>(n * n);
      }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        cov[i][j] = (*inv)[i][j] - row_mean[i] - col_mean[j] + all;
  }

  for (std::size_t i = 0; i < n; ++i) {
    Rating& rating = ratings[i];
    rating.elo = r[i];
    rating.error95 = kZ95 * std::sqrt(std::max(0.0, cov[i][i]));
    rating.score = rating.games ? (rating.wins + rating.draws / 2) / rating.games : 0;
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (r[a] != r[b]) return r[a] > r[b];
    return ratings[a].name < ratings[b].name;
  });
  std::vector<Rating> sorted;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t a = order[k];
    Rating rating = ratings[a];
    rating.los = 0;
    if (k + 1 < n) {
      const std::size_t b = order[k + 1];
      const double var = cov[a][a] + cov[b][b] - 2 * cov[a][b];
      const double diff = r[a] - r[b];
      if (std::isfinite(var) && var > 0)
        rating.los = 0.5 * std::erfc(-diff / std::sqrt(2 * var));
      else
        rating.los = diff > 0 ? 1.0 : 0.5;
    }
    sorted.push_back(std::move(rating));
  }
  return sorted;
}

std::string format_ratings(const std::vector<Rating>& ratings) {
  std::size_t width = 4;
  for (const auto& r : ratings) width = std::max(width, r.name.size());
  const int w = static_cast<int>(width);
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-*s  %7s  %6s  %6s  %6s  %6s  %6s  %6s  %6s\n", "Rank", w,
                "Name", "Elo", "+/-", "Games", "W", "D", "L", "Score", "LOS");
  out += line;
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    const Rating& r = ratings[i];
    char error[16], los[16];
    if (std::isfinite(r.error95))
      std::snprintf(error, sizeof error, "%.1f", r.error95);
    else
      std::snprintf(error, sizeof error, "inf");
    if (i + 1 < ratings.size())
      std::snprintf(los, sizeof los, "%.1f%%", 100 * r.los);
    else
      std::snprintf(los, sizeof los, "-");
    std::snprintf(line, sizeof line, "%4zu  %-*s  %7.1f  %6s  %6d  %6g  %6g  %6g  %5.1f%%  %6s\n",
                  i + 1, w, r.name.c_str(), r.elo, error, r.games, r.wins, r.draws, r.losses,
                  100 * r.score, los);
    out += line;
  }
  return out;
}

}  // namespace referee
