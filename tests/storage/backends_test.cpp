// The SQL layer and the PostgreSQL backend: placeholders, URLs with their password removed, the
// server a test program starts (never skipped silently), connection errors naming the database,
// a schema newer than known, and the same games giving the same exports and counts on SQLite and
// PostgreSQL.
#include <catch2/catch.hpp>

#include <sstream>

#include "storage/backends.h"
#include "storage/export.h"
#include "storage/game_maker.h"
#include "storage/game_stream.h"
#include "storage/results.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;
using storage_test::PgServer;
using storage_test::TestDb;

namespace {

using storage_test::open_ok;

// The same random games (a tournament of two engines, one game of three players outside it, one
// unfinished) recorded into `store`.
void record_games(Store& store) {
  const auto t = work_queue::open_tournament(store, "cup", "{}");
  REQUIRE(t.ok());
  for (int i = 0; i < 6; ++i) {
    auto made = storage_test::random_game(
        i % 2 ? "kalaha" : "awale",
        i % 2 ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"b", "a"},
        static_cast<std::uint64_t>(i + 1), i % 3);
    made.record.event_id = *t;
    made.record.slot = 5 - i;  // schedule order differs from id order
    auto id = store.begin_game(made.record);
    REQUIRE(id.ok());
    REQUIRE(store.begin_batch().ok());
    for (const auto& m : made.moves) REQUIRE(store.add_move(*id, m).ok());
    REQUIRE(store.commit_batch().ok());
    if (i == 4) {
      made.record.status = referee::storage::GameStatus::Unfinished;
      made.record.termination = "interrupted";
    }
    REQUIRE(store.finish_game(*id, made.record).ok());
  }
  auto three = storage_test::random_game("oware:players=3", {"a", "b", "c"}, 99);
  auto id = store.begin_game(three.record);
  REQUIRE(id.ok());
  for (const auto& m : three.moves) REQUIRE(store.add_move(*id, m).ok());
  REQUIRE(store.finish_game(*id, three.record).ok());
}

std::string export_all(Store& store, ExportFormat format, bool finished_only) {
  std::ostringstream out;
  ExportOptions options;
  options.pairwise = true;
  ExportWriter writer(out, format, options);
  GameQuery query;
  query.finished_only = finished_only;
  referee::Status st =
      for_each_game(store, query, StreamOptions{},
                    [&](const GameRecord& g, const std::vector<MoveRecord>& moves) {
                      return writer.write(g, moves);
                    });
  REQUIRE(st.ok());
  REQUIRE(writer.finish().ok());
  return out.str();
}

}  // namespace

TEST_CASE("sql: ? and ?N become $N the way SQLite numbers them, quoted text is kept") {
  using referee::storage::sql::rewrite_placeholders;
  CHECK(rewrite_placeholders("SELECT ? , ?") == "SELECT $1 , $2");
  CHECK(rewrite_placeholders("a = ?2 AND b = ?1 AND c = ?") == "a = $2 AND b = $1 AND c = $3");
  CHECK(rewrite_placeholders("x = '?' AND y = \"?\" AND z = ? -- ?\n") ==
        "x = '?' AND y = \"?\" AND z = $1 -- ?\n");
  CHECK(rewrite_placeholders("v = 'it''s ?' OR w = ?") == "v = 'it''s ?' OR w = $1");
}

TEST_CASE("sql: database strings — PostgreSQL URLs, and their password never shown") {
  using namespace referee::storage::sql;
  CHECK(is_postgres_url("postgresql://u@h/db"));
  CHECK(is_postgres_url("postgres://h/db"));
  CHECK_FALSE(is_postgres_url("referee.db"));
  CHECK_FALSE(is_postgres_url("/tmp/postgresql://x"));
  CHECK(redact_url("postgresql://user:hunter2@host:5432/db") == "postgresql://user@host:5432/db");
  CHECK(redact_url("postgres://user@host/db") == "postgres://user@host/db");
  CHECK(redact_url("postgresql://host/db?password=hunter2&sslmode=disable") ==
        "postgresql://host/db?sslmode=disable");
  CHECK(redact_url("postgresql://host/db?sslmode=disable&password=hunter2") ==
        "postgresql://host/db?sslmode=disable");
  CHECK(redact_url("postgresql://a:b@/db?host=/tmp/x") == "postgresql://a@/db?host=/tmp/x");
}

TEST_CASE("postgres: the test server starts, or the skip is loud (and fails when required)") {
  PgServer& pg = PgServer::get();
  if (!pg.available()) {
    if (PgServer::required())
      FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " + pg.reason());
    WARN("SKIPPED: the PostgreSQL backend is not tested: " + pg.reason());
    return;
  }
  auto url = pg.new_database();
  auto store = Store::open(url);
  REQUIRE(store.ok());
  CHECK(store->path() == url);  // no password in it
}

