// Head-to-head statistics of one engine against another, as fastchess and fishtest report them:
// game (trinomial) and game-pair (pentanomial) counts, the score, Elo and normalised Elo with their
// intervals, and LOS. Pure, no I/O.
//
// A pair is the two games of one opening with seats swapped; its outcome for the engine is the
// sum of its two scores: 0 (LL), ½ (LD), 1 (WL or DD), 1½ (WD), 2 (WW). Pairs are the honest unit
// when openings are played twice: an opening that favours one seat makes the two games of a pair
// negatively correlated, and the pentanomial variance sees it where the trinomial one cannot.
//
// Formulas (Van den Bergh, "Normalized Elo", and the fastchess/fishtest code that follows it):
//   score s = mean outcome per game; σ² = variance of one unit's mean score (a game, or a pair's
//   average) around s; interval of s: s ± z·σ/√N (N units); Elo = −400·log10(1/s − 1) at s and at
//   both ends; normalised Elo = (s − ½)/σ_game · 800/ln 10 with σ_game = σ for games and √2·σ for
//   pairs; LOS = Φ((s − ½)/(σ/√N)).
#pragma once

#include <array>
#include <cstdint>

namespace referee::ratings {

struct Trinomial {
  std::int64_t wins = 0, draws = 0, losses = 0;
  std::int64_t total() const { return wins + draws + losses; }
};

// Pair outcomes from the engine's side. WL and DD both score 1 and are kept apart for display.
struct Pentanomial {
  std::int64_t ll = 0, ld = 0, wl = 0, dd = 0, wd = 0, ww = 0;
  std::int64_t total() const { return ll + ld + wl + dd + wd + ww; }
  // Counts by pair score 0, ½, 1, 1½, 2.
  std::array<double, 5> bins() const {
    return {double(ll), double(ld), double(wl + dd), double(wd), double(ww)};
  }
  // Adds one pair from the engine's two game scores (1, ½ or 0 each).
  void add(double first, double second);
};

struct EloEstimate {
  std::int64_t units = 0;                     // games or pairs
  double score = 0.5;                         // mean score per game
  double sigma = 0;                           // standard deviation of one unit's mean score
  double elo = 0, elo_low = 0, elo_high = 0;  // ±infinity when the score interval leaves (0, 1)
  double nelo = 0, nelo_error = 0;            // normalised Elo and its half-width
  double los = 0.5;
};

EloEstimate trinomial_estimate(const Trinomial& counts, double confidence);
EloEstimate pentanomial_estimate(const Pentanomial& counts, double confidence);

}  // namespace referee::ratings
