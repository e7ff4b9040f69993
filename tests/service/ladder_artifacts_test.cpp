// Stored engines on the ladders and in authors' events, against a real daemon
// (service/ladder_artifacts.cpp, roles.h): an author registers another author's stored engine by
// name; each live version is a ladder entry of its own (`mybot@1`, `mybot@2`), rated separately;
// a version added later joins without a new registration; a retired one leaves (its games stay
// rated); a registration by `name@N` is that version only; unknown and retired references are one
// line (400, 409). An author's event naming another's artifact plays in the sandbox and records
// it; one naming a registered entry of a stored engine pins that engine's version; an author
// naming a host command beside it is still refused (403). A worker on the same database plays a
// version stored after it loaded the ladder, and no game is lost meanwhile.
// The sandbox needs bubblewrap and the user referee-engine (deps.sh): without them this FAILS.
#include <SQLiteCpp/Database.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "tests/service/daemon_util.h"
#include "tests/service/stored_engines.h"
#include "tests/service/worker_process.h"

using namespace stest;

namespace {

const std::string kGame = "awale:maxplies=10";

std::string new_token(const TempDir& dir, const std::string& name, const std::string& db) {
  auto made = rtest::run_program(REFEREE_BIN, {"token", "add", name, "--db", db}, dir);
  INFO(made.out << made.err);
  REQUIRE(made.status == 0);
  return rtest::lines_of(made.out).front();
}

httplib::Headers bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

// The engines of the only ladder, sorted (excluded ones are not listed).
std::vector<std::string> ladder_entries(httplib::Client& c) {
  auto ladders = get_json(c, "/api/ladder")["ladders"];
  if (ladders.empty()) return {};
  auto names = ladders[0]["engines"].get<std::vector<std::string>>();
  std::sort(names.begin(), names.end());
  return names;
}

std::string url_name(std::string name) {
  const auto at = name.find('@');
  if (at != std::string::npos) name.replace(at, 1, "%40");
  return name;
}

std::int64_t games_of(httplib::Client& c, const std::string& engine, const std::string& status) {
  return get_json(c, "/api/games?limit=1&engine=" + url_name(engine) +
                         (status.empty() ? "" : "&status=" + status))["total"]
      .get<std::int64_t>();
}

// The ladder's standings row of `engine` (null when it has none).
Json standing_of(httplib::Client& c, const std::string& engine) {
  auto ladders = get_json(c, "/api/ladder")["ladders"];
  if (ladders.empty() || ladders[0]["standings"].empty()) return nullptr;
  for (const auto& row : ladders[0]["standings"][0]["rows"])
    if (row["engine"] == engine) return row;
  return nullptr;
}

// The engine_hashes of the finished games `engine` played, as stored.
std::vector<std::string> hashes_of(const std::string& db, const std::string& engine) {
  SQLite::Database sql(db, SQLite::OPEN_READONLY);
  SQLite::Statement q(sql,
                      "SELECT g.engine_hashes FROM games g JOIN game_players p ON p.game_id = g.id"
                      " WHERE p.engine = ? AND g.status = 'finished'");
  q.bind(1, engine);
  std::vector<std::string> out;
  while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  return out;
}

}  // namespace

