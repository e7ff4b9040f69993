#include "ratings/crosstable.h"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "ratings/format_util.h"
#include "ratings/report.h"
#include "ratings/result_tables.h"
#include "ratings/selection.h"

namespace referee::ratings {

namespace {

void add_results(Trinomial& t, double score, std::int64_t count) {
  (score == 1 ? t.wins : score == 0 ? t.losses : t.draws) += count;
}

using HeadToHeads = std::map<std::pair<std::string, std::string>, HeadToHead>;

// Every two engines that met in these patterns, keyed by names in order, from the first name's
// side; then the game pairs between them of the stored game strings `in_table` keeps. Pairs are
// added only to engines that met here: with --min-games, the pairs of a dropped engine go with its
// games.
HeadToHeads head_to_heads(const storage::ResultSet& results, const std::vector<std::size_t>& list,
                          const PairCounts& pairs,
                          const std::function<bool(const std::string&)>& in_table) {
  HeadToHeads out;
  for (std::size_t k : list) {
    const auto& p = results.patterns[k];
    for (std::uint32_t x = 0; x < p.players; ++x)
      for (std::uint32_t y = x + 1; y < p.players; ++y) {
        const auto &a = results.engines[p.engines[x]], &b = results.engines[p.engines[y]];
        if (a == b) continue;
        const double s = p.ranks[x] < p.ranks[y] ? 1.0 : p.ranks[x] > p.ranks[y] ? 0.0 : 0.5;
        auto& h = out[std::minmax(a, b)];
        h.engine = std::min(a, b);
        h.opponent = std::max(a, b);
        add_results(h.games, a < b ? s : 1 - s, p.count);
      }
  }
  for (const auto& [key, count] : pairs) {
    const auto& [game, lo, hi] = key;
    auto h = out.find({lo, hi});
    if (h == out.end() || !in_table(game)) continue;
    auto& p = h->second.pairs;
    p.ll += count.pairs.ll;
    p.ld += count.pairs.ld;
    p.wl += count.pairs.wl;
    p.dd += count.pairs.dd;
    p.wd += count.pairs.wd;
    p.ww += count.pairs.ww;
    h->second.unpaired += count.unpaired;
  }
  return out;
}

std::vector<std::size_t> every_pattern(const storage::ResultSet& results) {
  std::vector<std::size_t> all(results.patterns.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  return all;
}

HeadToHead flipped(const HeadToHead& h) {
  HeadToHead f;
  f.engine = h.opponent;
  f.opponent = h.engine;
  f.games = {h.games.losses, h.games.draws, h.games.wins};
  f.pairs.ll = h.pairs.ww;
  f.pairs.ld = h.pairs.wd;
  f.pairs.wl = h.pairs.wl;
  f.pairs.dd = h.pairs.dd;
  f.pairs.wd = h.pairs.ld;
  f.pairs.ww = h.pairs.ll;
  f.unpaired = h.unpaired;
  return f;
}

std::string pentanomial_text(const Pentanomial& p) {
  return "[" + std::to_string(p.ll) + " " + std::to_string(p.ld) + " " + std::to_string(p.wl) +
         " " + std::to_string(p.dd) + " " + std::to_string(p.wd) + " " + std::to_string(p.ww) + "]";
}

std::string points_text(double points) {
  return text::fixed(points, points == std::floor(points) ? 0 : 1);
}

}  // namespace

HeadToHead head_to_head(const std::vector<const storage::GameRecord*>& games, const std::string& a,
                        const std::string& b) {
  std::vector<const storage::GameRecord*> between;
  for (const auto* g : games) {
    const bool has_a = std::find(g->players.begin(), g->players.end(), a) != g->players.end();
    const bool has_b = std::find(g->players.begin(), g->players.end(), b) != g->players.end();
    if (has_a && has_b) between.push_back(g);
  }
  const storage::ResultSet results = tally_games(between);
  auto heads = head_to_heads(results, every_pattern(results), count_pairs(between),
                             [](const std::string&) { return true; });
  const auto& [lo, hi] = std::minmax(a, b);
  auto it = heads.find({lo, hi});
  HeadToHead h = it == heads.end() ? HeadToHead{} : it->second;
  h.engine = lo;
  h.opponent = hi;
  return a == lo ? h : flipped(h);
}

namespace {

Crosstable crosstable_of(const std::string& title, const storage::ResultSet& results,
                         const std::vector<std::size_t>& list, const PairCounts& pair_counts,
                         const std::function<bool(const std::string&)>& in_table) {
  Crosstable t;
  t.title = title;
  for (std::size_t k : list)
    if (results.patterns[k].players >= 2)
      t.games += static_cast<std::size_t>(results.patterns[k].count);
  const auto pairs = head_to_heads(results, list, pair_counts, in_table);
  std::map<std::string, CrossEngine> engines;
  for (const auto& [key, h] : pairs) {
    const double points = double(h.games.wins) + double(h.games.draws) / 2;
    const auto n = static_cast<int>(h.games.total());
    auto& a = engines[h.engine];
    a.name = h.engine;
    a.games += n;
    a.points += points;
    auto& b = engines[h.opponent];
    b.name = h.opponent;
    b.games += n;
    b.points += n - points;
  }
  for (const auto& [name, e] : engines) t.engines.push_back(e);
  std::sort(t.engines.begin(), t.engines.end(), [](const CrossEngine& x, const CrossEngine& y) {
    const double sx = x.games ? x.points / x.games : 0, sy = y.games ? y.points / y.games : 0;
    if (sx != sy) return sx > sy;
    return x.name < y.name;
  });
  std::map<std::string, std::size_t> rank;
  for (std::size_t k = 0; k < t.engines.size(); ++k) rank[t.engines[k].name] = k;
  for (const auto& [key, h] : pairs)
    t.pairs.push_back(rank[h.engine] < rank[h.opponent] ? h : flipped(h));
  std::sort(t.pairs.begin(), t.pairs.end(), [&](const HeadToHead& x, const HeadToHead& y) {
    return std::pair{rank[x.engine], rank[x.opponent]} <
           std::pair{rank[y.engine], rank[y.opponent]};
  });
  return t;
}

}  // namespace

Crosstable make_crosstable(const std::string& title,
                           const std::vector<const storage::GameRecord*>& games) {
  const storage::ResultSet results = tally_games(games);
  return crosstable_of(title, results, every_pattern(results), count_pairs(games),
                       [](const std::string&) { return true; });
}

std::vector<Crosstable> crosstables(const storage::ResultSet& results, const PairCounts& pairs,
                                    int min_games) {
  const Variants variants = variants_of(results);
  std::map<std::string, std::string> canonical;
  auto canonical_of = [&](const std::string& stored) -> const std::string& {
    auto it = canonical.find(stored);
    if (it == canonical.end()) it = canonical.emplace(stored, canonical_game(stored)).first;
    return it->second;
  };
  std::vector<Crosstable> out;
  for (auto& table : pattern_tables(results, variants, "")) {
    drop_rare(results, table.patterns, min_games);
    if (table.patterns.empty()) continue;
    const bool every_game = table.title == "all games";
    out.push_back(crosstable_of(
        table.title, results, table.patterns, pairs,
        [&](const std::string& game) { return every_game || canonical_of(game) == table.title; }));
  }
  return out;
}

std::string crosstable_text(const std::vector<Crosstable>& tables) {
  std::string out;
  for (const auto& t : tables) {
    out += t.title + " (" + text::count_of(t.games, "game") + ")\n";
    const std::size_t n = t.engines.size();
    std::map<std::pair<std::size_t, std::size_t>, std::string> cell;
    std::map<std::string, std::size_t> rank;
    for (std::size_t k = 0; k < n; ++k) rank[t.engines[k].name] = k;
    for (const auto& h : t.pairs) {
      const double points = double(h.games.wins) + double(h.games.draws) / 2;
      const auto games = double(h.games.total());
      const std::size_t a = rank[h.engine], b = rank[h.opponent];
      cell[{a, b}] = points_text(points) + "/" + std::to_string(h.games.total());
      cell[{b, a}] = points_text(games - points) + "/" + std::to_string(h.games.total());
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header = {"Rank", "Name", "Games", "Score"};
    for (std::size_t k = 0; k < n; ++k) header.push_back(std::to_string(k + 1));
    rows.push_back(header);
    for (std::size_t a = 0; a < n; ++a) {
      const auto& e = t.engines[a];
      std::vector<std::string> row = {std::to_string(a + 1), e.name, std::to_string(e.games),
                                      e.games ? text::percent(e.points / e.games) : "-"};
      for (std::size_t b = 0; b < n; ++b)
        row.push_back(a == b ? "-" : cell.count({a, b}) ? cell[{a, b}] : ".");
      rows.push_back(row);
    }
    out += text::columns(rows, {false, true});
    out += "head to head (W D L from the first engine's side; game pairs: LL LD WL DD WD WW):\n";
    std::vector<std::vector<std::string>> lines;
    for (const auto& h : t.pairs) {
      std::vector<std::string> line = {
          h.engine + " - " + h.opponent,
          std::to_string(h.games.total()) + (h.games.total() == 1 ? " game" : " games"),
          std::to_string(h.games.wins),
          std::to_string(h.games.draws),
          std::to_string(h.games.losses),
          text::percent(h.score())};
      if (h.pairs.total() || h.unpaired) {
        line.push_back(std::to_string(h.pairs.total()) + " pairs " + pentanomial_text(h.pairs));
        if (h.unpaired) line.push_back(std::to_string(h.unpaired) + " unpaired");
      }
      lines.push_back(line);
    }
    out += text::columns(lines, {true, false, false, false, false, false, true, true});
    out += "\n";
  }
  return out;
}

std::string crosstable_csv(const std::vector<Crosstable>& tables) {
  std::string out =
      text::csv_row({"table", "engine", "opponent", "games", "wins", "draws", "losses", "score",
                     "pairs", "ll", "ld", "wl", "dd", "wd", "ww", "unpaired"});
  for (const auto& t : tables)
    for (const auto& h : t.pairs) {
      const auto& p = h.pairs;
      out += text::csv_row({t.title, h.engine, h.opponent, std::to_string(h.games.total()),
                            std::to_string(h.games.wins), std::to_string(h.games.draws),
                            std::to_string(h.games.losses), text::fixed(h.score(), 4),
                            std::to_string(p.total()), std::to_string(p.ll), std::to_string(p.ld),
                            std::to_string(p.wl), std::to_string(p.dd), std::to_string(p.wd),
                            std::to_string(p.ww), std::to_string(h.unpaired)});
    }
  return out;
}

std::string crosstable_json(const std::vector<Crosstable>& tables) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& t : tables) {
    nlohmann::json table = {{"title", t.title}, {"games", t.games}};
    table["engines"] = nlohmann::json::array();
    for (const auto& e : t.engines)
      table["engines"].push_back({{"name", e.name}, {"games", e.games}, {"points", e.points}});
    table["pairs"] = nlohmann::json::array();
    for (const auto& h : t.pairs) {
      const auto& p = h.pairs;
      table["pairs"].push_back({{"engine", h.engine},
                                {"opponent", h.opponent},
                                {"games", h.games.total()},
                                {"wins", h.games.wins},
                                {"draws", h.games.draws},
                                {"losses", h.games.losses},
                                {"score", h.score()},
                                {"pentanomial",
                                 {{"pairs", p.total()},
                                  {"ll", p.ll},
                                  {"ld", p.ld},
                                  {"wl", p.wl},
                                  {"dd", p.dd},
                                  {"wd", p.wd},
                                  {"ww", p.ww},
                                  {"unpaired", h.unpaired}}}});
    }
    out.push_back(std::move(table));
  }
  return nlohmann::json{{"tables", out}}.dump(2) + "\n";
}

}  // namespace referee::ratings
