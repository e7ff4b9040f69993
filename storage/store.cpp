// Store: the game records over a Database (store.h): games, their players, moves and transcripts,
// and the pages and filters of the readers.
//
// Decisions:
// - The frequent statements (add_move, add_logs, begin_game's inserts) are prepared once per
//   connection; the rare ones are prepared when used.
// - Every database failure becomes one line naming the database with the failure's kind
//   (Database::fail); records that do not fit are Invalid, a missing game NotFound.
#include "storage/store.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "games/terminations.h"
#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"
#include "storage/transcript_text.h"

namespace referee::storage {

std::string engine_hashes_json(const std::vector<EngineHash>& hashes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& h : hashes) {
    nlohmann::json seat = {{"program", h.program}};
    if (!h.script.empty()) seat["script"] = h.script;
    if (!h.artifact.empty()) seat["artifact"] = h.artifact;
    out.push_back(std::move(seat));
  }
  return out.dump();
}

std::vector<EngineHash> engine_hashes_from_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<EngineHash> out;
  if (!j.is_array()) return out;
  for (const auto& seat : j) {
    EngineHash h;
    if (seat.is_object()) {
      if (auto p = seat.find("program"); p != seat.end() && p->is_string()) h.program = *p;
      if (auto sc = seat.find("script"); sc != seat.end() && sc->is_string()) h.script = *sc;
      if (auto a = seat.find("artifact"); a != seat.end() && a->is_string()) h.artifact = *a;
    }
    out.push_back(std::move(h));
  }
  return out;
}

std::string time_controls_json(const std::vector<std::string>& controls) {
  return rows::json_strings(controls);
}

std::vector<std::string> time_controls_from_json(const std::string& text) {
  return rows::strings_from_json(text);
}

namespace {

// The WHERE clause shared by the two queries of games(); ?1 tournament, ?2 name, ?3 finished only,
// ?4 one game id.
const char* const kGameWhere =
    " WHERE (CAST(?1 AS BIGINT) IS NULL OR g.event_id = ?1)"
    " AND (?2 = '' OR g.game = ?2 OR substr(g.game, 1, length(?2) + 1) = ?2 || ':')"
    " AND (?3 = 0 OR g.status = 'finished')"
    " AND (CAST(?4 AS BIGINT) IS NULL OR g.id = ?4)";

}  // namespace

// The frequent statements, prepared once (destroyed before the connection: a Store's members
// go before its Database).
struct Store::Statements {
  std::unique_ptr<sql::Statement> insert_move, insert_moves, insert_log, insert_game, ensure_engine,
      insert_player;

  explicit Statements(sql::Connection& db) {
    const std::string insert =
        "INSERT INTO moves (game_id, ply, player, move, time_ms, clock_ms, info, source, note) "
        "VALUES ";
    const std::string row = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";
    insert_move = db.prepare(insert + row);
    std::string rows = insert + row;
    for (std::size_t r = 1; r < kMovesPerInsert; ++r) rows += ", " + row;
    insert_moves = db.prepare(rows);
    insert_log =
        db.prepare("INSERT INTO engine_transcripts (game_id, seat, text) VALUES (?, ?, ?)");
    insert_game = db.prepare(
        "INSERT INTO games (event_id, slot, game, start_position, opening, "
        "time_control, status, started_at, owner, engine_hashes, time_controls)"
        " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)"
        " RETURNING id");
    ensure_engine = db.prepare("INSERT INTO engines (name) VALUES (?) ON CONFLICT DO NOTHING");
    insert_player = db.prepare("INSERT INTO game_players (game_id, seat, engine) VALUES (?, ?, ?)");
  }
};

Store::Store(Database database) : Database(std::move(database)) {}
Store::Store(Store&&) noexcept = default;
// Not defaulted: that assigns the base first, closing the old connection while this store's
// prepared statements still hold it (SQLite refuses to close, SQLiteCpp asserts).
Store& Store::operator=(Store&& other) noexcept {
  statements_.reset();
  Database::operator=(std::move(other));
  statements_ = std::move(other.statements_);
  return *this;
}
Store::~Store() = default;

Expected<Store> Store::open(const std::string& path, const OpenOptions& options) {
  auto database = Database::open(path, options);
  if (!database) return database.failure();
  Store store(std::move(*database));
  if (store.read_only()) return store;
  try {
    store.statements_ = std::make_unique<Statements>(store.connection());
  } catch (const std::exception& e) {
    return Error{store.path() + ": " + e.what(), sql::kind_of(e)};
  }
  return store;
}

