// Store: round trips, resume support, close_running, filters, concurrency, the cost of add_move,
// and every error path of open() (each leaves the file as it was).
#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <unistd.h>

#include <chrono>
#include <latch>
#include <thread>

#include "storage/backends.h"
#include "storage/engine_registry.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;
using storage_test::read_bytes;
using storage_test::TempDir;
using storage_test::write_bytes;

namespace {

using storage_test::open_ok;

GameRecord two_player(std::optional<std::int64_t> tournament, std::int64_t slot) {
  GameRecord g;
  g.event_id = tournament;
  g.slot = slot;
  g.game = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";
  g.players = {"alpha", "beta"};
  g.opening = {"3"};
  g.time_control = "10+0.1";
  g.started_at = "2024-05-01T10:00:00Z";
  return g;
}

GameRecord result(std::vector<int> ranks, std::vector<double> scores) {
  GameRecord r;
  r.ranks = std::move(ranks);
  r.scores = std::move(scores);
  r.termination = "rules";
  r.reason = "rules";
  r.finished_at = "2024-05-01T10:05:00Z";
  r.plies = 3;
  return r;
}

MoveRecord mv(int ply, int player, std::string move, long time_ms = -1, long clock_ms = -1,
              std::string info = "", std::string source = "engine") {
  return MoveRecord{ply,      player,          std::move(move),   time_ms,
                    clock_ms, std::move(info), std::move(source), ""};
}

std::string one_line(const std::string& s) {
  return s.find('\n') == std::string::npos ? "" : s;
}

}  // namespace

TEST_CASE("store: a game, its moves and logs round-trip") {
  TempDir dir;
  Store store = open_ok(dir.file("referee.db"));
  auto engine =
      engine_registry::upsert_engine(store, {"alpha", "./alpha --fast", "Alpha 1.0", "A. Author"});
  REQUIRE(engine.ok());
  auto tournament = work_queue::open_tournament(store, "rr", "{\"games\":2}");
  REQUIRE(tournament.ok());
  auto id = store.begin_game(two_player(*tournament, 0));
  REQUIRE(id.ok());
  REQUIRE(store.add_move(*id, mv(1, 1, "3", -1, -1, "", "opening")).ok());
  REQUIRE(store.add_move(*id, mv(2, 2, "9", 120, 9980, "info depth 3 score 2", "engine")).ok());
  REQUIRE(store.add_logs(*id, {{1, '>', "go", 5}, {1, '<', "bestmove 9", 125}, {2, '!', "warn", 7}})
              .ok());
  REQUIRE(store.finish_game(*id, result({2, 1}, {10, 38})).ok());

  auto games = store.games({});
  REQUIRE(games.ok());
  REQUIRE(games->size() == 1);
  const GameRecord& g = games->front();
  CHECK(g.id == *id);
  CHECK(g.event_id == *tournament);
  CHECK(g.event == "rr");
  CHECK(g.slot == 0);
  CHECK(g.game == "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000");
  CHECK(g.players == std::vector<std::string>{"alpha", "beta"});
  CHECK(g.opening == std::vector<std::string>{"3"});
  CHECK(g.time_control == "10+0.1");
  CHECK(g.status == referee::storage::GameStatus::Finished);
  CHECK(g.ranks == std::vector<int>{2, 1});
  CHECK(g.scores == std::vector<double>{10, 38});
  CHECK(g.termination == "rules");
  CHECK(g.reason == "rules");
  CHECK(g.started_at == "2024-05-01T10:00:00Z");
  CHECK(g.finished_at == "2024-05-01T10:05:00Z");
  CHECK(g.plies == 3);

  auto moves = store.moves(*id);
  REQUIRE(moves.ok());
  REQUIRE(moves->size() == 2);
  CHECK((*moves)[1].ply == 2);
  CHECK((*moves)[1].player == 2);
  CHECK((*moves)[1].move == "9");
  CHECK((*moves)[1].time_ms == 120);
  CHECK((*moves)[1].clock_ms == 9980);
  CHECK((*moves)[1].info == "info depth 3 score 2");
  CHECK((*moves)[0].source == "opening");
  CHECK(move_sequence(g, *moves) == std::vector<std::string>{"3", "9"});

  auto logs = store.logs(*id);
  REQUIRE(logs.ok());
  REQUIRE(logs->size() == 3);
  CHECK((*logs)[1].direction == '<');
  CHECK((*logs)[1].text == "bestmove 9");
  CHECK((*logs)[1].at_ms == 125);
  CHECK((*logs)[2].seat == 2);

  auto one = store.game(*id);
  REQUIRE(one.ok());
  CHECK(one->players == g.players);
  CHECK_FALSE(store.game(*id + 100).ok());
}

