#include "storage/game_stream.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "storage/query_sql.h"
#include "storage/store_access.h"

namespace referee::storage {

namespace {

constexpr const char* kOrder = " ORDER BY g.tournament_id, g.slot, g.id";

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
    SQLite::Database& db = StoreAccess::db(store);
    SQLite::Transaction snapshot(db);  // deferred: one read snapshot for both cursors
    const WhereClause where = where_clause(query);
    std::map<std::int64_t, std::string> tournaments;  // few: read once, not joined per row
    {
      SQLite::Statement t(db, "SELECT id, name FROM tournaments");
      while (t.executeStep()) tournaments[t.getColumn(0).getInt64()] = t.getColumn(1).getString();
    }
    SQLite::Statement games(
        db,
        "SELECT g.id, g.tournament_id, g.slot, g.game, g.start_position, "
        "g.opening, g.time_control, g.status, g.termination, g.reason, g.started_at, "
        "g.finished_at, g.plies, g.owner, p.engine, p.rank, p.score, " +
            StoreAccess::engine_hashes_column(store) +
            " FROM games g "
            "INDEXED BY games_by_tournament JOIN game_players p ON p.game_id = g.id" +
            where.sql + kOrder + ", p.seat");
    where.bind(games);
    std::optional<SQLite::Statement> moves;
    bool moves_left = false;
    if (options.moves) {
      moves.emplace(db,
                    "SELECT g.id, m.ply, m.player, m.move, m.time_ms, m.clock_ms, m.info, "
                    "m.source, m.note FROM games g INDEXED BY games_by_tournament JOIN moves m ON "
                    "m.game_id = g.id" +
                        where.sql + kOrder + ", m.ply");
      where.bind(*moves);
      moves_left = moves->executeStep();
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
      while (moves_left && moves->getColumn(0).getInt64() == g.id) {
        MoveRecord m;
        m.ply = moves->getColumn(1).getInt();
        m.player = moves->getColumn(2).getInt();
        m.move = moves->getColumn(3).getString();
        m.time_ms = static_cast<long>(moves->getColumn(4).getInt64());
        m.clock_ms = static_cast<long>(moves->getColumn(5).getInt64());
        m.info = moves->getColumn(6).getString();
        m.source = moves->getColumn(7).getString();
        m.note = moves->getColumn(8).getString();
        list.push_back(std::move(m));
        moves_left = moves->executeStep();
      }
      return visit(g, list);
    };
    while (games.executeStep()) {
      const std::int64_t id = games.getColumn(0).getInt64();
      if (!have || id != g.id) {
        if (have)
          if (Status st = emit(); !st) return st;
        have = true;
        g = GameRecord{};
        rank_missing = score_missing = false;
        g.id = id;
        if (!games.getColumn(1).isNull()) {
          g.tournament_id = games.getColumn(1).getInt64();
          auto t = tournaments.find(*g.tournament_id);
          if (t != tournaments.end()) g.tournament = t->second;
        }
        g.slot = games.getColumn(2).getInt64();
        g.game = games.getColumn(3).getString();
        g.start_position = games.getColumn(4).getString();
        g.opening = opening_of(games.getColumn(5).getText());
        g.time_control = games.getColumn(6).getString();
        g.status = games.getColumn(7).getString();
        g.termination = games.getColumn(8).getString();
        g.reason = games.getColumn(9).getString();
        g.started_at = games.getColumn(10).getString();
        g.finished_at = games.getColumn(11).getString();
        g.plies = games.getColumn(12).getInt64();
        if (!games.getColumn(13).isNull()) g.owner = games.getColumn(13).getInt64();
        g.engine_hashes = engine_hashes_from_json(games.getColumn(17).getString());
      }
      g.players.push_back(games.getColumn(14).getString());
      if (games.getColumn(15).isNull())
        rank_missing = true;
      else
        g.ranks.push_back(games.getColumn(15).getInt());
      if (games.getColumn(16).isNull())
        score_missing = true;
      else
        g.scores.push_back(games.getColumn(16).getDouble());
    }
    if (have)
      if (Status st = emit(); !st) return st;
    snapshot.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return StoreAccess::fail(store, "read games", e);
  }
}

}  // namespace referee::storage
