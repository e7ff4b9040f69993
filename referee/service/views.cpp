#include "service/views.h"

#include <cmath>
#include <map>
#include <set>

#include "games/board_view_json.h"
#include "ratings/crosstable.h"
#include "ratings/rating_text.h"
#include "ratings/ratings.h"
#include "ratings/report.h"
#include "service/log.h"
#include "storage/work_queue.h"

namespace referee::service {

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Invalid:
      return 400;
    case ErrorKind::NotFound:
      return 404;
    case ErrorKind::Conflict:
      return 409;
    case ErrorKind::Denied:
      return 403;
    case ErrorKind::Unavailable:
    case ErrorKind::Full:
      return 503;
    case ErrorKind::Io:
      return 500;
  }
  return 500;
}

namespace {

Json finite_or_null(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json or_null(const std::string& text) {
  return text.empty() ? Json(nullptr) : Json(text);
}

bool finished(const storage::GameRecord& g) {
  return g.status == storage::GameStatus::Finished && g.ranks.size() == g.players.size() &&
         !g.players.empty();
}

// One standings table from a rating report: every group's ratings, in group order.
Json standings_table(const ratings::RatingReport& report, double confidence) {
  Json rows = Json::array();
  int rank = 0, group_index = 0;
  for (const auto& group : report.table.groups) {
    ++group_index;
    for (const ratings::Rating& r : group.ratings) {
      const bool finite = r.bound == ratings::Bound::kNone;
      const bool bounded = r.bound == ratings::Bound::kLower || r.bound == ratings::Bound::kUpper;
      Json elo = r.bound == ratings::Bound::kUnrated ? Json(nullptr) : finite_or_null(r.shown);
      const bool measured = finite && !r.reference;
      rows.push_back({{"rank", ++rank},
                      {"engine", r.name},
                      {"elo", elo},
                      {"text", ratings::elo_text(r)},
                      {"error", measured ? finite_or_null(r.error) : Json(nullptr)},
                      {"lower", measured ? finite_or_null(r.elo - r.error)
                                : r.bound == ratings::Bound::kLower ? elo
                                                                    : Json(nullptr)},
                      {"upper", measured ? finite_or_null(r.elo + r.error)
                                : r.bound == ratings::Bound::kUpper ? elo
                                                                    : Json(nullptr)},
                      {"bound", finite ? Json(nullptr) : Json(bound_name(r.bound))},
                      {"limit", bounded ? finite_or_null(r.elo) : Json(nullptr)},
                      {"reference", r.reference},
                      {"group", group_index},
                      {"games", r.games},
                      {"w", r.wins},
                      {"d", r.draws},
                      {"l", r.losses},
                      {"score", r.score},
                      {"los", finite_or_null(r.los)}});
    }
  }
  std::vector<ratings::Rating> all;
  for (const auto& group : report.table.groups)
    all.insert(all.end(), group.ratings.begin(), group.ratings.end());
  return {{"game", report.title},
          {"games", report.games},
          {"legend", ratings::legend(all, confidence)},
          {"groups", report.table.groups.size()},
          {"confidence", confidence * 100},
          {"rows", std::move(rows)}};
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
          {"event_id", g.event_id ? Json(*g.event_id) : Json(nullptr)},
          {"event", or_null(g.event)},
          {"slot", g.slot},
          {"game", g.game},
          {"players", g.players},
          {"status", storage::to_text(g.status)},
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
          {"worker", g.owner ? Json(*g.owner) : Json(nullptr)}};
}

Json seat_hashes_json(const std::vector<storage::EngineHash>& hashes) {
  Json out = Json::array();
  for (const auto& h : hashes)
    out.push_back({{"program", or_null(h.program)},
                   {"script", or_null(h.script)},
                   {"artifact", or_null(h.artifact)}});
  return out;
}

Json worker_json(const storage::OwnerStatus& o, std::int64_t now_ms) {
  return {{"id", o.id},
          {"name", o.info.name},
          {"host", o.info.host},
          {"pid", o.info.pid},
          {"kind", storage::to_text(o.info.kind)},
          {"state", storage::to_text(o.state(now_ms))},
          {"started_at", iso_utc(o.started_at_ms, false)},
          {"heartbeat_at", iso_utc(o.heartbeat_at_ms, true)},
          {"heartbeat_age_s", static_cast<double>(now_ms - o.heartbeat_at_ms) / 1000.0},
          {"lease_expires_at",
           o.lease_expires_at_ms > 0 ? Json(iso_utc(o.lease_expires_at_ms, true)) : Json(nullptr)},
          {"stopped_at", o.stopped_at_ms ? Json(iso_utc(*o.stopped_at_ms, false)) : Json(nullptr)},
          {"running_games", o.running_games}};
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
          {"kind", storage::to_text(e.kind)},
          {"state", storage::to_text(e.state)},
          {"priority", e.priority},
          {"submitted_by", or_null(e.submitted_by)},
          {"games", games},
          {"engines", engines},
          {"tc", spec.is_object() && spec.contains("tc") ? spec["tc"] : Json(nullptr)},
          {"scheduled", total},
          {"finished", e.done},
          {"running", e.claimed},
          {"skipped", e.skipped},
          {"pending", e.pending},
          {"progress", e.kind != storage::EventKind::Ladder ? Json(progress) : Json(nullptr)},
          {"eta_s", extras.eta_s ? Json(std::round(*extras.eta_s)) : Json(nullptr)},
          {"created_at", or_null(e.created_at)},
          {"started_at", or_null(e.started_at)},
          {"finished_at", or_null(e.finished_at)},
          {"sprt", extras.sprt}};
}

