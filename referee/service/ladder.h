// The ladder's pairing rule: which two engines play next on a standing ladder, chosen to sharpen
// the ratings. A pure function over the current ratings, tested on its own.
//
// The rule: every pair (a, b) of active engines scores
//     p(1 − p) · (σa² + σb²) / (1 + open games of the pair)
// where p is the expected score of a against b from their ratings (logistic, 400·log10), σ the
// standard error of a rating (its 95 % half-width / 1.96, at most kUnknownSigma; an engine
// without games has kUnknownSigma). p(1 − p) is the information a game carries about the rating
// difference (largest for close ratings); σa² + σb² is how much there is to learn (wide error
// bars, new engines first); the divisor spreads games over pairs instead of piling them on one.
// Pairs are taken greedily, best first, each taken pair counting as open for the next choice;
// ties go to the alphabetical order, so the choice is reproducible.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace referee::service {

constexpr double kUnknownSigma = 350.0;

struct LadderEntrant {
  std::string name;
  double elo = 0;
  double error95 = 0;  // 0 or infinite: unknown
  int games = 0;
};

using EnginePair = std::pair<std::string, std::string>;  // alphabetical

// How much the next game of this pair is worth (the score above without the divisor).
double pair_information(const LadderEntrant& a, const LadderEntrant& b);

// The next `count` pairs to play (a pair may come back), given the games of each pair already
// scheduled and not finished (`open`, keyed alphabetically).
std::vector<EnginePair> choose_pairs(const std::vector<LadderEntrant>& entrants,
                                     std::map<EnginePair, int> open, int count);

}  // namespace referee::service