TEST_CASE("store: move_sequence puts the opening first unless it was recorded as moves") {
  GameRecord g;
  g.opening = {"1", "7"};
  CHECK(move_sequence(g, {mv(3, 1, "2")}) == std::vector<std::string>{"1", "7", "2"});
  CHECK(move_sequence(g, {mv(1, 1, "1", -1, -1, "", "opening"),
                          mv(2, 2, "7", -1, -1, "", "opening"), mv(3, 1, "2")}) ==
        std::vector<std::string>{"1", "7", "2"});
}

TEST_CASE("store: data survives closing and reopening, the schema is migrated once") {
  TempDir dir;
  const std::string path = dir.file("referee.db");
  std::int64_t id = 0;
  {
    Store store = open_ok(path);
    id = *store.begin_game(two_player(std::nullopt, -1));
    REQUIRE(store.add_move(id, mv(1, 1, "3")).ok());
  }
  Store again = open_ok(path);
  CHECK(again.moves(id)->size() == 1);
  SQLite::Database raw(path);
  CHECK(raw.execAndGet("SELECT count(*) FROM schema_version").getInt() == 1);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
  CHECK(raw.execAndGet("PRAGMA journal_mode").getString() == "wal");
}

TEST_CASE("store: engines are upserted, empty fields keep what is known") {
  TempDir dir;
  Store store = open_ok(dir.file("referee.db"));
  auto first = engine_registry::upsert_engine(store, {"alpha", "./alpha", "", ""});
  auto second = engine_registry::upsert_engine(store, {"alpha", "", "Alpha 2", "Someone"});
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(*first == *second);
  SQLite::Database raw(dir.file("referee.db"));
  SQLite::Statement q(raw, "SELECT command, id_name, id_author FROM engines WHERE name = 'alpha'");
  REQUIRE(q.executeStep());
  CHECK(q.getColumn(0).getString() == "./alpha");
  CHECK(q.getColumn(1).getString() == "Alpha 2");
  CHECK(q.getColumn(2).getString() == "Someone");
  CHECK_FALSE(engine_registry::upsert_engine(store, {"", "x", "", ""}).ok());
}

TEST_CASE("store: a tournament name reused with another configuration is an error") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      auto a = work_queue::open_tournament(store, "rr", "{\"rounds\":2}");
      auto b = work_queue::open_tournament(store, "rr", "{\"rounds\":2}");
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(*a == *b);
      auto c = work_queue::open_tournament(store, "rr", "{\"rounds\":3}");
      REQUIRE_FALSE(c.ok());
      CHECK(c.error() ==
            dir_db.url() + ": tournament \"rr\" already exists with a different configuration");
      CHECK_FALSE(work_queue::open_tournament(store, "", "{}").ok());
    }
}

