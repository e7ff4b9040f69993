// The maximum-likelihood fit behind every rating table: logistic Elo (Bradley–Terry on the
// 400·log10 scale) over pairwise results, draws as half points, with optional seat parameters
// (first-player advantage and its N-player generalisation) and an optional prior. Pure, no I/O.
//
// Model: result r between engines i and j in seats a and b has expected score for i
//   s_r = σ(k (R_i − R_j + W_a − W_b)),  k = ln 10 / 400,
// where W are the seat parameters (the first seat of each game variant is the reference, W = 0).
// The log-likelihood is Σ_r [x_r log s_r + (1 − x_r) log(1 − s_r)] with x_r = 1, ½, 0: the
// estimating equations "observed points = expected points" of Ordo and of Bradley–Terry with half
// points. With `prior_draws` > 0, every engine also drew that many virtual games against an
// opponent rated 0 (it keeps every rating finite; it is off by default and shown when used).
//
// Fit: Newton's method with step halving; the ratings' common shift is fixed by adding c·uuᵀ to
// the information (u = 1 on the ratings), and the ratings are centred at the end (mean 0).
//
// Covariance: the cluster-robust "sandwich" H⁺ M H⁺ · G/(G−1), where H is the information, M the
// sum over games of the outer products of each game's score vector and G the number of games. It
// is honest where the model-based H⁺ is not: the pairwise results of one N-player game are not
// independent (the same ranking decides all of them), and draws make a result less variable than
// the win/loss the half-point model assumes. When M is singular (too few games, or results that
// are all draws) the model-based H⁺ is used instead and `robust` says so.
#pragma once

#include <cstddef>
#include <vector>

#include "ratings/stats_math.h"

namespace referee::ratings {

// One pairwise result: engine i against engine j (indices into the fit's engines), the seat
// parameters of their seats (-1 = a reference seat, parameter 0), i's score (1, ½, 0), and the
// game it came from. Results of one game must be consecutive. `weight` counts identical games
// given once (all results of one game carry the same weight).
struct PairResult {
  std::size_t i = 0, j = 0;
  int seat_i = -1, seat_j = -1;
  double score = 0;
  std::size_t game = 0;
  double weight = 1;
};

struct FitProblem {
  std::size_t engines = 0;
  std::size_t seat_params = 0;
  std::vector<PairResult> results;
  double prior_draws = 0;
};

struct FitResult {
  bool ok = false;           // false: not identifiable (singular information) or diverging
  std::vector<double> elo;   // by engine, mean 0
  std::vector<double> seat;  // by seat parameter, Elo
  // Over (engines..., seat parameters...), of the centred ratings.
  Matrix covariance;
  Matrix model_covariance;  // the model-based H⁺, for comparison
  bool robust = false;      // covariance is the cluster-robust sandwich
};

FitResult fit_ratings(const FitProblem& problem);

// Expected score of result r under the fitted parameters.
double expected_score(const FitResult& fit, const PairResult& r);

}  // namespace referee::ratings
