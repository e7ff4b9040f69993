// Rating tables: which engines can be compared, their maximum-likelihood Elo with honest error
// bars, bounds where the likelihood has no finite maximum, seat advantages and the draw rate.
// Pure functions, no I/O; the fit itself is in elo_fit.h, the graphs in result_graph.h.
//
// Decisions (RATINGS.md says the same for users):
// - No prior by default: a 95 % score is +511.5 Elo, as in Ordo. `prior_draws` > 0 adds that many
//   virtual draws of every engine against an opponent rated at the average; the table shows it.
// - Engines that never met, directly or through others, are in different groups, each with its
//   own scale (average 0, or the anchor's group anchored and the others centred on its average).
// - Within a group, the engines whose ratings are finite are the largest strongly connected set of
//   the "scored a point against" graph (the main set); it is fitted alone (the likelihood of the
//   rest is constant at the limit). An engine outside it won (or lost) every game against the main
//   set, so its maximum-likelihood rating is ±infinity; it is shown as a bound: the rating at
//   which winning (losing) all those games has probability (1 − confidence)/2, the one-sided end
//   of the two-sided interval (exact: Clopper–Pearson for a single opponent). An engine that
//   played no engine of the main set is unrated.
// - Seat parameters (first-player advantage; per seat for N players) are fitted per game variant
//   when the games identify them, so ratings are seat-neutral even in an unbalanced schedule.
// - Error bars are cluster-robust over whole games (see elo_fit.h); the confidence level is a
//   parameter (default 95 %); errors are relative to the anchor when there is one, else to the
//   average.
// - N-player games count as the N(N−1)/2 pairwise results by rank (equal ranks draw); a pair of
//   seats held by one engine counts nothing.
// - Identical games may be given once with their count (GameTallies: what the database's
//   aggregate query returns); every figure is the same as with the games one by one, including
//   the cluster-robust errors (each game is a cluster; identical games are identical clusters).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ratings/draw_model.h"

namespace referee::ratings {

// One finished game: engine names by seat, their ranks (1 = best; equal ranks draw) and the
// canonical game string (seat parameters are fitted per variant).
struct RatedGame {
  std::vector<std::string> players;
  std::vector<int> ranks;
  std::string variant;
};

// Games with names interned, identical games counted once.
struct GameTallies {
  static constexpr std::size_t kMaxSeats = 8;
  struct Entry {
    std::uint32_t variant = 0;  // index into `variants` (canonical game strings)
    std::uint32_t players = 0;
    std::array<std::uint32_t, kMaxSeats> engines{};  // by seat, index into `engines`
    std::array<std::uint8_t, kMaxSeats> ranks{};     // by seat, 1..players
    std::int64_t count = 1;
  };
  std::vector<std::string> engines, variants;
  std::vector<Entry> games;
};

enum class Bound {
  kNone,     // a finite rating, elo ± error
  kLower,    // won every game against the main set: rating > elo
  kUpper,    // lost every game against the main set: rating < elo
  kUnrated,  // played no engine of the main set
};

struct Rating {
  std::string name;
  Bound bound = Bound::kNone;
  double elo = 0;    // the rating; for a bound, its one-sided limit at the table's confidence
  double error = 0;  // half-width of the interval at the table's confidence (finite ratings only)
  // The figure a table shows: `elo` for a finite rating; for a bound, its limit moved to the
  // figure of the next engine towards the finite ratings when the limit would cross it (with few
  // games a winner's limit is below its victim's rating), so that figures never contradict ranks.
  double shown = 0;
  // The only finite rating of its group: it fixes the scale (0, or the anchor) and measures
  // nothing; its `error` is 0 by construction, not a measurement.
  bool reference = false;
  int games = 0;  // pairwise games
  double wins = 0, draws = 0, losses = 0;
  double score = 0;  // (wins + draws/2) / games
  double los = 0;    // over the next engine down when both are finite; NaN otherwise
};

// The seat parameters of one game variant: Elo of each seat relative to the average seat.
struct SeatEffect {
  std::string variant;
  std::vector<double> elo, error;
  double first = 0, first_error = 0;  // seat 1 minus seat 2 (the first-player advantage)
};

struct RatingGroup {
  std::vector<Rating> ratings;  // by rating, best first; bounds above, unrated last
  // los[a][b]: likelihood that ratings[a] is stronger than ratings[b]; NaN unless both finite.
  std::vector<std::vector<double>> los;
  std::vector<SeatEffect> seats;
  std::vector<std::string> seat_notes;  // variants whose seat parameters were not fitted, and why
  DrawEstimate draws;
  bool robust = false;    // cluster-robust errors (else model-based: too few games)
  bool anchored = false;  // the anchor is in this group with a finite rating
  double average = 0;     // the average of its finite ratings
};

struct RatingOptions {
  double prior_draws = 0;
  double confidence = 0.95;
  std::string anchor;  // engine name; "" = the average of the ratings is 0
  double anchor_elo = 0;
  bool fit_seats = true;
};

struct RatingTable {
  std::vector<RatingGroup> groups;  // played groups, most engines first
};

RatingTable rate(const GameTallies& games, const RatingOptions& options);
// The same, one entry per game (games with more than GameTallies::kMaxSeats players are ignored).
RatingTable rate(const std::vector<RatedGame>& games, const RatingOptions& options);

}  // namespace referee::ratings