TEST_CASE("store: resume — finished slots, and close_running turns killed games unfinished") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      auto t = *work_queue::open_tournament(store, "rr", "{}");
      auto other = *work_queue::open_tournament(store, "other", "{}");
      auto g0 = *store.begin_game(two_player(t, 0));
      auto g1 = *store.begin_game(two_player(t, 1));
      auto g2 = *store.begin_game(two_player(t, 2));
      auto g3 = *store.begin_game(two_player(other, 0));
      REQUIRE(store.finish_game(g0, result({1, 2}, {30, 18})).ok());
      REQUIRE(store.finish_game(g2, result({1, 1}, {24, 24})).ok());
      CHECK(*store.finished_slots(t) == std::vector<std::int64_t>{0, 2});

      // The run is killed while g1 and g3 are running; the next run of tournament t closes its own.
      auto closed = store.close_running(t);
      REQUIRE(closed.ok());
      CHECK(*closed == 1);
      auto game1 = *store.game(g1);
      CHECK(game1.status == referee::storage::GameStatus::Unfinished);
      CHECK(game1.termination == "interrupted");
      CHECK(game1.reason == "the run stopped before the game ended");
      CHECK(store.game(g3)->status == referee::storage::GameStatus::Running);
      CHECK(*store.finished_slots(t) == std::vector<std::int64_t>{0, 2});
      CHECK(*store.close_running(std::nullopt) == 1);
      CHECK(store.game(g3)->status == referee::storage::GameStatus::Unfinished);
      CHECK(*store.close_running(std::nullopt) == 0);

      // Slot 1 is replayed and finished: resume now skips it.
      auto replay = *store.begin_game(two_player(t, 1));
      REQUIRE(store.finish_game(replay, result({2, 1}, {20, 28})).ok());
      CHECK(*store.finished_slots(t) == std::vector<std::int64_t>{0, 1, 2});
    }
}

TEST_CASE("store: an interrupted game can be finished as unfinished, without ranks") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      auto id = *store.begin_game(two_player(std::nullopt, -1));
      GameRecord r;
      r.status = referee::storage::GameStatus::Unfinished;
      r.termination = "interrupted";
      r.reason = "Ctrl-C";
      REQUIRE(store.finish_game(id, r).ok());
      auto g = *store.game(id);
      CHECK(g.status == referee::storage::GameStatus::Unfinished);
      CHECK(g.ranks.empty());
      CHECK(store.games({})->empty());  // finished_only by default
    }
}

TEST_CASE("store: filters by tournament, game name and status") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      auto t = *work_queue::open_tournament(store, "rr", "{}");
      auto a = *store.begin_game(two_player(t, 0));
      GameRecord v1 = two_player(std::nullopt, -1);
      v1.game = "awale-v1:first=1,nocapture=100,maxplies=2000";
      auto b = *store.begin_game(v1);
      auto c = *store.begin_game(two_player(std::nullopt, -1));  // left running
      REQUIRE(store.finish_game(a, result({1, 2}, {})).ok());
      REQUIRE(store.finish_game(b, result({1, 2}, {})).ok());

      auto ids = [&](const GameFilter& f) {
        std::vector<std::int64_t> out;
        auto games = store.games(f);
        REQUIRE(games.ok());
        for (const auto& g : *games) out.push_back(g.id);
        return out;
      };
      CHECK(ids({}) == std::vector<std::int64_t>{a, b});
      CHECK(ids({std::nullopt, "", false}) == std::vector<std::int64_t>{a, b, c});
      CHECK(ids({t, "", true}) == std::vector<std::int64_t>{a});
      CHECK(ids({std::nullopt, "awale", true}) == std::vector<std::int64_t>{a});
      CHECK(ids({std::nullopt, "awale-v1", true}) == std::vector<std::int64_t>{b});
      CHECK(ids({std::nullopt, "awal", true}).empty());
      // Scores were not given: empty, not zeros.
      CHECK(store.game(a)->scores.empty());
    }
}

TEST_CASE("store: add_moves writes moves of several games in order, 16 rows a statement") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const std::string path = dir_db.url();
      Store store = open_ok(path);
      const auto a = *store.begin_game(two_player(std::nullopt, -1));
      const auto b = *store.begin_game(two_player(std::nullopt, -1));
      // 37 moves, a and b interleaved: two full statements and 5 rows one by one.
      std::vector<MoveRecord> records;
      std::vector<std::pair<std::int64_t, const MoveRecord*>> rows;
      for (int i = 0; i < 37; ++i)
        records.push_back(mv(i / 2 + 1, i / 2 % 2 + 1, std::to_string(i % 12 + 1), i, 100 - i,
                             "info " + std::to_string(i)));
      for (int i = 0; i < 37; ++i) rows.emplace_back(i % 2 ? b : a, &records[std::size_t(i)]);
      const auto before = store.round_trips().statements;
      REQUIRE(store.add_moves(rows).ok());
      CHECK(store.round_trips().statements - before <= 2 + 5 + 4);  // PostgreSQL: savepoints
      auto in_a = store.moves(a), in_b = store.moves(b);
      REQUIRE(in_a.ok());
      REQUIRE(in_b.ok());
      REQUIRE(in_a->size() == 19);
      REQUIRE(in_b->size() == 18);
      for (int i = 0; i < 37; ++i) {
        const auto& got = (i % 2 ? *in_b : *in_a)[std::size_t(i / 2)];
        CHECK(got.move == records[std::size_t(i)].move);
        CHECK(got.time_ms == i);
        CHECK(got.clock_ms == 100 - i);
        CHECK(got.info == "info " + std::to_string(i));
      }
    }
}

