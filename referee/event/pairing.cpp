#include "event/pairing.h"

#include <algorithm>
#include <set>

namespace referee::event {

// ---- Knockout ----

std::vector<int> bracket_order(int size) {
  std::vector<int> order{0};
  while (static_cast<int>(order.size()) < size) {
    const int n = static_cast<int>(order.size()) * 2;
    std::vector<int> next;
    for (int s : order) {
      next.push_back(s);
      next.push_back(n - 1 - s);
    }
    order = std::move(next);
  }
  return order;
}

namespace {

void settle(KnockoutMatch& m, const KnockoutRules& rules, const MatchTallies& tallies) {
  if (m.seeds[0] > m.seeds[1]) std::swap(m.seeds[0], m.seeds[1]);
  if (auto it = tallies.find({m.round, m.seeds[0]}); it != tallies.end()) m.tally = it->second;
  const MatchTally& t = m.tally;
  m.state = MatchState::Playing;
  if (t.pairs_scheduled < rules.pairs || t.pairs_settled < t.pairs_scheduled) return;
  if (t.points[0] != t.points[1]) {
    m.winner = t.points[0] > t.points[1] ? m.seeds[0] : m.seeds[1];
  } else {
    if (t.pairs_scheduled < rules.pairs + rules.tiebreak_pairs) return;
    m.winner = m.seeds[0];
    m.by_seed = true;
  }
  m.state = MatchState::Decided;
}

}  // namespace

Bracket knockout_bracket(int field, const KnockoutRules& rules, const MatchTallies& tallies) {
  Bracket b;
  b.field = field;
  b.size = 1;
  while (b.size < field) b.size *= 2;
  const std::vector<int> order = bracket_order(b.size);
  // Round 1 from the seeds (a seed >= field is a bye); each later round from the winners.
  std::vector<int> sides;
  sides.reserve(order.size());
  for (int s : order) sides.push_back(s >= field ? -2 : s);  // -2: a bye
  for (int round = 1; sides.size() >= 2; ++round) {
    std::vector<KnockoutMatch> matches;
    std::vector<int> winners;
    for (std::size_t p = 0; p < sides.size() / 2; ++p) {
      KnockoutMatch m;
      m.round = round;
      m.position = static_cast<int>(p);
      const int x = sides[2 * p], y = sides[2 * p + 1];
      if (x == -2 || y == -2) {
        m.state = MatchState::Bye;
        m.seeds[0] = std::max(x, y);
        m.winner = m.seeds[0];
      } else if (x >= 0 && y >= 0) {
        m.seeds[0] = x;
        m.seeds[1] = y;
        settle(m, rules, tallies);
      } else {
        m.seeds[0] = std::max(x, y) >= 0 ? std::max(x, y) : -1;
      }
      winners.push_back(m.winner);
      matches.push_back(m);
    }
    b.rounds.push_back(std::move(matches));
    sides.swap(winners);
  }
  if (field == 1)
    b.champion = 0;
  else if (!b.rounds.empty())
    b.champion = b.rounds.back().front().winner;
  return b;
}

std::vector<PairsWanted> knockout_wanted(const Bracket& bracket, const KnockoutRules& rules) {
  std::vector<PairsWanted> out;
  for (const auto& round : bracket.rounds)
    for (const auto& m : round) {
      if (m.state != MatchState::Playing) continue;
      const MatchTally& t = m.tally;
      PairsWanted w;
      w.round = m.round;
      w.position = m.position;
      w.seeds[0] = m.seeds[0];
      w.seeds[1] = m.seeds[1];
      w.first_pair = t.pairs_scheduled;
      if (t.pairs_scheduled < rules.pairs)
        w.count = rules.pairs - t.pairs_scheduled;
      else if (t.pairs_settled == t.pairs_scheduled)
        w.count = 1;  // tied (settle() leaves it Playing only then): one tie-break pair
      if (w.count > 0) out.push_back(w);
    }
  return out;
}

// ---- Swiss ----

std::pair<double, double> match_points(const SwissResult& r) {
  if (r.points_a > r.points_b) return {1, 0};
  if (r.points_a < r.points_b) return {0, 1};
  return {0.5, 0.5};
}

namespace {

struct History {
  std::vector<double> score;
  std::vector<int> byes;
  std::set<std::pair<int, int>> met;  // (lower, higher) player numbers
  bool have_met(int a, int b) const { return met.count({std::min(a, b), std::max(a, b)}) > 0; }
};

History history_of(int field, const std::vector<SwissRoundPlayed>& played) {
  History h;
  h.score.assign(static_cast<std::size_t>(field), 0);
  h.byes.assign(static_cast<std::size_t>(field), 0);
  for (const auto& round : played) {
    for (const auto& p : round.pairings) {
      const auto [pa, pb] = match_points(p);
      h.score[static_cast<std::size_t>(p.a)] += pa;
      h.score[static_cast<std::size_t>(p.b)] += pb;
      h.met.insert({std::min(p.a, p.b), std::max(p.a, p.b)});
    }
    if (round.bye >= 0) {
      h.score[static_cast<std::size_t>(round.bye)] += 1;
      ++h.byes[static_cast<std::size_t>(round.bye)];
    }
  }
  return h;
}

// The backtracking search of the Dutch pairing over score groups (see the header). Its work is
// bounded: past kBudget steps it gives up, and the caller allows rematches.
class DutchSearch {
 public:
  static constexpr long kBudget = 2'000'000;

