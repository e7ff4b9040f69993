// A knockout made by `referee tournament` in the daemon's database is shown by
// GET /api/events/{id}/rounds (event/rounds.h's JSON: the bracket, its matches and champion); the
// endpoint answers 404 for an event of another format (daemon_rounds_test.cpp submits them).
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

TEST_CASE("serve: a knockout's bracket by API, 404 for a round robin") {
  TempDir dir;
  // Three engines of known strength (each resigns once a game has N plies): c > b > a.
  std::string toml = "name = \"ko\"\ndatabase = \"" + dir.file("serve.db") +
                     "\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\nformat = \"knockout\"\n";
  for (const auto& [name, ply] :
       std::vector<std::pair<std::string, int>>{{"a", 4}, {"b", 6}, {"c", 8}})
    toml += "[[engine]]\nname = \"" + name + "\"\ncommand = \"" + kMock +
            "\"\nargs = [\"--resign-at-ply=" + std::to_string(ply) + "\"]\n";
  rtest::write_text(dir.file("ko.toml"), toml);
  auto ran = rtest::referee_cmd({"tournament", dir.file("ko.toml"), "-q"});
  INFO(ran.out << ran.err);
  REQUIRE(ran.status == 0);

  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  const Json j = get_json(c, "/api/events/1/rounds");
  CHECK(j["event_id"] == 1);
  CHECK(j["format"] == "knockout");
  CHECK(j["complete"] == true);
  CHECK(j["seeds"] == Json({"a", "b", "c"}));
  REQUIRE(j["rounds"].size() == 2);
  // Seed 1 (a) has the bye; b-c, then the final a-c.
  CHECK(j["rounds"][0][0]["state"] == "bye");
  CHECK(j["rounds"][0][0]["engines"] == Json({"a", nullptr}));
  CHECK(j["rounds"][0][1]["engines"] == Json({"b", "c"}));
  CHECK(j["rounds"][0][1]["winner"] == "c");
  CHECK(j["rounds"][1][0]["engines"] == Json({"a", "c"}));
  CHECK(j["rounds"][1][0]["points"] == Json({0, 2}));
  CHECK(j["champion"] == "c");
  check_error(c.Get("/api/events/99/rounds"), 404, "no event 99");

  // A round robin has no rounds to show.
  const auto rr = submit_ok(c, tournament_toml("rr", 2, 1, 12));
  check_error(c.Get("/api/events/" + std::to_string(rr) + "/rounds"), 404,
              "is not a knockout or a Swiss event");
}