TEST_CASE("store: add_moves stops at a refused move: those before it stay, the error names it") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const std::string path = dir_db.url();
      Store store = open_ok(path);
      const auto id = *store.begin_game(two_player(std::nullopt, -1));
      std::vector<MoveRecord> records;
      for (int ply = 1; ply <= 20; ++ply) records.push_back(mv(ply, (ply - 1) % 2 + 1, "1"));
      records[9].ply = 9;  // the 10th move repeats ply 9: refused by the primary key
      std::vector<std::pair<std::int64_t, const MoveRecord*>> rows;
      for (const auto& r : records) rows.emplace_back(id, &r);
      auto st = store.add_moves(rows);
      REQUIRE_FALSE(st.ok());
      CHECK(st.error().rfind(path + ": cannot record move 9 of game " + std::to_string(id), 0) ==
            0);
      auto stored = store.moves(id);
      REQUIRE(stored.ok());
      CHECK(stored->size() == 9);  // plies 1 to 9, nothing after the refused one
    }
}

TEST_CASE("store: bad writes are one-line errors naming the file") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const std::string path = dir_db.url();
      Store store = open_ok(path);
      auto id = *store.begin_game(two_player(std::nullopt, -1));
      REQUIRE(store.add_move(id, mv(1, 1, "3")).ok());

      auto duplicate = store.add_move(id, mv(1, 1, "4"));
      REQUIRE_FALSE(duplicate.ok());
      CHECK(duplicate.error().rfind(path + ": cannot record move 1 of game " + std::to_string(id),
                                    0) == 0);
      CHECK(one_line(duplicate.error()).empty());
      CHECK_FALSE(store.add_move(id + 50, mv(1, 1, "3")).ok());                  // no such game
      CHECK_FALSE(store.add_move(id, mv(2, 2, "9", -1, -1, "", "magic")).ok());  // bad source
      CHECK(store.add_move(id, mv(2, 2, "9")).ok());  // the statement still works after failures

      auto few = store.finish_game(id, result({1}, {}));
      REQUIRE_FALSE(few.ok());
      CHECK(few.error() ==
            path + ": cannot finish game " + std::to_string(id) + ": 1 ranks for 2 players");
      auto scores = store.finish_game(id, result({1, 2}, {1, 2, 3}));
      REQUIRE_FALSE(scores.ok());
      CHECK(scores.error() ==
            path + ": cannot finish game " + std::to_string(id) + ": 3 scores for 2 players");
      CHECK(store.game(id)->status ==
            referee::storage::GameStatus::Running);  // nothing half-written
      auto missing = store.finish_game(id + 50, result({1, 2}, {}));
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error() ==
            path + ": cannot finish game " + std::to_string(id + 50) + ": no such game");
      GameRecord nobody = two_player(std::nullopt, -1);
      nobody.players.clear();
      CHECK_FALSE(store.begin_game(nobody).ok());
    }
}

