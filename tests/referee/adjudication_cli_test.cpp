// Adjudication end to end, run by the real `referee` on SQLite and PostgreSQL: tournament files
// whose games are adjudicated (a draw, a one-sided and a two-sided resign) between mock engines
// that print scripted scores, stored finished with termination `adjudication` and their reason,
// rated, in the crosstable, exported as PGN `[Termination "adjudication"]` and accepted by
// `verify`; an engine that reports no score never adjudicated against; the rules in the event's
// specification and its schedule's fingerprint (a changed table is another event; events without
// one keep theirs); `referee match --draw/--resign`; bad
// settings refused with a one-line error naming the key.
#include <catch2/catch.hpp>
#include <string>

#include "event/event_spec.h"
#include "event/tournament_config.h"
#include "games/game.h"
#include "storage/backends.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using referee::storage::Store;
using rtest::contains;

namespace {

// t.toml in `dir`: alpha and beta, the mock engine with these flags, one awale cycle (2 games).
std::string adj_file(const rtest::TempDir& dir, const std::string& db,
                     const std::string& alpha_flags, const std::string& beta_flags,
                     const std::string& adjudication, const std::string& game = "awale") {
  auto engine = [](const std::string& name, const std::string& flags) {
    return "[[engine]]\nname = \"" + name + "\"\ncommand = \"" + rtest::kMock + "\"\nargs = [" +
           (flags.empty() ? "" : "\"" + flags + "\"") + "]\n";
  };
  const std::string path = dir.file("t.toml");
  rtest::write_text(path, "name = \"adj\"\ndatabase = \"" + db + "\"\ngames = [\"" + game +
                              "\"]\ntc = \"10+0\"\nconcurrency = 1\n" + adjudication +
                              engine("alpha", alpha_flags) + engine("beta", beta_flags));
  return path;
}

rtest::RunResult adj_cmd(const std::vector<std::string>& args) {
  return rtest::referee_cmd(args);
}

std::vector<referee::storage::GameRecord> adj_games(const std::string& db) {
  auto store = Store::open(db);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  return *games;
}

}  // namespace

TEST_CASE("adjudication: a tournament's games adjudicated, stored, rated, exported, verified") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb tdb(backend);
      const std::string db = tdb.url();
      rtest::TempDir dir;
      // alpha's own score is hopeless from its first move; beta reports no score at all.
      const auto file = adj_file(dir, db, "--scores=-800", "",
                                 "[adjudication]\nresign = { score = 600, plies = 2 }\n"
                                 "draw = { score = 10, plies = 4 }\n");
      auto run = adj_cmd({"tournament", file, "-q"});
      INFO(run.out << run.err);
      REQUIRE(run.status == 0);
      auto games = adj_games(db);
      REQUIRE(games.size() == 2);
      for (const auto& g : games) {
        INFO(g.reason);
        CHECK(g.status == referee::storage::GameStatus::Finished);
        CHECK(g.termination == "adjudication");
        const int alpha = g.players[0] == "alpha" ? 0 : 1;
        CHECK(g.ranks[static_cast<std::size_t>(alpha)] == 2);
        CHECK(g.ranks[static_cast<std::size_t>(1 - alpha)] == 1);
        CHECK(contains(g.reason, "adjudicated a loss for alpha after ply "));
        CHECK(contains(g.reason, ": its score at or below -600 for 2 plies (last: alpha -800)"));
        // alpha resigns after the ply that follows its own first move.
        CHECK(g.plies == (alpha == 0 ? 2 : 3));
      }
      auto ratings = adj_cmd({"ratings", "--db", db});
      INFO(ratings.out << ratings.err);
      CHECK(ratings.status == 0);
      CHECK(contains(ratings.out, "terminations: adjudication 2"));
      auto crosstable = adj_cmd({"crosstable", "--db", db});
      INFO(crosstable.out << crosstable.err);
      CHECK(crosstable.status == 0);
      CHECK(contains(crosstable.out, "beta"));
      auto pgn = adj_cmd({"export", "--db", db, "--format", "pgn"});
      INFO(pgn.err);
      CHECK(pgn.status == 0);
      CHECK(contains(pgn.out, "[Termination \"adjudication\"]"));
      CHECK(contains(pgn.out, "[TerminationDetails \"adjudicated a loss for alpha after ply "));
      auto verify = adj_cmd({"verify", "--db", db, "--no-integrity"});
      INFO(verify.out << verify.err);
      CHECK(verify.status == 0);
      CHECK(contains(verify.out, "2 games replayed, 0 mismatches"));
    }
}

