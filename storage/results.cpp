#include "storage/results.h"
#include "games/terminations.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "storage/game_stream.h"
#include "storage/name_ids.h"
#include "storage/query_sql.h"
#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage {

namespace {

// The engine filter of the query on a pattern: once, the games of that engine; several, the games
// among those engines only.
bool engines_match(const ResultPattern& p, const std::set<std::uint32_t>& engines,
                   std::size_t asked) {
  if (asked == 0) return true;
  if (asked == 1) {
    for (std::uint32_t s = 0; s < p.players; ++s)
      if (engines.count(p.engines[s])) return true;
    return false;
  }
  for (std::uint32_t s = 0; s < p.players; ++s)
    if (!engines.count(p.engines[s])) return false;
  return true;
}

// "seat:engine_id:rank ..." (schema v5) into the pattern's seats; false when it is malformed.
bool parse_seats(const char* text, const std::map<std::int64_t, std::uint32_t>& engine_index,
                 ResultPattern& p, std::string& problem) {
  std::array<bool, kMaxSeats> seen{};
  const char* at = text;
  while (*at) {
    char* end = nullptr;
    const long seat = std::strtol(at, &end, 10);
    if (end == at || *end != ':') return false;
    at = end + 1;
    const long long engine = std::strtoll(at, &end, 10);
    if (end == at || *end != ':') return false;
    at = end + 1;
    const long rank = std::strtol(at, &end, 10);
    if (end == at || (*end != ' ' && *end != '\0')) return false;
    at = *end ? end + 1 : end;
    if (seat < 1 || seat > static_cast<long>(kMaxSeats)) {
      problem = "has seat " + std::to_string(seat) + " (at most " + std::to_string(kMaxSeats) +
                " players are counted)";
      return false;
    }
    auto e = engine_index.find(engine);
    if (e == engine_index.end() || seen[static_cast<std::size_t>(seat - 1)]) return false;
    seen[static_cast<std::size_t>(seat - 1)] = true;
    p.engines[static_cast<std::size_t>(seat - 1)] = e->second;
    p.ranks[static_cast<std::size_t>(seat - 1)] = static_cast<std::uint8_t>(
        rank < 0 || rank > 255 ? 0 : rank);  // checked against the players below
    p.players = std::max(p.players, static_cast<std::uint32_t>(seat));
  }
  for (std::uint32_t s = 0; s < p.players; ++s)
    if (!seen[s]) return false;
  for (std::uint32_t s = 0; s < p.players; ++s)
    if (p.ranks[s] < 1 || p.ranks[s] > p.players) {
      problem = "has a rank outside 1.." + std::to_string(p.players);
      return false;
    }
  return p.players > 0;
}

// Files older than schema v5 opened read-only have no results table: their games are read one at
// a time and counted here (slower, the same figures, memory still bounded by the patterns).
Expected<ResultSet> count_games(Store& store, const GameQuery& query) {
  ResultSet out;
  std::map<std::string, std::uint32_t> game_ids, engine_ids, termination_ids;
  std::unordered_map<std::string, std::size_t> index;
  StreamOptions options;
  options.moves = false;
  Status st = for_each_game(
      store, query, options, [&](const GameRecord& g, const std::vector<MoveRecord>&) -> Status {
        if (g.ranks.size() != g.players.size() || g.players.empty()) return Ok{};
        if (g.players.size() > kMaxSeats)
          return Error{store.path() + ": game " + std::to_string(g.id) + " has more than " +
                       std::to_string(kMaxSeats) + " players"};
        ResultPattern p;
        p.game = intern(game_ids, out.games, g.game);
        p.termination = intern(termination_ids, out.terminations, g.termination);
        p.players = static_cast<std::uint32_t>(g.players.size());
        std::string key = std::to_string(p.game) + "/" + std::to_string(p.termination);
        for (std::size_t s = 0; s < g.players.size(); ++s) {
          if (g.ranks[s] < 1 || g.ranks[s] > static_cast<int>(g.players.size()))
            return Error{store.path() + ": game " + std::to_string(g.id) + " has rank " +
                         std::to_string(g.ranks[s]) + " for " + std::to_string(g.players.size()) +
                         " players"};
          p.engines[s] = intern(engine_ids, out.engines, g.players[s]);
          p.ranks[s] = static_cast<std::uint8_t>(g.ranks[s]);
          key += " " + std::to_string(p.engines[s]) + ":" + std::to_string(g.ranks[s]);
        }
        auto [it, fresh] = index.emplace(key, out.patterns.size());
        if (fresh) out.patterns.push_back(p);
        ++out.patterns[it->second].count;
        ++out.total_games;
        return Ok{};
      });
  if (!st) return st.failure();
  return out;
}

}  // namespace

