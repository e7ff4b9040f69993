#include "service/views.h"

#include <cmath>
#include <map>
#include <set>

#include "ratings/ratings.h"

namespace referee::service {

namespace {

Json finite_or_null(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json or_null(const std::string& text) {
  return text.empty() ? Json(nullptr) : Json(text);
}

bool finished(const storage::GameRecord& g) {
  return g.status == "finished" && g.ranks.size() == g.players.size() && !g.players.empty();
}

// The canonical game strings present, in the order first seen, and their finished games.
std::vector<std::pair<std::string, std::vector<const storage::GameRecord*>>> by_game(
    const std::vector<storage::GameRecord>& games) {
  std::vector<std::pair<std::string, std::vector<const storage::GameRecord*>>> out;
  std::map<std::string, std::size_t> index;
  for (const auto& g : games) {
    if (!finished(g)) continue;
    auto [it, fresh] = index.emplace(g.game, out.size());
    if (fresh) out.push_back({g.game, {}});
    out[it->second].second.push_back(&g);
  }
  return out;
}

Json standings_table(const std::string& title,
                     const std::vector<const storage::GameRecord*>& list) {
  std::vector<RatedGame> rated;
  for (const auto* g : list) rated.push_back({g->players, g->ranks});
  Json rows = Json::array();
  int rank = 0;
  for (const Rating& r : fit_elo(rated)) {
    const bool known = std::isfinite(r.error95);
    rows.push_back({{"rank", ++rank},
                    {"engine", r.name},
                    {"elo", r.elo},
                    {"error", finite_or_null(r.error95)},
                    {"lower", known ? Json(r.elo - r.error95) : Json(nullptr)},
                    {"upper", known ? Json(r.elo + r.error95) : Json(nullptr)},
                    {"games", r.games},
                    {"w", r.wins},
                    {"d", r.draws},
                    {"l", r.losses},
                    {"score", r.score},
                    {"los", finite_or_null(r.los)}});
  }
  if (!rows.empty()) rows.back()["los"] = nullptr;  // nobody below the last engine
  return {{"game", title}, {"games", list.size()}, {"rows", std::move(rows)}};
}

// Points of seat i against seat j of one game: 1, 0.5 or 0.
double pair_points(const storage::GameRecord& g, std::size_t i, std::size_t j) {
  return g.ranks[i] < g.ranks[j] ? 1.0 : g.ranks[i] == g.ranks[j] ? 0.5 : 0.0;
}

bool is_forfeit(const std::string& termination) {
  static const std::set<std::string> kinds = {"time",  "illegal",  "crash",
                                              "stall", "protocol", "resign"};
  return kinds.count(termination) > 0;
}

}  // namespace

std::string result_text(const std::vector<int>& ranks) {
  if (ranks.empty()) return "";
  if (ranks.size() == 2) {
    if (ranks[0] == ranks[1]) return "1/2-1/2";
    return ranks[0] < ranks[1] ? "1-0" : "0-1";
  }
  std::string out = "ranks";
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : " ") + std::to_string(ranks[i]);
  return out;
}

Json game_summary(const storage::GameRecord& g) {
  return {{"id", g.id},
          {"event_id", g.tournament_id ? Json(*g.tournament_id) : Json(nullptr)},
          {"event", or_null(g.tournament)},
          {"slot", g.slot},
          {"game", g.game},
          {"players", g.players},
          {"status", g.status},
          {"result", result_text(g.ranks)},
          {"ranks", g.ranks},
          {"scores", g.scores},
          {"termination", g.termination},
          {"reason", g.reason},
          {"plies", g.plies},
          {"time_control", g.time_control},
          {"opening", g.opening},
          {"started_at", or_null(g.started_at)},
          {"finished_at", or_null(g.finished_at)},
          {"worker", nullptr}};
}

Json move_json(const storage::MoveRecord& m) {
  return {{"ply", m.ply},
          {"player", m.player},
          {"move", m.move},
          {"time_ms", m.time_ms < 0 ? Json(nullptr) : Json(m.time_ms)},
          {"clock_ms", m.clock_ms < 0 ? Json(nullptr) : Json(m.clock_ms)},
          {"info", m.info},
          {"source", m.source},
          {"note", m.note}};
}

Json transcript_json(const std::vector<storage::LogLine>& lines) {
  Json out = Json::array();
  for (const auto& l : lines)
    out.push_back({{"seat", l.seat},
                   {"dir", std::string(1, l.direction)},
                   {"at_ms", l.at_ms},
                   {"text", l.text}});
  return {{"lines", std::move(out)}};
}

Json event_summary(const storage::EventInfo& e, const EventExtras& extras) {
  Json spec = Json::parse(e.spec, nullptr, false);
  std::vector<std::string> games, engines = extras.engines;
  if (spec.is_object()) {
    if (spec.contains("games") && spec["games"].is_array())
      for (const auto& g : spec["games"])
        if (g.is_string()) games.push_back(g.get<std::string>());
    if (extras.engines.empty() && spec.contains("engines") && spec["engines"].is_array())
      for (const auto& en : spec["engines"])
        if (en.is_object() && en.contains("name") && en["name"].is_string())
          engines.push_back(en["name"].get<std::string>());
  }
  const std::int64_t total = e.total();
  const double progress =
      total > 0 ? static_cast<double>(e.done + e.skipped) / static_cast<double>(total) : 0.0;
  return {{"id", e.id},
          {"name", e.name},
          {"kind", e.kind},
          {"state", e.state},
          {"priority", e.priority},
          {"games", games},
          {"engines", engines},
          {"tc", spec.is_object() && spec.contains("tc") ? spec["tc"] : Json(nullptr)},
          {"scheduled", total},
          {"finished", e.done},
          {"running", e.claimed},
          {"skipped", e.skipped},
          {"pending", e.pending},
          {"progress", e.kind == "tournament" ? Json(progress) : Json(nullptr)},
          {"eta_s", extras.eta_s ? Json(std::round(*extras.eta_s)) : Json(nullptr)},
          {"created_at", or_null(e.created_at)},
          {"started_at", or_null(e.started_at)},
          {"finished_at", or_null(e.finished_at)},
          {"sprt", extras.sprt}};
}

Json standings_json(const std::vector<storage::GameRecord>& games) {
  Json tables = Json::array();
  std::vector<const storage::GameRecord*> all;
  const auto groups = by_game(games);
  for (const auto& [game, list] : groups) {
    tables.push_back(standings_table(game, list));
    all.insert(all.end(), list.begin(), list.end());
  }
  if (groups.size() > 1) tables.push_back(standings_table("all games", all));
  return {{"confidence", 95}, {"tables", std::move(tables)}};
}

Json crosstable_json(const std::vector<storage::GameRecord>& games) {
  Json tables = Json::array();
  for (const auto& [game, list] : by_game(games)) {
    std::set<std::string> names;
    for (const auto* g : list) names.insert(g->players.begin(), g->players.end());
    const std::vector<std::string> engines(names.begin(), names.end());
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < engines.size(); ++i) at[engines[i]] = i;
    struct Cell {
      int w = 0, d = 0, l = 0;
    };
    std::vector<std::vector<Cell>> cells(engines.size(), std::vector<Cell>(engines.size()));
    for (const auto* g : list)
      for (std::size_t i = 0; i < g->players.size(); ++i)
        for (std::size_t j = 0; j < g->players.size(); ++j) {
          if (i == j || g->players[i] == g->players[j]) continue;
          Cell& c = cells[at[g->players[i]]][at[g->players[j]]];
          const double p = pair_points(*g, i, j);
          (p == 1.0 ? c.w : p == 0.5 ? c.d : c.l) += 1;
        }
    Json rows = Json::array();
    for (std::size_t i = 0; i < engines.size(); ++i) {
      Json row = Json::array();
      for (std::size_t j = 0; j < engines.size(); ++j)
        row.push_back(i == j
                          ? Json(nullptr)
                          : Json{{"w", cells[i][j].w}, {"d", cells[i][j].d}, {"l", cells[i][j].l}});
      rows.push_back(std::move(row));
    }
    tables.push_back({{"game", game}, {"engines", engines}, {"cells", std::move(rows)}});
  }
  return {{"tables", std::move(tables)}};
}

