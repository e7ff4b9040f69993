// Store: one SQLite connection (SQLiteCpp) and its prepared statements; every SQLite error is
// caught here and becomes one line naming the file.
//
// Decisions:
// - Durability: each add_move is its own autocommit INSERT. In WAL mode with synchronous=NORMAL a
//   commit survives the process being killed (the WAL is in the OS cache and replayed on the next
//   open); only a power loss may lose the last moves, never corrupt the file.
// - Concurrency: one Store per thread or process; a 10 s busy timeout, and every multi-statement
//   write runs in a BEGIN IMMEDIATE transaction (a deferred one could fail at once with
//   SQLITE_BUSY when it upgrades from reading to writing).
// - The frequent statements (add_move, add_logs, begin_game's inserts) are prepared once per
//   connection; the rare ones are prepared when used.
#include "storage/store.h"

#include <sqlite3.h>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <unistd.h>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "storage/schema.h"

namespace referee::storage {

namespace {

constexpr int kBusyTimeoutMs = 10000;

// A write transaction, or a savepoint when a batch (Store::begin_batch) is already open, so that
// every write method works alone and inside a batch alike.
class WriteTx {
 public:
  explicit WriteTx(SQLite::Database& db)
      : db_(db), nested_(sqlite3_get_autocommit(db.getHandle()) == 0) {
    db_.exec(nested_ ? "SAVEPOINT write_tx" : "BEGIN IMMEDIATE");
  }
  WriteTx(const WriteTx&) = delete;
  WriteTx& operator=(const WriteTx&) = delete;
  void commit() {
    db_.exec(nested_ ? "RELEASE write_tx" : "COMMIT");
    done_ = true;
  }
  ~WriteTx() {
    if (done_) return;
    try {
      db_.exec(nested_ ? "ROLLBACK TO write_tx; RELEASE write_tx" : "ROLLBACK");
    } catch (...) {  // nothing more to undo
    }
  }

 private:
  SQLite::Database& db_;
  bool nested_;
  bool done_ = false;
};

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// One line for an SQLite failure while opening `path`.
std::string open_error(const std::string& path, const SQLite::Exception& e) {
  switch (e.getErrorCode()) {
    case SQLITE_NOTADB:
      return path + " is not a SQLite database (or is encrypted)";
    case SQLITE_CORRUPT:
      return path + " is corrupt (" + e.what() + ")";
    case SQLITE_CANTOPEN:
      return "cannot open " + path + " (" + e.what() + ")";
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return path + " is not writable (" + e.what() + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return path + " is locked by another process (" + e.what() + ")";
    default:
      return path + ": " + e.what();
  }
}

std::string to_json(const std::vector<std::string>& moves) {
  return nlohmann::json(moves).dump();
}

std::vector<std::string> from_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const auto& m : j)
    if (m.is_string()) out.push_back(m.get<std::string>());
  return out;
}

void bind_optional(SQLite::Statement& q, int index, const std::optional<std::int64_t>& value) {
  if (value)
    q.bind(index, static_cast<std::int64_t>(*value));
  else
    q.bind(index);  // NULL
}

// The WHERE clause shared by the two queries of games(); ?1 tournament, ?2 name, ?3 finished only,
// ?4 one game id.
const char* const kGameWhere =
    " WHERE (?1 IS NULL OR g.tournament_id = ?1)"
    " AND (?2 = '' OR g.game = ?2 OR substr(g.game, 1, length(?2) + 1) = ?2 || ':')"
    " AND (?3 = 0 OR g.status = 'finished')"
    " AND (?4 IS NULL OR g.id = ?4)";

}  // namespace

struct Store::Impl {
  std::string path;
  SQLite::Database db;
  // Cached statements (destroyed before db: declared after it).
  std::optional<SQLite::Statement> insert_move, insert_log, insert_game, ensure_engine,
      insert_player;

  explicit Impl(const std::string& file)
      : path(file), db(file, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kBusyTimeoutMs) {}