  DutchSearch(const History& h, bool allow_rematch) : h_(h), allow_rematch_(allow_rematch) {}

  // `players` in ranking order, an even number of them.
  bool pair(const std::vector<int>& players, std::vector<std::pair<int, int>>& out) {
    groups_.clear();
    for (int p : players) {
      if (groups_.empty() || h_.score[static_cast<std::size_t>(p)] !=
                                 h_.score[static_cast<std::size_t>(groups_.back().front())])
        groups_.emplace_back();
      groups_.back().push_back(p);
    }
    out.clear();
    steps_ = 0;
    return bracket(0, {}, out);
  }

 private:
  bool ok(int a, int b) const { return allow_rematch_ || !h_.have_met(a, b); }

  bool bracket(std::size_t g, const std::vector<int>& floaters,
               std::vector<std::pair<int, int>>& out) {
    if (g == groups_.size()) return floaters.empty();
    std::vector<int> b = floaters;
    b.insert(b.end(), groups_[g].begin(), groups_[g].end());
    const int n = static_cast<int>(b.size());
    const bool last = g + 1 == groups_.size();
    // As many pairs as the bracket holds first; fewer (more floaters) only when that fails.
    for (int p = n / 2; p >= (last ? n / 2 : 0); --p) {
      BracketState br{g, b, p, std::vector<Seat>(b.size(), Seat::Free)};
      const std::size_t mark = out.size();
      if (match(br, n - 2 * p, out)) return true;
      out.resize(mark);
      if (steps_ > kBudget) return false;
    }
    return false;
  }

  enum class Seat { Free, Paired, Floats };
  struct BracketState {
    std::size_t group;
    std::vector<int> players;  // in ranking order
    int half;                  // p: S1 is players[0, p), S2 the rest
    std::vector<Seat> seats;
  };

  // The first free player (the highest-ranked) takes a partner, in the order of preference: an
  // S1 player the S2 players in order, then the S1 players below it (an exchange between the
  // halves); an S2 player those below it. So the first pairings tried are S1[i] - S2[i], then
  // S2's permutations in lexicographic order (the top pairings change last). It floats down
  // only when no partner works; once the free players are as many as the floats allowed, they
  // float (the lowest-ranked), and the lower brackets are paired with them.
  bool match(BracketState& br, int floats_left, std::vector<std::pair<int, int>>& out) {
    if (++steps_ > kBudget) return false;
    const int n = static_cast<int>(br.players.size());
    int u = -1, free = 0;
    for (int i = 0; i < n; ++i)
      if (br.seats[static_cast<std::size_t>(i)] == Seat::Free) {
        if (u < 0) u = i;
        ++free;
      }
    if (free == floats_left) {
      std::vector<int> down;
      for (int i = 0; i < n; ++i)
        if (br.seats[static_cast<std::size_t>(i)] != Seat::Paired)
          down.push_back(br.players[static_cast<std::size_t>(i)]);
      return bracket(br.group + 1, down, out);
    }
    auto seat = [&](int i) -> Seat& { return br.seats[static_cast<std::size_t>(i)]; };
    auto player = [&](int i) { return br.players[static_cast<std::size_t>(i)]; };
    seat(u) = Seat::Paired;
    std::vector<int> order;
    if (u < br.half) {
      for (int j = br.half; j < n; ++j) order.push_back(j);
      for (int j = u + 1; j < br.half; ++j) order.push_back(j);
    } else {
      for (int j = u + 1; j < n; ++j) order.push_back(j);
    }
    for (int j : order) {
      if (seat(j) != Seat::Free || !ok(player(u), player(j))) continue;
      seat(j) = Seat::Paired;
      out.emplace_back(player(u), player(j));
      if (match(br, floats_left, out)) return true;
      out.pop_back();
      seat(j) = Seat::Free;
      if (steps_ > kBudget) break;
    }
    seat(u) = Seat::Free;
    if (floats_left == 0 || steps_ > kBudget) return false;
    seat(u) = Seat::Floats;
    if (match(br, floats_left - 1, out)) return true;
    seat(u) = Seat::Free;
    return false;
  }