Expected<std::int64_t> Store::begin_game(const GameRecord& game) {
  if (game.players.empty()) return error(ErrorKind::Invalid, "a game needs players");
  if (game.game.empty()) return error(ErrorKind::Invalid, "a game needs its game string");
  try {
    sql::Transaction tx(connection());
    auto& g = *statements_->insert_game;
    g.reset();
    g.bind(1, game.event_id);
    g.bind(2, static_cast<std::int64_t>(game.slot));
    g.bind(3, game.game);
    g.bind(4, game.start_position);
    g.bind(5, rows::json_strings(game.opening));
    g.bind(6, game.time_control);
    g.bind(7, game.started_at.empty() ? rows::now_utc() : game.started_at);
    g.bind(8, game.owner);
    g.bind(9, engine_hashes_json(game.engine_hashes));
    g.bind(10, time_controls_json(game.time_controls));
    std::int64_t id = sql::returning_id(g);
    // Engines first, in name order: concurrent games of the same engines lock their rows in one
    // order (PostgreSQL would otherwise find a deadlock between two such inserts).
    std::vector<std::string> names = game.players;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& name : names) {
      auto& e = *statements_->ensure_engine;
      e.reset();
      e.bind(1, name);
      e.exec();
    }
    for (std::size_t seat = 0; seat < game.players.size(); ++seat) {
      auto& p = *statements_->insert_player;
      p.reset();
      p.bind(1, static_cast<std::int64_t>(id));
      p.bind(2, static_cast<int>(seat + 1));
      p.bind(3, game.players[seat]);
      p.exec();
    }
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return fail("begin a game", e);
  }
}

namespace {

// Binds one moves row at parameter `first` (9 parameters).
void bind_move(sql::Statement& q, int first, std::int64_t game_id, const MoveRecord& move) {
  q.bind(first, game_id);
  q.bind(first + 1, move.ply);
  q.bind(first + 2, move.player);
  q.bind(first + 3, move.move);
  q.bind(first + 4, static_cast<std::int64_t>(move.time_ms));
  q.bind(first + 5, static_cast<std::int64_t>(move.clock_ms));
  q.bind(first + 6, move.info);
  q.bind(first + 7, move.source);
  q.bind(first + 8, move.note);
}

}  // namespace

Status Store::add_moves(const std::vector<std::pair<std::int64_t, const MoveRecord*>>& moves) {
  std::size_t i = 0;
  while (moves.size() - i >= kMovesPerInsert) {
    try {
      // A failed statement aborts PostgreSQL's whole transaction: there it gets a savepoint, so
      // that the moves can be tried one by one after it. SQLite undoes the statement alone.
      std::optional<sql::Transaction> savepoint;
      if (connection().backend() == sql::Backend::PostgreSQL) savepoint.emplace(connection());
      auto& q = *statements_->insert_moves;
      q.reset();
      for (std::size_t r = 0; r < kMovesPerInsert; ++r)
        bind_move(q, static_cast<int>(r * 9 + 1), moves[i + r].first, *moves[i + r].second);
      q.exec();
      if (savepoint) savepoint->commit();
      i += kMovesPerInsert;
    } catch (const std::exception&) {
      statements_->insert_moves->reset();
      statements_->insert_moves->clear_bindings();
      break;  // the statement wrote nothing: one by one from here, to name the culprit
    }
  }
  for (; i < moves.size(); ++i)
    if (auto st = add_move(moves[i].first, *moves[i].second); !st) return st;
  return Ok{};
}

Status Store::add_move(std::int64_t game_id, const MoveRecord& move) {
  try {
    auto& q = *statements_->insert_move;
    q.reset();
    bind_move(q, 1, game_id, move);
    q.exec();
    return Ok{};
  } catch (const std::exception& e) {
    statements_->insert_move->reset();
    statements_->insert_move->clear_bindings();
    return fail("record move " + std::to_string(move.ply) + " of game " + std::to_string(game_id),
                e);
  }
}