  void prepare() {
    insert_move.emplace(db,
                        "INSERT INTO moves (game_id, ply, player, move, time_ms, clock_ms, info, "
                        "source, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert_log.emplace(db, "INSERT INTO engine_transcripts (game_id, seat, text) VALUES (?, ?, ?)");
    insert_game.emplace(
        db,
        "INSERT INTO games (tournament_id, slot, game, start_position, opening, "
        "time_control, status, started_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?)");
    ensure_engine.emplace(db, "INSERT OR IGNORE INTO engines (name) VALUES (?)");
    insert_player.emplace(db, "INSERT INTO game_players (game_id, seat, engine) VALUES (?, ?, ?)");
  }

  Error fail(const std::string& doing, const std::exception& e) const {
    return Error{path + ": cannot " + doing + ": " + e.what()};
  }
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::string& Store::path() const {
  return impl_->path;
}

Expected<Store> Store::open(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return Error{"no database file given"};
  std::error_code ec;
  fs::path file(path);
  if (fs::is_directory(file, ec)) return Error{path + " is a directory, not a database file"};
  fs::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec))
    return Error{"cannot create " + path + ": directory " + dir.string() + " does not exist"};
  if (!fs::is_directory(dir, ec))
    return Error{"cannot create " + path + ": " + dir.string() + " is not a directory"};
  if (!fs::exists(file, ec) && ::access(dir.c_str(), W_OK) != 0)
    return Error{"cannot create " + path + ": directory " + dir.string() + " is not writable"};
  try {
    auto impl = std::make_unique<Impl>(path);
    Status ready = prepare_database(impl->db, path);
    if (!ready) return Error{ready.error()};
    impl->prepare();
    return Store(std::move(impl));
  } catch (const SQLite::Exception& e) {
    return Error{open_error(path, e)};
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what()};
  }
}

Expected<std::int64_t> Store::upsert_engine(const EngineInfo& engine) {
  if (engine.name.empty()) return Error{impl_->path + ": an engine needs a name"};
  try {
    WriteTx tx(impl_->db);
    // A non-empty field replaces the stored one; an empty one keeps it (an engine registered
    // before its handshake keeps its "id name" when registered again without it, and back).
    SQLite::Statement up(
        impl_->db,
        "INSERT INTO engines (name, command, id_name, id_author) VALUES (?, ?, ?, ?)"
        " ON CONFLICT(name) DO UPDATE SET"
        " command = CASE WHEN excluded.command <> '' THEN excluded.command"
        " ELSE command END,"
        " id_name = CASE WHEN excluded.id_name <> '' THEN excluded.id_name"
        " ELSE id_name END,"
        " id_author = CASE WHEN excluded.id_author <> '' THEN excluded.id_author"
        " ELSE id_author END");
    up.bind(1, engine.name);
    up.bind(2, engine.command);
    up.bind(3, engine.id_name);
    up.bind(4, engine.id_author);
    up.exec();
    SQLite::Statement id(impl_->db, "SELECT id FROM engines WHERE name = ?");
    id.bind(1, engine.name);
    id.executeStep();
    std::int64_t result = id.getColumn(0).getInt64();
    tx.commit();
    return result;
  } catch (const std::exception& e) {
    return impl_->fail("record engine \"" + engine.name + "\"", e);
  }
}

Expected<std::int64_t> Store::open_tournament(const std::string& name, const std::string& config) {
  if (name.empty()) return Error{impl_->path + ": a tournament needs a name"};
  try {
    WriteTx tx(impl_->db);
    SQLite::Statement find(impl_->db, "SELECT id, config FROM tournaments WHERE name = ?");
    find.bind(1, name);
    if (find.executeStep()) {
      std::int64_t id = find.getColumn(0).getInt64();
      if (find.getColumn(1).getString() != config)
        return Error{impl_->path + ": tournament \"" + name +
                     "\" already exists with a different configuration"};
      return id;
    }
    SQLite::Statement add(impl_->db, "INSERT INTO tournaments (name, config) VALUES (?, ?)");
    add.bind(1, name);
    add.bind(2, config);
    add.exec();
    std::int64_t id = impl_->db.getLastInsertRowid();
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return impl_->fail("open tournament \"" + name + "\"", e);
  }
}

