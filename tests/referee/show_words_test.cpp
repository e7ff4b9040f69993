// `referee show` draws its board in English (State::draw(BoardWords::English)), for every game:
// the seed's French console words (NORD, SUD, bille(s)...) belong to the seed's screen of
// `referee play` only (play_test.cpp pins that screen).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "games/game.h"
#include "games/registry.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

rtest::RunResult show_text(const std::vector<std::string>& args) {
  rtest::TempDir scratch;
  std::vector<std::string> all = {"show"};
  all.insert(all.end(), args.begin(), args.end());
  return rtest::run_program(REFEREE_BIN, all, scratch);
}

const std::vector<std::string> kSeedWords = {"NORD",   "SUD",     "bille", "trou",  "manche",
                                             "rangée", "Reserve", "Mise",  "semis", "J1"};

}  // namespace

TEST_CASE("cli: show draws every game's board in English, the state's own drawing") {
  std::vector<std::string> specs = {"oware:players=3"};
  for (const auto& entry : referee::games::registry()) specs.push_back(entry.name);
  for (const auto& spec : specs) {
    auto r = show_text({spec});
    INFO(spec << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    const auto game = referee::games::make_game(spec);
    REQUIRE(game.ok());
    const std::string board = game->initial_state().draw(referee::games::BoardWords::English);
    CHECK(r.out.rfind(board, 0) == 0);
    for (const auto& word : kSeedWords) CHECK_FALSE(contains(r.out, word));
  }
}

TEST_CASE("cli: show names North's and South's seeds with their numbers") {
  auto awale = show_text({"awale", "--position", "12,5,1,2,14,0/1,0,0,1,1,5:6,0:2:0:15"});
  CHECK(contains(awale.out,
                 "North [ 5] [ 1] [ 1] [ 0] [ 0] [ 1]\n"
                 "South [12] [ 5] [ 1] [ 2] [14] [ 0]\n"));
  CHECK(contains(awale.out, "North has 0 seeds.\nSouth has 6 seeds.\n"));
  auto pallankuli =
      show_text({"pallankuli", "--position", "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:2:2:0:0"});
  CHECK(contains(pallankuli.out, "In reserve: North 0, South 22; round 2 (North starts)"));
}