TEST_CASE("postgres: connection errors are one line naming the database without its password") {
  PgServer& pg = PgServer::get();
  if (!pg.available()) {
    if (PgServer::required()) FAIL(pg.reason());
    WARN("SKIPPED on PostgreSQL: " + pg.reason());
    return;
  }
  const std::string db = pg.new_database();
  SECTION("wrong password") {
    const std::string url = pg.url("postgres", "secret_user", "wrong");
    auto s = Store::open(url);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().rfind(pg.url("postgres", "secret_user") + ": authentication failed", 0) == 0);
    CHECK(s.error().find("wrong") == std::string::npos);
    CHECK(s.error().find('\n') == std::string::npos);
  }
  SECTION("the right password works") {
    auto s = Store::open(pg.url("postgres", "secret_user", "right"));
    // secret_user may not create tables in postgres's public schema (PostgreSQL 15): either it
    // opens or it fails on permissions, never on authentication.
    if (!s.ok()) CHECK(s.error().find("authentication") == std::string::npos);
  }
  SECTION("missing database") {
    auto s = Store::open(pg.url("no_such_db"));
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().rfind(pg.url("no_such_db") + ": the database does not exist", 0) == 0);
  }
  SECTION("server unreachable") {
    const std::string url = "postgresql://referee:pw@/x?host=" + pg.socket_dir() + "/nowhere";
    auto s = Store::open(url);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().rfind("postgresql://referee@/x?host=" + pg.socket_dir() +
                              "/nowhere: the server is unreachable",
                          0) == 0);
    CHECK(s.error().find("pw") == std::string::npos);
  }
  SECTION("bad URL") {
    auto s = Store::open("postgresql://u:pw@/x?nonsense_option=1&host=" + pg.socket_dir());
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().rfind("postgresql://u@/x?nonsense_option=1&host=", 0) == 0);
    CHECK(s.error().find(":pw") == std::string::npos);
  }
  SECTION("a schema newer than this program's") {
    { open_ok(db); }
    {
      auto raw = referee::storage::sql::open_postgres(db);
      REQUIRE(raw.ok());
      (*raw)->exec("UPDATE schema_version SET version = 99");
    }
    auto s = Store::open(db);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == db + " has schema version 99; this referee reads up to " +
                           std::to_string(kSchemaVersion));
    auto r = Store::open(db, OpenOptions{true, false, 0});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == s.error());
  }
  SECTION("a database of other tables is not taken") {
    {
      auto raw = referee::storage::sql::open_postgres(db);
      REQUIRE(raw.ok());
      (*raw)->exec("CREATE TABLE accounts (id INTEGER)");
    }
    auto s = Store::open(db);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == db + " is not a referee database (it has tables accounts but no "
                            "schema_version)");
  }
}

TEST_CASE("backends: the same games export byte for byte the same and count the same") {
  const auto backends = storage_test::backends();
  if (backends.size() < 2) return;  // said by backends()
  TestDb lite("sqlite"), pg("postgresql");
  Store a = open_ok(lite.url());
  Store b = open_ok(pg.url());
  record_games(a);
  record_games(b);
  for (auto format : {ExportFormat::kPgn, ExportFormat::kJsonl, ExportFormat::kCsv}) {
    for (bool finished_only : {true, false}) {
      const std::string x = export_all(a, format, finished_only);
      const std::string y = export_all(b, format, finished_only);
      CHECK(x.size() > 200);
      CHECK(x == y);
    }
  }
  GameQuery all;
  auto ra = aggregate_results(a, all);
  auto rb = aggregate_results(b, all);
  REQUIRE(ra.ok());
  REQUIRE(rb.ok());
  CHECK(ra->total_games == 6);  // 5 finished two-player games and the three-player one
  CHECK(rb->total_games == ra->total_games);
  CHECK(rb->patterns.size() == ra->patterns.size());
  CHECK(rb->engines == ra->engines);
  for (const auto& g : {a.games(GameFilter{}), b.games(GameFilter{})}) {
    INFO((g ? std::string() : g.error()));
    REQUIRE(g.ok());
  }
  CHECK(a.games(GameFilter{})->size() == b.games(GameFilter{})->size());
}

TEST_CASE("backends: round trips counted per ply, a batch of moves is one transaction") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      TestDb db(backend);
      Store store = open_ok(db.url());
      auto made = storage_test::random_game("awale", {"a", "b"}, 7);
      auto id = store.begin_game(made.record);
      REQUIRE(id.ok());
      const auto before = store.round_trips();
      REQUIRE(store.begin_batch().ok());
      for (const auto& m : made.moves) REQUIRE(store.add_move(*id, m).ok());
      REQUIRE(store.commit_batch().ok());
      const auto after = store.round_trips();
      CHECK(after.transactions - before.transactions == 1);
      CHECK(after.statements - before.statements ==
            static_cast<std::int64_t>(made.moves.size()) + 2);  // BEGIN, the moves, COMMIT
      auto moves = store.moves(*id);
      REQUIRE(moves.ok());
      CHECK(moves->size() == made.moves.size());
    }
}
