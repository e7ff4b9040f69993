// The SQL layer and the Store where a server database differs from a file: big reads stream
// (Rows::Many: a PostgreSQL cursor read kFetchRows rows at a time, counted in round trips), an
// early stop leaves the connection usable, a lost connection is an error (never a crash) that
// says so, and a new Store works again; the commit interval a writer gets by default; a finish
// takes its slot's lock before its game's, as a claim does.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/engine_registry.h"
#include "storage/game_maker.h"
#include "storage/game_stream.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

constexpr std::int64_t kRows = 2500;  // two full chunks and a half

void fill(sql::Connection& db) {
  db.exec("CREATE TABLE numbers (n BIGINT NOT NULL, label TEXT NOT NULL)");
  db.exec(
      "INSERT INTO numbers (n, label) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
      "FROM s WHERE n < " +
      std::to_string(kRows) + ") SELECT n, 'row ' || n FROM s");
}

}  // namespace

TEST_CASE("sql: a query of many rows reads them all, in order, in chunks on a server") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      auto store = Store::open(test_db.url());
      REQUIRE(store);
      sql::Connection& db = store->connection();
      fill(db);
      const bool server = db.backend() == sql::Backend::PostgreSQL;

      SECTION("every row in order; a server reads them with one DECLARE and a FETCH per chunk") {
        sql::Transaction tx(db, sql::Transaction::Kind::Read);
        sql::Query q(db, "SELECT n, label FROM numbers WHERE n > ? ORDER BY n", sql::Rows::Many);
        q.bind(1, std::int64_t{0});
        const auto before = db.counters.statements;
        std::int64_t expect = 1;
        while (q.step()) {
          REQUIRE(q.int64(0) == expect);
          REQUIRE(q.text(1) == "row " + std::to_string(expect));
          ++expect;
        }
        CHECK(expect == kRows + 1);
        const auto chunks = (kRows + sql::kFetchRows) / sql::kFetchRows;  // the last one short
        CHECK(db.counters.statements - before == (server ? 1 + chunks : 1));
        tx.commit();
      }
      SECTION("two cursors read in step on one connection (the game stream's pattern)") {
        sql::Transaction tx(db, sql::Transaction::Kind::Read);
        sql::Query up(db, "SELECT n FROM numbers ORDER BY n", sql::Rows::Many);
        sql::Query down(db, "SELECT n FROM numbers ORDER BY n DESC", sql::Rows::Many);
        for (std::int64_t i = 1; i <= kRows; ++i) {
          REQUIRE(up.step());
          REQUIRE(down.step());
          REQUIRE(up.int64(0) == i);
          REQUIRE(down.int64(0) == kRows + 1 - i);
        }
        CHECK_FALSE(up.step());
        CHECK_FALSE(down.step());
        tx.commit();
      }
      SECTION("an early stop leaves the connection usable, in the transaction and after") {
        {
          sql::Transaction tx(db, sql::Transaction::Kind::Read);
          {
            sql::Query q(db, "SELECT n FROM numbers ORDER BY n", sql::Rows::Many);
            for (int i = 0; i < 1500; ++i) REQUIRE(q.step());  // into the second chunk
            CHECK(q.int64(0) == 1500);
            q.reset();  // closes the cursor; runs again from the start
            REQUIRE(q.step());
            CHECK(q.int64(0) == 1);
          }  // destroyed half-read
          sql::Query count(db, "SELECT count(*) FROM numbers");
          REQUIRE(count.step());
          CHECK(count.int64(0) == kRows);
          tx.commit();
        }
        sql::Transaction write(db);
        sql::Query add(db, "INSERT INTO numbers (n, label) VALUES (?, 'extra')");
        add.bind(1, kRows + 1);
        CHECK(add.exec() == 1);
        write.commit();
        sql::Query count(db, "SELECT count(*) FROM numbers");
        REQUIRE(count.step());
        CHECK(count.int64(0) == kRows + 1);
      }
      SECTION("a query kept past its transaction's end does not break the next transaction") {
        std::optional<sql::Query> q;
        {
          sql::Transaction tx(db, sql::Transaction::Kind::Read);
          q.emplace(db, "SELECT n FROM numbers ORDER BY n", sql::Rows::Many);
          REQUIRE(q->step());
          tx.commit();
        }
        sql::Transaction write(db);
        q.reset();  // its cursor ended with the transaction: no CLOSE is sent into this one
        sql::Query add(db, "INSERT INTO numbers (n, label) VALUES (0, 'zero')");
        CHECK(add.exec() == 1);
        write.commit();
        sql::Query zero(db, "SELECT count(*) FROM numbers WHERE n = 0");
        REQUIRE(zero.step());
        CHECK(zero.int64(0) == 1);
      }
      SECTION("outside a transaction the rows are read whole, all of them") {
        sql::Query q(db, "SELECT n FROM numbers ORDER BY n", sql::Rows::Many);
        std::int64_t rows = 0;
        while (q.step()) ++rows;
        CHECK(rows == kRows);
      }
      SECTION("a bad query of many rows is an error, and the connection goes on") {
        {
          sql::Transaction tx(db, sql::Transaction::Kind::Read);
          // SQLite refuses it when prepared, PostgreSQL when the cursor is declared.
          CHECK_THROWS([&] {
            sql::Query q(db, "SELECT nosuchcolumn FROM numbers", sql::Rows::Many);
            q.step();
          }());
        }
        sql::Query count(db, "SELECT count(*) FROM numbers");
        REQUIRE(count.step());
        CHECK(count.int64(0) == kRows);
      }
    }
}

