// Reading a JSON Lines export back (see import.h for the decisions). The SQL here is plain and
// portable: `?` parameters, ON CONFLICT DO NOTHING, rows inserted with explicit ids (a backend
// with sequences moves them past the largest id after an import).
#include "storage/import.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "games/game.h"
#include "storage/rows.h"
#include "storage/sql/sql.h"

namespace referee::storage {

namespace {

using Json = nlohmann::json;

const std::set<std::string> kGameKeys = {
    "id",           "tournament_id", "tournament",   "slot",        "game",  "start_position",
    "opening",      "players",       "time_control", "status",      "ranks", "scores",
    "termination",  "reason",        "started_at",   "finished_at", "plies", "moves",
    "time_controls"};
const std::set<std::string> kMoveKeys = {"ply",      "player", "move",   "time_ms",
                                         "clock_ms", "info",   "source", "note"};

struct Bad {
  std::string what;
};

const Json& field(const Json& j, const std::string& key, const std::string& where = "") {
  auto it = j.find(key);
  if (it == j.end()) throw Bad{"missing key '" + where + key + "'"};
  return *it;
}

std::string text(const Json& j, const std::string& key, const std::string& where = "") {
  const Json& v = field(j, key, where);
  if (!v.is_string()) throw Bad{"'" + where + key + "' must be a string"};
  return v.get<std::string>();
}

std::int64_t integer(const Json& j, const std::string& key, const std::string& where = "") {
  const Json& v = field(j, key, where);
  if (!v.is_number_integer()) throw Bad{"'" + where + key + "' must be an integer"};
  return v.get<std::int64_t>();
}

// A move's time or clock: null when unknown (stored as -1); archives written before null was
// used have -1 there, which reads the same.
std::int64_t milliseconds(const Json& j, const std::string& key) {
  const Json& v = field(j, key, "moves.");
  if (v.is_null()) return -1;
  if (!v.is_number_integer()) throw Bad{"'moves." + key + "' must be an integer or null"};
  return v.get<std::int64_t>();
}

int small_int(const Json& j, const std::string& key, const std::string& where = "") {
  const std::int64_t v = integer(j, key, where);
  if (v < -1000000000 || v > 1000000000) throw Bad{"'" + where + key + "' is out of range"};
  return static_cast<int>(v);
}

std::vector<std::string> texts(const Json& j, const std::string& key) {
  const Json& v = field(j, key);
  if (!v.is_array()) throw Bad{"'" + key + "' must be an array of strings"};
  std::vector<std::string> out;
  for (const Json& e : v) {
    if (!e.is_string()) throw Bad{"'" + key + "' must be an array of strings"};
    out.push_back(e.get<std::string>());
  }
  return out;
}

void only_keys(const Json& j, const std::set<std::string>& known, const std::string& where) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!known.count(it.key())) throw Bad{"unknown key '" + where + it.key() + "'"};
}

// The optional per-seat time controls: written by the export only when a seat's differs from
// time_control, one canonical time control per seat, seat 1's being time_control.
std::vector<std::string> seat_controls(const Json& j, const GameRecord& g,
                                       const TimeControlCanon& canonical) {
  if (!j.contains("time_controls")) return {};
  std::vector<std::string> out = texts(j, "time_controls");
  if (out.size() != g.players.size())
    throw Bad{"'time_controls' must have one time control per player (" +
              std::to_string(out.size()) + " for " + std::to_string(g.players.size()) + ")"};
  for (std::size_t s = 0; s < out.size(); ++s) {
    const std::string seat = "'time_controls' seat " + std::to_string(s + 1) + ": ";
    auto canon = canonical(out[s]);
    if (!canon) throw Bad{seat + canon.error()};
    if (*canon != out[s]) throw Bad{seat + "'" + out[s] + "' is not canonical ('" + *canon + "')"};
  }
  if (out.front() != g.time_control)
    throw Bad{"'time_controls' seat 1 must be 'time_control' ('" + g.time_control + "'), not '" +
              out.front() + "'"};
  if (std::all_of(out.begin(), out.end(),
                  [&](const std::string& c) { return c == g.time_control; }))
    throw Bad{"'time_controls' is written only when a seat's differs from 'time_control'"};
  return out;
}