  const History& h_;
  bool allow_rematch_;
  std::vector<std::vector<int>> groups_;
  long steps_ = 0;
};

}  // namespace

SwissRoundPlan swiss_pairing(int field, const std::vector<SwissRoundPlayed>& played) {
  const History h = history_of(field, played);
  std::vector<int> ranked(static_cast<std::size_t>(field));
  for (int i = 0; i < field; ++i) ranked[static_cast<std::size_t>(i)] = i;
  std::stable_sort(ranked.begin(), ranked.end(), [&](int a, int b) {
    return h.score[static_cast<std::size_t>(a)] > h.score[static_cast<std::size_t>(b)];
  });
  // Bye candidates: those with the fewest byes (a second bye to nobody while another has none,
  // rematch or not), from the bottom of the ranking up.
  std::vector<int> bye_candidates;
  if (field % 2 == 1) {
    const int fewest = *std::min_element(h.byes.begin(), h.byes.end());
    for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
      if (h.byes[static_cast<std::size_t>(*it)] == fewest) bye_candidates.push_back(*it);
  } else {
    bye_candidates.push_back(-1);
  }
  SwissRoundPlan plan;
  for (bool allow_rematch : {false, true}) {
    DutchSearch search(h, allow_rematch);
    for (int bye : bye_candidates) {
      std::vector<int> rest;
      for (int p : ranked)
        if (p != bye) rest.push_back(p);
      if (!search.pair(rest, plan.pairings)) continue;
      plan.bye = bye;
      for (const auto& [a, b] : plan.pairings) plan.rematches += h.have_met(a, b);
      // Board order: by the ranking of each pairing's first (higher-ranked) player.
      std::vector<int> rank(static_cast<std::size_t>(field));
      for (std::size_t i = 0; i < ranked.size(); ++i)
        rank[static_cast<std::size_t>(ranked[i])] = static_cast<int>(i);
      std::sort(plan.pairings.begin(), plan.pairings.end(), [&](const auto& x, const auto& y) {
        return rank[static_cast<std::size_t>(x.first)] < rank[static_cast<std::size_t>(y.first)];
      });
      return plan;
    }
  }
  return plan;  // not reached: with rematches allowed the first try pairs everyone
}

std::vector<SwissStanding> swiss_standings(int field, const std::vector<SwissRoundPlayed>& played) {
  const History h = history_of(field, played);
  std::vector<SwissStanding> out(static_cast<std::size_t>(field));
  for (int i = 0; i < field; ++i) {
    auto& s = out[static_cast<std::size_t>(i)];
    s.player = i;
    s.score = h.score[static_cast<std::size_t>(i)];
    s.byes = h.byes[static_cast<std::size_t>(i)];
  }
  for (const auto& round : played)
    for (const auto& p : round.pairings) {
      const auto [pa, pb] = match_points(p);
      auto& a = out[static_cast<std::size_t>(p.a)];
      auto& b = out[static_cast<std::size_t>(p.b)];
      const double sa = h.score[static_cast<std::size_t>(p.a)],
                   sb = h.score[static_cast<std::size_t>(p.b)];
      a.buchholz += sb;
      b.buchholz += sa;
      a.sonneborn_berger += pa * sb;
      b.sonneborn_berger += pb * sa;
      a.game_points += p.points_a;
      b.game_points += p.points_b;
    }
  std::stable_sort(out.begin(), out.end(), [](const SwissStanding& x, const SwissStanding& y) {
    if (x.score != y.score) return x.score > y.score;
    if (x.buchholz != y.buchholz) return x.buchholz > y.buchholz;
    return x.sonneborn_berger > y.sonneborn_berger;
  });
  return out;
}

}  // namespace referee::event
