// Adjudication through the daemon's event API (`referee serve`, mock engines printing scripted
// scores): an event submitted with an [adjudication] table keeps it in its stored specification
// (GET /api/events/{id} shows it), its games end by it (termination `adjudication`, the reason,
// counted among the other endings of /terminations, not as a forfeit), the same document again is
// the same event while another table is another specification (409), and bad tables or games of
// more than two players are refused with 400 and the key named.
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

const std::string kHopeless =
    "[adjudication]\nresign = { score = 600, plies = 2 }\ndraw = { score = 10, plies = 4 }\n";

}  // namespace

TEST_CASE("serve: an event's adjudication is stored with it and ends its games") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // Every engine says it is lost from its first move: the first engine to move after the opening
  // loses once its opponent has replied.
  const std::string text =
      tournament_toml("adjudicated", 2, 1, 60, "args = [\"--scores=-800\"]\n") + kHopeless;
  const auto id = submit_ok(c, text);
  REQUIRE(wait_state(c, id, "finished"));
  auto event = event_of(c, id);
  CHECK(event["spec"]["adjudication"] ==
        Json::parse(R"({"draw":{"from_ply":1,"plies":4,"score":10},)"
                    R"("resign":{"plies":2,"score":600,"two_sided":false}})"));
  auto games = get_json(c, "/api/games?event=" + std::to_string(id));
  REQUIRE(games["games"].size() == 2);
  for (const auto& g : games["games"]) {
    INFO(g.dump());
    CHECK(g["termination"] == "adjudication");
    CHECK(g["plies"] == 4);  // two random plies, then the window of two engine plies
    CHECK(g["ranks"] == Json::array({2, 1}));
    CHECK(contains(g["reason"].get<std::string>(),
                   "after ply 4: its score at or below -600 for 2 plies"));
  }
  auto terminations = get_json(c, "/api/events/" + std::to_string(id) + "/terminations");
  for (const char* e : {"m0", "m1"}) {
    INFO(terminations.dump());
    CHECK(terminations["engines"][e]["other"]["adjudication"] == 2);  // both games
    CHECK(terminations["engines"][e]["resign"] == 0);
  }
  // The same document is the same event; other rules are another specification.
  auto again = submit(c, text);
  REQUIRE(again);
  CHECK(again->status == 200);
  auto changed =
      submit(c, tournament_toml("adjudicated", 2, 1, 60, "args = [\"--scores=-800\"]\n") +
                    "[adjudication]\nresign = { score = 700, plies = 2 }\n");
  REQUIRE(changed);
  CHECK(changed->status == 409);
  CHECK(contains(Json::parse(changed->body)["error"].get<std::string>(), "adjudication"));
}

TEST_CASE("serve: bad adjudication settings are refused with the key named") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  check_error(submit(c, tournament_toml("bad", 2, 1, 10) +
                            "[adjudication]\nresign = { score = 600, plies = 0 }\n"),
              400, "request body: adjudication.resign.plies must be an integer from 1 to 10000");
  std::string three = tournament_toml("three", 3, 1, 10) + kHopeless;
  three.replace(three.find("awale:maxplies=10"), 17, "oware:players=3");
  check_error(submit(c, three), 400, "adjudication is for two-player games; oware:players=3");
  CHECK(get_json(c, "/api/events")["total"] == 0);
}
