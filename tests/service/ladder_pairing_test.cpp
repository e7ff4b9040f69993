// The ladder's pairing rule (service/ladder.h) played forward: a simulated ladder where each
// chosen pair plays its two games at once, results drawn from fixed strengths, ratings and error
// bars recomputed as the ladder would. No pair takes the games of the others, whatever the
// ratings (engines that win or lose everything included); the games per engine stay within a
// bound; an engine that joins late plays until it has caught up.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>

#include "service/ladder.h"

using namespace referee::service;

namespace {

// A ladder of engines of fixed strengths (Elo); its entrants as top_up_ladders makes them: a
// rough rating (the mean score's Elo), an error bar shrinking with the games, and none (a bound)
// while an engine has only won or only lost.
class SimLadder {
 public:
  void add(const std::string& name, double strength) { engines_[name] = {strength, 0, 0}; }

  std::vector<LadderEntrant> entrants() const {
    std::vector<LadderEntrant> out;
    for (const auto& [name, e] : engines_) {
      LadderEntrant x;
      x.name = name;
      x.games = e.games;
      if (e.games > 0) {
        const double score = e.points / e.games;
        const bool bound = score <= 0.0 || score >= 1.0;
        const double s = std::clamp(score, 0.01, 0.99);
        x.elo = -400.0 * std::log10(1.0 / s - 1.0);
        x.error95 = bound ? 0.0 : 1.96 * 400.0 / std::sqrt(static_cast<double>(e.games));
      }
      out.push_back(x);
    }
    return out;
  }

  // Chooses `pairs` pairs at once (open games counted) and plays them.
  void step(int pairs) {
    std::map<EnginePair, int> finished;
    for (const auto& [pair, n] : pair_games_) finished[pair] = n * kGamesPerPair;
    for (const auto& [a, b] : choose_pairs(entrants(), {}, pairs, finished)) {
      ++pair_games_[{a, b}];
      for (int seat = 0; seat < kGamesPerPair; ++seat) play(a, b);
    }
  }

  int games(const std::string& name) const { return engines_.at(name).games; }
  int spread() const {
    int lo = 1 << 30, hi = 0;
    for (const auto& [name, e] : engines_) {
      lo = std::min(lo, e.games);
      hi = std::max(hi, e.games);
    }
    return hi - lo;
  }
  int most_pair_games() const {
    int most = 0;
    for (const auto& [pair, n] : pair_games_) most = std::max(most, n * kGamesPerPair);
    return most;
  }
  int total() const {
    int t = 0;
    for (const auto& [name, e] : engines_) t += e.games;
    return t / 2;
  }

 private:
  struct Engine {
    double strength;
    int games;
    double points;
  };
  void play(const std::string& a, const std::string& b) {
    auto& x = engines_[a];
    auto& y = engines_[b];
    const double p = 1.0 / (1.0 + std::pow(10.0, (y.strength - x.strength) / 400.0));
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    const double score = r < p ? 1.0 : 0.0;
    x.points += score;
    y.points += 1.0 - score;
    ++x.games;
    ++y.games;
  }
  std::map<std::string, Engine> engines_;
  std::map<EnginePair, int> pair_games_;
  std::mt19937_64 rng_{20261129};
};

}  // namespace

TEST_CASE("ladder pairing: games spread over every engine, no pair takes them all") {
  // Two close, well-measured engines (the pair the old rule fed), one that wins everything and
  // one that loses everything (bounds), and two in between.
  SimLadder ladder;
  ladder.add("alphabeta", 2400);
  ladder.add("greedy", 1500);
  ladder.add("greedy2", 1510);
  ladder.add("mcts", 1800);
  ladder.add("minimax", 1900);
  ladder.add("random", 200);
  for (int round = 0; round < 300; ++round) {
    ladder.step(round % 3 + 1);  // one to three pairs chosen at a time
    INFO("after " << ladder.total() << " games");
    REQUIRE(ladder.spread() <= kLoadSlack + 2 * kGamesPerPair);
  }
  // Six engines, 15 pairs: the busiest pair has far less than the monopoly of the issue
  // (1,052 of 1,108 games).
  CHECK(ladder.most_pair_games() < ladder.total() / 6);
  CHECK(ladder.games("alphabeta") >= ladder.total() * 2 / 6 - kLoadSlack - 2 * kGamesPerPair);
}

TEST_CASE("ladder pairing: an engine that joins late plays until it has caught up") {
  SimLadder ladder;
  ladder.add("a", 1500);
  ladder.add("b", 1520);
  ladder.add("c", 1700);
  ladder.add("d", 1300);
  for (int round = 0; round < 100; ++round) ladder.step(2);
  const int before = ladder.games("a");
  REQUIRE(before >= 80);
  ladder.add("newcomer", 2000);  // the strongest: it will win nearly everything (a bound)
  int rounds = 0;
  while (ladder.games("newcomer") < ladder.games("a") - kLoadSlack && rounds < 200) {
    const int had = ladder.games("newcomer");
    ladder.step(1);
    // Each pair chosen while it is behind is one of its own.
    CHECK(ladder.games("newcomer") == had + kGamesPerPair);
    ++rounds;
  }
  CHECK(rounds < 200);
  // Then every engine stays within the bound.
  for (int round = 0; round < 100; ++round) ladder.step(2);
  CHECK(ladder.spread() <= kLoadSlack + 2 * kGamesPerPair);
}
