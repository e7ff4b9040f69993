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
                                     std::map<EnginePair, int> open, int count,
                                     const std::map<EnginePair, int>& finished) {
  std::vector<LadderEntrant> sorted = entrants;
  std::sort(sorted.begin(), sorted.end(),
            [](const LadderEntrant& a, const LadderEntrant& b) { return a.name < b.name; });
  std::vector<EnginePair> out;
  if (sorted.size() < 2) return out;
  std::map<std::string, long long> load;
  for (const auto& e : sorted) load[e.name] = e.games;
  for (const auto& [pair, games] : open) {
    if (auto it = load.find(pair.first); it != load.end()) it->second += games;
    if (auto it = load.find(pair.second); it != load.end()) it->second += games;
  }
  for (int n = 0; n < count; ++n) {
    std::size_t first = 0;
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      const long long li = load[sorted[i].name], lf = load[sorted[first].name];
      if (li < lf || (li == lf && sigma(sorted[i]) > sigma(sorted[first]))) first = i;
    }
    const long long base = load[sorted[first].name];
    long long least_other = -1;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      if (i != first && (least_other < 0 || load[sorted[i].name] < least_other))
        least_other = load[sorted[i].name];
    const long long limit = std::max(base + kLoadSlack, least_other);
    double best = -1;
    EnginePair chosen;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (i == first || load[sorted[i].name] > limit) continue;
      const EnginePair key = std::minmax(sorted[first].name, sorted[i].name);
      auto it = open.find(key);
      auto done = finished.find(key);
      const int pair_games =
          (it == open.end() ? 0 : it->second) + (done == finished.end() ? 0 : done->second);
      const double score = pair_information(sorted[first], sorted[i]) / (1.0 + pair_games);
      if (score > best) {  // strict: the first (alphabetical) opponent wins ties
        best = score;
        chosen = key;
      }
    }
    out.push_back(chosen);
    open[chosen] += kGamesPerPair;
    load[chosen.first] += kGamesPerPair;
    load[chosen.second] += kGamesPerPair;
  }
  return out;
}

}  // namespace referee::service
