// Ratings: maximum-likelihood logistic Elo (400·log10 scale) over all results, draws as half
// points, multi-player games split into pairwise results by rank (design.md §5). Pure functions, no
// I/O.
#pragma once

#include <string>
#include <vector>

namespace referee {

// One finished game: engine names by seat and their ranks (1 = best; equal ranks = draw).
struct RatedGame {
  std::vector<std::string> players;
  std::vector<int> ranks;
};

struct Rating {
  std::string name;
  double elo = 0;      // the mean of all ratings is 0
  double error95 = 0;  // half-width of the 95 % interval (infinite when undetermined)
  int games = 0;       // pairwise games
  double wins = 0, draws = 0, losses = 0;
  double score = 0;  // (wins + draws/2) / games
  double los = 0;    // likelihood of superiority over the next engine down the table
};

struct EloOptions {
  // The weak prior: this many virtual draws of every engine against a fixed 0-rated opponent.
  // It keeps all-win / all-loss engines finite and every rating determined; 0 gives the plain
  // maximum-likelihood fit (undetermined ratings then get an infinite error bar).
  double prior_draws = 1.0;
};

// Sorted by rating, best first (equal ratings by name). Engines whose results are all wins or all
// losses get a finite rating through the weak prior and a wide error bar.
std::vector<Rating> fit_elo(const std::vector<RatedGame>& games);
std::vector<Rating> fit_elo(const std::vector<RatedGame>& games, const EloOptions& options);

// A plain-text table: rank, name, Elo, ±95 %, games, W, D, L, score %, LOS.
std::string format_ratings(const std::vector<Rating>& ratings);

}  // namespace referee
