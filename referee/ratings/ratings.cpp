#include "ratings/ratings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "ratings/elo_fit.h"
#include "ratings/result_graph.h"
#include "ratings/stats_math.h"
#include "storage/name_ids.h"

namespace referee::ratings {

using storage::intern;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One pairwise result with global engine indices.
struct Result {
  std::size_t i, j;
  int variant;
  int seat_i, seat_j;  // 0-based seats
  double score;        // i's
  std::size_t game;
  double weight;  // identical games counted once
};

struct Variant {
  std::string name;
  int players;
};

struct Prepared {
  std::vector<std::string> names;
  std::vector<Rating> tallies;
  std::vector<Variant> variants;
  std::vector<Result> results;
};

Prepared prepare(const GameTallies& t) {
  Prepared p;
  // Engines of the games that count, by name (the order ties are shown in).
  std::vector<std::size_t> index(t.engines.size(), t.engines.size());
  {
    std::vector<bool> used(t.engines.size(), false);
    for (const auto& g : t.games)
      if (g.players >= 2)
        for (std::uint32_t s = 0; s < g.players; ++s) used[g.engines[s]] = true;
    std::vector<std::size_t> order;
    for (std::size_t e = 0; e < used.size(); ++e)
      if (used[e]) order.push_back(e);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return t.engines[a] < t.engines[b]; });
    for (std::size_t e : order) {
      index[e] = p.names.size();
      p.names.push_back(t.engines[e]);
      Rating r;
      r.name = t.engines[e];
      p.tallies.push_back(r);
    }
  }
  std::size_t pairs = 0;
  for (const auto& g : t.games) pairs += g.players * (g.players - 1) / 2;
  p.results.reserve(pairs);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> variant_ids;
  for (std::size_t k = 0; k < t.games.size(); ++k) {
    const auto& g = t.games[k];
    if (g.players < 2) continue;
    auto [it, fresh] =
        variant_ids.emplace(std::pair{g.variant, g.players}, static_cast<int>(p.variants.size()));
    if (fresh) p.variants.push_back({t.variants[g.variant], static_cast<int>(g.players)});
    const auto weight = static_cast<double>(g.count);
    for (std::uint32_t a = 0; a < g.players; ++a)
      for (std::uint32_t b = a + 1; b < g.players; ++b) {
        const std::size_t i = index[g.engines[a]], j = index[g.engines[b]];
        if (i == j) continue;
        const double s = g.ranks[a] < g.ranks[b] ? 1.0 : g.ranks[a] > g.ranks[b] ? 0.0 : 0.5;
        p.results.push_back(
            {i, j, it->second, static_cast<int>(a), static_cast<int>(b), s, k, weight});
        for (auto [e, score] : {std::pair{i, s}, std::pair{j, 1 - s}}) {
          Rating& r = p.tallies[e];
          r.games += static_cast<int>(g.count);
          (score == 1.0 ? r.wins : score == 0.0 ? r.losses : r.draws) += weight;
        }
      }
  }
  for (auto& r : p.tallies) r.score = r.games ? (r.wins + r.draws / 2) / r.games : 0;
  return p;
}

