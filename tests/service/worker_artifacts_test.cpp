// Workers and stored engines (issue 23): a `referee worker` in its own network namespace, reaching
// PostgreSQL over TCP, plays an event whose engines are artifacts stored in that database and
// nowhere else on disk (the file they were read from is deleted before the worker starts): it
// materialises them into its own --artifact-cache, runs them in the sandbox, and every game
// records both artifacts. A worker whose sandbox is unavailable (bwrap hidden in its own mount
// namespace) plays none of those games and says why in one line.
// The namespaces need root (netns.h); without them, or without a PostgreSQL server, the first
// prints `SKIPPED ...: <why>` (REFEREE_REQUIRE_POSTGRES=1 makes a missing server a failure). The
// sandbox needs bubblewrap and the user referee-engine (deps.sh): without them these FAIL.
#include <catch2/catch.hpp>
#include <filesystem>
#include <iostream>

#include "storage/sql/pg_connection.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/netns.h"
#include "tests/service/stored_engines.h"
#include "tests/service/worker_process.h"
#include "tests/storage/pg_server.h"

using namespace stest;

namespace {

// An event of two stored engines, `cycles` double round-robins of a short awale.
std::string stored_event(const std::string& name, const std::string& a, const std::string& b,
                         int cycles) {
  return "name = \"" + name + "\"\ngames = [\"awale:maxplies=10\"]\ntc = \"10+0.1\"\ncycles = " +
         std::to_string(cycles) + "\n[[engine]]\nartifact = \"" + a +
         "\"\n[[engine]]\nartifact = \"" + b + "\"\n";
}

std::vector<std::string> column_of(referee::storage::sql::Connection& db, const std::string& sql) {
  std::vector<std::string> out;
  auto q = db.prepare(sql);
  while (q->step()) out.push_back(q->is_null(0) ? std::string() : q->text(0));
  return out;
}

}  // namespace

TEST_CASE("worker artifacts: a worker in its own netns plays engines stored only in PostgreSQL") {
  require_sandbox();
  stest::NetNamespaces nets(1);
  if (!nets.available()) {
    CHECK_FALSE(nets.reason().empty());
    std::cerr << "SKIPPED netns: " << nets.reason() << "\n";
    WARN("SKIPPED netns: " + nets.reason());
    return;
  }
  storage_test::PgServer::Options options;
  options.tcp_addresses = {nets.root_address(0)};
  options.tcp_clients = nets.clients();
  storage_test::PgServer server(options);
  if (!server.available()) {
    if (storage_test::PgServer::required())
      FAIL("REFEREE_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: " +
           server.reason());
    WARN("SKIPPED: " + server.reason());
    return;
  }
  const std::string db = server.new_database();  // the test's own: the Unix socket
  TempDir dir;
  let_sandbox_cross(dir.path());
  // The engine's file exists only until it is stored.
  const std::string copy = dir.file("upload/mock_engine");
  std::filesystem::create_directories(dir.file("upload"));
  std::filesystem::copy_file(kMock, copy);
  const auto v1 = add_stored_mock(db, "pgbot", "alice", "--slow-ms=1", copy);
  const auto v2 = add_stored_mock(db, "pgbot", "alice", "--slow-ms=2", copy);
  std::filesystem::remove_all(dir.file("upload"));
  rtest::write_text(dir.file("t.toml"), stored_event("stored", "pgbot@1", "pgbot@2", 2));
  const std::int64_t id = queue_file(db, dir.file("t.toml"));

  const std::string home = dir.file("w0"), cache = dir.file("w0/cache");
  std::filesystem::create_directories(home);
  const std::string url =
      server.tcp_url(storage_test::PgServer::database_of(db), nets.root_address(0));
  WorkerProcess worker(home,
                       {"--db", url, "--concurrency", "2", "--exit-when-done", "--idle-max", "1",
                        "--artifact-cache", cache, "--name", "netns-worker"},
                       nets.exec_prefix(0));
  REQUIRE(wait_until([&] { return !worker.running(); }, 90));
  INFO(worker.err());
  CHECK(worker.wait() == 0);

  auto admin = referee::storage::sql::open_postgres(db);
  REQUIRE(admin);
  const auto hashes =
      column_of(**admin, "SELECT engine_hashes FROM games WHERE event_id = " + std::to_string(id) +
                             " AND status = 'finished'");
  CHECK(hashes.size() == 4);
  for (const auto& h : hashes) {
    CHECK(contains(h, "\"artifact\":\"" + v1.artifact.sha256 + "\""));
    CHECK(contains(h, "\"artifact\":\"" + v2.artifact.sha256 + "\""));
  }
  // Played by this worker, from its own cache (one artifact: both versions share the bytes).
  CHECK(column_of(**admin,
                  "SELECT DISTINCT o.name FROM games g JOIN owners o ON o.id = g.owner WHERE "
                  "g.event_id = " +
                      std::to_string(id)) == std::vector<std::string>{"netns-worker"});
  bool extracted = false;  // `<sha256>-f<tag>/root/mock_engine` (engines/artifact_cache.h)
  for (const auto& entry : std::filesystem::directory_iterator(cache))
    extracted = extracted || (entry.path().filename().string().rfind(v1.artifact.sha256, 0) == 0 &&
                              std::filesystem::exists(entry.path() / "root/mock_engine"));
  CHECK(extracted);
}

TEST_CASE("worker artifacts: a worker without its sandbox plays none of those games and says why") {
  require_sandbox();
  TempDir dir;
  let_sandbox_cross(dir.path());
  const std::string db = dir.file("t.db");
  add_stored_mock(db, "bot", "operator");
  add_stored_mock(db, "bot", "operator", "--slow-ms=1");
  rtest::write_text(dir.file("t.toml"), stored_event("stored", "bot@1", "bot@2", 1));
  const std::int64_t id = queue_file(db, dir.file("t.toml"));
  // bwrap hidden from this worker alone: /dev/null bound over it in its own mount namespace.
  const std::vector<std::string> no_bwrap = {
      "unshare", "--mount", "sh", "-c",
      "mount --bind /dev/null /usr/bin/bwrap && exec \"$0\" \"$@\""};
  const std::string home = dir.file("w");
  std::filesystem::create_directories(home);
  WorkerProcess worker(home,
                       {"--db", db, "--concurrency", "1", "--artifact-cache", dir.file("cache"),
                        "--name", "no-sandbox"},
                       no_bwrap);
  const std::string why = "bubblewrap (/usr/bin/bwrap) is not installed";
  REQUIRE(wait_until([&] { return contains(worker.err(), why) || !worker.running(); }, 30));
  INFO(worker.err());
  REQUIRE(worker.running());
  // One line, naming the engine and the reason.
  std::string line;
  for (const auto& l : rtest::lines_of(worker.err()))
    if (contains(l, why)) line = l;
  CHECK(contains(line, "engine 'bot@"));
  CHECK(contains(line, "cannot start"));
  CHECK(contains(line, "deps.sh installs it"));
  worker.terminate();
  CHECK(worker.wait() == 0);
  // Nothing played: the games wait for a worker that can.
  auto store = referee::storage::Store::open(db);
  REQUIRE(store);
  auto event = referee::storage::work_queue::event(*store, id);
  REQUIRE(event);
  CHECK(event->pending == 2);
  CHECK(std::filesystem::exists("/usr/bin/bwrap"));  // hidden from that worker only
}
