#include "ratings/pentanomial.h"

#include <cmath>
#include <limits>

#include "ratings/stats_math.h"

namespace referee::ratings {

namespace {

const double kNeloPerT = 800.0 / std::log(10.0);

// outcomes[i] per game, counts[i] how many units had it; sigma_game_factor is √2 for pairs.
template <std::size_t N>
EloEstimate estimate(const std::array<double, N>& outcomes, const std::array<double, N>& counts,
                     double sigma_game_factor, double confidence) {
  EloEstimate e;
  double total = 0;
  for (double c : counts) total += c;
  e.units = static_cast<std::int64_t>(total);
  if (total == 0) {
    e.elo_low = -std::numeric_limits<double>::infinity();
    e.elo_high = std::numeric_limits<double>::infinity();
    return e;
  }
  double mean = 0;
  for (std::size_t i = 0; i < N; ++i) mean += counts[i] / total * outcomes[i];
  double var = 0;
  for (std::size_t i = 0; i < N; ++i)
    var += counts[i] / total * (outcomes[i] - mean) * (outcomes[i] - mean);
  e.score = mean;
  e.sigma = std::sqrt(var);
  const double z = two_sided_z(confidence);
  const double half = z * e.sigma / std::sqrt(total);
  auto elo = [](double s) {
    if (s <= 0) return -std::numeric_limits<double>::infinity();
    if (s >= 1) return std::numeric_limits<double>::infinity();
    return elo_of_score(s);
  };
  e.elo = elo(mean);
  e.elo_low = elo(mean - half);
  e.elo_high = elo(mean + half);
  const double sigma_game = sigma_game_factor * e.sigma;
  if (sigma_game > 0) {
    e.nelo = (mean - 0.5) / sigma_game * kNeloPerT;
    e.nelo_error = half / sigma_game * kNeloPerT;
    e.los = normal_cdf((mean - 0.5) / (e.sigma / std::sqrt(total)));
  } else {
    e.los = mean > 0.5 ? 1.0 : mean < 0.5 ? 0.0 : 0.5;
  }
  return e;
}

}  // namespace

void Pentanomial::add(double first, double second) {
  const double sum = first + second;
  if (sum == 0)
    ++ll;
  else if (sum == 0.5)
    ++ld;
  else if (sum == 1)
    ++(first == 0.5 ? dd : wl);
  else if (sum == 1.5)
    ++wd;
  else
    ++ww;
}

EloEstimate trinomial_estimate(const Trinomial& counts, double confidence) {
  return estimate<3>({0.0, 0.5, 1.0},
                     {double(counts.losses), double(counts.draws), double(counts.wins)}, 1.0,
                     confidence);
}

EloEstimate pentanomial_estimate(const Pentanomial& counts, double confidence) {
  return estimate<5>({0.0, 0.25, 0.5, 0.75, 1.0}, counts.bins(), std::sqrt(2.0), confidence);
}

}  // namespace referee::ratings
