// The daemon and `referee worker` with an event pinned to an endgame table
// (event/egdb_adjudication.h): a submitted event keeps the table's path and checksum in its
// specification and plays its games (those the table does not reach end by the rules), a missing
// file is refused with 400 and one line; a worker whose host lacks the table, or has a file with
// another checksum, never claims the event's games and says so in one line, while it plays the
// other events; once the pinned file is there, a worker plays the event.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "games/egdb/build.h"
#include "games/game.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/worker_process.h"

using stest::contains;
using stest::TempDir;
using stest::wait_until;
using stest::WorkerProcess;

namespace {

void build_kalaha(int seeds, const std::string& path) {
  referee::games::egdb::BuildOptions options;
  options.seeds = seeds;
  options.path = path;
  auto built = referee::games::egdb::build_table(*referee::games::make_game("kalaha"), options);
  REQUIRE(built.ok());
}

std::string event_toml(const std::string& name, const std::string& table) {
  std::string text =
      "name = \"" + name + "\"\ngames = [\"kalaha:nocapture=0,maxplies=10\"]\ntc = \"10+0.1\"\n";
  if (!table.empty()) text += "[adjudication]\negdb = \"" + table + "\"\n";
  for (int e = 0; e < 2; ++e)
    text +=
        "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + stest::kMock + "\"\n";
  return text;
}

std::int64_t done(const std::string& db, std::int64_t event) {
  auto store = referee::storage::Store::open(db, {true});
  if (!store) return -1;
  auto info = referee::storage::work_queue::event(*store, event);
  return info ? info->done : -1;
}

std::size_t lines_with(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (const auto& line : rtest::lines_of(text)) n += contains(line, part) ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("worker: an event whose endgame table this host lacks is never claimed here") {
  TempDir dir;
  const std::string db = dir.file("egdb.db");
  const std::string table = dir.file("k.egdb"), kept = dir.file("kept.egdb");
  build_kalaha(3, table);
  rtest::write_text(dir.file("e.toml"), event_toml("pinned", table));
  rtest::write_text(dir.file("p.toml"), event_toml("plain", ""));
  const std::int64_t pinned = stest::queue_file(db, dir.file("e.toml"));
  std::filesystem::rename(table, kept);  // this host has no such file now

  const std::string lacks = "is not played: egdb table '" + table + "' is not on this host";
  std::int64_t plain = 0;
  {
    std::filesystem::create_directories(dir.file("w1"));
    WorkerProcess w(dir.file("w1"), {"--db", db, "--idle-max", "1", "--name", "w1"});
    REQUIRE(wait_until([&] { return contains(w.err(), lacks); }, 20));
    // Another event queued meanwhile is played, so the worker has looked at its events again.
    plain = stest::queue_file(db, dir.file("p.toml"));
    REQUIRE(wait_until([&] { return done(db, plain) == 2; }, 60));
    w.terminate();
    CHECK(w.wait() == 0);
    CHECK(done(db, pinned) == 0);
    INFO(w.err());
    CHECK(lines_with(w.err(), "egdb table") == 1);
  }
  // A file of another checksum at that path: refused too, naming both checksums.
  build_kalaha(2, table);
  {
    std::filesystem::create_directories(dir.file("w2"));
    WorkerProcess w(dir.file("w2"), {"--db", db, "--idle-max", "1", "--name", "w2"});
    REQUIRE(wait_until([&] { return contains(w.err(), "on this host, the event pins"); }, 20));
    INFO(w.err());
    CHECK(lines_with(w.err(), "is not played: egdb table '" + table + "' has checksum ") == 1);
    w.terminate();
    CHECK(w.wait() == 0);
    CHECK(done(db, pinned) == 0);
  }
  // The pinned file back: the event is played.
  std::filesystem::rename(kept, table);
  {
    std::filesystem::create_directories(dir.file("w3"));
    WorkerProcess w(dir.file("w3"), {"--db", db, "--idle-max", "1", "--name", "w3"});
    REQUIRE(wait_until([&] { return done(db, pinned) == 2; }, 60));
    w.terminate();
    CHECK(w.wait() == 0);
    CHECK(lines_with(w.err(), "egdb table") == 0);
  }
}

TEST_CASE("serve: an event's endgame table pinned in its specification, a missing one refused") {
  TempDir dir;
  const std::string table = dir.file("a.egdb");
  {
    referee::games::egdb::BuildOptions options;
    options.seeds = 2;
    options.path = table;
    REQUIRE(referee::games::egdb::build_table(*referee::games::make_game("awale"), options).ok());
  }
  stest::Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const std::string text =
      stest::tournament_toml("tabled", 2, 1, 10) + "[adjudication]\negdb = \"" + table + "\"\n";
  const auto id = stest::submit_ok(c, text);
  REQUIRE(stest::wait_state(c, id, "finished"));
  auto event = stest::event_of(c, id);
  INFO(event.dump());
  CHECK(event["spec"]["adjudication"]["egdb"]["path"] == table);
  CHECK(event["spec"]["adjudication"]["egdb"]["checksum"].get<std::string>().size() == 16);
  // awale:maxplies=10 never comes down to 2 seeds: its games end by the rules.
  auto games = stest::get_json(c, "/api/games?event=" + std::to_string(id));
  REQUIRE(games["games"].size() == 2);
  for (const auto& g : games["games"]) CHECK(g["termination"] == "maxplies");
  stest::check_error(
      stest::submit(c, stest::tournament_toml("none", 2, 1, 10) + "[adjudication]\negdb = \"" +
                           dir.file("no.egdb") + "\"\n"),
      400,
      "request body: adjudication.egdb: egdb table '" + dir.file("no.egdb") +
          "' is not a readable file");
}
