// How often equal engines draw: a draw parameter fitted on top of a rating fit. Pure, no I/O.
//
// The rating fit predicts each result's expected score s (draws as half points). The draw model
// splits s into win, draw and loss probabilities with BayesElo's parametrisation,
//   P(win) = σ(k (e − δ)),  P(loss) = σ(k (−e − δ)),  P(draw) = 1 − P(win) − P(loss),
// where e is chosen so that P(win) + P(draw)/2 = s and δ ≥ 0 ("drawelo") is one number for the
// table, fitted by maximum likelihood on the observed wins, draws and losses. Equal engines
// (s = ½) then draw with probability 1 − 2σ(−kδ). Fitting δ after the ratings (not jointly, as
// BayesElo does) keeps the ratings on Ordo's scale; the interval is the likelihood-ratio
// interval of δ at the table's confidence level.
#pragma once

#include <array>
#include <vector>

namespace referee::ratings {

// Results that share one expected score (one engine pair in one seating).
struct DrawCell {
  double expected = 0.5;
  double wins = 0, draws = 0, losses = 0;
};

struct DrawEstimate {
  bool estimated = false;  // false without results
  double observed = 0;     // share of draws among the results
  double drawelo = 0;
  double equal = 0;  // probability that equal engines draw
  double low = 0, high = 0;
};

DrawEstimate estimate_draws(const std::vector<DrawCell>& cells, double confidence);

// {P(win), P(draw), P(loss)} of a result with expected score `expected` at drawelo δ.
std::array<double, 3> split_score(double expected, double drawelo);

}  // namespace referee::ratings
