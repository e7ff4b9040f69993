#include "ratings/result_tables.h"

#include <map>

#include "ratings/selection.h"

namespace referee::ratings {

namespace {

// Pairwise games of every engine in these patterns (as pairwise_games counts them).
std::vector<std::int64_t> pairwise_counts(const storage::ResultSet& results,
                                          const std::vector<std::size_t>& list) {
  std::vector<std::int64_t> count(results.engines.size(), 0);
  for (std::size_t k : list) {
    const auto& p = results.patterns[k];
    for (std::uint32_t a = 0; a < p.players; ++a)
      for (std::uint32_t b = 0; b < p.players; ++b)
        if (p.engines[a] != p.engines[b]) count[p.engines[a]] += p.count;
  }
  return count;
}

}  // namespace

Variants variants_of(const storage::ResultSet& results) {
  Variants v;
  v.of.assign(results.games.size(), 0);
  std::map<std::string, std::uint32_t> ids;
  for (std::size_t k = 0; k < results.games.size(); ++k) {
    const std::string canonical = canonical_game(results.games[k]);
    auto [it, fresh] = ids.emplace(canonical, static_cast<std::uint32_t>(v.names.size()));
    if (fresh) v.names.push_back(canonical);
    v.of[k] = it->second;
  }
  return v;
}

std::vector<PatternTable> pattern_tables(const storage::ResultSet& results,
                                         const Variants& variants, const std::string& game) {
  std::map<std::string, std::vector<std::size_t>> by_title;
  std::vector<std::size_t> all;
  for (std::size_t k = 0; k < results.patterns.size(); ++k) {
    const std::string& title = variants.names[variants.of[results.patterns[k].game]];
    if (!game.empty() && title != game) continue;
    by_title[title].push_back(k);
    all.push_back(k);
  }
  std::vector<PatternTable> out;
  for (auto& [title, list] : by_title) out.push_back({title, std::move(list)});
  if (out.size() > 1) out.push_back({"all games", std::move(all)});
  return out;
}

void drop_rare(const storage::ResultSet& results, std::vector<std::size_t>& list, int min_games) {
  if (min_games <= 0) return;
  while (true) {
    const auto count = pairwise_counts(results, list);
    std::vector<bool> rare(count.size(), false);
    bool any = false;
    for (std::size_t e = 0; e < count.size(); ++e)
      if (count[e] > 0 && count[e] < min_games) rare[e] = any = true;
    if (!any) return;
    std::erase_if(list, [&](std::size_t k) {
      const auto& p = results.patterns[k];
      for (std::uint32_t s = 0; s < p.players; ++s)
        if (rare[p.engines[s]]) return true;
      return false;
    });
  }
}

std::map<std::string, std::set<std::string>> kept_engines(const storage::ResultSet& results,
                                                          int min_games) {
  const Variants variants = variants_of(results);
  std::map<std::string, std::set<std::string>> out;
  for (auto& table : pattern_tables(results, variants, "")) {
    if (table.title == "all games") continue;
    drop_rare(results, table.patterns, min_games);
    auto& kept = out[table.title];
    for (std::size_t k : table.patterns) {
      const auto& p = results.patterns[k];
      for (std::uint32_t s = 0; s < p.players; ++s) kept.insert(results.engines[p.engines[s]]);
    }
  }
  return out;
}

}  // namespace referee::ratings