ImportedGame read_record(const Json& j, const TimeControlCanon& canonical) {
  if (!j.is_object()) throw Bad{"a record must be a JSON object"};
  only_keys(j, kGameKeys, "");
  ImportedGame out;
  GameRecord& g = out.game;
  g.id = integer(j, "id");
  if (g.id < 1) throw Bad{"'id' must be positive"};
  const Json& tid = field(j, "tournament_id");
  if (!tid.is_null() && !tid.is_number_integer())
    throw Bad{"'event_id' must be an integer or null"};
  if (tid.is_number_integer()) g.event_id = tid.get<std::int64_t>();
  g.event = text(j, "tournament");
  if (g.event_id.has_value() != !g.event.empty())
    throw Bad{"'tournament' and 'event_id' must be both set or both empty"};
  g.slot = integer(j, "slot");
  if (g.slot < -1) throw Bad{"'slot' must be -1 or more"};
  g.game = text(j, "game");
  auto rules = games::make_game(g.game);
  if (!rules) throw Bad{"unknown game '" + g.game + "': " + rules.error()};
  if (rules->canonical() != g.game)
    throw Bad{"game '" + g.game + "' is not canonical ('" + rules->canonical() + "')"};
  g.start_position = text(j, "start_position");
  g.opening = texts(j, "opening");
  g.players = texts(j, "players");
  if (g.players.empty()) throw Bad{"'players' is empty"};
  for (const auto& p : g.players)
    if (p.empty()) throw Bad{"a player has no name"};
  g.time_control = text(j, "time_control");
  g.time_controls = seat_controls(j, g, canonical);
  const std::string status = text(j, "status");
  const auto parsed = game_status_from_text(status);
  if (!parsed) throw Bad{"'status' must be finished, unfinished or running, not '" + status + "'"};
  g.status = *parsed;
  const Json& ranks = field(j, "ranks");
  const Json& scores = field(j, "scores");
  if (!ranks.is_array() || !scores.is_array()) throw Bad{"'ranks' and 'scores' must be arrays"};
  for (const Json& r : ranks) {
    if (!r.is_number_integer() || r.get<std::int64_t>() < 1 ||
        r.get<std::int64_t>() > static_cast<std::int64_t>(g.players.size()))
      throw Bad{"a rank must be an integer from 1 to the number of players"};
    g.ranks.push_back(r.get<int>());
  }
  for (const Json& s : scores) {
    if (!s.is_number()) throw Bad{"a score must be a number"};
    g.scores.push_back(s.get<double>());
  }
  if (g.status == GameStatus::Finished && g.ranks.size() != g.players.size())
    throw Bad{"a finished game needs one rank per player (" + std::to_string(g.ranks.size()) +
              " for " + std::to_string(g.players.size()) + ")"};
  if (g.status != GameStatus::Finished && (!g.ranks.empty() || !g.scores.empty()))
    throw Bad{"a " + std::string(to_text(g.status)) + " game has no ranks or scores"};
  if (!g.scores.empty() && g.scores.size() != g.players.size())
    throw Bad{"'scores' must have one score per player"};
  g.termination = text(j, "termination");
  g.reason = text(j, "reason");
  g.started_at = text(j, "started_at");
  g.finished_at = text(j, "finished_at");
  g.plies = integer(j, "plies");
  const Json& moves = field(j, "moves");
  if (!moves.is_array()) throw Bad{"'moves' must be an array"};
  for (const Json& mj : moves) {
    if (!mj.is_object()) throw Bad{"a move must be an object"};
    only_keys(mj, kMoveKeys, "moves.");
    MoveRecord m;
    m.ply = small_int(mj, "ply", "moves.");
    m.player = small_int(mj, "player", "moves.");
    m.move = text(mj, "move", "moves.");
    m.time_ms = static_cast<long>(milliseconds(mj, "time_ms"));
    m.clock_ms = static_cast<long>(milliseconds(mj, "clock_ms"));
    m.info = text(mj, "info", "moves.");
    m.source = text(mj, "source", "moves.");
    if (m.source != "engine" && m.source != "opening" && m.source != "forced")
      throw Bad{"move " + std::to_string(m.ply) + ": 'source' must be engine, opening or forced"};
    if (mj.contains("note")) {
      m.note = text(mj, "note", "moves.");
      if (m.note.empty()) throw Bad{"move " + std::to_string(m.ply) + ": an empty 'note'"};
    }
    out.moves.push_back(std::move(m));
  }
  if (static_cast<std::size_t>(rules->num_players()) != g.players.size())
    throw Bad{g.game + " is played by " + std::to_string(rules->num_players()) + " players, not " +
              std::to_string(g.players.size())};
  return out;
}

std::string opening_json(const std::vector<std::string>& opening) {
  return Json(opening).dump();
}

}  // namespace

