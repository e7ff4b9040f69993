#include "storage/game_query.h"

#include <nlohmann/json.hpp>

#include "storage/game_stream.h"
#include "storage/query_sql.h"
#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage {

int WhereClause::bind(sql::Statement& statement, int first) const {
  for (const auto& v : values) {
    if (std::holds_alternative<std::int64_t>(v))
      statement.bind(first++, std::get<std::int64_t>(v));
    else
      statement.bind(first++, std::get<std::string>(v));
  }
  return first;
}

WhereClause where_clause(const GameQuery& q, sql::Backend b) {
  WhereClause w;
  std::vector<std::string> terms;
  if (q.finished_only) terms.push_back(sql::no_index(b, "g.status") + " = 'finished'");
  if (q.event_id) {
    terms.push_back("g.event_id = ?");
    w.values.emplace_back(*q.event_id);
  }
  if (!q.event_name.empty()) {
    terms.push_back("g.event_id = (SELECT t.id FROM events t WHERE t.name = ?)");
    w.values.emplace_back(q.event_name);
  }
  if (q.game_strings) {
    terms.push_back(sql::in_json(b, "g.game", "?"));
    w.values.emplace_back(nlohmann::json(*q.game_strings).dump());
  }
  if (!q.since.empty()) {
    terms.push_back("g.finished_at >= ?");
    w.values.emplace_back(q.since);
  }
  if (!q.until.empty()) {
    terms.push_back("substr(g.finished_at, 1, " + std::to_string(q.until.size()) + ") <= ?");
    w.values.emplace_back(q.until);
  }
  if (!q.time_control.empty()) {
    terms.push_back("g.time_control = ?");
    w.values.emplace_back(q.time_control);
  }
  if (q.engines.size() == 1) {
    terms.push_back(
        "EXISTS (SELECT 1 FROM game_players e WHERE e.game_id = g.id AND e.engine = ?)");
    w.values.emplace_back(q.engines.front());
  } else if (q.engines.size() > 1) {
    terms.push_back("NOT EXISTS (SELECT 1 FROM game_players e WHERE e.game_id = g.id AND NOT " +
                    sql::in_json(b, "e.engine", "?") + ")");
    w.values.emplace_back(nlohmann::json(q.engines).dump());
  }
  if (!q.ids.empty()) {
    std::string in = "g.id IN (";
    for (std::size_t k = 0; k < q.ids.size(); ++k) {
      in += k ? ", ?" : "?";
      w.values.emplace_back(q.ids[k]);
    }
    terms.push_back(in + ")");
  }
  for (std::size_t k = 0; k < terms.size(); ++k) w.sql += (k ? " AND " : " WHERE ") + terms[k];
  return w;
}

Expected<std::vector<std::string>> stored_game_strings(Store& store) {
  try {
    sql::Query q(store.connection(), "SELECT DISTINCT game FROM games ORDER BY game");
    std::vector<std::string> out;
    while (q.step()) out.push_back(q.text(0));
    return out;
  } catch (const std::exception& e) {
    return store.fail("read the game strings", e);
  }
}

namespace {

Expected<bool> exists(Store& store, const char* sql, const std::string& value, const char* doing) {
  try {
    sql::Query q(store.connection(), sql);
    q.bind(1, value);
    return q.step();
  } catch (const std::exception& e) {
    return store.fail(doing, e);
  }
}

}  // namespace

Expected<bool> has_engine(Store& store, const std::string& name) {
  return exists(store, "SELECT 1 FROM game_players WHERE engine = ? LIMIT 1", name,
                "look for an engine");
}

Expected<bool> has_event_named(Store& store, const std::string& name) {
  return exists(store,
                "SELECT 1 FROM games g JOIN events t ON t.id = g.event_id WHERE t.name "
                "= ? LIMIT 1",
                name, "look for a tournament");
}

Expected<bool> has_time_control(Store& store, const std::string& time_control) {
  return exists(store, "SELECT 1 FROM games WHERE time_control = ? LIMIT 1", time_control,
                "look for a time control");
}

Expected<bool> has_game(Store& store, std::int64_t id) {
  try {
    sql::Query q(store.connection(), "SELECT 1 FROM games WHERE id = ?");
    q.bind(1, id);
    return q.step();
  } catch (const std::exception& e) {
    return store.fail("look for a game", e);
  }
}

Expected<std::vector<GameRecord>> query_games(Store& store, const GameQuery& query) {
  std::vector<GameRecord> out;
  StreamOptions options;
  options.moves = false;
  Status st = for_each_game(store, query, options,
                            [&](const GameRecord& g, const std::vector<MoveRecord>&) -> Status {
                              out.push_back(g);
                              return Ok{};
                            });
  if (!st) return st.failure();
  return out;
}

}  // namespace referee::storage
