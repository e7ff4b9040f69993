// The backends every storage test that uses this header runs against: SQLite always, PostgreSQL
// when a server can be started (pg_server.h). Use:
//
//   for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
//     storage_test::TestDb db(backend);
//     auto store = Store::open(db.url());
//     ...
//   }
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "storage/pg_server.h"
#include "storage/store.h"
#include "storage/temp_dir.h"

namespace storage_test {

inline std::vector<std::string> backends() {
  std::vector<std::string> out{"sqlite"};
  PgServer& pg = PgServer::get();
  if (pg.available()) {
    out.push_back("postgresql");
  } else if (PgServer::required()) {
    FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " + pg.reason());
  } else {
    WARN("SKIPPED on PostgreSQL (only SQLite tested): " + pg.reason());
  }
  return out;
}

// The test server for a PostgreSQL-only test, or null when none could be started: then the test
// fails under REFEREE_REQUIRE_POSTGRES=1, or says loudly that it skipped (return at once on null).
inline PgServer* postgres_or_skip() {
  PgServer& pg = PgServer::get();
  if (pg.available()) return &pg;
  if (PgServer::required())
    FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " + pg.reason());
  WARN("SKIPPED: " + pg.reason());
  return nullptr;
}

// A server of this test's own (PgServer(options)), for a test that restarts or kills it; null
// when none could be started, as postgres_or_skip().
inline std::unique_ptr<PgServer> own_postgres_or_skip(PgServer::Options options = {}) {
  auto server = std::make_unique<PgServer>(std::move(options));
  if (server->available()) return server;
  if (PgServer::required())
    FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " +
         server->reason());
  WARN("SKIPPED: " + server->reason());
  return nullptr;
}

// The store at `url`, opened or the test stops with the reason.
inline referee::storage::Store open_ok(const std::string& url) {
  auto store = referee::storage::Store::open(url);
  INFO((store ? std::string() : store.error()));
  REQUIRE(store.ok());
  return std::move(*store);
}

// A fresh database of one backend for one test: a file in its own directory, or a new database
// on the test server.
class TestDb {
 public:
  explicit TestDb(const std::string& backend) {
    url_ = backend == "sqlite" ? dir_.file("test.db") : PgServer::get().new_database();
  }
  const std::string& url() const { return url_; }
  const TempDir& dir() const { return dir_; }

 private:
  TempDir dir_;
  std::string url_;
};

}  // namespace storage_test