TEST_CASE("stream: more games than one chunk of rows come in order on every backend") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      auto store = Store::open(test_db.url());
      REQUIRE(store);
      auto t = work_queue::open_tournament(*store, "many", "{}");
      REQUIRE(t);
      const auto made = storage_test::random_game("awale:maxplies=10", {"a", "b"}, 1);
      // 600 games of two seats: 1200 player rows, and far more move rows than one chunk.
      REQUIRE(store->begin_batch());
      for (int slot = 0; slot < 600; ++slot) {
        GameRecord g = made.record;
        g.event_id = *t;
        g.slot = slot;
        auto id = store->begin_game(g);
        REQUIRE(id);
        for (const auto& m : made.moves) REQUIRE(store->add_move(*id, m));
        REQUIRE(store->finish_game(*id, g));
      }
      REQUIRE(store->commit_batch());
      REQUIRE(made.moves.size() >= 4);
      std::int64_t next = 0;
      std::size_t moves = 0;
      auto st = for_each_game(
          *store, GameQuery{}, StreamOptions{},
          [&](const GameRecord& g, const std::vector<MoveRecord>& m) -> referee::Status {
            REQUIRE(g.slot == next);
            REQUIRE(g.players.size() == 2);
            REQUIRE(m.size() == made.moves.size());
            ++next;
            moves += m.size();
            return referee::Ok{};
          });
      REQUIRE(st);
      CHECK(next == 600);
      CHECK(moves == 600 * made.moves.size());
      // An early stop (a visitor's error) leaves the store usable.
      int seen = 0;
      st = for_each_game(*store, GameQuery{}, StreamOptions{},
                         [&](const GameRecord&, const std::vector<MoveRecord>&) -> referee::Status {
                           if (++seen == 300) return referee::Error{"disk full"};
                           return referee::Ok{};
                         });
      CHECK_FALSE(st);
      CHECK(seen == 300);
      auto games = store->games(GameFilter{});
      REQUIRE(games);
      CHECK(games->size() == 600);
    }
}

