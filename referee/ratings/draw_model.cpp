#include "ratings/draw_model.h"

#include <algorithm>
#include <cmath>

#include "ratings/stats_math.h"

namespace referee::ratings {

namespace {

constexpr double kMaxDrawelo = 4000;  // draws certain to 1e-20: the "all draws" end
// δ to a millionth of an Elo point is far finer than anything printed (the search costs one pass
// over the cells per step, and a table of 200 engines has 40,000 cells).
constexpr double kTolerance = 1e-6;

std::array<double, 3> split(double expected, double d);

double log_likelihood(const std::vector<DrawCell>& cells, double drawelo) {
  const double d = std::exp(kLogitPerElo * drawelo);
  double sum = 0;
  for (const auto& c : cells) {
    const auto p = split(c.expected, d);
    const double counts[3] = {c.wins, c.draws, c.losses};
    for (int k = 0; k < 3; ++k)
      if (counts[k] > 0) sum += counts[k] * std::log(std::max(p[k], 1e-300));
  }
  return sum;
}

// The maximum of a unimodal f on [a, b] to kTolerance: Brent's method (parabolic steps through
// the best three points, a golden-section step whenever the parabola misbehaves). A step costs
// one evaluation, and a smooth likelihood needs about a dozen where golden sections need 45.
template <class F>
double maximum(F f, double a, double b) {
  const double golden = 0.3819660112501051;  // (3 − √5)/2
  double x = a + golden * (b - a), w = x, v = x;
  double fx = -f(x), fw = fx, fv = fx;
  double step = 0, before = 0;
  for (int i = 0; i < 200; ++i) {
    const double middle = (a + b) / 2, tol = kTolerance, tol2 = 2 * tol;
    if (std::abs(x - middle) <= tol2 - (b - a) / 2) break;
    bool parabolic = false;
    if (std::abs(before) > tol) {
      double r = (x - w) * (fx - fv), q = (x - v) * (fx - fw), p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0)
        p = -p;
      else
        q = -q;
      const double older = before;
      before = step;
      if (std::abs(p) < std::abs(q * older / 2) && p > q * (a - x) && p < q * (b - x)) {
        step = p / q;
        const double u = x + step;
        if (u - a < tol2 || b - u < tol2) step = x < middle ? tol : -tol;
        parabolic = true;
      }
    }
    if (!parabolic) {
      before = x >= middle ? a - x : b - x;
      step = golden * before;
    }
    const double u = std::abs(step) >= tol ? x + step : x + (step > 0 ? tol : -tol);
    const double fu = -f(u);
    if (fu <= fx) {
      (u >= x ? a : b) = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      (u < x ? a : b) = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw, w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
  return x;
}

// A root of f between lo and hi (f changes sign there) to kTolerance: regula falsi with the
// Illinois modification (a stale end's value is halved), which converges superlinearly where
// bisection needs 32 steps.
template <class F>
double root(F f, double lo, double hi) {
  double flo = f(lo), fhi = f(hi);
  int kept = 0;  // which end was kept last: -1 lo, 1 hi
  double previous = lo;
  for (int i = 0; i < 200 && hi - lo > kTolerance; ++i) {
    double x = (lo * fhi - hi * flo) / (fhi - flo);
    if (!(x > lo && x < hi)) x = lo + (hi - lo) / 2;
    const double fx = f(x);
    if (fx == 0) return x;
    if ((fx < 0) == (flo < 0)) {
      lo = x, flo = fx;
      if (kept == 1) fhi /= 2;
      kept = 1;
    } else {
      hi = x, fhi = fx;
      if (kept == -1) flo /= 2;
      kept = -1;
    }
    if (std::abs(x - previous) < kTolerance / 2) break;
    previous = x;
  }
  return lo + (hi - lo) / 2;
}

// split_score with D = e^(k δ) given.
std::array<double, 3> split(double expected, double d) {
  // With a = e^(−k e) and D = e^(k δ): P(win) = 1/(1 + D a), P(loss) = a/(a + D), and
  // P(win) − P(loss) = t = 2s − 1 is the quadratic D(1+t) a² + t(1+D²) a − D(1−t) = 0, whose
  // positive root is taken in the form free of cancellation for the sign of t.
  if (!(expected > 0)) return {0, 0, 1};
  if (!(expected < 1)) return {1, 0, 0};
  const double t = 2 * expected - 1;
  const double qa = d * (1 + t), qb = t * (1 + d * d), qc = d * (1 - t);
  const double root = std::sqrt(qb * qb + 4 * qa * qc);
  const double a = qb >= 0 ? 2 * qc / (qb + root) : (root - qb) / (2 * qa);
  const double win = 1 / (1 + d * a), loss = a / (a + d);
  return {win, std::max(0.0, 1 - win - loss), loss};
}

}  // namespace

std::array<double, 3> split_score(double expected, double drawelo) {
  return split(expected, std::exp(kLogitPerElo * drawelo));
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
  double best = maximum(ll, 0, kMaxDrawelo);  // the likelihood is unimodal in δ
  double top = ll(best);
  const double at_zero = ll(0), at_max = ll(kMaxDrawelo);
  if (at_zero >= top) best = 0, top = at_zero;
  if (at_max >= top) best = kMaxDrawelo, top = at_max;
  const double z = two_sided_z(confidence);
  const double floor = top - z * z / 2;  // the likelihood-ratio interval
  auto below = [&](double d) { return ll(d) - floor; };
  // Each end: the likelihood is nearly quadratic around its top, so the curvature at `best`
  // predicts where it meets the floor; that guess is bracketed, then refined.
  auto end = [&](int direction, double edge, double at_edge) {
    if (at_edge >= floor) return edge;
    const double h = std::min(0.5, std::abs(edge - best) / 4);
    const double near = best + direction * h;
    const double drop_near = top - ll(near);
    double inside = near, outside = edge;
    if (drop_near > 0) {
      double distance = h * std::sqrt((top - floor) / drop_near);
      for (int i = 0; i < 60; ++i) {
        const double x = best + direction * 1.25 * distance;
        if ((x - edge) * direction >= 0) break;
        if (below(x) < 0) {
          outside = x;
          break;
        }
        inside = x;
        distance *= 2;
      }
    }
    return direction > 0 ? root(below, inside, outside) : root(below, outside, inside);
  };
  const double lo = end(-1, 0.0, at_zero);
  const double hi = end(1, kMaxDrawelo, at_max);
  auto equal_rate = [](double d) { return 1 - 2 * sigmoid(-kLogitPerElo * d); };
  out.drawelo = best;
  out.equal = equal_rate(best);
  out.low = equal_rate(lo);
  out.high = equal_rate(hi);
  return out;
}

}  // namespace referee::ratings
