#include "storage/game_stream.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "storage/query_sql.h"
#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage {

namespace {

std::vector<std::string> opening_of(const char* text) {
  std::vector<std::string> out;
  if (text[0] == '[' && text[1] == ']' && text[2] == '\0') return out;  // the usual case
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return out;
  for (const auto& m : j)
    if (m.is_string()) out.push_back(m.get<std::string>());
  return out;
}

}  // namespace

Status for_each_game(Store& store, const GameQuery& query, const StreamOptions& options,
                     const GameVisitor& visit) {
  try {
    sql::Connection& db = store.connection();
    sql::Transaction snapshot(
        db, sql::Transaction::Kind::Read);  // deferred: one read snapshot for both cursors
    const sql::Backend b = db.backend();
    const WhereClause where = where_clause(query, b);
    const std::string order = options.by_id
                                  ? " ORDER BY g.id"
                                  : " ORDER BY g.event_id" + sql::nulls_first(b) + ", g.slot, g.id";
    const std::string index = options.by_id ? "" : rows::games_by_event_index(db);
    std::map<std::int64_t, std::string> tournaments;  // few: read once, not joined per row
    {
      sql::Query t(db, "SELECT id, name FROM events");
      while (t.step()) tournaments[t.int64(0)] = t.text(1);
    }
    sql::Query games(db,
                     "SELECT g.id, g.event_id, g.slot, g.game, g.start_position, "
                     "g.opening, g.time_control, g.status, g.termination, g.reason, g.started_at, "
                     "g.finished_at, g.plies, g.owner, p.engine, p.rank, p.score, " +
                         rows::engine_hashes_column(store.connection()) + ", " +
                         rows::time_controls_column(store.connection()) + " FROM games g" + index +
                         " LEFT JOIN game_players p ON p.game_id = g.id" + where.sql + order +
                         ", p.seat",
                     sql::Rows::Many);
    where.bind(games);
    std::optional<sql::Query> moves;
    bool moves_left = false;
    if (options.moves) {
      moves.emplace(db,
                    "SELECT g.id, m.ply, m.player, m.move, m.time_ms, m.clock_ms, m.info, "
                    "m.source, m.note FROM games g" +
                        index +
                        " JOIN moves m ON "
                        "m.game_id = g.id" +
                        where.sql + order + ", m.ply",
                    sql::Rows::Many);
      where.bind(*moves);
      moves_left = moves.value().step();
    }
    GameRecord g;
    std::vector<MoveRecord> list;
    bool rank_missing = false, score_missing = false;
    bool have = false;
    auto emit = [&]() -> Status {
      if (rank_missing) g.ranks.clear();
      if (score_missing) g.scores.clear();
      list.clear();
      // The moves cursor walks the same games in the same order (only those with moves): its
      // rows for this game, if any, are next.
      while (moves_left && moves.value().int64(0) == g.id) {
        MoveRecord m;
        m.ply = moves.value().int32(1);
        m.player = moves.value().int32(2);
        m.move = moves.value().text(3);
        m.time_ms = static_cast<long>(moves.value().int64(4));
        m.clock_ms = static_cast<long>(moves.value().int64(5));
        m.info = moves.value().text(6);
        m.source = moves.value().text(7);
        m.note = moves.value().text(8);
        list.push_back(std::move(m));
        moves_left = moves.value().step();
      }
      return visit(g, list);
    };
    while (games.step()) {
      const std::int64_t id = games.int64(0);
      if (!have || id != g.id) {
        if (have)
          if (Status st = emit(); !st) return st;
        have = true;
        g = GameRecord{};
        rank_missing = score_missing = false;
        g.id = id;
        if (!games.is_null(1)) {
          g.event_id = games.int64(1);
          auto t = tournaments.find(*g.event_id);
          if (t != tournaments.end()) g.event = t->second;
        }
        g.slot = games.int64(2);
        g.game = games.text(3);
        g.start_position = games.text(4);
        g.opening = opening_of(games.c_str(5));
        g.time_control = games.text(6);
        g.status = game_status_from_text(games.text(7)).value_or(GameStatus::Unfinished);
        g.termination = games.text(8);
        g.reason = games.text(9);
        g.started_at = games.text(10);
        g.finished_at = games.text(11);
        g.plies = games.int64(12);
        if (!games.is_null(13)) g.owner = games.int64(13);
        g.engine_hashes = engine_hashes_from_json(games.text(17));
        g.time_controls = time_controls_from_json(games.text(18));
      }
      if (games.is_null(14)) continue;  // a game with no players (LEFT JOIN): still visited
      g.players.push_back(games.text(14));
      if (games.is_null(15))
        rank_missing = true;
      else
        g.ranks.push_back(games.int32(15));
      if (games.is_null(16))
        score_missing = true;
      else
        g.scores.push_back(games.real(16));
    }
    if (have)
      if (Status st = emit(); !st) return st;
    snapshot.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return store.fail("read games", e);
  }
}

}  // namespace referee::storage
