#include "ratings/pairs.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace referee {

double score_of(const storage::GameRecord& g, const std::string& engine) {
  const std::size_t me = g.players[0] == engine ? 0 : 1;
  const int mine = g.ranks[me], theirs = g.ranks[1 - me];
  return mine < theirs ? 1.0 : mine > theirs ? 0.0 : 0.5;
}

Pairing pair_games(const std::vector<const storage::GameRecord*>& games) {
  using Key = std::tuple<std::int64_t, std::string, std::string, std::vector<std::string>,
                         std::string, std::string>;
  std::map<Key, std::vector<const storage::GameRecord*>> sets;
  Pairing out;
  for (const auto* g : games) {
    if (g->players.size() != 2 || g->ranks.size() != 2 || g->status != "finished") continue;
    if (g->players[0] == g->players[1]) continue;
    const auto& [lo, hi] = std::minmax(g->players[0], g->players[1]);
    sets[Key{g->tournament_id.value_or(-1), g->game, g->start_position, g->opening, lo, hi}]
        .push_back(g);
  }
  for (auto& [key, list] : sets) {
    std::stable_sort(list.begin(), list.end(), [](const auto* a, const auto* b) {
      return std::pair{a->slot, a->id} < std::pair{b->slot, b->id};
    });
    std::vector<const storage::GameRecord*> waiting;
    for (const auto* g : list) {
      auto partner = std::find_if(waiting.begin(), waiting.end(),
                                  [&](const auto* w) { return w->players[0] == g->players[1]; });
      if (partner == waiting.end()) {
        waiting.push_back(g);
      } else {
        out.pairs.push_back({*partner, g});
        waiting.erase(partner);
      }
    }
    out.unpaired.insert(out.unpaired.end(), waiting.begin(), waiting.end());
  }
  return out;
}

}  // namespace referee
