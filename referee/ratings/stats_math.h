// Small numerics shared by the rating fits and the paired-game statistics: the logistic Elo scale,
// the normal distribution, dense symmetric matrices and a root finder. Pure functions, no I/O.
//
// Decisions: the normal quantile is found by bisection on the CDF (erfc), exact to double
// precision and free of magic coefficients; matrices are plain vectors of rows (the fits have at
// most a few hundred parameters, so Gauss–Jordan is fast enough and simple to check).
#pragma once

#include <cmath>
#include <functional>
#include <optional>
#include <vector>

namespace referee::ratings {

using Matrix = std::vector<std::vector<double>>;

// Elo per unit of logit: ratings are 400·log10 odds, so P(a beats b) = σ(kLogitPerElo (Ra − Rb)).
inline const double kLogitPerElo = std::log(10.0) / 400.0;

inline double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
// log σ(x) without overflow.
inline double log_sigmoid(double x) {
  return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}
// Expected score of a rating difference, and its inverse (±infinity at 1 and 0).
inline double score_of_elo(double elo) {
  return sigmoid(kLogitPerElo * elo);
}
inline double elo_of_score(double score) {
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double normal_cdf(double x);
// The x with normal_cdf(x) = p, for 0 < p < 1.
double normal_quantile(double p);
// z of a two-sided interval: 1.959964 for 0.95.
double two_sided_z(double confidence);

Matrix zeros(std::size_t rows, std::size_t cols);
// Inverse by Gauss–Jordan with partial pivoting; nullopt when (numerically) singular.
std::optional<Matrix> inverse(Matrix a);
Matrix multiply(const Matrix& a, const Matrix& b);
std::vector<double> multiply(const Matrix& a, const std::vector<double>& v);

// The root of an increasing or decreasing f on [lo, hi] where f(lo) and f(hi) have opposite
// signs (or one is zero), by bisection to the last bit.
double bisect(const std::function<double(double)>& f, double lo, double hi);

}  // namespace referee::ratings
