#include "ratings/elo_fit.h"

#include <algorithm>
#include <tuple>

namespace referee::ratings {

namespace {

// Results with the same engines and seats, aggregated: the likelihood only needs their count and
// points, so an iteration costs the number of distinct cells, not of games.
struct Cell {
  std::size_t i, j;
  int seat_i, seat_j;
  double games = 0, points = 0;
};

// The sparse difference vector d of a result: x = k·dᵀθ.
struct Diff {
  std::size_t index[4];
  double sign[4];
  int size = 0;
};

Diff diff_of(std::size_t engines, std::size_t i, std::size_t j, int seat_i, int seat_j) {
  Diff d;
  d.index[d.size] = i;
  d.sign[d.size++] = 1;
  d.index[d.size] = j;
  d.sign[d.size++] = -1;
  if (seat_i != seat_j) {
    if (seat_i >= 0) {
      d.index[d.size] = engines + static_cast<std::size_t>(seat_i);
      d.sign[d.size++] = 1;
    }
    if (seat_j >= 0) {
      d.index[d.size] = engines + static_cast<std::size_t>(seat_j);
      d.sign[d.size++] = -1;
    }
  }
  return d;
}

double dot(const Diff& d, const std::vector<double>& theta) {
  double x = 0;
  for (int a = 0; a < d.size; ++a) x += d.sign[a] * theta[d.index[a]];
  return x;
}

struct Model {
  std::size_t engines, params;
  double prior;
  std::vector<Cell> cells;
  std::vector<Diff> diffs;

  double log_likelihood(const std::vector<double>& theta) const {
    double sum = 0;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const double x = kLogitPerElo * dot(diffs[c], theta);
      sum +=
          cells[c].points * log_sigmoid(x) + (cells[c].games - cells[c].points) * log_sigmoid(-x);
    }
    if (prior > 0)
      for (std::size_t i = 0; i < engines; ++i)
        sum += prior * 0.5 *
               (log_sigmoid(kLogitPerElo * theta[i]) + log_sigmoid(-kLogitPerElo * theta[i]));
    return sum;
  }

  std::vector<double> gradient(const std::vector<double>& theta) const {
    std::vector<double> g(params, 0.0);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const double x = kLogitPerElo * dot(diffs[c], theta);
      const double r = kLogitPerElo * (cells[c].points - cells[c].games * sigmoid(x));
      for (int a = 0; a < diffs[c].size; ++a) g[diffs[c].index[a]] += diffs[c].sign[a] * r;
    }
    if (prior > 0)
      for (std::size_t i = 0; i < engines; ++i)
        g[i] += prior * kLogitPerElo * (0.5 - sigmoid(kLogitPerElo * theta[i]));
    return g;
  }

  // Minus the Hessian of the log-likelihood.
  Matrix information(const std::vector<double>& theta) const {
    Matrix f = zeros(params, params);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const double p = sigmoid(kLogitPerElo * dot(diffs[c], theta));
      const double w = cells[c].games * p * (1 - p) * kLogitPerElo * kLogitPerElo;
      const Diff& d = diffs[c];
      for (int a = 0; a < d.size; ++a)
        for (int b = 0; b < d.size; ++b) f[d.index[a]][d.index[b]] += w * d.sign[a] * d.sign[b];
    }
    if (prior > 0)
      for (std::size_t i = 0; i < engines; ++i) {
        const double p = sigmoid(kLogitPerElo * theta[i]);
        f[i][i] += prior * p * (1 - p) * kLogitPerElo * kLogitPerElo;
      }
    return f;
  }

  // The ratings' common shift is free without a prior: c·uuᵀ pins it. Returns c (0 with a prior).
  double pin(Matrix& f) const {
    if (prior > 0) return 0;
    double c = 0;
    for (std::size_t i = 0; i < params; ++i) c += f[i][i];
    c = c > 0 ? c / static_cast<double>(engines * engines) : 1.0;
    for (std::size_t i = 0; i < engines; ++i)
      for (std::size_t j = 0; j < engines; ++j) f[i][j] += c;
    return c;
  }
};

// P M Pᵀ with P centring the rating coordinates (identity on the seat parameters).
Matrix centre(const Matrix& m, std::size_t engines) {
  const std::size_t n = m.size();
  const double e = static_cast<double>(engines);
  std::vector<double> row_mean(n, 0.0), col_mean(n, 0.0);
  double all = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < engines; ++j) row_mean[i] += m[i][j] / e;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < engines; ++i) col_mean[j] += m[i][j] / e;
  for (std::size_t i = 0; i < engines; ++i) all += row_mean[i] / e;
  Matrix out = m;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool ri = i < engines, cj = j < engines;
      out[i][j] = m[i][j] - (cj ? row_mean[i] : 0) - (ri ? col_mean[j] : 0) + (ri && cj ? all : 0);
    }
  return out;
}

}  // namespace

double expected_score(const FitResult& fit, const PairResult& r) {
  double x = fit.elo[r.i] - fit.elo[r.j];
  if (r.seat_i != r.seat_j) {
    if (r.seat_i >= 0) x += fit.seat[static_cast<std::size_t>(r.seat_i)];
    if (r.seat_j >= 0) x -= fit.seat[static_cast<std::size_t>(r.seat_j)];
  }
  return score_of_elo(x);
}