TEST_CASE("adjudication: draws, two-sided resigns, and engines without scores in tournaments") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      struct Case {
        std::string alpha, beta, table, termination, reason;
      };
      const Case cases[] = {
          {"--scores=3", "--scores=-2",
           "[adjudication]\ndraw = { from_ply = 5, score = 10, plies = 4 }\n", "adjudication",
           "adjudicated a draw after ply 8: scores within ±10 for 4 plies from ply 5 on"},
          {"--scores=-800", "--scores=900",
           "[adjudication]\nresign = { score = 600, plies = 2, two_sided = true }\n",
           "adjudication", "its score at or below -600 and beta's at or above +600 for 2 plies"},
          // Two-sided, beta silent: alpha is never adjudicated against, the rules end the game.
          {"--scores=-800", "",
           "[adjudication]\nresign = { score = 600, plies = 2, two_sided = true }\n", "rules", ""},
          // A draw needs beta's score too.
          {"--scores=0", "", "[adjudication]\ndraw = { score = 10, plies = 2 }\n", "rules", ""},
      };
      for (const auto& c : cases) {
        INFO(c.table << c.alpha << " / " << c.beta);
        storage_test::TestDb tdb(backend);
        rtest::TempDir dir;
        const auto file = adj_file(dir, tdb.url(), c.alpha, c.beta, c.table, "awale:maxplies=40");
        auto run = adj_cmd({"tournament", file, "-q"});
        INFO(run.out << run.err);
        REQUIRE(run.status == 0);
        auto games = adj_games(tdb.url());
        REQUIRE(games.size() == 2);
        for (const auto& g : games) {
          INFO(g.reason);
          CHECK(g.status == referee::storage::GameStatus::Finished);
          const std::string t = g.termination == "maxplies" ? "rules" : g.termination;
          CHECK(t == c.termination);
          CHECK(contains(g.reason, c.reason));
          if (c.termination == "adjudication" && contains(c.reason, "draw"))
            CHECK(g.ranks == std::vector<int>{1, 1});
        }
        auto verify = adj_cmd({"verify", "--db", tdb.url(), "--no-integrity"});
        CHECK(verify.status == 0);
      }
    }
}

TEST_CASE("adjudication: the rules are the event's, a changed table is another event") {
  rtest::TempDir dir;
  const std::string db = dir.file("t.db");
  auto file = adj_file(dir, db, "--scores=0", "--scores=0",
                       "[adjudication]\ndraw = { score = 10, plies = 2 }\n");
  auto first = adj_cmd({"tournament", file, "-q"});
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  for (const auto& g : adj_games(db)) CHECK(g.termination == "adjudication");
  // The same file resumes; another draw band is refused, naming what changed.
  auto again = adj_cmd({"tournament", file, "-q"});
  CHECK(again.status == 0);
  CHECK(contains(again.out, "2 done before, 0 played now"));
  file = adj_file(dir, db, "--scores=0", "--scores=0",
                  "[adjudication]\ndraw = { score = 20, plies = 2 }\n");
  auto changed = adj_cmd({"tournament", file, "-q"});
  INFO(changed.out << changed.err);
  CHECK(changed.status != 0);
  CHECK(contains(changed.err, "adjudication"));
}

TEST_CASE("adjudication: referee match takes --draw and --resign") {
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto run = adj_cmd({"match", "--engine", "a=" + rtest::kMock + " --scores=5", "--engine",
                      "b=" + rtest::kMock + " --scores=-5", "--game", "awale", "--tc", "10+0",
                      "--random-plies", "0", "--draw", "from_ply=3,score=10,plies=2", "--resign",
                      "score=600,plies=4,two_sided=true", "--db", db, "-q"});
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  auto games = adj_games(db);
  REQUIRE(games.size() == 2);
  for (const auto& g : games) {
    CHECK(g.termination == "adjudication");
    CHECK(g.plies == 4);  // the window 3..4
    CHECK(g.ranks == std::vector<int>{1, 1});
  }
}

