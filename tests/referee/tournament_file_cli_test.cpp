// The tournament file as a new user writes it, run by the real `referee tournament`: an engine
// beside the file named by a relative path ("./bot.sh") is found from any working directory (and
// an event stored with relative commands still resumes where it ran); a run in which no game was
// played does not fix the event's specification (a corrected path is taken), while an event with
// games keeps refusing a changed one; an engine's `games` key keeps it out of the pairings of the
// other games, without games left unplayed.
#include <SQLiteCpp/Database.h>

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "tests/referee/rtest_util.h"

using rtest::contains;
using rtest::referee_cmd;

namespace {

// An executable script `name` in `dir` that runs the mock engine with `flags`.
void write_bot(const rtest::TempDir& dir, const std::string& name, const std::string& flags = "") {
  const std::string path = dir.file(name);
  rtest::write_text(path, "#!/bin/sh\nexec '" + rtest::kMock + "' " + flags + " \"$@\"\n");
  ::chmod(path.c_str(), 0755);
}

// t.toml in `dir`: two engines, the second's command as given (relative to the file), `extra`
// appended to the top table.
std::string write_file(const rtest::TempDir& dir, const std::string& command,
                       const std::string& extra = "") {
  const std::string path = dir.file("t.toml");
  rtest::write_text(path, "name = \"first hour\"\ndatabase = \"" + dir.file("t.db") +
                              "\"\ngames = [\"awale:maxplies=6\"]\ntc = \"10+0\"\n"
                              "concurrency = 1\n" +
                              extra + "[[engine]]\nname = \"mock\"\ncommand = \"" + rtest::kMock +
                              "\"\n[[engine]]\nname = \"bot\"\ncommand = \"" + command + "\"\n");
  return path;
}

int games_in(const rtest::TempDir& dir) {
  SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READONLY);
  return sql.execAndGet("SELECT count(*) FROM games WHERE status = 'finished'").getInt();
}

}  // namespace

TEST_CASE("tournament file: a relative command beside the file is found from any directory") {
  rtest::TempDir dir, elsewhere;
  write_bot(dir, "bot.sh");
  ::mkdir(dir.file("bots").c_str(), 0755);
  write_bot(dir, "bots/x.sh");
  for (const std::string command : {"./bot.sh", "bots/x.sh"}) {
    INFO(command);
    std::filesystem::remove(dir.file("t.db"));
    const auto file = write_file(dir, command);
    // In the file's directory, named as "t.toml": "./bot.sh" is not looked up in PATH.
    auto here = referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
    INFO(here.out << here.err);
    CHECK(here.status == 0);
    CHECK(contains(here.out, "games: 2 scheduled, 0 done before, 2 played now"));
    // Elsewhere, named by its path: the same event (the same specification), resumed.
    auto there = referee_cmd({"tournament", file, "-q"}, elsewhere.path());
    INFO(there.out << there.err);
    CHECK(there.status == 0);
    CHECK(contains(there.out, "games: 2 scheduled, 2 done before, 0 played now"));
    CHECK(games_in(dir) == 2);
  }
}

TEST_CASE("tournament file: an event stored with relative commands resumes where it ran") {
  rtest::TempDir dir;
  ::mkdir(dir.file("bots").c_str(), 0755);
  write_bot(dir, "bots/x.sh");
  write_file(dir, "bots/x.sh");
  auto first = referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  {
    // As stored by a referee that kept the command relative to its working directory.
    SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READWRITE);
    sql.exec("UPDATE events SET spec = replace(spec, '\"" + dir.file("bots/x.sh") +
             "\"', '\"bots/x.sh\"')");
    REQUIRE(rtest::contains(sql.execAndGet("SELECT spec FROM events").getString(),
                            "\"command\":\"bots/x.sh\""));
  }
  auto again = referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  INFO(again.out << again.err);
  CHECK(again.status == 0);
  CHECK(contains(again.out, "games: 2 scheduled, 2 done before, 0 played now"));
}