Expected<std::int64_t> Store::begin_game(const GameRecord& game) {
  if (game.players.empty()) return Error{impl_->path + ": a game needs players"};
  if (game.game.empty()) return Error{impl_->path + ": a game needs its game string"};
  try {
    Impl& s = *impl_;
    WriteTx tx(s.db);
    auto& g = *s.insert_game;
    g.tryReset();
    bind_optional(g, 1, game.tournament_id);
    g.bind(2, static_cast<std::int64_t>(game.slot));
    g.bind(3, game.game);
    g.bind(4, game.start_position);
    g.bind(5, to_json(game.opening));
    g.bind(6, game.time_control);
    g.bind(7, game.started_at.empty() ? now_utc() : game.started_at);
    g.exec();
    std::int64_t id = s.db.getLastInsertRowid();
    for (std::size_t seat = 0; seat < game.players.size(); ++seat) {
      auto& e = *s.ensure_engine;
      e.tryReset();
      e.bind(1, game.players[seat]);
      e.exec();
      auto& p = *s.insert_player;
      p.tryReset();
      p.bind(1, static_cast<std::int64_t>(id));
      p.bind(2, static_cast<int>(seat + 1));
      p.bind(3, game.players[seat]);
      p.exec();
    }
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return impl_->fail("begin a game", e);
  }
}

Status Store::begin_batch() {
  try {
    impl_->db.exec("BEGIN IMMEDIATE");
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("begin a batch of writes", e);
  }
}

Status Store::commit_batch() {
  try {
    impl_->db.exec("COMMIT");
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail("commit a batch of writes", e);
  }
}

Status Store::add_move(std::int64_t game_id, const MoveRecord& move) {
  try {
    auto& q = *impl_->insert_move;
    q.tryReset();
    q.bind(1, static_cast<std::int64_t>(game_id));
    q.bind(2, move.ply);
    q.bind(3, move.player);
    q.bindNoCopy(4, move.move);
    q.bind(5, static_cast<std::int64_t>(move.time_ms));
    q.bind(6, static_cast<std::int64_t>(move.clock_ms));
    q.bindNoCopy(7, move.info);
    q.bindNoCopy(8, move.source);
    q.bindNoCopy(9, move.note);
    q.exec();
    q.clearBindings();  // bindNoCopy: drop the pointers into `move`
    return Ok{};
  } catch (const std::exception& e) {
    impl_->insert_move->tryReset();
    impl_->insert_move->clearBindings();
    return impl_->fail(
        "record move " + std::to_string(move.ply) + " of game " + std::to_string(game_id), e);
  }
}

Status Store::add_logs(std::int64_t game_id, const std::vector<LogLine>& lines) {
  if (lines.empty()) return Ok{};
  // One transcript row per seat, lines in the order given.
  std::map<int, std::string> transcripts;
  for (const LogLine& line : lines) {
    std::string& t = transcripts[line.seat];
    t += std::to_string(line.at_ms);
    t += ' ';
    t += line.direction;
    t += ' ';
    for (char c : line.text) {
      if (c == '\\')
        t += "\\\\";
      else if (c == '\n')
        t += "\\n";
      else
        t += c;
    }
    t += '\n';
  }
  try {
    WriteTx tx(impl_->db);
    auto& q = *impl_->insert_log;
    for (const auto& [seat, text] : transcripts) {
      q.tryReset();
      q.bind(1, static_cast<std::int64_t>(game_id));
      q.bind(2, seat);
      q.bindNoCopy(3, text);
      q.exec();
    }
    q.clearBindings();
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    impl_->insert_log->tryReset();
    impl_->insert_log->clearBindings();
    return impl_->fail("record engine logs of game " + std::to_string(game_id), e);
  }
}