void unique_sorted(std::vector<std::size_t>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

// A group's fit before the anchor is applied.
struct GroupFit {
  RatingGroup group;
  std::vector<int> cov_index;  // by entry of group.ratings: row in `covariance`, -1 if not finite
  std::vector<std::size_t> tier;  // by entry: rank of its strongly connected component
  Matrix covariance;
  double z = 0;
};

// Picks the main set among strongly connected components: most engines, then most results inside,
// then the one nearest the middle of the ranking (so that bounds go both ways and say the most),
// then the weaker (a lone winner over one loser is shown as a lower bound).
std::size_t pick_main(const std::vector<std::vector<std::size_t>>& components,
                      const std::vector<std::size_t>& ranks, const std::vector<double>& inside) {
  const auto last = static_cast<long>(components.size()) - 1;
  auto key = [&](std::size_t k) {
    const long off_middle = std::labs(2 * static_cast<long>(ranks[k]) - last);
    return std::make_tuple(components[k].size(), inside[k], -off_middle, ranks[k]);
  };
  std::size_t best = 0;
  for (std::size_t c = 1; c < components.size(); ++c)
    if (key(c) > key(best)) best = c;
  return best;
}

GroupFit rate_group(const std::vector<std::size_t>& members, const Prepared& p,
                    const RatingOptions& options) {
  GroupFit out;
  out.z = two_sided_z(options.confidence);
  const std::size_t n_all = p.names.size();
  std::vector<int> local(n_all, -1);
  for (std::size_t k = 0; k < members.size(); ++k) local[members[k]] = static_cast<int>(k);
  // This group's results as indices into p.results (no copies: there may be millions), read
  // through `at`, which renumbers the engines locally.
  std::vector<std::size_t> mine;
  for (std::size_t k = 0; k < p.results.size(); ++k)
    if (local[p.results[k].i] >= 0) mine.push_back(k);
  auto at = [&](std::size_t k) {
    Result r = p.results[k];
    r.i = static_cast<std::size_t>(local[r.i]);
    r.j = static_cast<std::size_t>(local[r.j]);
    return r;
  };
  const std::size_t m = members.size();

  // The main set: all engines with a prior, else the chosen strongly connected component.
  std::vector<bool> in_main(m, true);
  std::vector<std::size_t> tier(m, 0);
  if (options.prior_draws <= 0) {
    Adjacency graph(m);
    for (std::size_t k : mine) {
      const Result r = at(k);
      if (r.score > 0) graph[r.i].push_back(r.j);
      if (r.score < 1) graph[r.j].push_back(r.i);
    }
    for (auto& list : graph) unique_sorted(list);
    auto components = strong_components(graph);
    if (components.size() > 1) {
      std::vector<int> component_of(m, 0);
      for (std::size_t c = 0; c < components.size(); ++c)
        for (std::size_t v : components[c]) component_of[v] = static_cast<int>(c);
      const auto ranks = component_ranks(graph, components);
      std::vector<double> inside(components.size(), 0);
      for (std::size_t k : mine) {
        const Result r = at(k);
        if (component_of[r.i] == component_of[r.j])
          inside[static_cast<std::size_t>(component_of[r.i])] += r.weight;
      }
      const std::size_t main = pick_main(components, ranks, inside);
      for (std::size_t v = 0; v < m; ++v) {
        in_main[v] = component_of[v] == static_cast<int>(main);
        tier[v] = ranks[static_cast<std::size_t>(component_of[v])];
      }
    }
  }
  std::vector<std::size_t> main_index(m, 0);
  std::vector<std::size_t> main_members;
  for (std::size_t v = 0; v < m; ++v)
    if (in_main[v]) {
      main_index[v] = main_members.size();
      main_members.push_back(v);
    }
  std::vector<std::size_t> main_results;
  for (std::size_t k : mine) {
    const Result r = at(k);
    if (in_main[r.i] && in_main[r.j]) main_results.push_back(k);
  }

  // Seat parameters per variant, when no seat scored all or none of the points against another.
  std::vector<int> seat_base(p.variants.size(), -1);
  std::size_t seat_params = 0;
  if (options.fit_seats) {
    std::map<std::tuple<int, int, int>, std::pair<double, double>> by_seats;  // points, games
    std::set<int> present;
    for (std::size_t k : main_results) {
      const Result r = at(k);
      auto& cell = by_seats[{r.variant, r.seat_i, r.seat_j}];
      cell.first += r.score * r.weight;
      cell.second += r.weight;
      present.insert(r.variant);
    }
    std::set<int> unbounded;
    for (const auto& [key, cell] : by_seats) {
      const int v = std::get<0>(key);
      if (cell.first == 0 || cell.first == cell.second) {
        if (unbounded.insert(v).second)
          out.group.seat_notes.push_back(
              p.variants[static_cast<std::size_t>(v)].name + ": seat " +
              std::to_string((cell.first == 0 ? std::get<2>(key) : std::get<1>(key)) + 1) +
              " scored every point against seat " +
              std::to_string((cell.first == 0 ? std::get<1>(key) : std::get<2>(key)) + 1) +
              ": the seat advantage is unbounded and not fitted");
      }
    }
    for (int v : present)
      if (!unbounded.count(v)) {
        seat_base[static_cast<std::size_t>(v)] = static_cast<int>(seat_params);
        seat_params +=
            static_cast<std::size_t>(p.variants[static_cast<std::size_t>(v)].players - 1);
      }
  }

  auto problem_with = [&](bool seats) {
    FitProblem problem;
    problem.engines = main_members.size();
    problem.seat_params = seats ? seat_params : 0;
    problem.prior_draws = options.prior_draws;
    problem.results.reserve(main_results.size());
    for (std::size_t k : main_results) {
      const Result r = at(k);
      PairResult pr;
      pr.i = main_index[r.i];
      pr.j = main_index[r.j];
      const int base = seats ? seat_base[static_cast<std::size_t>(r.variant)] : -1;
      pr.seat_i = base >= 0 && r.seat_i > 0 ? base + r.seat_i - 1 : -1;
      pr.seat_j = base >= 0 && r.seat_j > 0 ? base + r.seat_j - 1 : -1;
      pr.score = r.score;
      pr.game = r.game;
      pr.weight = r.weight;
      problem.results.push_back(pr);
    }
    return problem;
  };
  FitProblem problem = problem_with(seat_params > 0);
  FitResult fit = fit_ratings(problem);
  if (!fit.ok && seat_params > 0) {
    for (std::size_t v = 0; v < seat_base.size(); ++v)
      if (seat_base[v] >= 0)
        out.group.seat_notes.push_back(p.variants[v].name +
                                       ": the seat advantage is not identifiable from these "
                                       "games (engines and seats confounded) and not fitted");
    std::fill(seat_base.begin(), seat_base.end(), -1);
    seat_params = 0;
    problem = problem_with(false);
    fit = fit_ratings(problem);
  }
  const std::size_t mm = main_members.size();
  if (!fit.ok) {  // numerically hopeless: report zeros with unknown errors
    fit.elo.assign(mm, 0.0);
    fit.covariance = zeros(mm, mm);
    for (auto& row : fit.covariance) std::fill(row.begin(), row.end(), kNaN);
  }
  out.group.robust = fit.robust;
  out.covariance = fit.covariance;

  // Seat effects, relative to the average seat.
  for (std::size_t v = 0; v < seat_base.size(); ++v) {
    if (seat_base[v] < 0) continue;
    const int k = p.variants[v].players;
    const std::size_t base = mm + static_cast<std::size_t>(seat_base[v]);
    auto variance = [&](const std::vector<double>& coeff) {  // coeff over seats 2..k
      double var = 0;
      for (int a = 0; a < k - 1; ++a)
        for (int b = 0; b < k - 1; ++b)
          var += coeff[static_cast<std::size_t>(a)] * coeff[static_cast<std::size_t>(b)] *
                 fit.covariance[base + static_cast<std::size_t>(a)]
                               [base + static_cast<std::size_t>(b)];
      return std::max(0.0, var);
    };
    SeatEffect effect;
    effect.variant = p.variants[v].name;
    std::vector<double> w(static_cast<std::size_t>(k), 0.0);
    for (int s = 1; s < k; ++s)
      w[static_cast<std::size_t>(s)] = fit.seat[static_cast<std::size_t>(seat_base[v] + s - 1)];
    double mean = 0;
    for (double x : w) mean += x / k;
    for (int s = 0; s < k; ++s) {
      std::vector<double> coeff(static_cast<std::size_t>(k - 1), -1.0 / k);
      if (s > 0) coeff[static_cast<std::size_t>(s - 1)] += 1;
      effect.elo.push_back(w[static_cast<std::size_t>(s)] - mean);
      effect.error.push_back(out.z * std::sqrt(variance(coeff)));
    }
    std::vector<double> first(static_cast<std::size_t>(k - 1), 0.0);
    first[0] = -1;
    effect.first = -w[1];
    effect.first_error = out.z * std::sqrt(variance(first));
    out.group.seats.push_back(std::move(effect));
  }

  // Draws between the main set's engines, against the fitted expected scores.
  {
    // One cell per engine pair and seating (they share the expected score), by sorting.
    std::vector<std::size_t> order(problem.results.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto key = [&](std::size_t k) {
      const auto& r = problem.results[k];
      return std::tie(r.i, r.j, r.seat_i, r.seat_j);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<DrawCell> list;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const auto& pr = problem.results[order[k]];
      if (k == 0 || key(order[k - 1]) != key(order[k])) {
        list.push_back({});
        list.back().expected = fit.ok ? expected_score(fit, pr) : 0.5;
      }
      auto& cell = list.back();
      (pr.score == 1 ? cell.wins : pr.score == 0 ? cell.losses : cell.draws) += pr.weight;
    }
    out.group.draws = estimate_draws(list, options.confidence);
  }

  // Entries: finite ratings for the main set, bounds for the rest.
  const double tail = std::log((1 - options.confidence) / 2);
  std::vector<std::vector<std::size_t>> against_main(m);  // results of outsiders against it
  for (std::size_t k : mine) {
    const Result r = at(k);
    if (in_main[r.i] != in_main[r.j]) against_main[in_main[r.i] ? r.j : r.i].push_back(k);
  }
  for (std::size_t v = 0; v < m; ++v) {
    Rating r = p.tallies[members[v]];
    int cov = -1;
    if (in_main[v]) {
      r.bound = Bound::kNone;
      r.elo = fit.elo[main_index[v]];
      cov = static_cast<int>(main_index[v]);
    } else {
      // Logit offsets of v's results against the main set, and whether v won or lost them all.
      std::vector<std::pair<double, double>> offsets;  // (offset, weight)
      bool all_won = true, all_lost = true;
      for (std::size_t k : against_main[v]) {
        const Result res = at(k);
        const bool v_first = res.i == v;
        const std::size_t other = v_first ? res.j : res.i;
        const int seat_v = v_first ? res.seat_i : res.seat_j;
        const int seat_o = v_first ? res.seat_j : res.seat_i;
        const double score = v_first ? res.score : 1 - res.score;
        double offset = -fit.elo[main_index[other]];
        const int base = seat_base[static_cast<std::size_t>(res.variant)];
        if (base >= 0) {
          if (seat_v > 0) offset += fit.seat[static_cast<std::size_t>(base + seat_v - 1)];
          if (seat_o > 0) offset -= fit.seat[static_cast<std::size_t>(base + seat_o - 1)];
        }
        offsets.push_back({offset, res.weight});
        all_won = all_won && score == 1;
        all_lost = all_lost && score == 0;
      }
      if (offsets.empty() || (!all_won && !all_lost)) {
        r.bound = Bound::kUnrated;
      } else {
        const double sign = all_won ? 1 : -1;
        auto f = [&](double x) {
          double sum = 0;
          for (auto [o, w] : offsets) sum += w * log_sigmoid(sign * kLogitPerElo * (x + o));
          return sum - tail;
        };
        r.bound = all_won ? Bound::kLower : Bound::kUpper;
        r.elo = bisect(f, -1e6, 1e6);
      }
    }
    r.los = kNaN;
    out.group.ratings.push_back(r);
    out.cov_index.push_back(cov);
    out.tier.push_back(tier[v]);
  }
  return out;
}

int category(Bound b) {
  switch (b) {
    case Bound::kLower:
      return 0;
    case Bound::kNone:
      return 1;
    case Bound::kUpper:
      return 2;
    default:
      return 3;
  }
}

// Fills `shown` and `reference` of ratings sorted as a table shows them: lower bounds, finite
// ratings, upper bounds, unrated. A lower bound is shown at least as high as the row below it and
// an upper bound at most as low as the row above: the bound stays true (the rating is beyond the
// engines it beat or lost to) and the figures follow the ranks.
void show_in_rank_order(std::vector<Rating>& sorted) {
  const std::size_t n = sorted.size();
  int finite = 0;
  for (auto& r : sorted) {
    r.shown = r.elo;
    finite += r.bound == Bound::kNone;
  }
  for (auto& r : sorted) r.reference = r.bound == Bound::kNone && finite == 1;
  for (std::size_t k = n; k-- > 0;)
    if (sorted[k].bound == Bound::kLower && k + 1 < n && sorted[k + 1].bound != Bound::kUnrated)
      sorted[k].shown = std::max(sorted[k].elo, sorted[k + 1].shown);
  for (std::size_t k = 1; k < n; ++k)
    if (sorted[k].bound == Bound::kUpper && sorted[k - 1].bound != Bound::kUnrated)
      sorted[k].shown = std::min(sorted[k].elo, sorted[k - 1].shown);
}

// Shifts, sorts and fills errors and LOS; `anchor` is the index in ratings of the anchor or -1.
void finish(GroupFit& g, double shift, int anchor) {
  auto& ratings = g.group.ratings;
  const Matrix& c = g.covariance;
  std::vector<std::size_t> order(ratings.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  for (auto& r : ratings)
    if (r.bound != Bound::kUnrated) r.elo += shift;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Rating &x = ratings[a], &y = ratings[b];
    if (category(x.bound) != category(y.bound)) return category(x.bound) < category(y.bound);
    // Bounds in the order of their sets (a set that won every game against another is above it,
    // whatever the bounds say), then by value.
    if (x.bound != Bound::kNone && g.tier[a] != g.tier[b]) return g.tier[a] < g.tier[b];
    if (x.bound != Bound::kUnrated && x.elo != y.elo) return x.elo > y.elo;
    return x.name < y.name;
  });
  const int ca = anchor >= 0 ? g.cov_index[static_cast<std::size_t>(anchor)] : -1;
  std::vector<Rating> sorted;
  std::vector<int> index;
  for (std::size_t k : order) {
    Rating r = ratings[k];
    const int ci = g.cov_index[k];
    if (ci >= 0) {
      const auto i = static_cast<std::size_t>(ci);
      double var = c[i][i];
      if (ca >= 0) {
        const auto a = static_cast<std::size_t>(ca);
        var = c[i][i] - 2 * c[i][a] + c[a][a];
      }
      r.error = g.z * std::sqrt(std::max(0.0, var));
    } else {
      r.error = kNaN;
    }
    sorted.push_back(r);
    index.push_back(ci);
  }
  const std::size_t n = sorted.size();
  g.group.los.assign(n, std::vector<double>(n, kNaN));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b || index[a] < 0 || index[b] < 0) continue;
      const auto i = static_cast<std::size_t>(index[a]), j = static_cast<std::size_t>(index[b]);
      const double var = c[i][i] + c[j][j] - 2 * c[i][j];
      const double diff = sorted[a].elo - sorted[b].elo;
      g.group.los[a][b] = var > 0    ? normal_cdf(diff / std::sqrt(var))
                          : diff > 0 ? 1.0
                          : diff < 0 ? 0.0
                                     : 0.5;
    }
  for (std::size_t a = 0; a + 1 < n; ++a) sorted[a].los = g.group.los[a][a + 1];
  show_in_rank_order(sorted);
  double sum = 0;
  int finite = 0;
  for (const auto& r : sorted)
    if (r.bound == Bound::kNone) {
      sum += r.elo;
      ++finite;
    }
  g.group.average = finite ? sum / finite : shift;
  g.group.ratings = std::move(sorted);
}

}  // namespace

