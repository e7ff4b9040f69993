// The daemon's limits on what a request's content may cost, run as a real process: 100,000 nested
// arrays (JSON and TOML) in the bodies of POST /api/events, POST /api/engines and PATCH are a 400
// "nested deeper than 64 levels" and the daemon goes on (they once overflowed its stack); names
// of 500 KB are refused naming the field; an event over the cap of 1,000,000 games is refused at
// once from its counts, and one over the old cap of 100,000 is accepted.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

std::string nested(const std::string& open, const std::string& close, int levels) {
  std::string out;
  out.reserve(static_cast<std::size_t>(levels) * (open.size() + close.size()) + 1);
  for (int i = 0; i < levels; ++i) out += open;
  out += "1";
  for (int i = 0; i < levels; ++i) out += close;
  return out;
}

const char* const kJson = "application/json";
const char* const kToml = "application/toml";
const std::string kTooDeep = "request body: nested deeper than 64 levels";

}  // namespace

TEST_CASE("serve: 100,000 nested arrays get a 400, as JSON and as TOML, and the daemon goes on") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  const std::string arrays = nested("[", "]", 100000);
  check_error(c.Post("/api/events", arrays, kJson), 400, kTooDeep);
  check_error(c.Post("/api/events", "{\"name\": " + arrays + "}", kJson), 400, kTooDeep);
  check_error(c.Post("/api/events", "name = " + arrays + "\n", kToml), 400, kTooDeep);
  check_error(c.Post("/api/events", "a = " + nested("{b = ", "}", 100000) + "\n", kToml), 400,
              kTooDeep);
  std::string dotted = "a";
  for (int i = 0; i < 100000; ++i) dotted += ".a";
  check_error(c.Post("/api/events", dotted + " = 1\n", kToml), 400, kTooDeep);
  check_error(c.Post("/api/engines", "{\"name\": " + arrays + "}", kJson), 400, kTooDeep);
  check_error(c.Patch("/api/events/1", "{\"priority\": " + arrays + "}", kJson), 400, kTooDeep);
  // The error is one short line.
  auto res = c.Post("/api/events", arrays, kJson);
  REQUIRE(res);
  CHECK(json_of(res)["error"] == kTooDeep);
  // 64 levels pass the depth check: the schema's own error answers them.
  check_error(c.Post("/api/events", "{\"extra\": " + nested("[", "]", 63) + "}", kJson), 400,
              "unknown key 'extra'");
  check_error(c.Post("/api/events", "extra = " + nested("[", "]", 63) + "\n", kToml), 400,
              "unknown key 'extra'");
  REQUIRE(d.running());
  CHECK(get_json(c, "/api/health")["status"] == "ok");
  CHECK(get_json(c, "/api/events")["total"] == 0);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: names of 500 KB are refused naming the field, never echoed") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  const std::string big(500000, 'n');
  auto short_error = [](const httplib::Result& r, const std::string& piece) {
    check_error(r, 400, piece);
    CHECK(r->body.size() < 400);
  };
  short_error(c.Post("/api/events", tournament_toml(big, 2, 1, 8), kToml),
              "request body: 'name' has 500000 bytes; at most 200");
  std::string engine_named = tournament_toml("e", 2, 1, 8);
  engine_named.replace(engine_named.find("\"m1\""), 4, "\"" + big + "\"");
  short_error(c.Post("/api/events", engine_named, kToml),
              "engine 2: 'name' has 500000 bytes; at most 200");
  short_error(c.Post("/api/engines",
                     Json{{"name", big}, {"command", kMock}, {"games", {"awale"}}}.dump(), kJson),
              "request body: 'name' has 500000 bytes; at most 200");
  short_error(c.Post("/api/engines",
                     Json{{"name", "e"}, {"command", kMock}, {"games", {big}}}.dump(), kJson),
              "request body: an item of 'games' has 500000 bytes; at most 200");
  short_error(
      c.Post("/api/engines",
             Json{{"name", "e"}, {"command", "/" + big}, {"games", {"awale"}}}.dump(), kJson),
      "request body: 'command' has 500001 bytes; at most 4096");
  CHECK(get_json(c, "/api/events")["total"] == 0);
  CHECK(get_json(c, "/api/engines")["engines"].empty());
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: one event cap of 1,000,000 games, refused from the counts at once") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  // Two engines play each cycle twice: 500,001 cycles are 1,000,002 games.
  const auto t0 = std::chrono::steady_clock::now();
  check_error(c.Post("/api/events?state=paused", tournament_toml("over", 2, 500001, 8), kToml), 400,
              "the schedule has 1000002 games; an event holds at most 1000000");
  // Refused without building anything (building a million slots took seconds).
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
  // Six at once (each once cost 331 MB to refuse): all refused, the daemon's memory flat.
  {
    std::vector<std::thread> submits;
    std::atomic<int> refused{0};
    for (int i = 0; i < 6; ++i)
      submits.emplace_back([&, i] {
        auto own = d.client();
        auto r = own.Post("/api/events?state=paused",
                          tournament_toml("over" + std::to_string(i), 2, 500001, 8), kToml);
        if (r && r->status == 400) ++refused;
      });
    for (auto& t : submits) t.join();
    CHECK(refused == 6);
    std::ifstream status("/proc/" + std::to_string(d.pid()) + "/status");
    long peak_kb = 0;
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmHWM:", 0) == 0) peak_kb = std::stol(line.substr(6));
    INFO("peak RSS " << peak_kb << " kB");
    CHECK(peak_kb > 0);
    CHECK(peak_kb < 100 * 1024);
  }
  // Over the daemon's old cap of 100,000: accepted (paused: nothing is played).
  auto res = c.Post("/api/events?state=paused", tournament_toml("big", 2, 50001, 8), kToml);
  REQUIRE(res);
  INFO(res->body.substr(0, 300));
  REQUIRE(res->status == 201);
  CHECK(json_of(res)["scheduled"] == 100002);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
