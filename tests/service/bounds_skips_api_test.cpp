// What the daemon says of an event whose results are perfect scores and whose games are partly
// skipped: the standings' figures follow the ranks (a bound is never shown below the engine it
// beat, the lone finite rating is the reference, not a measured 0 ± 0) with their legend, and the
// event says how many games were skipped, why, and which engine's games are being skipped.
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace bounds_skips {

// "winner" (plays), "loser" (resigns every move) and "kalaha-only" (declares no awale): two
// cycles of awale, so the loser loses 4 games, kalaha-only's 8 games are skipped.
std::string event_toml() {
  std::string text =
      "name = \"skips\"\ngames = [\"awale:maxplies=8\"]\ntc = \"10+0.1\"\ncycles = 2\n";
  text += "[[engine]]\nname = \"winner\"\ncommand = \"" + kMock + "\"\n";
  text +=
      "[[engine]]\nname = \"loser\"\ncommand = \"" + kMock + "\"\nargs = [\"--always-resign\"]\n";
  text += "[[engine]]\nname = \"kalaha-only\"\ncommand = \"" + kMock +
          "\"\nargs = [\"--games=kalaha\"]\n";
  return text;
}

}  // namespace bounds_skips

TEST_CASE("serve: skipped games and why, an engine being skipped, bounds in rank order") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, bounds_skips::event_toml());
  REQUIRE(wait_state(c, id, "finished"));

  const Json event = event_of(c, id);
  INFO(event.dump());
  CHECK(event["scheduled"] == 12);
  CHECK(event["finished"] == 4);
  CHECK(event["skipped"] == 8);
  CHECK(event["skipped_reasons"] ==
        Json::array({{{"reason", "engine 'kalaha-only' does not declare awale"}, {"games", 8}}}));
  std::map<std::string, Json> status;
  for (const auto& e : event["engine_status"]) status[e["name"].get<std::string>()] = e;
  CHECK(status["winner"]["status"] == "ok");
  CHECK(status["winner"]["skipped"] == 0);
  CHECK(status["kalaha-only"]["status"] == "skipping");
  CHECK(status["kalaha-only"]["reason"] == "does not declare awale");
  CHECK(status["kalaha-only"]["skipped"] == 8);

  const Json standings = get_json(c, "/api/events/" + std::to_string(id) + "/standings");
  INFO(standings.dump());
  REQUIRE(standings["tables"].size() == 1);
  const Json& table = standings["tables"][0];
  REQUIRE(table["rows"].size() == 2);
  const Json& first = table["rows"][0];
  const Json& second = table["rows"][1];
  CHECK(first["engine"] == "winner");
  CHECK(first["bound"] == "lower");
  CHECK(first["limit"].get<double>() < second["elo"].get<double>());  // 4 wins: limit below 0
  CHECK(first["elo"].get<double>() >= second["elo"].get<double>());
  CHECK(first["text"] == "> 0.0");
  CHECK(first["error"].is_null());
  CHECK(second["engine"] == "loser");
  CHECK(second["reference"] == true);
  CHECK(second["error"].is_null());
  CHECK(second["lower"].is_null());
  CHECK(second["text"] == "0.0");
  REQUIRE(table["legend"].size() == 2);
  CHECK(table["legend"][0].get<std::string>().rfind("> X (< X): ", 0) == 0);
  CHECK(table["legend"][1].get<std::string>().rfind("ref: ", 0) == 0);

  // status and watch print the same figures, the legend and the skipped games.
  const std::string server = d.url();
  auto shown =
      rtest::run_program(REFEREE_BIN, {"status", std::to_string(id), "--server", server}, dir);
  INFO(shown.out << shown.err);
  CHECK(shown.status == 0);
  CHECK(contains(shown.out, "skipped 8 (engine 'kalaha-only' does not declare awale)"));
  CHECK(contains(shown.out,
                 "engine kalaha-only: skipping: does not declare awale (8 games skipped)\n"));
  CHECK(contains(shown.out, "winner                   > 0.0      -"));
  CHECK(contains(shown.out, "loser                      0.0    ref"));
  CHECK(contains(shown.out, "\n> X (< X): won (lost) every game"));
  auto watched =
      rtest::run_program(REFEREE_BIN, {"watch", std::to_string(id), "--server", server}, dir);
  INFO(watched.out << watched.err);
  CHECK(watched.status == 0);
  CHECK(contains(watched.err, "skipped 8 (engine 'kalaha-only' does not declare awale)"));
  CHECK(contains(watched.out, "winner                   > 0.0      -"));
  CHECK(contains(watched.out, "\nref: the only engine with a finite rating"));
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
