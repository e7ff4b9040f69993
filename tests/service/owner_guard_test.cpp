// `referee serve` as a real process, guarded as a service must be (issue 21): a second daemon on
// the same database is refused with one line; a cancelled ladder can be resumed and plays again;
// below its free-space headroom the daemon reports `degraded` with the reason, starts no game and
// answers reads, and on a real small disk (a tmpfs, root only) it resumes by itself once there is
// room again, the same process.
#include <catch2/catch.hpp>
#include <string>

#include "tests/referee/small_disk.h"
#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

std::int64_t games_total(httplib::Client& c, const std::string& query = "") {
  return get_json(c, "/api/games?limit=1" + query)["total"].get<std::int64_t>();
}

}  // namespace

TEST_CASE("serve: a second daemon on the same database is refused with one line") {
  TempDir dir;
  Daemon first(dir, {"-c", "1"});
  REQUIRE(first.ready());
  Daemon second(dir, {"-c", "1"}, "second");
  CHECK(second.wait() == 1);
  const std::string err = second.err();
  INFO(err);
  CHECK(contains(err, "another referee serve (pid " + std::to_string(first.pid()) + ")"));
  CHECK(contains(err, "one daemon per database"));
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  CHECK_FALSE(contains(second.out(), "listening"));
  // The first goes on; another database is another daemon's.
  CHECK(first.running());
  auto c = first.client();
  CHECK(get_json(c, "/api/health")["status"] == "ok");
  Daemon other(dir, {"-c", "1", "--db", dir.file("other.db")}, "other");
  CHECK(other.ready());
  // Once the first has stopped, a new one starts on its database (the lock dies with it).
  CHECK(first.signal_and_wait(SIGKILL) == 128 + SIGKILL);
  Daemon third(dir, {"-c", "1"}, "third");
  CHECK(third.ready());
}

TEST_CASE("serve: a cancelled ladder can be resumed and plays again") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  for (const std::string name : {"north", "south"}) {
    const Json body = {{"name", name},
                       {"command", kMock},
                       {"args", {"--slow-ms=2"}},
                       {"games", {"awale:maxplies=10"}}};
    auto res = c.Post("/api/engines", body.dump(), "application/json");
    REQUIRE(res);
    INFO(res->body);
    REQUIRE(res->status == 201);
  }
  auto ladders = get_json(c, "/api/ladder")["ladders"];
  REQUIRE(ladders.size() == 1);
  const std::int64_t id = ladders[0]["id"].get<std::int64_t>();
  const std::string path = "/api/events/" + std::to_string(id);
  REQUIRE(wait_until([&] { return games_total(c, "&status=finished") >= 2; }, 60));
  auto cancelled = c.Post(path + "/cancel", "", "application/json");
  REQUIRE(cancelled);
  REQUIRE(cancelled->status == 200);
  REQUIRE(wait_until([&] { return games_total(c, "&status=running") == 0; }, 60));
  const auto before = games_total(c, "&status=finished");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(games_total(c, "&status=finished") == before);  // a cancelled ladder plays nothing

  auto resumed = c.Post(path + "/resume", "", "application/json");
  REQUIRE(resumed);
  INFO(resumed->body);
  REQUIRE(resumed->status == 200);
  CHECK(Json::parse(resumed->body)["state"] == "running");
  CHECK(get_json(c, "/api/ladder")["ladders"][0]["state"] == "running");
  CHECK(wait_until([&] { return games_total(c, "&status=finished") >= before + 2; }, 60));
  // A tournament that was cancelled stays so: it ended for good.
  const auto event = submit_ok(c, tournament_toml("t", 2, 1, 6, "args = [\"--slow-ms=200\"]\n"));
  const std::string t = "/api/events/" + std::to_string(event);
  REQUIRE(c.Post(t + "/cancel", "", "application/json")->status == 200);
  check_error(c.Post(t + "/resume", "", "application/json"), 409);
}

TEST_CASE("serve: below its free-space headroom it is degraded, answers reads, starts no game") {
  TempDir dir;
  // More free space than any disk has: degraded from its first check.
  Daemon d(dir, {"-c", "2", "--min-free-mb", "1000000000", "--space-check", "0.1"});
  REQUIRE(d.ready());
  auto c = d.client();
  auto health = get_json(c, "/api/health");
  INFO(health.dump());
  CHECK(health["status"] == "degraded");
  CHECK(contains(health["reason"].get<std::string>(), "low disk"));
  CHECK(health["disk"]["headroom_bytes"].get<std::int64_t>() == 1000000000LL << 20);
  CHECK(health["disk"]["free_bytes"].get<std::int64_t>() > 0);
  const auto id = submit_ok(c, tournament_toml("waits", 2, 1, 6));  // accepted, kept for later
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  CHECK(games_total(c) == 0);
  CHECK(event_of(c, id)["finished"] == 0);
  CHECK(get_json(c, "/api/events")["events"].size() == 1);
  CHECK(d.running());
  CHECK(contains(d.err(), "degraded: low disk"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: on a low real disk it degrades and recovers without a restart") {
  rtest::SmallDisk disk(32);
  if (!disk.ok()) {
    WARN("skipped: mounting a tmpfs needs root");
    return;
  }
  TempDir dir;
  Daemon d(dir, {"-c", "2", "--db", disk.file("serve.db"), "--min-free-mb", "8", "--space-check",
                 "0.1"});
  REQUIRE(d.ready());
  auto c = d.client();
  CHECK(get_json(c, "/api/health")["status"] == "ok");
  disk.fill(4 << 20);
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["status"] == "degraded"; }, 10));
  const auto id = submit_ok(c, tournament_toml("low", 2, 2, 8));
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(games_total(c) == 0);  // no game started; reads answered
  CHECK(event_of(c, id)["finished"] == 0);
  disk.unfill();
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["status"] == "ok"; }, 10));
  CHECK(wait_until([&] { return event_of(c, id)["state"] == "finished"; }, 60));
  CHECK(d.running());  // the same process throughout
  const std::string log = d.err();
  CHECK(contains(log, "degraded: low disk"));
  CHECK(contains(log, "room again"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: started on a full disk it answers 503 and waits, then serves without a restart") {
  rtest::SmallDisk disk(16);
  if (!disk.ok()) {
    WARN("skipped: mounting a tmpfs needs root");
    return;
  }
  TempDir dir;
  const std::string db = disk.file("serve.db");
  {
    // A database left as a killed daemon leaves it (its WAL beside it), then the disk full.
    Daemon first(dir, {"-c", "1", "--db", db}, "first");
    REQUIRE(first.ready());
    ::kill(first.pid(), SIGKILL);
    first.wait();
  }
  disk.fill(0);
  Daemon d(dir, {"-c", "1", "--db", db, "--min-free-mb", "0"});
  // It cannot register: it does not exit (a restart loop under the unit), it answers 503.
  REQUIRE(wait_until([&] { return contains(d.err(), "cannot register"); }, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(d.running());
  CHECK(contains(d.err(), "trying again in"));
  disk.unfill();
  REQUIRE(d.ready(30));
  auto c = d.client();
  CHECK(get_json(c, "/api/health")["status"] == "ok");
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