Status Store::add_logs(std::int64_t game_id, const std::vector<LogLine>& lines) {
  if (lines.empty()) return Ok{};
  // One transcript row per seat, lines in the order given (storage/transcript_text.h).
  std::map<int, std::vector<const LogLine*>> by_seat;
  for (const LogLine& line : lines) by_seat[line.seat].push_back(&line);
  std::vector<std::pair<int, std::string>> transcripts;
  transcripts.reserve(by_seat.size());
  for (const auto& [seat, seat_lines] : by_seat) {
    transcripts.emplace_back(seat, std::string());
    encode_transcript(seat_lines, transcripts.back().second);
  }
  try {
    sql::Transaction tx(connection());
    auto& q = *statements_->insert_log;
    for (const auto& [seat, text] : transcripts) {
      q.reset();
      q.bind(1, static_cast<std::int64_t>(game_id));
      q.bind(2, seat);
      q.bind(3, text);
      q.exec();
    }
    q.clear_bindings();
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    statements_->insert_log->reset();
    statements_->insert_log->clear_bindings();
    return fail("record engine logs of game " + std::to_string(game_id), e);
  }
}

Status rows::write_finish(sql::Connection& cache, const Database& database, std::int64_t game_id,
                          const GameRecord& result, bool finished) {
  const std::string what = "finish game " + std::to_string(game_id);
  auto& count = cache.cached("SELECT count(*) FROM game_players WHERE game_id = ?");
  count.bind(1, static_cast<std::int64_t>(game_id));
  count.step();
  const std::size_t players = static_cast<std::size_t>(count.int32(0));
  if (players == 0) return database.error(ErrorKind::NotFound, "cannot " + what + ": no such game");
  if (finished && result.ranks.size() != players)
    return database.error(ErrorKind::Invalid,
                          "cannot " + what + ": " + std::to_string(result.ranks.size()) +
                              " ranks for " + std::to_string(players) + " players");
  if (!result.ranks.empty() && result.ranks.size() != players)
    return database.error(ErrorKind::Invalid,
                          "cannot " + what + ": ranks do not match the players");
  if (!result.scores.empty() && result.scores.size() != players)
    return database.error(ErrorKind::Invalid,
                          "cannot " + what + ": " + std::to_string(result.scores.size()) +
                              " scores for " + std::to_string(players) + " players");
  auto& g = cache.cached(
      "UPDATE games SET status = ?, termination = ?, reason = ?, finished_at = ?, "
      "plies = ? WHERE id = ?");
  g.bind(1, finished ? "finished" : "unfinished");
  g.bind(2, result.termination);
  g.bind(3, result.reason);
  g.bind(4, result.finished_at.empty() ? rows::now_utc() : result.finished_at);
  g.bind(5, static_cast<std::int64_t>(result.plies));
  g.bind(6, static_cast<std::int64_t>(game_id));
  g.exec();
  auto& p =
      cache.cached("UPDATE game_players SET rank = ?, score = ? WHERE game_id = ? AND seat = ?");
  for (std::size_t seat = 0; seat < players; ++seat) {
    p.reset();
    if (finished && seat < result.ranks.size())
      p.bind(1, result.ranks[seat]);
    else
      p.bind(1);
    if (finished && seat < result.scores.size())
      p.bind(2, result.scores[seat]);
    else
      p.bind(2);
    p.bind(3, static_cast<std::int64_t>(game_id));
    p.bind(4, static_cast<int>(seat + 1));
    p.exec();
  }
  return Ok{};
}

Status Store::finish_game(std::int64_t game_id, const GameRecord& result) {
  try {
    sql::CachedScope resets(connection());
    sql::Transaction tx(connection());
    Status st = rows::write_finish(connection(), *this, game_id, result,
                                   result.status != GameStatus::Unfinished);
    if (!st) return st;
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return fail("finish game " + std::to_string(game_id), e);
  }
}

Expected<int> Store::close_running(std::optional<std::int64_t> event_id) {
  try {
    sql::Query q(connection(),
                 "UPDATE games SET status = 'unfinished',"
                 " termination = CASE WHEN termination = '' THEN 'interrupted'"
                 " ELSE termination END,"
                 " reason = CASE WHEN reason = '' THEN 'the run stopped before the game ended'"
                 " ELSE reason END"
                 " WHERE status = 'running' AND (CAST(?1 AS BIGINT) IS NULL OR event_id = ?1)");
    q.bind(1, event_id);
    return q.exec();
  } catch (const std::exception& e) {
    return fail("close running games", e);
  }
}

Expected<std::vector<GameRecord>> Store::games(const GameFilter& filter) {
  return query_games(filter, std::nullopt);
}

