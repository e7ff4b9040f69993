// `referee serve` as a real process, its ladder paced: --ladder-interval-ms holds its game
// starts apart, PATCH /api/events/{id} changes the pace (games at once, the interval) and the
// event's summary shows it; the `id name` and `id author` of a registered engine's handshake are
// stored and shown by GET /api/engines once it has played. About 10 s: the pace is measured
// over a few seconds of play.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

const std::string kLadderGame = "awale:maxplies=10";

void register_engine(httplib::Client& c, const std::string& name) {
  const Json body = {
      {"name", name}, {"command", kMock}, {"args", {"--slow-ms=2"}}, {"games", {kLadderGame}}};
  auto res = c.Post("/api/engines", body.dump(), "application/json");
  REQUIRE(res);
  INFO(res->body);
  REQUIRE(res->status == 201);
}

std::int64_t ladder_id(httplib::Client& c) {
  auto ladders = get_json(c, "/api/ladder")["ladders"];
  REQUIRE(ladders.size() == 1);
  return ladders[0]["id"].get<std::int64_t>();
}

// Games of the event begun so far (finished, running or not).
std::int64_t games_begun(httplib::Client& c, std::int64_t event) {
  return get_json(c, "/api/games?limit=1&event=" + std::to_string(event))["total"]
      .get<std::int64_t>();
}

httplib::Result patch(httplib::Client& c, std::int64_t id, const Json& body) {
  return c.Patch("/api/events/" + std::to_string(id), body.dump(), "application/json");
}

}  // namespace

TEST_CASE("serve: a ladder's pace holds its game starts apart, PATCH changes it") {
  TempDir dir;
  Daemon d(dir, {"-c", "3", "--ladder-interval-ms", "400"});
  REQUIRE(d.ready());
  auto c = d.client();
  for (const std::string name : {"gamma", "delta", "epsilon"}) register_engine(c, name);
  const auto id = ladder_id(c);
  auto summary = event_of(c, id);
  CHECK(summary["interval_ms"] == 400);
  CHECK(summary["concurrency"] == 0);

  // Paced: over 3 s, at most one start per 400 ms (and the one at either end).
  REQUIRE(wait_until([&] { return games_begun(c, id) >= 1; }, 30));
  const auto t0 = std::chrono::steady_clock::now();
  const auto paced_before = games_begun(c, id);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto paced = games_begun(c, id) - paced_before;
  INFO("paced: " << paced << " games begun in " << seconds << " s");
  CHECK(paced >= 2);
  CHECK(paced <= static_cast<std::int64_t>(seconds / 0.4) + 2);

  // Bad bodies change nothing.
  check_error(patch(c, id, {{"interval_ms", -1}}), 400, "'interval_ms' must be an integer");
  check_error(patch(c, id, {{"concurrency", 1000}}), 400, "'concurrency' must be an integer");
  check_error(patch(c, id, {{"pace", 1}}), 400, "unknown key 'pace'");
  CHECK(event_of(c, id)["interval_ms"] == 400);

  // One game at a time, no interval: the games follow each other, never two at once.
  auto changed = patch(c, id, {{"concurrency", 1}, {"interval_ms", 0}});
  REQUIRE(changed);
  INFO(changed->body);
  REQUIRE(changed->status == 200);
  CHECK(Json::parse(changed->body)["concurrency"] == 1);
  CHECK(Json::parse(changed->body)["interval_ms"] == 0);
  // The games begun under the old pace end first.
  REQUIRE(wait_until([&] { return event_of(c, id)["running"].get<int>() <= 1; }, 30));
  const auto free_before = games_begun(c, id);
  const auto t1 = std::chrono::steady_clock::now();
  int most_running = 0;
  while (std::chrono::steady_clock::now() - t1 < std::chrono::seconds(3)) {
    most_running = std::max(most_running, event_of(c, id)["running"].get<int>());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto unpaced = games_begun(c, id) - free_before;
  INFO("unpaced: " << unpaced << " games begun in 3 s");
  CHECK(most_running <= 1);
  CHECK(unpaced > paced);
  // The pace is stored with the event: the summary read from the database shows it.
  CHECK(event_of(c, id)["concurrency"] == 1);
}

TEST_CASE("serve: a registered engine's id name and author come from its handshake") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  for (const std::string name : {"gamma", "delta"}) register_engine(c, name);
  const auto id = ladder_id(c);
  REQUIRE(wait_until([&] { return event_of(c, id)["finished"].get<int>() >= 2; }, 60));
  int shown = 0;
  const Json engines = get_json(c, "/api/engines")["engines"];
  for (const auto& e : engines) {
    INFO(e.dump());
    if (e["name"] != "gamma" && e["name"] != "delta") continue;
    CHECK(e["id_name"] == "mock");  // tests/support/mock_engine.cpp: "id name mock"
    CHECK(e["id_author"] == "test");
    ++shown;
  }
  CHECK(shown == 2);
}
