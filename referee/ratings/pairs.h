// Which stored games form a pair: the two games of one opening with seats swapped between the
// same two engines (design.md §5: every opening is played by every seating). The one place that
// decides it (PairMatcher), so it can switch to a stored pair column later.
//
// Today the schedule puts the two games of a pair in consecutive slots of one tournament, but the
// slot alone does not say where a pair starts (a game's block of slots may start at an odd slot
// after a 3-player game), so the rule is on content: same tournament, same game string, same start
// position and opening, the same two engines in swapped seats. Within such a set, games are
// matched in slot order, each with the earliest unmatched game of the opposite seating. Two games
// of one opening with swapped seats are a valid pair whichever slots they came from, so a missing
// game never pairs games of different openings. Only two-player finished games are paired; the
// rest are unpaired.
//
// The rule needs the games of one set in slot order and nothing else, so it runs on a stream in
// schedule order (storage/pair_stream.h) holding only the games still waiting for a partner:
// count_pairs counts the pairs of a million games that way in bounded memory.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "ratings/pentanomial.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::ratings {

// A set of games that may pair: engines `lo` < `hi` by name, game string and engines interned
// by the caller, the opening as JSON text.
struct PairKey {
  std::int64_t event_id = -1;
  std::uint32_t game = 0, lo = 0, hi = 0;
  std::string start_position, opening;
  bool operator==(const PairKey&) const = default;
};

struct PairKeyHash {
  std::size_t operator()(const PairKey& k) const;
};

// The rule, one game at a time: games of one key must be offered in slot order (then id).
template <class T>
class PairMatcher {
 public:
  // `lo_first`: the game's first seat is the key's `lo` engine. Returns the partner (the earlier
  // game) when this game completes a pair; otherwise the game waits.
  std::optional<T> offer(const PairKey& key, bool lo_first, T game) {
    auto [it, fresh] = waiting_.try_emplace(key);
    Queue& q = it->second;
    if (q.head < q.games.size() && q.lo_first != lo_first) {
      T partner = std::move(q.games[q.head++]);
      if (q.head == q.games.size()) waiting_.erase(it);
      return partner;
    }
    q.lo_first = lo_first;
    q.games.push_back(std::move(game));
    return std::nullopt;
  }
  // The games left waiting (unpaired), then forgotten.
  template <class F>
  void drain(F&& unpaired) {
    for (auto& [key, q] : waiting_)
      for (std::size_t k = q.head; k < q.games.size(); ++k) unpaired(key, q.games[k]);
    waiting_.clear();
  }

 private:
  struct Queue {
    bool lo_first = false;  // the seating of every waiting game (one seating waits at a time)
    std::size_t head = 0;
    std::vector<T> games;
  };
  std::unordered_map<PairKey, Queue, PairKeyHash> waiting_;
};

struct GamePair {
  const storage::GameRecord* first;  // the earlier slot
  const storage::GameRecord* second;
};

struct Pairing {
  std::vector<GamePair> pairs;                       // in the order they were completed
  std::vector<const storage::GameRecord*> unpaired;  // two-player games without a partner
};

Pairing pair_games(const std::vector<const storage::GameRecord*>& games);

// A two-player game's score for `engine`: 1, ½ or 0 (the game must have both ranks).
double score_of(const storage::GameRecord& game, const std::string& engine);

// Game pairs counted per stored game string and two engines `lo` < `hi` (by name), from lo's
// side, with the two-player games between them that have no partner.
struct PairCount {
  Pentanomial pairs;
  int unpaired = 0;
};
using PairCounts = std::map<std::tuple<std::string, std::string, std::string>, PairCount>;

// The pairs between engines a and b over every game string, from a's side.
PairCount pairs_between(const PairCounts& counts, const std::string& a, const std::string& b);

// From records (any order).
PairCounts count_pairs(const std::vector<const storage::GameRecord*>& games);
// From the database, streamed: memory grows with the games waiting for a partner within one
// tournament, not with the number of games.
Expected<PairCounts> count_pairs(storage::Store& store, const storage::GameQuery& query);

}  // namespace referee::ratings