Json terminations_json(const std::vector<storage::GameRecord>& games) {
  Json engines = Json::object();
  auto entry = [&](const std::string& name) -> Json& {
    if (!engines.contains(name))
      engines[name] = {{"games", 0}, {"time", 0},     {"illegal", 0}, {"crash", 0},
                       {"stall", 0}, {"protocol", 0}, {"resign", 0},  {"other", Json::object()}};
    return engines[name];
  };
  for (const auto& g : games) {
    if (!finished(g)) continue;
    // The seat that forfeits is ranked last, alone.
    int worst = 0, at_worst = 0;
    std::size_t culprit = 0;
    for (std::size_t s = 0; s < g.ranks.size(); ++s) {
      if (g.ranks[s] > worst) {
        worst = g.ranks[s];
        at_worst = 0;
      }
      if (g.ranks[s] == worst) {
        ++at_worst;
        culprit = s;
      }
    }
    const bool forfeit = is_forfeit(g.termination) && at_worst == 1;
    for (std::size_t s = 0; s < g.players.size(); ++s) {
      Json& e = entry(g.players[s]);
      e["games"] = e["games"].get<int>() + 1;
      if (forfeit && s == culprit) {
        e[g.termination] = e[g.termination].get<int>() + 1;
      } else if (!forfeit) {
        Json& other = e["other"];
        other[g.termination] = other.value(g.termination, 0) + 1;
      }
    }
  }
  return {{"engines", std::move(engines)}};
}

Json board_view_json(const games::State&) {
  return nullptr;
}

std::string dump(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string error_body(const std::string& text) {
  return dump(Json{{"error", text}});
}

}  // namespace referee::service
