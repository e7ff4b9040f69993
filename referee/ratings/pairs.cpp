#include "ratings/pairs.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "storage/name_ids.h"
#include "storage/pair_stream.h"

namespace referee::ratings {

namespace {

using storage::intern;

double score(int mine, int theirs) {
  return mine < theirs ? 1.0 : mine > theirs ? 0.0 : 0.5;
}

}  // namespace

std::size_t PairKeyHash::operator()(const PairKey& k) const {
  // splitmix64's finaliser over each part in turn (a plain xor-shift combine collided on the
  // small engine indices: 11,006 distinct hashes for 19,900 pairs of 200 engines).
  auto mix = [](std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t h = mix(static_cast<std::uint64_t>(k.event_id));
  for (std::uint64_t part : {std::uint64_t{k.game}, std::uint64_t{k.lo}, std::uint64_t{k.hi},
                             std::uint64_t{std::hash<std::string>()(k.start_position)},
                             std::uint64_t{std::hash<std::string>()(k.opening)}})
    h = mix(h ^ part);
  return static_cast<std::size_t>(h);
}

double score_of(const storage::GameRecord& g, const std::string& engine) {
  const std::size_t me = g.players[0] == engine ? 0 : 1;
  return score(g.ranks[me], g.ranks[1 - me]);
}

Pairing pair_games(const std::vector<const storage::GameRecord*>& games) {
  std::vector<const storage::GameRecord*> candidates;
  for (const auto* g : games)
    if (g->players.size() == 2 && g->ranks.size() == 2 &&
        g->status == storage::GameStatus::Finished && g->players[0] != g->players[1])
      candidates.push_back(g);
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto* a, const auto* b) {
    return std::pair{a->slot, a->id} < std::pair{b->slot, b->id};
  });
  std::map<std::string, std::uint32_t> ids;
  std::vector<std::string> names;
  PairMatcher<const storage::GameRecord*> matcher;
  Pairing out;
  for (const auto* g : candidates) {
    const auto& [lo, hi] = std::minmax(g->players[0], g->players[1]);
    const PairKey key{g->event_id.value_or(-1), intern(ids, names, g->game),
                      intern(ids, names, lo),   intern(ids, names, hi),
                      g->start_position,        nlohmann::json(g->opening).dump()};
    if (auto partner = matcher.offer(key, g->players[0] == lo, g))
      out.pairs.push_back({*partner, g});
  }
  matcher.drain([&](const PairKey&, const storage::GameRecord* g) { out.unpaired.push_back(g); });
  return out;
}

PairCount pairs_between(const PairCounts& counts, const std::string& a, const std::string& b) {
  PairCount out;
  const bool a_low = a < b;
  for (const auto& [key, c] : counts) {
    const auto& [game, lo, hi] = key;
    if (lo != std::min(a, b) || hi != std::max(a, b)) continue;
    const auto& p = c.pairs;
    auto& q = out.pairs;
    q.ll += a_low ? p.ll : p.ww;
    q.ld += a_low ? p.ld : p.wd;
    q.wl += p.wl;
    q.dd += p.dd;
    q.wd += a_low ? p.wd : p.ld;
    q.ww += a_low ? p.ww : p.ll;
    out.unpaired += c.unpaired;
  }
  return out;
}

PairCounts count_pairs(const std::vector<const storage::GameRecord*>& games) {
  PairCounts out;
  const Pairing pairing = pair_games(games);
  for (const auto& p : pairing.pairs) {
    const auto& [lo, hi] = std::minmax(p.first->players[0], p.first->players[1]);
    out[{p.first->game, lo, hi}].pairs.add(score_of(*p.first, lo), score_of(*p.second, lo));
  }
  for (const auto* g : pairing.unpaired) {
    const auto& [lo, hi] = std::minmax(g->players[0], g->players[1]);
    out[{g->game, lo, hi}].unpaired += 1;
  }
  return out;
}

Expected<PairCounts> count_pairs(storage::Store& store, const storage::GameQuery& query) {
  // Per (game, lo, hi) by index while streaming (one integer key: 21 bits each); by name at the
  // end.
  std::unordered_map<std::uint64_t, PairCount> counts;
  auto count_of = [&](std::uint32_t game, std::uint32_t lo, std::uint32_t hi) -> PairCount& {
    return counts[(std::uint64_t{game} << 42) | (std::uint64_t{lo} << 21) | hi];
  };
  PairMatcher<double> matcher;  // each waiting game as lo's score
  std::int64_t event_id = -1;
  auto forget_waiting = [&] {
    matcher.drain([&](const PairKey& k, double) { count_of(k.game, k.lo, k.hi).unpaired += 1; });
  };
  storage::TwoPlayerNames n;
  PairKey key;
  Status st = storage::for_each_two_player_result(
      store, query, n, [&](const storage::TwoPlayerResult& r) -> Status {
        if (r.engines[0] == r.engines[1]) return Ok{};
        if (std::max({r.game, r.engines[0], r.engines[1]}) >= (1u << 21))
          return Error{store.path() + ": more than 2^21 engines or game strings to count pairs of"};
        if (r.event_id != event_id) {
          forget_waiting();  // a tournament's games never pair with another's
          event_id = r.event_id;
        }
        const bool lo_first = n.engines[r.engines[0]] < n.engines[r.engines[1]];
        key.event_id = r.event_id;
        key.game = r.game;
        key.lo = r.engines[lo_first ? 0 : 1];
        key.hi = r.engines[lo_first ? 1 : 0];
        key.start_position = r.start_position;
        key.opening = r.opening;
        const double lo_score =
            lo_first ? score(r.ranks[0], r.ranks[1]) : score(r.ranks[1], r.ranks[0]);
        if (auto partner = matcher.offer(key, lo_first, lo_score))
          count_of(key.game, key.lo, key.hi).pairs.add(*partner, lo_score);
        return Ok{};
      });
  if (!st) return st.failure();
  forget_waiting();
  PairCounts out;
  for (const auto& [k, c] : counts) {
    const auto mask = (std::uint64_t{1} << 21) - 1;
    out[{n.games[k >> 42], n.engines[(k >> 21) & mask], n.engines[k & mask]}] = c;
  }
  return out;
}

}  // namespace referee::ratings