TEST_CASE("store: open errors name the file and leave existing files untouched") {
  TempDir dir;

  SECTION("missing directory") {
    const std::string path = dir.file("nope/referee.db");
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() ==
          "cannot create " + path + ": directory " + dir.file("nope") + " does not exist");
  }
  SECTION("parent is a file") {
    write_bytes(dir.file("plain.txt"), "x");
    const std::string path = dir.file("plain.txt/referee.db");
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() ==
          "cannot create " + path + ": " + dir.file("plain.txt") + " is not a directory");
  }
  SECTION("path is a directory") {
    auto s = Store::open(dir.file(""));
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().find("is a directory") != std::string::npos);
  }
  SECTION("unwritable directory") {
    if (::geteuid() != 0) {
      std::filesystem::create_directory(dir.file("ro"));
      std::filesystem::permissions(
          dir.file("ro"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
      auto s = Store::open(dir.file("ro/referee.db"));
      std::filesystem::permissions(dir.file("ro"), std::filesystem::perms::owner_all);
      REQUIRE_FALSE(s.ok());
      CHECK(s.error() == "cannot create " + dir.file("ro/referee.db") + ": directory " +
                             dir.file("ro") + " is not writable");
    } else {
      // root writes anywhere permissions allow nothing; /proc refuses new files even to root.
      auto s = Store::open("/proc/referee-store-test.db");
      REQUIRE_FALSE(s.ok());
      CHECK(s.error().find("/proc/referee-store-test.db") != std::string::npos);
      CHECK(one_line(s.error()).empty());
    }
  }
  SECTION("garbage bytes") {
    const std::string path = dir.file("garbage.db");
    std::string bytes;
    for (int i = 0; i < 8192; ++i) bytes += static_cast<char>((i * 7919 + 13) % 251);
    write_bytes(path, bytes);
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == path + " is not a SQLite database (or is encrypted)");
    CHECK(read_bytes(path) == bytes);
    CHECK_FALSE(std::filesystem::exists(path + "-wal"));
  }
  SECTION("a text file") {
    const std::string path = dir.file("notes.db");
    const std::string text = "These are my notes, not a database.\n";
    write_bytes(path, text);
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == path + " is not a SQLite database (or is encrypted)");
    CHECK(read_bytes(path) == text);
  }
  SECTION("a referee database damaged after its header") {
    const std::string path = dir.file("referee.db");
    {
      Store store = open_ok(path);
      REQUIRE(store.begin_game(two_player(std::nullopt, -1)).ok());
    }
    std::string bytes = read_bytes(path);
    REQUIRE(bytes.size() > 4096);
    for (std::size_t i = 100; i < 4096; ++i) bytes[i] = static_cast<char>(0xA5 ^ (i & 0xFF));
    write_bytes(path, bytes);
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().rfind(path + " is corrupt", 0) == 0);
    CHECK(one_line(s.error()).empty());
    CHECK(read_bytes(path) == bytes);
  }
  SECTION("a newer schema version") {
    const std::string path = dir.file("referee.db");
    { open_ok(path); }
    {
      SQLite::Database raw(path, SQLite::OPEN_READWRITE);
      raw.exec("UPDATE schema_version SET version = " + std::to_string(kSchemaVersion + 1));
    }
    const std::string before = read_bytes(path);
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == path + " has schema version " + std::to_string(kSchemaVersion + 1) +
                           "; this referee reads up to " + std::to_string(kSchemaVersion));
    CHECK(read_bytes(path) == before);
  }
  SECTION("a foreign database") {
    const std::string path = dir.file("shop.db");
    {
      SQLite::Database raw(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      raw.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
      raw.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)");
      raw.exec("INSERT INTO customers (name) VALUES ('Ada')");
    }
    const std::string before = read_bytes(path);
    auto s = Store::open(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == path +
                           " is not a referee database (it has tables customers, orders but no "
                           "schema_version)");
    CHECK(read_bytes(path) == before);
    SQLite::Database raw(path);
    CHECK(raw.execAndGet("PRAGMA journal_mode").getString() == "delete");  // not switched to WAL
  }
  SECTION("an empty file becomes a new database") {
    const std::string path = dir.file("empty.db");
    write_bytes(path, "");
    Store store = open_ok(path);
    CHECK(store.games({})->empty());
  }
}

