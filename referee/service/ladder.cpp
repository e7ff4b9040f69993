#include "service/ladder.h"

#include <algorithm>
#include <cmath>

namespace referee::service {

namespace {

double sigma(const LadderEntrant& e) {
  if (e.games <= 0 || !(e.error95 > 0) || !std::isfinite(e.error95)) return kUnknownSigma;
  return std::min(kUnknownSigma, e.error95 / 1.96);
}

}  // namespace

double pair_information(const LadderEntrant& a, const LadderEntrant& b) {
  const double p = 1.0 / (1.0 + std::pow(10.0, (b.elo - a.elo) / 400.0));
  const double sa = sigma(a), sb = sigma(b);
  return p * (1.0 - p) * (sa * sa + sb * sb);
}

std::vector<EnginePair> choose_pairs(const std::vector<LadderEntrant>& entrants,
                                     std::map<EnginePair, int> open, int count) {
  std::vector<LadderEntrant> sorted = entrants;
  std::sort(sorted.begin(), sorted.end(),
            [](const LadderEntrant& a, const LadderEntrant& b) { return a.name < b.name; });
  std::vector<EnginePair> out;
  if (sorted.size() < 2) return out;
  for (int n = 0; n < count; ++n) {
    double best = -1;
    EnginePair chosen;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      for (std::size_t j = i + 1; j < sorted.size(); ++j) {
        const EnginePair key{sorted[i].name, sorted[j].name};
        auto it = open.find(key);
        const int pending = it == open.end() ? 0 : it->second;
        const double score = pair_information(sorted[i], sorted[j]) / (1.0 + pending);
        if (score > best) {  // strict: the first (alphabetical) pair wins ties
          best = score;
          chosen = key;
        }
      }
    out.push_back(chosen);
    ++open[chosen];
  }
  return out;
}

}  // namespace referee::service
