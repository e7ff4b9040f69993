#include "storage/pair_stream.h"

#include <cstdlib>
#include <map>
#include <unordered_map>

#include "storage/name_ids.h"
#include "storage/query_sql.h"
#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage {

namespace {

// "1:engine_id:rank 2:engine_id:rank" (results.seats of schema v5) into engine ids and ranks;
// false for any other number of seats.
bool two_seats(const char* text, std::array<std::int64_t, 2>& engines, std::array<int, 2>& ranks) {
  const char* at = text;
  for (int seat = 1; seat <= 2; ++seat) {
    char* end = nullptr;
    if (std::strtol(at, &end, 10) != seat || *end != ':') return false;
    engines[static_cast<std::size_t>(seat - 1)] = std::strtoll(end + 1, &end, 10);
    if (*end != ':') return false;
    ranks[static_cast<std::size_t>(seat - 1)] = static_cast<int>(std::strtol(end + 1, &end, 10));
    if (*end != (seat == 1 ? ' ' : '\0')) return false;
    at = end + 1;
  }
  return true;
}

}  // namespace

Status for_each_two_player_result(Store& store, const GameQuery& query, TwoPlayerNames& names,
                                  const TwoPlayerVisitor& visit) {
  if (!query.finished_only) return Error{"two-player results are read from finished games only"};
  try {
    sql::Connection& db = store.connection();
    sql::Transaction snapshot(db, sql::Transaction::Kind::Read);
    const sql::Backend b = db.backend();
    const WhereClause where = where_clause(query, b);
    const std::string order = " ORDER BY g.event_id" + sql::nulls_first(b) + ", g.slot, g.id";
    std::unordered_map<std::string, std::uint32_t> game_ids, engine_ids;
    for (std::uint32_t k = 0; k < names.games.size(); ++k) game_ids.emplace(names.games[k], k);
    for (std::uint32_t k = 0; k < names.engines.size(); ++k)
      engine_ids.emplace(names.engines[k], k);
    TwoPlayerResult r;
    if (has_results_table(db)) {
      // Schema v5: a game's seats with engine ids and ranks are one entry of results_by_game,
      // one lookup per game instead of three into game_players.
      std::map<std::int64_t, std::uint32_t> engine_of, game_of;
      {
        sql::Query e(db, "SELECT id, name FROM engines");
        while (e.step()) engine_of[e.int64(0)] = intern(engine_ids, names.engines, e.text(1));
        sql::Query k(db, "SELECT id, game FROM result_kinds");
        while (k.step()) game_of[k.int64(0)] = intern(game_ids, names.games, k.text(1));
      }
      sql::Query rows(db,
                      "SELECT g.id, g.event_id, g.slot, r.kind, g.start_position, g.opening, "
                      "r.seats FROM games g" +
                          rows::games_by_event_index(db) + " JOIN results r ON r.game_id = g.id" +
                          where.sql + order,
                      sql::Rows::Many);
      where.bind(rows);
      std::array<std::int64_t, 2> engines{};
      while (rows.step()) {
        if (!two_seats(rows.c_str(6), engines, r.ranks)) continue;
        auto game = game_of.find(rows.int64(3));
        auto first = engine_of.find(engines[0]), second = engine_of.find(engines[1]);
        if (game == game_of.end() || first == engine_of.end() || second == engine_of.end())
          return Error{store.path() + ": the stored result of game " +
                       std::to_string(rows.int64(0)) + " is damaged"};
        r.id = rows.int64(0);
        r.event_id = rows.is_null(1) ? -1 : rows.int64(1);
        r.slot = rows.int64(2);
        r.game = game->second;
        r.start_position = rows.c_str(4);
        r.opening = rows.c_str(5);
        r.engines = {first->second, second->second};
        if (Status st = visit(r); !st) return st;
      }
    } else {
      // Older files opened read-only: the players, seat by seat.
      sql::Query rows(
          db,
          "SELECT g.id, g.event_id, g.slot, g.game, g.start_position, g.opening, a.engine, "
          "a.rank, c.engine, c.rank FROM games g" +
              rows::games_by_event_index(db) +
              " JOIN game_players a ON a.game_id = g.id AND a.seat = 1"
              " JOIN game_players c ON c.game_id = g.id AND c.seat = 2" +
              where.sql + (where.sql.empty() ? " WHERE " : " AND ") +
              "a.rank IS NOT NULL AND c.rank IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
              "game_players x WHERE x.game_id = g.id AND x.seat > 2)" +
              order,
          sql::Rows::Many);
      where.bind(rows);
      while (rows.step()) {
        r.id = rows.int64(0);
        r.event_id = rows.is_null(1) ? -1 : rows.int64(1);
        r.slot = rows.int64(2);
        r.game = intern(game_ids, names.games, rows.text(3));
        r.start_position = rows.c_str(4);
        r.opening = rows.c_str(5);
        r.engines = {intern(engine_ids, names.engines, rows.text(6)),
                     intern(engine_ids, names.engines, rows.text(8))};
        r.ranks = {rows.int32(7), rows.int32(9)};
        if (Status st = visit(r); !st) return st;
      }
    }
    snapshot.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return store.fail("read two-player results", e);
  }
}

}  // namespace referee::storage
