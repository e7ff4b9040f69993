// The daemon's sprt events: a two-engine event with an `sprt` table submitted over HTTP plays
// until its test decides, then skips the games left and finishes; its summary, its standings and
// the live stream carry the test (llr, bounds, elo0/elo1, decision) and `referee status` prints
// it; the same file with three engines, or kind "tournament" with an sprt table, is refused, and
// so is an sprt event named as a tournament already stored (409).
#include <catch2/catch.hpp>
#include <set>
#include <thread>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

std::string sprt_toml(const std::string& name, const std::string& b_args, int max_games) {
  return "name = \"" + name + "\"\ngames = [\"awale:maxplies=20\"]\ntc = \"10+0.1\"\nmax_games = " +
         std::to_string(max_games) +
         "\nsprt = { elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05, model = \"normalized\" }\n"
         "[openings]\nrandom_plies = 2\n"
         "[[engine]]\nname = \"a\"\ncommand = \"" +
         kMock + "\"\nargs = [\"--slow-ms=2\"]\n[[engine]]\nname = \"b\"\ncommand = \"" + kMock +
         "\"\n" + b_args;
}

}  // namespace

TEST_CASE(
    "serve: an sprt event decides, skips the games left and finishes, its JSON has the test") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // The live stream, from before the submission: the summaries it sends carry the test.
  std::vector<Json> summaries;
  std::thread listener([&] {
    httplib::Client s = d.client();
    std::string buffer;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    s.Get("/api/stream", [&](const char* data, std::size_t n) {
      buffer.append(data, n);
      for (auto at = buffer.find("\n\n"); at != std::string::npos; at = buffer.find("\n\n")) {
        const std::string frame = buffer.substr(0, at);
        buffer.erase(0, at + 2);
        const auto data_at = frame.find("data: ");
        if (!contains(frame, "event: event_changed") || data_at == std::string::npos) continue;
        Json j = Json::parse(frame.substr(data_at + 6), nullptr, false);
        if (j.is_object()) summaries.push_back(j);
        if (j.is_object() && j["sprt"].is_object() && j["sprt"]["decision"] == "H1") return false;
      }
      return std::chrono::steady_clock::now() < until;
    });
  });
  struct Joiner {
    std::thread& thread;
    ~Joiner() {
      if (thread.joinable()) thread.join();
    }
  } joiner{listener};
  // b resigns at once: H1 (a is stronger) is accepted after a few pairs of the 200 allowed.
  auto res = submit(c, sprt_toml("strong", "args = [\"--always-resign\"]\n", 200));
  REQUIRE(res);
  INFO(res->body);
  REQUIRE(res->status == 201);
  const Json submitted = Json::parse(res->body);
  CHECK(submitted["kind"] == "sprt");
  REQUIRE(submitted["sprt"].is_object());
  CHECK(submitted["sprt"]["llr"] == 0.0);
  CHECK(submitted["sprt"]["decision"].is_null());
  const auto id = submitted["id"].get<std::int64_t>();
  REQUIRE(wait_state(c, id, "finished"));

  auto event = event_of(c, id);
  INFO(event.dump());
  CHECK(event["scheduled"] == 200);
  CHECK(event["finished"].get<int>() < 60);
  CHECK(event["skipped"].get<int>() > 140);
  const Json& t = event["sprt"];
  REQUIRE(t.is_object());
  CHECK(t["elo0"] == 0.0);
  CHECK(t["elo1"] == 100.0);
  CHECK(t["alpha"] == 0.05);
  CHECK(t["model"] == "normalized");
  CHECK(t["decision"] == "H1");
  CHECK(t["llr"].get<double>() >= t["upper"].get<double>());
  CHECK(t["lower"].get<double>() == Approx(-2.944).epsilon(1e-3));
  CHECK(t["upper"].get<double>() == Approx(2.944).epsilon(1e-3));
  CHECK(t["verdict"].get<std::string>().rfind("H1 accepted, LLR ", 0) == 0);
  CHECK(t["engine"] == "a");
  CHECK(t["pairs"].get<int>() >= 1);
  CHECK(t["pentanomial"][4] == t["pairs"]);
  // The finished games are the test's pairs, and at most a half pair per game slot (two games at
  // once may finish out of order); games cut at the decision are not finished.
  CHECK(t["pairs"].get<int>() * 2 <= event["finished"].get<int>());
  CHECK(event["finished"].get<int>() <= t["pairs"].get<int>() * 2 + 2);

  auto standings = get_json(c, "/api/events/" + std::to_string(id) + "/standings");
  CHECK(standings["sprt"] == t);
  // The same engines through `referee status`, on the same API.
  const auto status =
      rtest::run_program(REFEREE_BIN, {"status", std::to_string(id), "--server", d.url()}, dir);
  INFO(status.err);
  CHECK(status.status == 0);
  CHECK(contains(status.out, "sprt: LLR "));
  CHECK(contains(status.out, "[0, 100]: H1 accepted, LLR "));
  // The skipped slots say why, in the event's slots (through the stored games' event).
  CHECK(get_json(c, "/api/events?kind=sprt")["total"] == 1);

  // The stream sent the test up to the decision. The broadcaster coalesces an event's changes
  // between two flushes, so on a loaded machine the few pairs before H1 may reach the client as
  // one summary: every LLR it sent is one the test went through (between the bounds until the
  // decision), and the last one is the decision's.
  listener.join();  // it returns once it saw the decision
  REQUIRE_FALSE(summaries.empty());
  std::set<double> llrs;
  for (const auto& j : summaries) {
    if (!j["sprt"].is_object()) continue;
    llrs.insert(j["sprt"]["llr"].get<double>());
    if (j["sprt"]["decision"].is_null())
      CHECK(j["sprt"]["llr"].get<double>() < t["upper"].get<double>());
  }
  CHECK_FALSE(llrs.empty());
  CHECK(summaries.back()["sprt"]["decision"] == "H1");
  CHECK(summaries.back()["sprt"]["llr"].get<double>() >= t["upper"].get<double>());
}

TEST_CASE("serve: bad sprt events are refused with one line") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  auto three =
      submit(c, sprt_toml("three", "[[engine]]\nname = \"c\"\ncommand = \"" + kMock + "\"\n", 10));
  REQUIRE(three);
  CHECK(three->status == 400);
  CHECK(contains(three->body, "an sprt event needs exactly two engines, not 3"));
  auto as_tournament = submit(c, "kind = \"tournament\"\n" + sprt_toml("t", "", 10));
  REQUIRE(as_tournament);
  CHECK(as_tournament->status == 400);
  CHECK(contains(as_tournament->body, "an 'sprt' table makes an event of kind 'sprt'"));
  auto bounds = c.Post("/api/events",
                       R"({"name": "x", "kind": "sprt", "games": ["awale"], "tc": "10+0.1",
                           "sprt": {"elo0": 5, "elo1": 0},
                           "engine": [{"name": "a", "command": "/bin/true"},
                                      {"name": "b", "command": "/bin/true"}]})",
                       "application/json");
  REQUIRE(bounds);
  CHECK(bounds->status == 400);
  CHECK(contains(bounds->body, "sprt: elo0 must be less than elo1"));
  // A name taken by an event of another kind is a conflict, whatever the specification.
  auto first = submit(c, tournament_toml("taken", 2, 1, 10));
  REQUIRE(first);
  CHECK(first->status == 201);
  auto other_kind = submit(c, sprt_toml("taken", "", 10));
  REQUIRE(other_kind);
  CHECK(other_kind->status == 409);
  CHECK(contains(other_kind->body, "an event named \\\"taken\\\" already exists (a tournament)"));
}