TEST_CASE("store: a lost connection to the server is a one-line error, and a new Store works") {
  storage_test::PgServer* server = storage_test::postgres_or_skip();
  if (server == nullptr) return;
  storage_test::PgServer& pg = *server;
  // A database of the user with a password, so that the messages can be seen to hide it.
  const std::string plain = pg.new_database();
  const std::size_t start = plain.find("@/") + 2;  // postgresql://referee@/NAME?host=...
  const std::string name = plain.substr(start, plain.find('?') - start);
  REQUIRE(name.rfind('t', 0) == 0);
  auto admin = sql::open_postgres(pg.url("postgres"));
  REQUIRE(admin);
  (*admin)->exec("ALTER DATABASE " + name + " OWNER TO secret_user");
  const std::string url = pg.url(name, "secret_user", "right");
  auto store = Store::open(url);
  REQUIRE(store);
  REQUIRE(engine_registry::upsert_engine(*store, EngineInfo{"before", "", "", ""}));
  CHECK_FALSE(store->connection_lost());
  // Every backend of the database is cut from the server's side, as a restart or a network cut
  // would.
  {
    (*admin)->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" +
                   name + "'");
    // Wait until the backend is gone (pg_terminate_backend only signals it).
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      sql::Query left(**admin, "SELECT count(*) FROM pg_stat_activity WHERE datname = ?");
      left.bind(1, name);
      REQUIRE(left.step());
      if (left.int64(0) == 0) break;
      REQUIRE(std::chrono::steady_clock::now() < until);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  auto failed = engine_registry::upsert_engine(*store, EngineInfo{"during", "", "", ""});
  REQUIRE_FALSE(failed);
  INFO(failed.error());
  CHECK(failed.error().find('\n') == std::string::npos);
  CHECK(failed.error().rfind(database_name(url), 0) == 0);  // names the database
  CHECK(database_name(url).find("right") == std::string::npos);
  CHECK(failed.error().find(":right@") == std::string::npos);  // never its password
  CHECK(failed.kind() == referee::ErrorKind::Unavailable);
  CHECK(store->connection_lost());
  // Still an error, not a crash, for every later call, reads and batches included.
  CHECK_FALSE(store->games(GameFilter{}));
  CHECK_FALSE((store->begin_batch() && store->commit_batch()));
  CHECK_FALSE(for_each_game(*store, GameQuery{}, StreamOptions{},
                            [](const GameRecord&, const std::vector<MoveRecord>&) {
                              return referee::Status(referee::Ok{});
                            }));
  // A data error is not a lost connection.
  auto fresh = Store::open(url);
  REQUIRE(fresh);
  CHECK_FALSE(fresh->connection_lost());
  auto bad = engine_registry::upsert_engine(*fresh, EngineInfo{"", "", "", ""});
  REQUIRE_FALSE(bad);
  CHECK(bad.kind() == referee::ErrorKind::Invalid);
  // The new connection has its statements prepared again and sees what was committed before.
  REQUIRE(engine_registry::upsert_engine(*fresh, EngineInfo{"after", "", "", ""}));
  auto engines = engine_registry::engines(*fresh);
  REQUIRE(engines);
  std::vector<std::string> names;
  for (const auto& e : *engines) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"after", "before"});
}

TEST_CASE("store: a fresh connection is not lost") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      auto store = Store::open(test_db.url());
      REQUIRE(store);
      CHECK_FALSE(store->connection_lost());
    }
}

TEST_CASE("claims: a finish locks its slot before its game (the order a claim takes them)") {
  storage_test::PgServer* server = storage_test::postgres_or_skip();
  if (server == nullptr) return;
  storage_test::PgServer& pg = *server;
  const std::string url = pg.new_database();
  auto store = Store::open(url);
  REQUIRE(store);
  SlotRecord slot;
  slot.slot = 0;
  slot.game = "awale";
  slot.seats = {"a", "b"};
  auto event = work_queue::open_event(*store, "lock order", "{\"spec\":1}", "{}", {slot});
  REQUIRE(event);
  auto owner =
      work_queue::register_owner(*store, {"w", "host", 1, referee::storage::OwnerKind::Worker});
  REQUIRE(owner);
  auto claims = work_queue::claim_slots(*store, *owner, event->id, 1, 60000, {});
  REQUIRE(claims);
  REQUIRE(claims->size() == 1);
  GameRecord g;
  g.event_id = event->id;
  g.slot = 0;
  g.game = "awale";
  g.players = {"a", "b"};
  auto game = store->begin_game(g);
  REQUIRE(game);

  // Another transaction holds the slot, as a claim taking it would, before touching the game.
  auto other = sql::open_postgres(url);
  REQUIRE(other);
  (*other)->exec("BEGIN");
  (*other)->exec("SELECT * FROM slots WHERE event_id = " + std::to_string(event->id) +
                 " AND slot = 0 FOR UPDATE");
  std::atomic<bool> finished{false};
  referee::Expected<ClaimEnd> end = referee::Error{"not run"};
  std::thread finisher([&] {
    GameRecord result = g;
    result.status = referee::storage::GameStatus::Unfinished;
    result.termination = "interrupted";
    end = work_queue::finish_claimed(*store, *game, result, *owner);
    finished = true;
  });
  // The finish waits for the slot, and has not locked the game meanwhile: the other transaction
  // can still change the game (a finish that took the game first would deadlock here).
  auto waiting = sql::open_postgres(url);
  REQUIRE(waiting);
  bool blocked = false;
  for (int i = 0; i < 500 && !blocked; ++i) {
    sql::Query q(**waiting,
                 "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND "
                 "query LIKE '%FOR UPDATE OF s%' AND datname = current_database()");
    REQUIRE(q.step());
    blocked = q.int64(0) == 1;
    if (!blocked) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(blocked);
  CHECK_FALSE(finished.load());
  (*other)->exec("SET lock_timeout = '5s'");
  (*other)->exec("UPDATE games SET reason = 'taken' WHERE id = " + std::to_string(*game));
  (*other)->exec("COMMIT");
  finisher.join();
  REQUIRE(end);
  CHECK(*end == ClaimEnd::Released);
}