namespace {

// The games selected by `where` (a WHERE clause on games g), with their players, ordered by id.
// `bind` binds the clause's parameters on both queries. Runs inside the caller's read snapshot.
template <class Bind>
std::vector<GameRecord> load_games(sql::Connection& db, const std::string& hashes,
                                   const std::string& controls, const std::string& where,
                                   Bind bind) {
  sql::Query g(db,
               "SELECT g.id, g.event_id, coalesce(t.name, ''), g.slot, g.game, g.start_position,"
               " g.opening, g.time_control, g.status, g.termination, g.reason, g.started_at,"
               " g.finished_at, g.plies, g.owner, " +
                   hashes + ", " + controls +
                   " FROM games g LEFT JOIN events t ON t.id = g.event_id" + where +
                   " ORDER BY g.id");
  bind(g);
  std::vector<GameRecord> out;
  while (g.step()) {
    GameRecord r;
    r.id = g.int64(0);
    if (!g.is_null(1)) r.event_id = g.int64(1);
    r.event = g.text(2);
    r.slot = g.int64(3);
    r.game = g.text(4);
    r.start_position = g.text(5);
    r.opening = rows::strings_from_json(g.text(6));
    r.time_control = g.text(7);
    r.status = game_status_from_text(g.text(8)).value_or(GameStatus::Unfinished);
    r.termination = games::legacy_termination(g.text(9));
    r.reason = g.text(10);
    r.started_at = g.text(11);
    r.finished_at = g.text(12);
    r.plies = g.int64(13);
    if (!g.is_null(14)) r.owner = g.int64(14);
    r.engine_hashes = engine_hashes_from_json(g.text(15));
    r.time_controls = time_controls_from_json(g.text(16));
    out.push_back(std::move(r));
  }
  sql::Query p(db,
               "SELECT p.game_id, p.engine, p.rank, p.score FROM game_players p "
               "JOIN games g ON g.id = p.game_id" +
                   where + " ORDER BY p.game_id, p.seat");
  bind(p);
  std::size_t at = 0;
  std::vector<bool> rank_missing(out.size(), false), score_missing(out.size(), false);
  while (p.step()) {
    std::int64_t game_id = p.int64(0);
    while (at < out.size() && out[at].id < game_id) ++at;
    if (at == out.size() || out[at].id != game_id) continue;
    GameRecord& r = out[at];
    r.players.push_back(p.text(1));
    if (p.is_null(2))
      rank_missing[at] = true;
    else
      r.ranks.push_back(p.int32(2));
    if (p.is_null(3))
      score_missing[at] = true;
    else
      r.scores.push_back(p.real(3));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (rank_missing[i]) out[i].ranks.clear();
    if (score_missing[i]) out[i].scores.clear();
  }
  return out;
}

}  // namespace