Json standings_json(const std::vector<storage::GameRecord>& games) {
  std::vector<const storage::GameRecord*> list;
  for (const auto& g : games)
    if (finished(g)) list.push_back(&g);
  const ratings::ReportOptions options;
  Json tables = Json::array();
  for (const auto& report : ratings::rating_reports(list, options))
    tables.push_back(standings_table(report, options.rating.confidence));
  return {{"confidence", options.rating.confidence * 100}, {"tables", std::move(tables)}};
}

Json crosstable_json(const std::vector<storage::GameRecord>& games) {
  std::vector<const storage::GameRecord*> list;
  for (const auto& g : games)
    if (finished(g)) list.push_back(&g);
  Json tables = Json::array();
  for (const auto& t : ratings::tables_by_game(list, 0)) {
    const ratings::Crosstable cross = ratings::make_crosstable(t.title, t.games);
    std::vector<std::string> engines;
    Json scores = Json::array();
    std::map<std::string, std::size_t> at;
    for (const auto& e : cross.engines) {
      at[e.name] = engines.size();
      engines.push_back(e.name);
      scores.push_back({{"engine", e.name}, {"games", e.games}, {"points", e.points}});
    }
    Json cells = Json::array();
    for (std::size_t i = 0; i < engines.size(); ++i) cells.push_back(Json(engines.size(), nullptr));
    auto cell = [](const ratings::Trinomial& g, const ratings::Pentanomial& p, int unpaired) {
      return Json{{"w", g.wins},
                  {"d", g.draws},
                  {"l", g.losses},
                  {"pairs", {p.ll, p.ld, p.wl, p.dd, p.wd, p.ww}},
                  {"unpaired", unpaired}};
    };
    for (const auto& h : cross.pairs) {
      const std::size_t i = at[h.engine], j = at[h.opponent];
      cells[i][j] = cell(h.games, h.pairs, h.unpaired);
      // The other side: wins and losses swapped, pair outcomes mirrored.
      const ratings::Trinomial back{h.games.losses, h.games.draws, h.games.wins};
      const ratings::Pentanomial mirror{h.pairs.ww, h.pairs.wd, h.pairs.wl,
                                        h.pairs.dd, h.pairs.ld, h.pairs.ll};
      cells[j][i] = cell(back, mirror, h.unpaired);
    }
    tables.push_back({{"game", t.title},
                      {"games", cross.games},
                      {"engines", engines},
                      {"scores", std::move(scores)},
                      {"cells", std::move(cells)}});
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

Json board_view_json(const games::State& state) {
  return games::board_view_json(state.view());
}

std::string dump(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string error_body(const std::string& text) {
  return dump(Json{{"error", text}});
}

}  // namespace referee::service