TEST_CASE("tournament file: a run with no game played does not lock the event's specification") {
  rtest::TempDir dir;
  write_bot(dir, "bot.sh");
  write_file(dir, "./no-such-bot.sh");
  auto failed = referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  INFO(failed.out << failed.err);
  CHECK(failed.status == 3);
  CHECK(contains(failed.out, "engine 'bot' cannot start"));
  // The path corrected: the event takes the new specification and plays.
  write_file(dir, "./bot.sh");
  auto fixed = referee_cmd({"tournament", "t.toml"}, dir.path());
  INFO(fixed.out << fixed.err);
  CHECK(fixed.status == 0);
  CHECK(contains(fixed.err,
                 "event \"first hour\" had no game played: its specification is "
                 "replaced (engine 'bot': command)"));
  CHECK(contains(fixed.out, "games: 2 scheduled, 0 done before, 2 played now"));
  CHECK(games_in(dir) == 2);
  {
    SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READONLY);
    CHECK(sql.execAndGet("SELECT count(*) FROM events").getInt() == 1);
    CHECK(sql.execAndGet("SELECT state FROM events").getString() == "finished");
  }
  // Once games are played, a changed specification is refused and nothing is touched.
  write_file(dir, "./bot.sh", "cycles = 2\n");
  auto changed = referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  INFO(changed.out << changed.err);
  CHECK(changed.status == 1);
  CHECK(contains(changed.err, "already exists with a different specification (cycles)"));
  CHECK(games_in(dir) == 2);
}

TEST_CASE("tournament file: an engine's games key keeps it out of the other games' pairings") {
  rtest::TempDir dir;
  const std::string path = dir.file("g.toml");
  auto write = [&](const std::string& games_of_one) {
    rtest::write_text(path, "name = \"mixed\"\ndatabase = \"" + dir.file("t.db") +
                                "\"\ngames = [\"awale:maxplies=6\", \"oware:maxplies=6\"]\n"
                                "tc = \"10+0\"\nconcurrency = 1\n"
                                "[[engine]]\nname = \"a\"\ncommand = \"" +
                                rtest::kMock + "\"\n[[engine]]\nname = \"b\"\ncommand = \"" +
                                rtest::kMock + "\"\n[[engine]]\nname = \"one\"\ncommand = \"" +
                                rtest::kMock + "\"\nargs = [\"--games=awale\"]\n" + games_of_one);
  };
  // Without the key, the engine that declares awale only leaves its oware games unplayed.
  write("");
  auto without = referee_cmd({"tournament", path, "-q"});
  INFO(without.out << without.err);
  CHECK(without.status == 3);
  std::filesystem::remove(dir.file("t.db"));
  // With it (spelled as an alias would do: canonical), every scheduled game is played: 3 pairs
  // of awale, 1 of oware, two seatings each.
  write("games = [\"awale:maxplies=6\"]\n");
  for (int run = 0; run < 2; ++run) {
    auto r = referee_cmd({"tournament", path, "-q"});
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(contains(r.out, run == 0 ? "games: 8 scheduled, 0 done before, 8 played now"
                                   : "games: 8 scheduled, 8 done before, 0 played now"));
    CHECK(contains(r.out, ", 0 not played"));
    CHECK_FALSE(contains(r.out, "not played:"));
  }
  SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READONLY);
  CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE game LIKE 'oware%'").getInt() == 2);
  CHECK(sql.execAndGet("SELECT count(*) FROM games g JOIN game_players p ON p.game_id = g.id"
                       " WHERE g.game LIKE 'oware%' AND p.engine = 'one'")
            .getInt() == 0);
}

TEST_CASE("tournament file: bad games keys are one error line naming the engine") {
  rtest::TempDir dir;
  const std::string path = dir.file("bad.toml");
  auto refused = [&](const std::string& games_of_b, const std::string& extra = "") {
    rtest::write_text(path, "name = \"bad\"\ndatabase = \"" + dir.file("bad.db") +
                                "\"\ngames = [\"awale\", \"oware:players=3\"]\ntc = \"10+0\"\n" +
                                extra + "[[engine]]\nname = \"a\"\ncommand = \"" + rtest::kMock +
                                "\"\n[[engine]]\nname = \"b\"\ncommand = \"" + rtest::kMock +
                                "\"\n" + games_of_b + "[[engine]]\nname = \"c\"\ncommand = \"" +
                                rtest::kMock + "\"\n");
    auto r = referee_cmd({"tournament", path, "-q"});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(rtest::lines_of(r.err).size() == 1);
    CHECK_FALSE(std::filesystem::exists(dir.file("bad.db")));
    return r.err;
  };
  CHECK(contains(refused("games = []\n"), "engine 2 (b): 'games' is empty"));
  CHECK(contains(refused("games = [\"kalaha\"]\n"),
                 "engine 'b': 'games' lists 'kalaha"));  // not one of the event's
  CHECK(contains(refused("games = \"nosuchgame\"\n"),
                 "engine 2 (b): 'games': unknown game 'nosuchgame'"));
  CHECK(
      contains(refused("games = [\"awale\"]\n"), "needs 3 engines; 2 of the tournament's play it"));
}