TEST_CASE("adjudication: bad settings refused with one line naming the key") {
  rtest::TempDir dir;
  const std::string db = dir.file("bad.db");
  const std::pair<std::string, std::string> bad[] = {
      {"[adjudication]\ndraw = { score = 10, plies = 0 }\n",
       "t.toml: adjudication.draw.plies must be an integer from 1 to 10000, not 0"},
      {"[adjudication]\nresign = { plies = 3 }\n", "t.toml: adjudication.resign.score is missing"},
      {"[adjudication]\nresign = { score = 600, plies = 3, twosided = true }\n",
       "t.toml: adjudication.resign: unknown key 'twosided' (score, plies, two_sided)"},
      {"[adjudication]\nresign = { score = 600, plies = 3, two_sided = 1 }\n",
       "t.toml: adjudication.resign.two_sided must be true or false, not 1"},
      {"[adjudication]\ndraw = { score = -1, plies = 3 }\n",
       "t.toml: adjudication.draw.score must be an integer from 0 to 1000000000, not -1"},
      {"[adjudication]\ndraw = { score = 600, plies = 3 }\nresign = { score = 600, plies = 3 }\n",
       "t.toml: adjudication: draw.score (600) must be below resign.score (600)"},
      {"[adjudication]\nwin = { score = 600 }\n",
       "t.toml: adjudication: unknown key 'win' (draw, resign, egdb)"},
      {"[adjudication]\n",
       "t.toml: adjudication is empty: give draw, resign, egdb or some of them"},
      {"adjudication = 3\n", "t.toml: adjudication must be a table (draw, resign, egdb)"},
  };
  for (const auto& [table, message] : bad) {
    INFO(table);
    const auto file = adj_file(dir, db, "", "", table);
    auto r = rtest::referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
    CHECK(r.status == 1);
    CHECK(r.err == "referee: " + message + "\n");
  }
  // Games of more than two players: refused.
  const auto file = adj_file(dir, db, "", "", "[adjudication]\ndraw = { score = 5, plies = 2 }\n",
                             "oware:players=3");
  auto r = rtest::referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  const std::string oware3 = referee::games::make_game("oware:players=3")->canonical();
  CHECK(r.err ==
        "referee: t.toml: adjudication is for two-player games; " + oware3 + " has 3 players\n");
  CHECK_FALSE(std::filesystem::exists(db));
  // The match command's flags, by the same code.
  const std::pair<std::vector<std::string>, std::string> flags[] = {
      {{"--draw", "score=10"}, "referee match: --draw: draw.plies is missing\n"},
      {{"--resign", "score=600,plies=x"},
       "referee match: --resign: resign.plies must be an integer from 1 to 10000, not \"x\"\n"},
      {{"--resign", "score600"},
       "referee match: --resign: 'score600' is not key=value (e.g. --resign score=600,plies=6)\n"},
      {{"--draw", "score=10,plies=2", "--game", "oware:players=3"},
       "referee match: adjudication is for two-player games; " + oware3 + " has 3 players\n"},
  };
  for (const auto& [args, message] : flags) {
    std::vector<std::string> all = {"match",
                                    "--engine",
                                    "a=" + rtest::kMock,
                                    "--engine",
                                    "b=" + rtest::kMock,
                                    "--engine",
                                    "c=" + rtest::kMock,
                                    "--db",
                                    db};
    all.insert(all.end(), args.begin(), args.end());
    auto m = rtest::referee_cmd(all);
    CHECK(m.status == 2);
    CHECK(m.err == message);
  }
  CHECK_FALSE(std::filesystem::exists(db));
}

TEST_CASE("adjudication: the specification keeps the rules, the fingerprint changes with them") {
  rtest::TempDir dir;
  const auto file = adj_file(dir, dir.file("x.db"), "", "",
                             "[adjudication]\ndraw = { from_ply = 30, score = 5, plies = 6 }\n"
                             "resign = { score = 500, plies = 3, two_sided = true }\n");
  auto config = referee::event::load_tournament_file(file);
  REQUIRE(config.ok());
  const auto& rules = config->adjudication;
  REQUIRE(rules.draw);
  REQUIRE(rules.resign);
  auto stored = referee::event::config_from_spec(referee::event::event_spec(*config));
  REQUIRE(stored.ok());
  REQUIRE(stored->adjudication.draw);
  REQUIRE(stored->adjudication.resign);
  CHECK(stored->adjudication.draw->from_ply == 30);
  CHECK(stored->adjudication.draw->score == 5);
  CHECK(stored->adjudication.draw->plies == 6);
  CHECK(stored->adjudication.resign->score == 500);
  CHECK(stored->adjudication.resign->plies == 3);
  CHECK(stored->adjudication.resign->two_sided);
  const std::string with = referee::event::schedule_fingerprint(*config);
  auto plain = *config;
  plain.adjudication = {};
  CHECK(referee::event::schedule_fingerprint(plain) != with);
  // Without rules, neither the specification nor the fingerprint has the key: older events
  // resume unchanged.
  CHECK_FALSE(contains(referee::event::schedule_fingerprint(plain), "adjudication"));
  CHECK_FALSE(contains(referee::event::event_spec(plain), "adjudication"));
  auto other = *config;
  other.adjudication.resign->two_sided = false;
  CHECK(referee::event::schedule_fingerprint(other) != with);
  CHECK(referee::event::spec_changes(referee::event::event_spec(*config),
                                     referee::event::event_spec(other)) == "adjudication");
}