bool has_results_table(sql::Connection& db) {
  if (db.backend() != sql::Backend::SQLite) return true;  // created with the whole schema
  sql::Query q(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'results'");
  return q.step();
}

Expected<ResultSet> aggregate_results(Store& store, const GameQuery& query) {
  if (!query.finished_only) return Error{"aggregate_results counts finished games only"};
  try {
    sql::Connection& db = store.connection();
    if (!has_results_table(db)) return count_games(store, query);
    sql::Transaction snapshot(
        db, sql::Transaction::Kind::Read);  // one read snapshot for every query below
    ResultSet out;

    // The kinds the query keeps (game string, termination, time control, tournament).
    std::vector<std::string> kind_terms;
    std::vector<std::string> kind_values;
    if (query.event_id) {
      kind_terms.push_back("k.event_id = " + std::to_string(*query.event_id));
    }
    if (!query.event_name.empty()) {
      kind_terms.push_back("k.event_id = (SELECT t.id FROM events t WHERE t.name = ?)");
      kind_values.push_back(query.event_name);
    }
    if (query.game_strings) {
      kind_terms.push_back(sql::in_json(db.backend(), "k.game", "?"));
      kind_values.push_back(nlohmann::json(*query.game_strings).dump());
    }
    if (!query.time_control.empty()) {
      kind_terms.push_back("k.time_control = ?");
      kind_values.push_back(query.time_control);
    }
    std::string kind_sql = "SELECT k.id, k.game, k.termination FROM result_kinds k";
    for (std::size_t k = 0; k < kind_terms.size(); ++k)
      kind_sql += (k ? " AND " : " WHERE ") + kind_terms[k];
    sql::Query kinds(db, kind_sql);
    for (std::size_t k = 0; k < kind_values.size(); ++k)
      kinds.bind(static_cast<int>(k + 1), kind_values[k]);
    std::map<std::int64_t, std::pair<std::uint32_t, std::uint32_t>> kind_of;
    std::vector<std::int64_t> kind_ids;
    std::map<std::string, std::uint32_t> game_ids, termination_ids;
    while (kinds.step()) {
      const std::int64_t id = kinds.int64(0);
      kind_of[id] = {
          intern(game_ids, out.games, kinds.text(1)),
          intern(termination_ids, out.terminations, games::legacy_termination(kinds.text(2)))};
      kind_ids.push_back(id);
    }
    if (kind_ids.empty()) {
      snapshot.commit();
      return out;
    }

    std::map<std::int64_t, std::uint32_t> engine_index;
    std::set<std::uint32_t> wanted;
    {
      sql::Query engines(db, "SELECT id, name FROM engines ORDER BY id");
      while (engines.step()) {
        const auto index = static_cast<std::uint32_t>(out.engines.size());
        out.engines.push_back(engines.text(1));
        engine_index[engines.int64(0)] = index;
        for (const auto& name : query.engines)
          if (name == out.engines.back()) wanted.insert(index);
      }
    }
    if (!query.engines.empty() &&
        wanted.size() < std::set<std::string>(query.engines.begin(), query.engines.end()).size()) {
      // An engine of the filter has no row: with one engine nothing matches; among several, a
      // game can still be among the others.
      if (query.engines.size() == 1) {
        snapshot.commit();
        return out;
      }
    }

    // Identical games counted by SQLite in one pass over results in its (kind, seats) order.
    std::string sql = "SELECT kind, seats, count(*) FROM results";
    std::vector<std::string> terms;
    if (!kind_terms.empty()) terms.push_back(sql::in_json_ints(db.backend(), "kind", "?"));
    if (!query.since.empty()) terms.push_back("finished_at >= ?");
    if (!query.until.empty())
      terms.push_back("substr(finished_at, 1, " + std::to_string(query.until.size()) + ") <= ?");
    for (std::size_t k = 0; k < terms.size(); ++k) sql += (k ? " AND " : " WHERE ") + terms[k];
    sql += " GROUP BY kind, seats";
    sql::Query counts(db, sql);
    int next = 1;
    if (!kind_terms.empty()) counts.bind(next++, nlohmann::json(kind_ids).dump());
    if (!query.since.empty()) counts.bind(next++, query.since);
    if (!query.until.empty()) counts.bind(next++, query.until);
    while (counts.step()) {
      const std::int64_t kind = counts.int64(0);
      auto k = kind_of.find(kind);
      if (k == kind_of.end()) continue;
      ResultPattern p;
      p.game = k->second.first;
      p.termination = k->second.second;
      std::string problem;
      const std::string seats = counts.text(1);
      if (!parse_seats(seats.c_str(), engine_index, p, problem))
        return Error{store.path() + ": a stored result " +
                     (problem.empty() ? "is damaged (players '" + seats + "')" : problem)};
      p.count = counts.int64(2);
      if (!engines_match(p, wanted, query.engines.size())) continue;
      out.total_games += p.count;
      out.patterns.push_back(p);
    }
    snapshot.commit();
    return out;
  } catch (const std::exception& e) {
    return store.fail("count results", e);
  }
}

}  // namespace referee::storage