Status Store::finish_game(std::int64_t game_id, const GameRecord& result) {
  const std::string what = "finish game " + std::to_string(game_id);
  const bool finished = result.status != "unfinished";
  try {
    WriteTx tx(impl_->db);
    SQLite::Statement count(impl_->db, "SELECT count(*) FROM game_players WHERE game_id = ?");
    count.bind(1, static_cast<std::int64_t>(game_id));
    count.executeStep();
    const std::size_t players = static_cast<std::size_t>(count.getColumn(0).getInt());
    if (players == 0) return Error{impl_->path + ": cannot " + what + ": no such game"};
    if (finished && result.ranks.size() != players)
      return Error{impl_->path + ": cannot " + what + ": " + std::to_string(result.ranks.size()) +
                   " ranks for " + std::to_string(players) + " players"};
    if (!result.ranks.empty() && result.ranks.size() != players)
      return Error{impl_->path + ": cannot " + what + ": ranks do not match the players"};
    if (!result.scores.empty() && result.scores.size() != players)
      return Error{impl_->path + ": cannot " + what + ": " + std::to_string(result.scores.size()) +
                   " scores for " + std::to_string(players) + " players"};
    SQLite::Statement g(
        impl_->db,
        "UPDATE games SET status = ?, termination = ?, reason = ?, finished_at = ?, "
        "plies = ? WHERE id = ?");
    g.bind(1, finished ? "finished" : "unfinished");
    g.bind(2, result.termination);
    g.bind(3, result.reason);
    g.bind(4, result.finished_at.empty() ? now_utc() : result.finished_at);
    g.bind(5, static_cast<std::int64_t>(result.plies));
    g.bind(6, static_cast<std::int64_t>(game_id));
    g.exec();
    SQLite::Statement p(
        impl_->db, "UPDATE game_players SET rank = ?, score = ? WHERE game_id = ? AND seat = ?");
    for (std::size_t seat = 0; seat < players; ++seat) {
      p.tryReset();
      if (seat < result.ranks.size())
        p.bind(1, result.ranks[seat]);
      else
        p.bind(1);
      if (seat < result.scores.size())
        p.bind(2, result.scores[seat]);
      else
        p.bind(2);
      p.bind(3, static_cast<std::int64_t>(game_id));
      p.bind(4, static_cast<int>(seat + 1));
      p.exec();
    }
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return impl_->fail(what, e);
  }
}

Expected<int> Store::close_running(std::optional<std::int64_t> tournament_id) {
  try {
    SQLite::Statement q(
        impl_->db,
        "UPDATE games SET status = 'unfinished',"
        " termination = CASE WHEN termination = '' THEN 'interrupted'"
        " ELSE termination END,"
        " reason = CASE WHEN reason = '' THEN 'the run stopped before the game ended'"
        " ELSE reason END"
        " WHERE status = 'running' AND (?1 IS NULL OR tournament_id = ?1)");
    bind_optional(q, 1, tournament_id);
    return q.exec();
  } catch (const std::exception& e) {
    return impl_->fail("close running games", e);
  }
}

Expected<std::vector<GameRecord>> Store::games(const GameFilter& filter) {
  return query_games(filter, std::nullopt);
}

