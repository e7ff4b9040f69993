// Rating-fit figures, printed (never asserted): CPU time and peak memory of
// referee::ratings::rate() on synthetic results, and how well it recovers the true ratings (RMS
// error, share of engines whose true rating lies inside their 95 % interval).
//
//   ratings_bench [ENGINES [GAMES [PLAYERS]]]     default: 200 engines, 1000000 games, 2 players
//
// Two-player games: random pairs, true ratings ~ N(0, 200), first-player advantage 30, drawelo 100
// (equal engines draw 28 %). N-player games: random sets of engines, ranks by Plackett–Luce.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "engines/system.h"
#include "ratings/draw_model.h"
#include "ratings/ratings.h"
#include "ratings/stats_math.h"

using namespace referee;
using namespace referee::ratings;

int main(int argc, char** argv) {
  const int engines = argc > 1 ? std::atoi(argv[1]) : 200;
  const long count = argc > 2 ? std::atol(argv[2]) : 1000000;
  const int players = argc > 3 ? std::atoi(argv[3]) : 2;
  if (engines < players || count < 1 || players < 2) {
    std::fprintf(stderr, "usage: ratings_bench [ENGINES [GAMES [PLAYERS]]]\n");
    return 2;
  }
  std::mt19937_64 rng(1);
  std::normal_distribution<double> spread(0, 200);
  std::vector<double> truth(static_cast<std::size_t>(engines));
  for (auto& t : truth) t = spread(rng);
  std::vector<std::string> names;
  for (int i = 0; i < engines; ++i) names.push_back("engine" + std::to_string(i));
  std::uniform_int_distribution<std::size_t> pick(0, truth.size() - 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<RatedGame> games;
  games.reserve(static_cast<std::size_t>(count));
  for (long g = 0; g < count; ++g) {
    RatedGame game;
    game.variant = "bench";
    std::vector<std::size_t> seats;
    while (seats.size() < static_cast<std::size_t>(players)) {
      const std::size_t e = pick(rng);
      bool taken = false;
      for (std::size_t s : seats) taken = taken || s == e;
      if (!taken) seats.push_back(e);
    }
    for (std::size_t s : seats) game.players.push_back(names[s]);
    if (players == 2) {
      const double expected = ratings::score_of_elo(truth[seats[0]] - truth[seats[1]] + 30);
      const auto p = ratings::split_score(expected, 100);
      const double u = uniform(rng);
      game.ranks = u < p[0]          ? std::vector<int>{1, 2}
                   : u < p[0] + p[1] ? std::vector<int>{1, 1}
                                     : std::vector<int>{2, 1};
    } else {  // Plackett–Luce through Gumbel keys: rank by log-strength + Gumbel noise
      std::vector<double> key;
      for (std::size_t s : seats)
        key.push_back(truth[s] * ratings::kLogitPerElo - std::log(-std::log(uniform(rng))));
      for (std::size_t a = 0; a < seats.size(); ++a) {
        int rank = 1;
        for (std::size_t b = 0; b < seats.size(); ++b) rank += key[b] > key[a];
        game.ranks.push_back(rank);
      }
    }
    games.push_back(std::move(game));
  }

  const auto before = engines::self_usage();
  const RatingTable table = rate(games, RatingOptions{});
  const auto after = engines::self_usage();
  double mean = 0;
  for (double t : truth) mean += t / engines;
  double squares = 0, covered = 0;
  int rated = 0;
  for (const auto& g : table.groups)
    for (const auto& r : g.ratings) {
      if (r.bound != Bound::kNone) continue;
      const double d =
          r.elo - (truth[static_cast<std::size_t>(std::atoi(r.name.c_str() + 6))] - mean);
      squares += d * d;
      covered += std::abs(d) < r.error;
      ++rated;
    }
  std::printf("rate(): %d engines, %ld games of %d players\n", engines, count, players);
  std::printf(
      "  CPU                %.2f s (user %.2f + sys %.2f)\n",
      after.user_seconds + after.system_seconds - before.user_seconds - before.system_seconds,
      after.user_seconds - before.user_seconds, after.system_seconds - before.system_seconds);
  std::printf("  peak RSS           %.0f MB (%.0f MB before rate(): the input games)\n",
              static_cast<double>(after.peak_rss_kb) / 1024,
              static_cast<double>(before.peak_rss_kb) / 1024);
  std::printf("  groups             %zu\n", table.groups.size());
  std::printf("  RMS error          %.2f Elo over %d finite ratings\n",
              rated ? std::sqrt(squares / rated) : 0.0, rated);
  std::printf("  95%% coverage       %.3f\n", rated ? covered / rated : 0.0);
  if (!table.groups.empty() && !table.groups[0].seats.empty())
    std::printf("  first seat         %+.1f +/- %.1f Elo%s\n", table.groups[0].seats[0].first,
                table.groups[0].seats[0].first_error, players == 2 ? " (true +30.0)" : "");
  if (!table.groups.empty() && table.groups[0].draws.estimated)
    std::printf("  equal engines draw %.1f %%%s\n", 100 * table.groups[0].draws.equal,
                players == 2 ? " (true 28.0 %)" : "");
  return 0;
}