FitResult fit_ratings(const FitProblem& problem) {
  FitResult out;
  const std::size_t n = problem.engines, params = n + problem.seat_params;
  if (n == 0) {
    out.ok = true;
    return out;
  }
  Model model{n, params, std::max(0.0, problem.prior_draws), {}, {}};
  {
    // Sorted and merged rather than looked up in a map: a million results stay cache-friendly.
    const auto& results = problem.results;
    std::vector<std::size_t> order(results.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto key = [&](std::size_t k) {
      return std::tie(results[k].i, results[k].j, results[k].seat_i, results[k].seat_j);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const PairResult& r = results[order[k]];
      if (k == 0 || key(order[k - 1]) != key(order[k]))
        model.cells.push_back(Cell{r.i, r.j, r.seat_i, r.seat_j, 0, 0});
      model.cells.back().games += r.weight;
      model.cells.back().points += r.weight * r.score;
    }
    for (const auto& c : model.cells)
      model.diffs.push_back(diff_of(n, c.i, c.j, c.seat_i, c.seat_j));
  }

  std::vector<double> theta(params, 0.0);
  bool converged = false;
  for (int iteration = 0; iteration < 500 && !converged; ++iteration) {
    Matrix f = model.information(theta);
    model.pin(f);
    auto inv = inverse(f);
    if (!inv) return out;  // not identifiable
    const std::vector<double> step = multiply(*inv, model.gradient(theta));
    const double before = model.log_likelihood(theta);
    bool moved = false;
    for (double t = 1.0; t > 1e-6 && !moved; t /= 2) {
      std::vector<double> next(params);
      double largest = 0;
      for (std::size_t i = 0; i < params; ++i) {
        next[i] = theta[i] + t * step[i];
        largest = std::max(largest, std::abs(t * step[i]));
      }
      if (model.log_likelihood(next) >= before - 1e-12) {
        theta = std::move(next);
        moved = true;
        converged = largest < 1e-9;
      }
    }
    if (!moved) converged = true;  // no step improves: at the optimum to rounding
  }
  for (double v : theta)
    if (!std::isfinite(v) || std::abs(v) > 1e5) return out;  // diverging: a separated parameter
  if (!converged) return out;

  double mean = 0;
  for (std::size_t i = 0; i < n; ++i) mean += theta[i] / static_cast<double>(n);
  if (model.prior == 0)
    for (std::size_t i = 0; i < n; ++i) theta[i] -= mean;

  Matrix f = model.information(theta);
  const double c = model.pin(f);
  auto a_inv = inverse(f);
  if (!a_inv) return out;
  // Without prior, A⁻¹ = H⁺ + uuᵀ/(c n²).
  if (c > 0)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) (*a_inv)[i][j] -= 1.0 / (c * static_cast<double>(n * n));

  // The meat: per game, the score vector of its results.
  // A game given once with weight w stands for w identical clusters.
  Matrix meat = zeros(params, params);
  double clusters = 0;
  {
    std::vector<double> score(params, 0.0);
    std::vector<std::size_t> touched;
    double weight = 1;
    auto flush = [&] {
      if (touched.empty()) return;
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      for (std::size_t a : touched)
        for (std::size_t b : touched) meat[a][b] += weight * score[a] * score[b];
      for (std::size_t a : touched) score[a] = 0;
      touched.clear();
      clusters += weight;
    };
    for (std::size_t r = 0; r < problem.results.size(); ++r) {
      const PairResult& res = problem.results[r];
      if (r > 0 && res.game != problem.results[r - 1].game) flush();
      weight = res.weight;
      const Diff d = diff_of(n, res.i, res.j, res.seat_i, res.seat_j);
      const double x = kLogitPerElo * dot(d, theta);
      const double residual = kLogitPerElo * (res.score - sigmoid(x));
      for (int k = 0; k < d.size; ++k) {
        score[d.index[k]] += d.sign[k] * residual;
        touched.push_back(d.index[k]);
      }
    }
    flush();
  }
  Matrix pinned_meat = meat;
  double meat_scale = 0;
  for (std::size_t i = 0; i < params; ++i) meat_scale += meat[i][i];
  bool robust = clusters > 1.5 && meat_scale > 0;
  if (robust) {
    const double cm = meat_scale / static_cast<double>(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) pinned_meat[i][j] += cm;
    robust = inverse(pinned_meat).has_value();
  }

  out.model_covariance = centre(*a_inv, n);
  if (robust) {
    Matrix sandwich = multiply(multiply(*a_inv, meat), *a_inv);
    const double g = clusters;
    for (auto& row : sandwich)
      for (double& v : row) v *= g / (g - 1);
    out.covariance = centre(sandwich, n);
  } else {
    out.covariance = out.model_covariance;
  }
  out.robust = robust;
  if (model.prior > 0)
    for (std::size_t i = 0; i < n; ++i) theta[i] -= mean;
  out.elo.assign(theta.begin(), theta.begin() + static_cast<std::ptrdiff_t>(n));
  out.seat.assign(theta.begin() + static_cast<std::ptrdiff_t>(n), theta.end());
  out.ok = true;
  return out;
}

}  // namespace referee::ratings