RatingTable rate(const std::vector<RatedGame>& games, const RatingOptions& options) {
  GameTallies t;
  std::map<std::string, std::uint32_t> engines, variants;
  for (const auto& g : games) {
    if (g.ranks.size() != g.players.size() || g.players.size() > GameTallies::kMaxSeats) continue;
    GameTallies::Entry e;
    e.variant = intern(variants, t.variants, g.variant);
    e.players = static_cast<std::uint32_t>(g.players.size());
    for (std::size_t s = 0; s < g.players.size(); ++s) {
      e.engines[s] = intern(engines, t.engines, g.players[s]);
      e.ranks[s] = static_cast<std::uint8_t>(std::clamp(g.ranks[s], 0, 255));
    }
    t.games.push_back(e);
  }
  return rate(t, options);
}

RatingTable rate(const GameTallies& games, const RatingOptions& options) {
  RatingTable table;
  const Prepared p = prepare(games);
  if (p.names.empty()) return table;
  Adjacency played(p.names.size());
  {
    for (const auto& r : p.results) {
      played[r.i].push_back(r.j);
      played[r.j].push_back(r.i);
    }
    for (auto& list : played) unique_sorted(list);
  }
  std::vector<GroupFit> fits;
  for (const auto& members : connected_components(played))
    fits.push_back(rate_group(members, p, options));
  std::stable_sort(fits.begin(), fits.end(), [](const GroupFit& a, const GroupFit& b) {
    return a.group.ratings.size() > b.group.ratings.size();
  });

  // The anchor's group first, so the others can be centred on its average.
  double reference = 0;
  std::vector<bool> done(fits.size(), false);
  if (!options.anchor.empty()) {
    for (std::size_t f = 0; f < fits.size(); ++f) {
      auto& ratings = fits[f].group.ratings;
      for (std::size_t k = 0; k < ratings.size(); ++k) {
        if (ratings[k].name != options.anchor || fits[f].cov_index[k] < 0) continue;
        finish(fits[f], options.anchor_elo - ratings[k].elo, static_cast<int>(k));
        fits[f].group.anchored = true;
        reference = fits[f].group.average;
        done[f] = true;
      }
    }
  }
  for (std::size_t f = 0; f < fits.size(); ++f)
    if (!done[f]) finish(fits[f], reference, -1);
  for (auto& f : fits) table.groups.push_back(std::move(f.group));
  return table;
}

}  // namespace referee::ratings
