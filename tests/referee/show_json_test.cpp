// `referee show GAME [--position P] [--moves M...] --json`: the position and its board view as one
// JSON object (referee/service/board_view.md), the same view the rules library gives; bad games,
// positions and moves keep the usual one-line error and status 1.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "games/board_view_json.h"
#include "games/game.h"
#include "tests/referee/rtest_util.h"

namespace {

rtest::RunResult show(const std::vector<std::string>& args) {
  rtest::TempDir scratch;
  std::vector<std::string> all = {"show"};
  all.insert(all.end(), args.begin(), args.end());
  return rtest::run_program(REFEREE_BIN, all, scratch);
}

}  // namespace

TEST_CASE("show --json: the position and the rules library's view of it") {
  auto r = show({"oware:players=3", "--moves", "1", "--json"});
  REQUIRE(r.status == 0);
  REQUIRE(rtest::lines_of(r.out).size() == 1);
  const auto j = nlohmann::json::parse(r.out);
  auto game = referee::games::make_game("oware:players=3");
  auto state = referee::games::state_after(*game, "", {"1"});
  CHECK(j["game"] == game->canonical());
  CHECK(j["position"] == state->to_string());
  CHECK(j["ply"] == 1);
  CHECK(j["to_move"] == 2);
  CHECK(j["terminal"] == false);
  CHECK(j["outcome"].is_null());
  CHECK(j["view"] == referee::games::board_view_json(state->view()));
  CHECK(j["view"]["family"] == "oware-ring");
}

TEST_CASE("show --json: a finished game carries its outcome") {
  auto r = show(
      {"kalaha", "--position", "0,0,0,0,0,1/0,0,0,0,0,1:35,35:1:0:0", "--moves", "6", "--json"});
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["terminal"] == true);
  CHECK(j["to_move"] == 0);
  CHECK(j["view"]["to_move"] == 0);
  REQUIRE(j["outcome"].is_object());
  CHECK(j["outcome"]["ranks"].size() == 2);
  CHECK(j["outcome"]["reason"] == "rules");
}

TEST_CASE("show --json: bad input is one line on stderr, status 1, nothing on stdout") {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"nosuchgame", "--json"},
                                             {"awale", "--position", "4,4,4:0,0:1:0:0", "--json"},
                                             {"awale", "--moves", "9", "--json"}}) {
    auto r = show(args);
    INFO(args[0] << " " << args[1] << ": " << r.err);
    CHECK(r.status == 1);
    CHECK(rtest::lines_of(r.err).size() == 1);
    CHECK(r.out.empty());
  }
  CHECK(show({"awale", "--jsonx"}).status != 0);
}
