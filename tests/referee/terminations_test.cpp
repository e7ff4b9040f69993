// One vocabulary of results (games/terminations.h): the words of the gameover line, the stored
// terminations, the rules library's reasons and the engines' fault names are one set, documented
// in one table in PROTOCOL.md and in README.
#include "games/terminations.h"

#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "games/registry.h"
#include "match/engine_session.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using games::EndKind;

TEST_CASE("terminations: each word once, found by name, old words read as new ones") {
  std::set<std::string> seen;
  for (const auto& t : games::terminations()) {
    CHECK(seen.insert(t.word).second);
    CHECK(games::find_termination(t.word) == &t);
  }
  CHECK(games::find_termination("normal") == nullptr);
  CHECK(games::find_termination("") == nullptr);
  CHECK(games::legacy_termination("normal") == "rules");
  CHECK(games::legacy_termination("time") == "time");
  CHECK(games::legacy_termination("whatever") == "whatever");
}

TEST_CASE("terminations: the moves alone end a game by the rules, but not by agreement") {
  for (const char* w : {"rules", "relay", "repetition", "nocapture", "maxplies", "normal"})
    CHECK(games::ended_by_moves(w));
  for (const char* w : {"agreement", "time", "crash", "resign", "interrupted", "duplicate", "x"})
    CHECK_FALSE(games::ended_by_moves(w));
}

TEST_CASE("terminations: an adjudicated game is its own kind, not ended by its moves") {
  const auto* t = games::find_termination("adjudication");
  REQUIRE(t != nullptr);
  CHECK(t->kind == EndKind::Adjudicated);
  CHECK_FALSE(games::ended_by_moves("adjudication"));
}

TEST_CASE("terminations: every fault name is a word of the vocabulary") {
  const Fault faults[] = {Fault::NoStart,  Fault::Timeout, Fault::Crash,  Fault::Stall,
                          Fault::Protocol, Fault::Illegal, Fault::Resign, Fault::Unsupported};
  for (Fault f : faults) {
    INFO(fault_name(f));
    const auto* t = games::find_termination(fault_name(f));
    REQUIRE(t != nullptr);
    CHECK((t->kind == EndKind::Forfeit || t->kind == EndKind::NotPlayed));
  }
}

TEST_CASE("terminations: every reason the rules library gives is a rules word") {
  std::mt19937_64 rng(7);
  std::set<std::string> reasons;
  for (const auto& entry : games::registry()) {
    for (const char* params : {"", ":nocapture=6", ":maxplies=30"}) {
      auto game = games::make_game(entry.name + params);
      REQUIRE(game.ok());
      for (int playout = 0; playout < 3; ++playout) {
        auto s = game->initial_state();
        while (!s.is_terminal()) {
          std::string m = s.setup_form().empty() ? "" : s.sample_setup(rng());
          if (m.empty()) {
            auto legal = s.legal_moves();
            m = legal[rng() % legal.size()];
          }
          REQUIRE(s.apply(m).ok());
        }
        const auto reason = s.outcome().reason;
        INFO(entry.name << params << ": " << reason);
        const auto* t = games::find_termination(reason);
        REQUIRE(t != nullptr);
        CHECK(t->kind == EndKind::Rules);
        reasons.insert(reason);
      }
    }
  }
  CHECK(reasons.count("rules"));
  CHECK(reasons.count("nocapture"));
  CHECK(reasons.count("maxplies"));
  auto a = games::make_game("awale")->initial_state();
  REQUIRE(a.agree_to_end().ok());
  CHECK(a.outcome().reason == "agreement");
}

TEST_CASE("terminations: PROTOCOL.md and README give every word in their table of results") {
  for (const char* doc : {"/protocol/PROTOCOL.md", "/README.md"}) {
    const auto text = rtest::read_text(SOURCE_DIR + std::string(doc));
    for (const auto& t : games::terminations()) {
      INFO(doc << ": " << t.word);
      CHECK(rtest::contains(text, "\n| `" + std::string(t.word) + "` |"));
    }
    CHECK_FALSE(rtest::contains(text, "| `normal` |"));
  }
}
