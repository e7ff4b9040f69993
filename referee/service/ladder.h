// The ladder's pairing rule: which two engines play next on a standing ladder. A pure function
// over the engines' games and ratings, tested on its own.
//
// The rule, for each pair chosen:
// 1. The first engine is the one with the fewest games, finished or scheduled (its load); ties go
//    to the widest error bar, then to the alphabetical order. A new engine has none, so it comes
//    first, and keeps coming until it has caught up with the others.
// 2. Its opponent is taken among the others whose load is at most kLoadSlack above the first's
//    (when none is, among those of the least load: a newcomer catching up meets the engines that
//    have played least), by the worth of the pair:
//        p(1 − p) · (σa² + σb²) / (1 + games of the pair, finished or open)
//    where p is the expected score of a against b from their ratings (logistic, 400·log10), σ the
//    standard error of a rating (its 95 % half-width / 1.96, at most kUnknownSigma; an engine
//    without games, or with only wins or only losses, has kUnknownSigma). p(1 − p) is the
//    information a game carries about the rating difference (largest for close ratings); σa² +
//    σb² is how much there is to learn (wide error bars first); the divisor spreads games over
//    pairs (without it, engines that stay level settle into fixed couples, and the ratings of
//    one couple say nothing about another's). Ties go to the alphabetical order, so the choice is
//    reproducible.
// 3. The pair counts kGamesPerPair games more for both engines and for the pair.
// The load rule is what bounds the spread: the worth alone let one pair of close, well-measured
// engines take nearly every game while an engine that won everything (a bound, p(1 − p) near 0)
// was starved. With it, the loads of engines that started together never differ by more than
// kLoadSlack + 2 · kGamesPerPair.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace referee::service {

constexpr double kUnknownSigma = 350.0;
constexpr int kGamesPerPair = 2;  // one opening, seats swapped
constexpr int kLoadSlack = 2 * kGamesPerPair;

struct LadderEntrant {
  std::string name;
  double elo = 0;
  double error95 = 0;  // 0 or infinite: unknown
  int games = 0;       // finished games on the ladder (against any engine, retired ones too)
};

using EnginePair = std::pair<std::string, std::string>;  // alphabetical

// How much the next game of this pair is worth (the score above without the divisor).
double pair_information(const LadderEntrant& a, const LadderEntrant& b);

// The next `count` pairs to play (a pair may come back), given the games of each pair already
// scheduled and not finished (`open`, keyed alphabetically; pairs of engines that are not entrants
// count toward the load of the entrant among them) and those finished (`finished`: only the
// divisor of the worth reads them; the loads are the entrants' `games`).
std::vector<EnginePair> choose_pairs(const std::vector<LadderEntrant>& entrants,
                                     std::map<EnginePair, int> open, int count,
                                     const std::map<EnginePair, int>& finished = {});

}  // namespace referee::service