Expected<std::vector<GameRecord>> Store::query_games(const GameFilter& filter,
                                                     std::optional<std::int64_t> id) {
  try {
    SQLite::Transaction tx(impl_->db);  // one snapshot for both queries
    auto bind_filter = [&](SQLite::Statement& q) {
      bind_optional(q, 1, filter.tournament_id);
      q.bind(2, filter.game_prefix);
      q.bind(3, filter.finished_only ? 1 : 0);
      bind_optional(q, 4, id);
    };
    SQLite::Statement g(
        impl_->db, std::string("SELECT g.id, g.tournament_id, coalesce(t.name, ''), g.slot, "
                               "g.game, g.start_position, g.opening, g.time_control, g.status, "
                               "g.termination, g.reason, g.started_at, g.finished_at, g.plies "
                               "FROM games g LEFT JOIN tournaments t ON t.id = g.tournament_id") +
                       kGameWhere + " ORDER BY g.id");
    bind_filter(g);
    std::vector<GameRecord> out;
    while (g.executeStep()) {
      GameRecord r;
      r.id = g.getColumn(0).getInt64();
      if (!g.getColumn(1).isNull()) r.tournament_id = g.getColumn(1).getInt64();
      r.tournament = g.getColumn(2).getString();
      r.slot = g.getColumn(3).getInt64();
      r.game = g.getColumn(4).getString();
      r.start_position = g.getColumn(5).getString();
      r.opening = from_json(g.getColumn(6).getString());
      r.time_control = g.getColumn(7).getString();
      r.status = g.getColumn(8).getString();
      r.termination = g.getColumn(9).getString();
      r.reason = g.getColumn(10).getString();
      r.started_at = g.getColumn(11).getString();
      r.finished_at = g.getColumn(12).getString();
      r.plies = g.getColumn(13).getInt64();
      out.push_back(std::move(r));
    }
    SQLite::Statement p(
        impl_->db, std::string("SELECT p.game_id, p.engine, p.rank, p.score FROM game_players p "
                               "JOIN games g ON g.id = p.game_id") +
                       kGameWhere + " ORDER BY p.game_id, p.seat");
    bind_filter(p);
    std::size_t at = 0;
    std::vector<bool> rank_missing(out.size(), false), score_missing(out.size(), false);
    while (p.executeStep()) {
      std::int64_t game_id = p.getColumn(0).getInt64();
      while (at < out.size() && out[at].id < game_id) ++at;
      if (at == out.size() || out[at].id != game_id) continue;
      GameRecord& r = out[at];
      r.players.push_back(p.getColumn(1).getString());
      if (p.getColumn(2).isNull())
        rank_missing[at] = true;
      else
        r.ranks.push_back(p.getColumn(2).getInt());
      if (p.getColumn(3).isNull())
        score_missing[at] = true;
      else
        r.scores.push_back(p.getColumn(3).getDouble());
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (rank_missing[i]) out[i].ranks.clear();
      if (score_missing[i]) out[i].scores.clear();
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read games", e);
  }
}

Expected<GameRecord> Store::game(std::int64_t game_id) {
  auto one = query_games(GameFilter{std::nullopt, "", false}, game_id);
  if (!one) return Error{one.error()};
  if (!one->empty()) return std::move(one->front());
  return Error{impl_->path + ": no game " + std::to_string(game_id)};
}

Expected<std::vector<MoveRecord>> Store::moves(std::int64_t game_id) {
  try {
    SQLite::Statement q(
        impl_->db,
        "SELECT ply, player, move, time_ms, clock_ms, info, source, note FROM moves "
        "WHERE game_id = ? ORDER BY ply");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<MoveRecord> out;
    while (q.executeStep()) {
      MoveRecord m;
      m.ply = q.getColumn(0).getInt();
      m.player = q.getColumn(1).getInt();
      m.move = q.getColumn(2).getString();
      m.time_ms = static_cast<long>(q.getColumn(3).getInt64());
      m.clock_ms = static_cast<long>(q.getColumn(4).getInt64());
      m.info = q.getColumn(5).getString();
      m.source = q.getColumn(6).getString();
      m.note = q.getColumn(7).getString();
      out.push_back(std::move(m));
    }
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the moves of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<LogLine>> Store::logs(std::int64_t game_id) {
  try {
    SQLite::Statement q(impl_->db,
                        "SELECT seat, text FROM engine_transcripts WHERE game_id = ? ORDER BY id");
    q.bind(1, static_cast<std::int64_t>(game_id));
    std::vector<LogLine> out;
    while (q.executeStep()) {
      const int seat = q.getColumn(0).getInt();
      const std::string text = q.getColumn(1).getString();
      std::size_t pos = 0;
      while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        // "<at_ms> <dir> <escaped text>"
        std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        auto space = line.find(' ');
        if (space == std::string_view::npos || space + 2 >= line.size() + 1) continue;
        LogLine l;
        l.seat = seat;
        l.at_ms = std::atol(std::string(line.substr(0, space)).c_str());
        l.direction = line[space + 1];
        for (std::size_t i = space + 3; i < line.size(); ++i) {
          if (line[i] == '\\' && i + 1 < line.size()) {
            l.text += line[i + 1] == 'n' ? '\n' : line[i + 1];
            ++i;
          } else {
            l.text += line[i];
          }
        }
        out.push_back(std::move(l));
      }
    }
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the logs of game " + std::to_string(game_id), e);
  }
}

Expected<std::vector<std::int64_t>> Store::finished_slots(std::int64_t tournament_id) {
  try {
    SQLite::Statement q(impl_->db,
                        "SELECT DISTINCT slot FROM games WHERE tournament_id = ? AND status = "
                        "'finished' AND slot >= 0 ORDER BY slot");
    q.bind(1, static_cast<std::int64_t>(tournament_id));
    std::vector<std::int64_t> out;
    while (q.executeStep()) out.push_back(q.getColumn(0).getInt64());
    return out;
  } catch (const std::exception& e) {
    return impl_->fail("read the finished slots of tournament " + std::to_string(tournament_id), e);
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