TEST_CASE("store: several threads, each with its own Store, write the same file at once") {
  TempDir dir;
  const std::string path = dir.file("referee.db");
  constexpr int kThreads = 4, kGames = 5, kMoves = 40;
  std::latch start(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();  // all open the new file together: the schema is created once
      auto store = Store::open(path);
      if (!store) {
        errors[t] = store.error();
        return;
      }
      for (int g = 0; g < kGames; ++g) {
        auto id = store->begin_game(two_player(std::nullopt, t * 100 + g));
        if (!id) {
          errors[t] = id.error();
          return;
        }
        for (int m = 1; m <= kMoves; ++m) {
          auto ok = store->add_move(*id, mv(m, 2 - m % 2, std::to_string(m % 6 + 1), m, 1000 - m));
          if (!ok) {
            errors[t] = ok.error();
            return;
          }
        }
        auto done = store->finish_game(*id, result({1, 2}, {25, 23}));
        if (!done) errors[t] = done.error();
      }
    });
  for (auto& th : threads) th.join();
  for (const auto& e : errors) CHECK(e == "");
  Store store = open_ok(path);
  auto games = store.games({});
  REQUIRE(games.ok());
  CHECK(games->size() == static_cast<std::size_t>(kThreads * kGames));
  for (const auto& g : *games) CHECK(store.moves(g.id)->size() == static_cast<std::size_t>(kMoves));
  SQLite::Database raw(path);
  CHECK(raw.execAndGet("SELECT count(*) FROM schema_version").getInt() == 1);
}

TEST_CASE("store: add_move is cheap (each one committed)") {
  TempDir dir;
  Store store = open_ok(dir.file("referee.db"));
  auto id = *store.begin_game(two_player(std::nullopt, -1));
  constexpr int kMoves = 2000;
  const std::string info = "info depth 12 score 3 nodes 123456 pv 3 9 4";
  const auto t0 = std::chrono::steady_clock::now();
  for (int m = 1; m <= kMoves; ++m)
    REQUIRE(store.add_move(id, mv(m, 2 - m % 2, "3", 15, 9000, info)).ok());
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      kMoves;
  WARN("add_move: " << us << " us per move (" << kMoves << " moves, file in " << dir.file("")
                    << ")");
  CHECK(us < 2000);  // far below any move time
  CHECK(store.moves(id)->size() == static_cast<std::size_t>(kMoves));
}

TEST_CASE("store: transcript lines keep microseconds, rows of the old format read too") {
  TempDir dir;
  const auto path = dir.file("referee.db");
  std::int64_t id = 0;
  {
    Store store = open_ok(path);
    REQUIRE(engine_registry::upsert_engine(store, {"alpha", "./alpha", "", ""}).ok());
    auto game = store.begin_game(two_player(std::nullopt, -1));
    REQUIRE(game.ok());
    id = *game;
    REQUIRE(store
                .add_logs(id, {{1, '>', "go player 1", 1234, 56},
                               {1, '!', "Traceback\nValueError: x\\y", 1300, 7},
                               {1, '<', "bestmove 3", 1300, 999}})
                .ok());
  }
  {
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    // The documented format (storage/store.h): "<ms>.<us> <dir> <text>\n", text escaped.
    CHECK(raw.execAndGet("SELECT text FROM engine_transcripts WHERE seat = 1").getString() ==
          "1234.056 > go player 1\n1300.007 ! Traceback\\nValueError: x\\\\y\n"
          "1300.999 < bestmove 3\n");
  }
  {
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec("INSERT INTO engine_transcripts (game_id, seat, text) VALUES (" + std::to_string(id) +
             ", 2, '17 < bestmove 9\n')");
  }
  Store store = open_ok(path);
  auto logs = store.logs(id);
  REQUIRE(logs.ok());
  REQUIRE(logs->size() == 4);
  CHECK((*logs)[0].at_ms == 1234);
  CHECK((*logs)[0].at_us == 56);
  CHECK((*logs)[1].text == "Traceback\nValueError: x\\y");
  CHECK((*logs)[1].at_us == 7);
  CHECK((*logs)[2].at_us == 999);
  CHECK((*logs)[3].seat == 2);
  CHECK((*logs)[3].at_ms == 17);  // a row written before the microseconds: "<ms> <dir> <text>"
  CHECK((*logs)[3].at_us == 0);
  CHECK((*logs)[3].text == "bestmove 9");
}