Expected<ImportedGame> parse_export_line(const std::string& line,
                                         const TimeControlCanon& canonical) {
  Json j;
  try {
    j = Json::parse(line);
  } catch (const Json::exception& e) {
    return Error{std::string("not JSON: ") + e.what()};
  }
  try {
    ImportedGame g = read_record(j, canonical);
    // The rules' verdict, worded without the (source database's) game id.
    if (Status st = verify_game(g.game, g.moves); !st) {
      const std::string prefix = "game " + std::to_string(g.game.id) + ": ";
      std::string why = st.error();
      if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
      return Error{"does not replay: " + why};
    }
    return g;
  } catch (const Bad& bad) {
    return Error{bad.what};
  } catch (const Json::exception& e) {
    return Error{e.what()};
  }
}

struct Importer::Impl {
  Store& store;
  sql::Connection& db;
  std::optional<sql::Transaction> tx;  // begin() .. commit()
  sql::Query same_start, players_of, moves_of, find_tournament, has_schedule, tournament_id_used,
      next_tournament_id, add_tournament, slot_holder, game_id_used, next_game_id, add_game,
      add_engine, add_player, add_move;

  explicit Impl(Store& s)
      : store(s),
        db(s.connection()),
        same_start(db,
                   "SELECT id FROM games WHERE started_at = ? AND game = ? AND start_position = ?"
                   " AND opening = ? AND time_control = ?"),
        players_of(db, "SELECT engine FROM game_players WHERE game_id = ? ORDER BY seat"),
        moves_of(db, "SELECT move FROM moves WHERE game_id = ? ORDER BY ply"),
        find_tournament(db, "SELECT id FROM events WHERE name = ?"),
        has_schedule(db, "SELECT 1 FROM slots WHERE event_id = ? LIMIT 1"),
        tournament_id_used(db, "SELECT 1 FROM events WHERE id = ?"),
        next_tournament_id(db, "SELECT coalesce(max(id), 0) + 1 FROM events"),
        add_tournament(db,
                       "INSERT INTO events (id, name, config, state) VALUES (?, ?, '',"
                       " 'finished')"),
        slot_holder(db,
                    "SELECT id FROM games WHERE event_id = ? AND slot = ? AND"
                    " status = 'finished'"),
        game_id_used(db, "SELECT 1 FROM games WHERE id = ?"),
        next_game_id(db, "SELECT coalesce(max(id), 0) + 1 FROM games"),
        add_game(db,
                 "INSERT INTO games (id, event_id, slot, game, start_position, opening,"
                 " time_control, status, termination, reason, started_at, finished_at, plies,"
                 " time_controls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        add_engine(db, "INSERT INTO engines (name) VALUES (?) ON CONFLICT (name) DO NOTHING"),
        add_player(db,
                   "INSERT INTO game_players (game_id, seat, engine, rank, score)"
                   " VALUES (?, ?, ?, ?, ?)"),
        add_move(db,
                 "INSERT INTO moves (game_id, ply, player, move, time_ms, clock_ms, info, source,"
                 " note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)") {}

  // The id of a stored game with the same content, if any.
  std::optional<std::int64_t> duplicate_of(const ImportedGame& in) {
    const GameRecord& g = in.game;
    std::vector<std::int64_t> candidates;
    same_start.reset();
    same_start.bind(1, g.started_at);
    same_start.bind(2, g.game);
    same_start.bind(3, g.start_position);
    same_start.bind(4, opening_json(g.opening));
    same_start.bind(5, g.time_control);
    while (same_start.step()) candidates.push_back(same_start.int64(0));
    for (std::int64_t id : candidates) {
      std::vector<std::string> players;
      players_of.reset();
      players_of.bind(1, id);
      while (players_of.step()) players.push_back(players_of.text(0));
      if (players != g.players) continue;
      std::size_t i = 0;
      bool same = true;
      moves_of.reset();
      moves_of.bind(1, id);
      while (same && moves_of.step()) {
        same = i < in.moves.size() && moves_of.text(0) == in.moves[i].move;
        ++i;
      }
      if (same && i == in.moves.size()) return id;
    }
    return std::nullopt;
  }

  // `wanted` when no row has it, else the next id after the largest (explicit ids either way:
  // one insert form, inside the import's write transaction).
  static std::int64_t free_or_next(sql::Query& used, sql::Query& next, std::int64_t wanted) {
    used.reset();
    used.bind(1, wanted);
    if (!used.step()) return wanted;
    next.reset();
    next.step();
    return next.int64(0);
  }

  std::int64_t tournament_for(const GameRecord& g) {
    find_tournament.reset();
    find_tournament.bind(1, g.event);
    if (find_tournament.step()) return find_tournament.int64(0);
    const std::int64_t id = free_or_next(tournament_id_used, next_tournament_id, *g.event_id);
    add_tournament.reset();
    add_tournament.bind(1, id);
    add_tournament.bind(2, g.event);
    add_tournament.exec();
    return id;
  }
};

Importer::Importer(Store& store) : impl_(std::make_unique<Impl>(store)) {}

Importer::~Importer() {
  rollback();
}

Status Importer::begin() {
  try {
    impl_->tx.emplace(impl_->db);
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->store.fail("begin an import", e);
  }
}

Status Importer::commit() {
  try {
    impl_->tx->commit();
    impl_->tx.reset();
    // Rows were inserted with explicit ids: a backend with sequences moves them past the largest.
    if (impl_->db.backend() == sql::Backend::PostgreSQL)
      impl_->db.exec(
          "SELECT setval(pg_get_serial_sequence('games', 'id'), coalesce(max(id), 0) + 1, false)"
          " FROM games;"
          "SELECT setval(pg_get_serial_sequence('events', 'id'), coalesce(max(id), 0) + 1,"
          " false) FROM events");
    return Ok{};
  } catch (const std::exception& e) {
    rollback();
    return impl_->store.fail("commit an import", e);
  }
}

void Importer::rollback() {
  impl_->tx.reset();  // rolled back unless committed
}

Expected<ImportAdd> Importer::add(const ImportedGame& in) {
  Impl& s = *impl_;
  const GameRecord& g = in.game;
  try {
    if (auto id = s.duplicate_of(in)) return ImportAdd{false, *id};
    std::optional<std::int64_t> tournament;
    if (g.event_id) {
      tournament = s.tournament_for(g);
      // An event played here (it has a schedule): a game stored beside its slots would be played
      // again, and its second finish refused mid-event.
      s.has_schedule.reset();
      s.has_schedule.bind(1, *tournament);
      if (s.has_schedule.step())
        return Error{"tournament '" + g.event +
                     "' is an event of this database (it has a schedule): its games are not "
                     "imported into it"};
    }
    if (tournament && g.status == GameStatus::Finished && g.slot >= 0) {
      s.slot_holder.reset();
      s.slot_holder.bind(1, *tournament);
      s.slot_holder.bind(2, g.slot);
      if (s.slot_holder.step())
        return Error{"slot " + std::to_string(g.slot) + " of tournament '" + g.event +
                     "' already has another finished game (id " +
                     std::to_string(s.slot_holder.int64(0)) + ")"};
    }
    const std::int64_t id = Impl::free_or_next(s.game_id_used, s.next_game_id, g.id);
    auto& q = s.add_game;
    q.reset();
    q.clear_bindings();
    q.bind(1, id);
    if (tournament) q.bind(2, *tournament);
    q.bind(3, g.slot);
    q.bind(4, g.game);
    q.bind(5, g.start_position);
    q.bind(6, opening_json(g.opening));
    q.bind(7, g.time_control);
    q.bind(8, to_text(g.status));
    q.bind(9, g.termination);
    q.bind(10, g.reason);
    q.bind(11, g.started_at);
    q.bind(12, g.finished_at);
    q.bind(13, g.plies);
    q.bind(14, time_controls_json(g.time_controls));
    q.exec();
    for (std::size_t seat = 0; seat < g.players.size(); ++seat) {
      s.add_engine.reset();
      s.add_engine.bind(1, g.players[seat]);
      s.add_engine.exec();
      auto& p = s.add_player;
      p.reset();
      p.clear_bindings();
      p.bind(1, id);
      p.bind(2, static_cast<int>(seat + 1));
      p.bind(3, g.players[seat]);
      if (seat < g.ranks.size()) p.bind(4, g.ranks[seat]);
      if (seat < g.scores.size()) p.bind(5, g.scores[seat]);
      p.exec();
    }
    for (const MoveRecord& m : in.moves) {
      auto& mq = s.add_move;
      mq.reset();
      mq.bind(1, id);
      mq.bind(2, m.ply);
      mq.bind(3, m.player);
      mq.bind(4, m.move);
      mq.bind(5, static_cast<std::int64_t>(m.time_ms));
      mq.bind(6, static_cast<std::int64_t>(m.clock_ms));
      mq.bind(7, m.info);
      mq.bind(8, m.source);
      mq.bind(9, m.note);
      mq.exec();
    }
    return ImportAdd{true, id};
  } catch (const std::exception& e) {
    return s.store.fail("import game " + std::to_string(g.id), e);
  }
}

}  // namespace referee::storage
