#include "ratings/crosstable.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "ratings/format_util.h"
#include "ratings/pairs.h"

namespace referee {

namespace {

bool finished(const storage::GameRecord& g) {
  return g.status == "finished" && g.ranks.size() == g.players.size() && g.players.size() >= 2;
}

void add_result(stats::Trinomial& t, double score) {
  (score == 1 ? t.wins : score == 0 ? t.losses : t.draws) += 1;
}

// Every pair of engines that met, keyed by names in order, from the first name's side.
std::map<std::pair<std::string, std::string>, HeadToHead> all_pairs(
    const std::vector<const storage::GameRecord*>& games) {
  std::map<std::pair<std::string, std::string>, HeadToHead> out;
  auto entry = [&](const std::string& a, const std::string& b) -> HeadToHead& {
    auto& h = out[{a, b}];
    h.engine = a;
    h.opponent = b;
    return h;
  };
  for (const auto* g : games) {
    if (!finished(*g)) continue;
    for (std::size_t x = 0; x < g->players.size(); ++x)
      for (std::size_t y = x + 1; y < g->players.size(); ++y) {
        const auto &a = g->players[x], &b = g->players[y];
        if (a == b) continue;
        const double s = g->ranks[x] < g->ranks[y] ? 1.0 : g->ranks[x] > g->ranks[y] ? 0.0 : 0.5;
        if (a < b)
          add_result(entry(a, b).games, s);
        else
          add_result(entry(b, a).games, 1 - s);
      }
  }
  const Pairing pairing = pair_games(games);
  for (const auto& p : pairing.pairs) {
    const auto& [a, b] = std::minmax(p.first->players[0], p.first->players[1]);
    entry(a, b).pairs.add(score_of(*p.first, a), score_of(*p.second, a));
  }
  for (const auto* g : pairing.unpaired) {
    const auto& [a, b] = std::minmax(g->players[0], g->players[1]);
    entry(a, b).unpaired += 1;
  }
  return out;
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

std::string pentanomial_text(const stats::Pentanomial& p) {
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
  auto pairs = all_pairs(between);
  const auto& [lo, hi] = std::minmax(a, b);
  auto it = pairs.find({lo, hi});
  HeadToHead h = it == pairs.end() ? HeadToHead{} : it->second;
  h.engine = lo;
  h.opponent = hi;
  return a == lo ? h : flipped(h);
}

Crosstable make_crosstable(const std::string& title,
                           const std::vector<const storage::GameRecord*>& games) {
  Crosstable t;
  t.title = title;
  for (const auto* g : games) t.games += finished(*g);
  auto pairs = all_pairs(games);
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

}  // namespace referee