TEST_CASE("ladder artifacts: each version of a stored engine is an entry rated on its own") {
  require_sandbox();
  TempDir dir;
  let_sandbox_cross(dir.path());
  const std::string db = dir.file("serve.db");
  Daemon d(dir, {"-c", "2", "--artifact-cache", dir.file("cache")});
  REQUIRE(d.ready());
  auto anon = d.anonymous();
  const std::string alice = new_token(dir, "alice", db), bob = new_token(dir, "bob", db);
  // Alice's engine, two versions; Bob registers it: playing against another's engine is allowed.
  const auto v1 = add_stored_mock(db, "mybot", "alice", "--slow-ms=1");
  const auto v2 = add_stored_mock(db, "mybot", "alice", "--slow-ms=2");
  CHECK(v2.label() == "mybot@2");
  const Json by_name = {{"name", "bob-vs-mybot"}, {"artifact", "mybot"}, {"games", {kGame}}};
  auto registered = anon.Post("/api/engines", bearer(bob), by_name.dump(), "application/json");
  REQUIRE(registered);
  INFO(registered->body << rtest::read_text(dir.file("serve.err")));
  REQUIRE(registered->status == 201);
  CHECK(Json::parse(registered->body)["artifact"] == "mybot");
  CHECK(Json::parse(registered->body)["submitted_by"] == "bob");
  CHECK(ladder_entries(anon) == std::vector<std::string>{"mybot@1", "mybot@2"});

  // Rated separately: each version has its own row, and its games record its own artifact.
  REQUIRE(wait_until([&] { return games_of(anon, "mybot@1", "finished") >= 2; }, 60));
  REQUIRE(wait_until([&] { return !standing_of(anon, "mybot@2").is_null(); }, 30));
  CHECK_FALSE(standing_of(anon, "mybot@1").is_null());
  CHECK(standing_of(anon, "mybot").is_null());
  for (const auto& [label, sha256] :
       {std::pair{v1.label(), v1.artifact.sha256}, {v2.label(), v2.artifact.sha256}}) {
    auto hashes = hashes_of(db, label);
    REQUIRE_FALSE(hashes.empty());
    for (const auto& h : hashes) CHECK(contains(h, "\"artifact\":\"" + sha256 + "\""));
  }

  // A third version joins at the keeper's next look, without a new registration.
  add_stored_mock(db, "mybot", "alice", "--slow-ms=3");
  REQUIRE(wait_until(
      [&] {
        return ladder_entries(anon) == std::vector<std::string>{"mybot@1", "mybot@2", "mybot@3"};
      },
      20));
  REQUIRE(wait_until([&] { return games_of(anon, "mybot@3", "finished") >= 2; }, 60));

  // The first one retired (by its owner) leaves: no new game, its games stay rated.
  {
    auto store = referee::storage::Store::open(db);
    REQUIRE(store);
    auto retired = referee::storage::artifact_store::retire(*store, "mybot@1", "alice", false);
    REQUIRE(retired);
    CHECK(*retired == 1);
  }
  REQUIRE(wait_until(
      [&] {
        return ladder_entries(anon) == std::vector<std::string>{"mybot@2", "mybot@3"};
      },
      20));
  REQUIRE(wait_until([&] { return games_of(anon, "mybot@1", "running") == 0; }, 60));
  const auto old_games = games_of(anon, "mybot@1", "");
  const auto others = games_of(anon, "mybot@3", "finished");
  REQUIRE(wait_until([&] { return games_of(anon, "mybot@3", "finished") >= others + 4; }, 60));
  CHECK(games_of(anon, "mybot@1", "") == old_games);
  CHECK_FALSE(standing_of(anon, "mybot@1").is_null());

  // By number: that version only (here one the ladder has already: one entry, not two).
  const Json pinned = {{"name", "alice-v2"}, {"artifact", "mybot@2"}, {"games", {kGame}}};
  auto by_number = anon.Post("/api/engines", bearer(alice), pinned.dump(), "application/json");
  REQUIRE(by_number);
  CHECK(by_number->status == 201);
  CHECK(ladder_entries(anon) == std::vector<std::string>{"mybot@2", "mybot@3"});
  // Unknown and retired references: one line each.
  for (const auto& [ref, status, says] :
       {std::tuple<std::string, int, std::string>{"mybot@9", 400, "no stored engine \"mybot@9\""},
        {"ghost", 400, "no stored engine \"ghost\""},
        {"mybot@1", 409, "mybot@1 is retired"}}) {
    const Json body = {{"name", "x"}, {"artifact", ref}, {"games", {kGame}}};
    check_error(anon.Post("/api/engines", bearer(alice), body.dump(), "application/json"), status,
                says);
  }
  // The registration retired: its versions leave, but the one alice's pins stays.
  auto off = anon.Post("/api/engines/bob-vs-mybot/retire", bearer(bob), "", "application/json");
  REQUIRE(off);
  CHECK(off->status == 200);
  CHECK(ladder_entries(anon) == std::vector<std::string>{"mybot@2"});
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("ladder artifacts: an author's event plays another's stored engine but never a command") {
  require_sandbox();
  TempDir dir;
  let_sandbox_cross(dir.path());
  const std::string db = dir.file("serve.db");
  Daemon d(dir, {"-c", "2", "--artifact-cache", dir.file("cache")});
  REQUIRE(d.ready());
  auto anon = d.anonymous();
  const std::string alice = new_token(dir, "alice", db), bob = new_token(dir, "bob", db);
  const auto theirs = add_stored_mock(db, "alicebot", "alice");
  const auto mine = add_stored_mock(db, "bobbot", "bob");
  const std::string head =
      "name = \"bob's\"\ngames = [\"" + kGame + "\"]\ntc = \"10+0.1\"\ncycles = 2\n";
  const std::string toml = "application/toml";
  // A host command, dir or env beside a stored engine: still the operator's only.
  for (const std::string extra :
       {"command = \"/bin/sh\"\n", "dir = \"/tmp\"\n", "env = { A = \"1\" }\n"}) {
    INFO(extra);
    check_error(anon.Post("/api/events", bearer(bob),
                          head + "[[engine]]\nartifact = \"alicebot\"\n" + extra +
                              "[[engine]]\nartifact = \"bobbot\"\n",
                          toml),
                403, "operator's to give");
  }
  const Json with_command = {
      {"name", "sh"}, {"artifact", "alicebot"}, {"command", "/bin/sh"}, {"games", {kGame}}};
  check_error(anon.Post("/api/engines", bearer(bob), with_command.dump(), "application/json"), 403,
              "'command' is the operator's to give");
  // Unknown: 400, one line naming the engine.
  check_error(anon.Post("/api/events", bearer(bob),
                        head + "[[engine]]\nartifact = \"nobot\"\n[[engine]]\nartifact = "
                               "\"bobbot\"\n",
                        toml),
              400, "engine 'nobot': no stored engine \"nobot\"");

  // A registered entry of a stored engine, named in an event: the version it names then.
  const Json entry = {{"name", "alice-entry"}, {"artifact", "alicebot"}, {"games", {kGame}}};
  auto made = anon.Post("/api/engines", bearer(alice), entry.dump(), "application/json");
  REQUIRE(made);
  REQUIRE(made->status == 201);
  auto by_entry = anon.Post("/api/events?state=paused", bearer(bob),
                            "name = \"by entry\"\ngames = [\"" + kGame +
                                "\"]\ntc = \"10+0.1\"\n[[engine]]\nname = \"alice-entry\"\n"
                                "[[engine]]\nartifact = \"bobbot\"\n",
                            toml);
  REQUIRE(by_entry);
  INFO(by_entry->body);
  REQUIRE(by_entry->status == 201);
  const auto entry_event = get_json(
      anon, "/api/events/" + std::to_string(Json::parse(by_entry->body)["id"].get<std::int64_t>()));
  CHECK(contains(entry_event["spec"].dump(), theirs.artifact.sha256));

  auto submitted =
      anon.Post("/api/events", bearer(bob),
                head +
                    "[[engine]]\nartifact = \"alicebot\"\n[[engine]]\nname = \"mine\"\nartifact = "
                    "\"bobbot@1\"\ntc = \"5+0.1\"\n",
                toml);
  REQUIRE(submitted);
  INFO(submitted->body << rtest::read_text(dir.file("serve.err")));
  REQUIRE(submitted->status == 201);
  const auto id = Json::parse(submitted->body)["id"].get<std::int64_t>();
  REQUIRE(wait_state(anon, id, "finished", 60));
  CHECK(get_json(anon, "/api/games?status=finished&event=" + std::to_string(id))["total"] == 4);
  const auto hashes = hashes_of(db, "mine");
  CHECK(hashes.size() == 4);
  for (const auto& h : hashes) {
    CHECK(contains(h, "\"artifact\":\"" + theirs.artifact.sha256 + "\""));
    CHECK(contains(h, "\"artifact\":\"" + mine.artifact.sha256 + "\""));
  }
  // The API gives each seat's artifact with the game.
  const auto games = get_json(anon, "/api/games?status=finished&event=" + std::to_string(id));
  const auto game_id = games["games"][0]["id"].get<std::int64_t>();
  const auto seats = get_json(anon, "/api/games/" + std::to_string(game_id))["engine_hashes"];
  REQUIRE(seats.size() == 2);
  std::set<std::string> artifacts;
  for (const auto& seat : seats) {
    CHECK(seat["program"].is_null());
    artifacts.insert(seat["artifact"].get<std::string>());
  }
  CHECK(artifacts == std::set<std::string>{theirs.artifact.sha256, mine.artifact.sha256});
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("ladder artifacts: a worker plays a version added after it started") {
  require_sandbox();
  TempDir dir;
  let_sandbox_cross(dir.path());
  const std::string db = dir.file("serve.db");
  Daemon d(dir, {"-c", "1", "--artifact-cache", dir.file("cache")});
  REQUIRE(d.ready());
  auto c = d.client();
  add_stored_mock(db, "wbot", "operator", "--slow-ms=1");
  add_stored_mock(db, "wbot", "operator", "--slow-ms=2");
  const Json body = {{"name", "wbot"}, {"artifact", "wbot"}, {"games", {kGame}}};
  auto registered = c.Post("/api/engines", body.dump(), "application/json");
  REQUIRE(registered);
  REQUIRE(registered->status == 201);
  const std::string home = dir.file("w");
  std::filesystem::create_directories(home);
  WorkerProcess worker(home, {"--db", db, "-c", "2", "--artifact-cache", dir.file("w/cache"),
                              "--idle-max", "1", "--name", "ladder-worker"});
  SQLite::Database sql(db, SQLite::OPEN_READONLY);
  auto count = [&](const std::string& query) { return sql.execAndGet(query).getInt64(); };
  const std::string by_worker =
      "SELECT count(*) FROM games g JOIN owners o ON o.id = g.owner JOIN game_players p ON "
      "p.game_id = g.id WHERE o.name = 'ladder-worker' AND g.status = 'finished' AND p.engine = ";
  {
    INFO(worker.err());
    REQUIRE(wait_until([&] { return count(by_worker + "'wbot@1'") >= 2; }, 60));
  }
  // Stored after the worker loaded the ladder: the worker learns it without being told.
  add_stored_mock(db, "wbot", "operator", "--slow-ms=3");
  {
    INFO(worker.err());
    CHECK(wait_until([&] { return count(by_worker + "'wbot@3'") >= 2; }, 60));
  }
  // No game of it was lost to a process that did not know it yet.
  CHECK(count("SELECT count(*) FROM slots WHERE state = 'skipped' AND reason LIKE '%not in the "
              "event%'") == 0);
  worker.terminate();
  CHECK(worker.wait() == 0);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
