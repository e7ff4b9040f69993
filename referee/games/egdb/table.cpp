#include "games/egdb/table.h"

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include "base/text.h"
#include "games/egdb/table_file.h"

namespace referee::games::egdb {

namespace {

Expected<Model> model_of_key(const std::string& key, const std::string& path) {
  auto game = make_game(key);
  if (!game) return Error{path + ": the table's game '" + key + "' is not known: " + game.error()};
  auto m = model_for(*game);
  if (!m) return Error{path + ": " + m.error()};
  return m;
}

// "h1,...,h6/h7,...,h12:a,b:p", the position string of both families.
struct Parsed {
  Board holes{};
  std::array<int, 2> scored{};
  int mover = 1;
};

std::optional<Parsed> parse_position(const std::string& position) {
  Parsed p;
  auto parts = text::split(position, ':');
  if (parts.size() < 3) return std::nullopt;  // then the ply counters
  auto rows = text::split(parts[0], '/');
  auto scores = text::split(parts[1], ',');
  if (rows.size() != 2 || scores.size() != 2) return std::nullopt;
  for (std::size_t r = 0; r < 2; ++r) {
    auto counts = text::split(rows[r], ',');
    if (counts.size() != 6) return std::nullopt;
    for (std::size_t i = 0; i < 6; ++i) p.holes[r * 6 + i] = std::stoi(std::string(counts[i]));
  }
  for (std::size_t i = 0; i < 2; ++i) p.scored[i] = std::stoi(std::string(scores[i]));
  p.mover = parts[2] == "2" ? 2 : 1;
  return p;
}

// V(budget) of an awale position: the value when `budget` more plies without a capture end the
// game. The stored value where it settled at or before `budget`, else the iteration the solver
// made, redone from the position alone (memoised by index and budget): the positions a cycle
// keeps unsettled are few (EGDB.md).
int budget_value(const Table& t, const Pos& pos, int seeds, int budget,
                 std::unordered_map<std::uint64_t, int>& memo) {
  const Model& m = t.model();
  if (captured_out(m, pos)) return rows_value(pos.holes);
  const std::uint64_t index = index_of(m, pos, seeds);
  if (budget >= t.settled()[static_cast<std::size_t>(seeds)][index])
    return t.layers()[static_cast<std::size_t>(seeds)][index];
  if (budget <= 0) return rows_value(pos.holes);
  const std::uint64_t key = index * 256 + static_cast<std::uint64_t>(budget);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  std::vector<Child> kids;
  std::vector<int> scratch;
  children(m, pos, kids, scratch);
  int best = kids.empty() ? rows_value(pos.holes) : -1000;
  for (const Child& c : kids) {
    const int n = seeds_on(c.pos.holes);
    const int v = n == seeds ? budget_value(t, c.pos, n, budget - 1, memo)
                             : value_of(m, t.layers(), c.pos, n);
    best = std::max(best, c.gain - v);
  }
  memo.emplace(key, best);
  return best;
}

}  // namespace

Expected<Table> open_table(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open endgame table " + path, ErrorKind::NotFound};
  std::string head(kHeaderBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(kHeaderBytes));
  auto h = decode_header(in ? head : std::string(), path);
  if (!h) return h.failure();
  if (h->layers == 0) return Error{path + ": the table holds no finished layer"};
  auto m = model_of_key(h->game, path);
  if (!m) return m.failure();
  Layers layers;
  std::vector<Settled> settled;
  std::uint64_t sum = fnv1a(h->game.data(), h->game.size());
  for (int n = 0; n < h->layers; ++n) {
    Values v(m->layer_size(n));
    Settled k(m->layer_size(n));
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size()));
    in.read(reinterpret_cast<char*>(k.data()), static_cast<std::streamsize>(k.size()));
    if (!in)
      return Error{path + ": truncated (layer of " + std::to_string(n) + " seeds incomplete)"};
    sum = fnv1a(k.data(), k.size(), fnv1a(v.data(), v.size(), sum));
    layers.push_back(std::move(v));
    settled.push_back(std::move(k));
  }
  if (sum != h->checksum)
    return Error{path + ": checksum mismatch (header " + hex64(h->checksum) + ", data " +
                 hex64(sum) + "): the file is corrupted"};
  return Table(std::move(*m), std::move(layers), std::move(settled), sum,
               std::vector<int>(h->converged_at.begin(), h->converged_at.begin() + h->layers));
}

Expected<std::optional<Probe>> probe(const Table& table, const Game& game, const State& state) {
  auto m = model_for(game);
  if (!m) return m.failure();
  if (m->key != table.model().key)
    return Error{"the table is of '" + table.model().key + "', not of '" + m->key + "'"};
  if (state.is_terminal()) return std::optional<Probe>();
  auto parsed = parse_position(state.to_string());
  if (!parsed) return Error{"not a 2x6 position: " + state.to_string()};
  const int seeds = seeds_on(parsed->holes);
  if (seeds > table.seeds()) return std::optional<Probe>();
  const int mover = parsed->mover;
  const auto me = static_cast<std::size_t>(mover - 1);
  Pos pos{mover == 1 ? parsed->holes : turned(parsed->holes), 0, 0};
  if (m->family == Family::Awale) {
    pos.mine = parsed->scored[me];
    pos.theirs = parsed->scored[1 - me];
  }
  Probe p;
  p.mover = mover;
  // awale with a nocapture limit: the value for this counter, recomputed where needed, so both
  // value and moves are exact. kalaha: exact when no nocapture limit can end the game (EGDB.md).
  const bool budgeted = m->family == Family::Awale && m->nocapture > 0;
  std::unordered_map<std::uint64_t, int> memo;
  const int budget = std::max(0, m->nocapture - state.plies_without_capture());
  p.value = budgeted ? budget_value(table, pos, seeds, budget, memo)
                     : value_of(*m, table.layers(), pos, seeds);
  p.exact = budgeted || (m->family == Family::Kalaha && m->nocapture == 0);
  p.margin = parsed->scored[me] - parsed->scored[1 - me] + p.value;
  p.final_scores[me] = parsed->scored[me] + (seeds + p.value) / 2;
  p.final_scores[1 - me] = parsed->scored[1 - me] + (seeds - p.value) / 2;
  std::vector<Child> kids;
  std::vector<int> scratch;
  children(*m, pos, kids, scratch);
  int best = -1000;
  std::vector<int> values;
  for (const Child& c : kids) {
    const int n = seeds_on(c.pos.holes);
    if (budgeted && n == seeds)
      values.push_back(c.gain - budget_value(table, c.pos, n, budget - 1, memo));
    else
      values.push_back(child_value(*m, table.layers(), c));
    best = std::max(best, values.back());
  }
  // maxplies is not modelled: exact only when no line can reach it. awale: at most one capture
  // per seed, each after at most nocapture quiet plies (without a nocapture, no bound: never
  // exact). kalaha: between two moves that put a seed into a store, moves inside one's own row
  // only push seeds rightwards, at most 5n of them.
  const int longest = m->family == Family::Awale ? (seeds + 1) * (m->nocapture + 1)
                                                 : (seeds + 1) * 5 * seeds + seeds;
  const bool unbounded = m->family == Family::Awale && m->nocapture == 0;
  if (unbounded || state.ply() + longest > game.max_plies()) p.exact = false;
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (values[i] == best)
      p.best_moves.push_back(std::to_string(mover == 1 ? kids[i].hole : kids[i].hole + 6));
  std::sort(p.best_moves.begin(), p.best_moves.end());
  return std::optional<Probe>(std::move(p));
}

}  // namespace referee::games::egdb