Expected<std::vector<GameRecord>> Store::query_games(const GameFilter& filter,
                                                     std::optional<std::int64_t> id) {
  try {
    sql::Transaction tx(connection(),
                        sql::Transaction::Kind::Read);  // one snapshot for both queries
    std::vector<GameRecord> out;
    const std::string hashes = rows::engine_hashes_column(connection());
    const std::string controls = rows::time_controls_column(connection());
    if (id) {
      out = load_games(connection(), hashes, controls, " WHERE g.id = ?1",
                       [&](sql::Statement& q) { q.bind(1, static_cast<std::int64_t>(*id)); });
    } else {
      out = load_games(connection(), hashes, controls, kGameWhere, [&](sql::Statement& q) {
        q.bind(1, filter.event_id);
        q.bind(2, filter.game_prefix);
        q.bind(3, filter.finished_only ? 1 : 0);
        q.bind(4);
      });
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return fail("read games", e);
  }
}

Expected<GameRecord> Store::game(std::int64_t game_id) {
  auto one = query_games(GameFilter{std::nullopt, "", false}, game_id);
  if (!one) return one.failure();
  if (!one->empty()) return std::move(one->front());
  return error(ErrorKind::NotFound, "no game " + std::to_string(game_id));
}

Expected<std::vector<MoveRecord>> Store::moves(std::int64_t game_id) {
  try {
    sql::Query q(connection(),
                 "SELECT ply, player, move, time_ms, clock_ms, info, source, note FROM moves "
                 "WHERE game_id = ? ORDER BY ply");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<MoveRecord> out;
    while (q.step()) {
      MoveRecord m;
      m.ply = q.int32(0);
      m.player = q.int32(1);
      m.move = q.text(2);
      m.time_ms = static_cast<long>(q.int64(3));
      m.clock_ms = static_cast<long>(q.int64(4));
      m.info = q.text(5);
      m.source = q.text(6);
      m.note = q.text(7);
      out.push_back(std::move(m));
    }
    return out;
  } catch (const std::exception& e) {
    return fail("read the moves of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<LogLine>> Store::logs(std::int64_t game_id) {
  try {
    sql::Query q(connection(),
                 "SELECT seat, text FROM engine_transcripts WHERE game_id = ? ORDER BY id");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<LogLine> out;
    while (q.step()) {
      const int seat = q.int32(0);
      if (auto st = decode_transcript(q.text(1), seat, out); !st)
        return Error{"game " + std::to_string(game_id) + ": " + st.error()};
    }
    return out;
  } catch (const std::exception& e) {
    return fail("read the logs of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<std::int64_t>> Store::finished_slots(std::int64_t event_id) {
  try {
    sql::Query q(connection(),
                 "SELECT DISTINCT slot FROM games WHERE event_id = ? AND status = "
                 "'finished' AND slot >= 0 ORDER BY slot");
    q.bind(1, static_cast<std::int64_t>(event_id));
    std::vector<std::int64_t> out;
    while (q.step()) out.push_back(q.int64(0));
    return out;
  } catch (const std::exception& e) {
    return fail("read the finished slots of event " + std::to_string(event_id), e);
  }
}

namespace {

// The WHERE clause of game_page; ?1 event, ?2 engine, ?3 game name, ?4 status, ?5 after id,
// ?6 result.
const char* const kPageWhere =
    " WHERE (CAST(?1 AS BIGINT) IS NULL OR g.event_id = ?1)"
    " AND (?2 = '' OR EXISTS (SELECT 1 FROM game_players x WHERE x.game_id = g.id AND"
    " x.engine = ?2))"
    " AND (?3 = '' OR g.game = ?3 OR substr(g.game, 1, length(?3) + 1) = ?3 || ':')"
    " AND (?4 = '' OR g.status = ?4)"
    " AND (CAST(?5 AS BIGINT) IS NULL OR g.id > ?5)"
    " AND (?6 = '' OR (g.status = 'finished' AND"
    " (SELECT count(*) FROM game_players x WHERE x.game_id = g.id) = 2 AND"
    " (SELECT CASE WHEN a.rank < b.rank THEN '1-0' WHEN a.rank > b.rank THEN '0-1'"
    " ELSE '1/2-1/2' END FROM game_players a, game_players b WHERE a.game_id = g.id AND"
    " a.seat = 1 AND b.game_id = g.id AND b.seat = 2) = ?6))";

}  // namespace

Expected<GamePage> Store::game_page(const GamePageQuery& query) {
  try {
    sql::Transaction tx(
        connection(),
        sql::Transaction::Kind::Read);  // one snapshot for the count, the ids and the games
    auto bind = [&](sql::Statement& q) {
      q.bind(1, query.event);
      q.bind(2, query.engine);
      q.bind(3, query.game_prefix);
      q.bind(4, query.status ? to_text(*query.status) : "");
      q.bind(5, query.after_id);
      q.bind(6, query.result);
    };
    GamePage page;
    if (query.count_total) {
      sql::Query count(connection(), std::string("SELECT count(*) FROM games g") + kPageWhere);
      bind(count);
      count.step();
      page.total = count.int64(0);
    }
    sql::Query ids(connection(),
                   std::string("SELECT g.id FROM games g") + kPageWhere +
                       (query.newest_first ? " ORDER BY g.id DESC" : " ORDER BY g.id") +
                       " LIMIT ?7 OFFSET ?8");
    bind(ids);
    ids.bind(7, query.limit);
    ids.bind(8, query.offset);
    std::vector<std::int64_t> wanted;
    while (ids.step()) wanted.push_back(ids.int64(0));
    if (!wanted.empty()) {
      const std::string list = nlohmann::json(wanted).dump();
      page.games = load_games(connection(), rows::engine_hashes_column(connection()),
                              rows::time_controls_column(connection()),
                              " WHERE " + sql::in_json_ints(connection().backend(), "g.id", "?1"),
                              [&](sql::Statement& q) { q.bind(1, list); });
      if (query.newest_first) std::reverse(page.games.begin(), page.games.end());
    }
    tx.commit();
    return page;
  } catch (const std::exception& e) {
    return fail("read games", e);
  }
}

std::vector<std::string> move_sequence(const GameRecord& game,
                                       const std::vector<MoveRecord>& moves) {
  bool opening_recorded = false;
  for (const MoveRecord& m : moves) opening_recorded = opening_recorded || m.source == "opening";
  std::vector<std::string> out = opening_recorded ? std::vector<std::string>{} : game.opening;
  for (const MoveRecord& m : moves) out.push_back(m.move);
  return out;
}

}  // namespace referee::storage
