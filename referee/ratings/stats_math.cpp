#include "ratings/stats_math.h"

#include <algorithm>

namespace referee::ratings {

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double normal_quantile(double p) {
  if (p > 0.5) return -normal_quantile(1.0 - p);
  return bisect([p](double x) { return normal_cdf(x) - p; }, -40.0, 0.0);
}

double two_sided_z(double confidence) {
  return normal_quantile(1.0 - (1.0 - confidence) / 2.0);
}

Matrix zeros(std::size_t rows, std::size_t cols) {
  return Matrix(rows, std::vector<double>(cols, 0.0));
}

std::optional<Matrix> inverse(Matrix a) {
  const std::size_t n = a.size();
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(a[i][i]));
  if (scale == 0 || !std::isfinite(scale)) return std::nullopt;
  Matrix inv = zeros(n, n);
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

Matrix multiply(const Matrix& a, const Matrix& b) {
  const std::size_t n = a.size(), m = b.empty() ? 0 : b[0].size();
  Matrix out = zeros(n, m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < b.size(); ++k) {
      const double v = a[i][k];
      if (v == 0) continue;
      for (std::size_t j = 0; j < m; ++j) out[i][j] += v * b[k][j];
    }
  return out;
}

std::vector<double> multiply(const Matrix& a, const std::vector<double>& v) {
  std::vector<double> out(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) out[i] += a[i][j] * v[j];
  return out;
}

double bisect(const std::function<double(double)>& f, double lo, double hi) {
  double flo = f(lo);
  if (flo == 0) return lo;
  for (int i = 0; i < 400; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    const double fm = f(mid);
    if (fm == 0) return mid;
    if ((fm < 0) == (flo < 0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  return lo + (hi - lo) / 2;
}

}  // namespace referee::ratings
