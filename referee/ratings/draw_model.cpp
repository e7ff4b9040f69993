#include "ratings/draw_model.h"

#include <algorithm>
#include <cmath>

#include "ratings/stats_math.h"

namespace referee::stats {

namespace {

constexpr double kMaxDrawelo = 4000;  // draws certain to 1e-20: the "all draws" end

double log_likelihood(const std::vector<DrawCell>& cells, double drawelo) {
  double sum = 0;
  for (const auto& c : cells) {
    const auto p = split_score(c.expected, drawelo);
    const double counts[3] = {c.wins, c.draws, c.losses};
    for (int k = 0; k < 3; ++k)
      if (counts[k] > 0) sum += counts[k] * std::log(std::max(p[k], 1e-300));
  }
  return sum;
}

}  // namespace

std::array<double, 3> split_score(double expected, double drawelo) {
  // With a = e^(−k e) and D = e^(k δ): P(win) = 1/(1 + D a), P(loss) = a/(a + D), and
  // P(win) − P(loss) = t = 2s − 1 is the quadratic D(1+t) a² + t(1+D²) a − D(1−t) = 0, whose
  // positive root is taken in the form free of cancellation for the sign of t.
  if (!(expected > 0)) return {0, 0, 1};
  if (!(expected < 1)) return {1, 0, 0};
  const double t = 2 * expected - 1;
  const double d = std::exp(kLogitPerElo * drawelo);
  const double qa = d * (1 + t), qb = t * (1 + d * d), qc = d * (1 - t);
  const double root = std::sqrt(qb * qb + 4 * qa * qc);
  const double a = qb >= 0 ? 2 * qc / (qb + root) : (root - qb) / (2 * qa);
  const double win = 1 / (1 + d * a), loss = a / (a + d);
  return {win, std::max(0.0, 1 - win - loss), loss};
}

DrawEstimate estimate_draws(const std::vector<DrawCell>& cells, double confidence) {
  DrawEstimate out;
  double total = 0, draws = 0;
  for (const auto& c : cells) {
    total += c.wins + c.draws + c.losses;
    draws += c.draws;
  }
  if (total == 0) return out;
  out.estimated = true;
  out.observed = draws / total;
  auto ll = [&](double d) { return log_likelihood(cells, d); };
  // Golden-section search for the maximum on [0, kMaxDrawelo] (the likelihood is unimodal in δ).
  double a = 0, b = kMaxDrawelo;
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
  double f1 = ll(x1), f2 = ll(x2);
  for (int i = 0; i < 200 && b - a > 1e-9; ++i) {
    if (f1 < f2) {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = ll(x2);
    } else {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = ll(x1);
    }
  }
  double best = (a + b) / 2;
  if (ll(0) >= ll(best)) best = 0;
  if (ll(kMaxDrawelo) >= ll(best)) best = kMaxDrawelo;
  const double top = ll(best);
  const double z = two_sided_z(confidence);
  const double drop = z * z / 2;
  auto below = [&](double d) { return ll(d) - (top - drop); };
  const double lo = below(0) >= 0 ? 0 : bisect(below, 0, best);
  const double hi = below(kMaxDrawelo) >= 0 ? kMaxDrawelo : bisect(below, best, kMaxDrawelo);
  auto equal_rate = [](double d) { return 1 - 2 * sigmoid(-kLogitPerElo * d); };
  out.drawelo = best;
  out.equal = equal_rate(best);
  out.low = equal_rate(lo);
  out.high = equal_rate(hi);
  return out;
}

}  // namespace referee::stats
