// referee/tournament_config: reading tournament files (TOML and JSON) and every error, each one
// line naming the file and the problem: malformed TOML (line:column) and JSON, unknown keys, wrong
// types, missing keys, unknown games and parameters, bad time controls, duplicate names, too few
// engines, unbalanced quotes, relative commands and books resolved against the file's directory.
#include <catch2/catch.hpp>

#include "games/game.h"
#include "referee/event/tournament_config.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using rtest::contains;

namespace {

const std::string kEngines = R"(
[[engine]]
name = "a"
command = "bin/a"

[[engine]]
name = "b"
command = "b-in-path"
)";

const std::string kHead = R"(name = "t"
games = ["awale"]
tc = "10+0.1"
)";

Expected<TournamentConfig> load(const rtest::TempDir& dir, const std::string& text,
                                const std::string& file = "t.toml") {
  rtest::write_text(dir.file(file), text);
  return load_tournament_file(dir.file(file));
}

// The error of loading `text`: one line that names the file and contains `piece`.
void expect_error(const std::string& text, const std::string& piece,
                  const std::string& file = "t.toml") {
  rtest::TempDir dir;
  auto c = load(dir, text, file);
  INFO("file:\n" << text);
  REQUIRE_FALSE(c.ok());
  INFO("error: " << c.error());
  CHECK(contains(c.error(), piece));
  CHECK(contains(c.error(), dir.file(file)));
  CHECK_FALSE(contains(c.error(), "\n"));
}

}  // namespace

TEST_CASE("tournament file: a complete TOML file") {
  rtest::TempDir dir;
  rtest::write_text(dir.file("book.txt"), "# openings\n1 7\n\n2 8  # second\n");
  auto c = load(dir, R"(name = "Spring event"
database = "events.db"
format = "gauntlet"
games = ["awale", "oware:players=3"]
tc = "40/60+0.5"
cycles = 4
concurrency = 2
seed = 99
max_crashes = 5

[openings]
random_plies = 2
per_pairing = 3
book = "book.txt"

[[engine]]
name = "a"
command = "bin/a --seed 3 \"two words\""
args = ["--extra"]
dir = "work"
tc = "movetime=100"
protocol0 = true
start_timeout_ms = 1500
ready_timeout_ms = 700
memory_mb = 256
cpu_seconds = 60
processes = 8
options = { Hash = 16, Ponder = false, Style = "calm" }
env = { LANG = "C" }

[[engine]]
name = "b"
command = "b-in-path"
)");
  INFO((c ? std::string() : c.error()));
  REQUIRE(c.ok());
  CHECK(c->name == "Spring event");
  CHECK(c->database == "events.db");
  CHECK(c->format == "gauntlet");
  REQUIRE(c->games.size() == 2);
  CHECK(c->games[0] == games::make_game("awale")->canonical());
  CHECK(c->games[1] == games::make_game("oware:players=3")->canonical());
  CHECK(c->tc.moves_to_go == 40);
  CHECK(c->tc.base == Millis(60000));
  CHECK(c->tc_text == "40/60+0.5");
  CHECK(c->cycles == 4);
  CHECK(c->concurrency == 2);
  CHECK(c->seed == 99u);
  CHECK(c->max_crashes == 5);
  CHECK(c->openings.random_plies == 2);
  CHECK(c->openings.per_pairing == 3);
  const std::vector<std::vector<std::string>> book = {{"1", "7"}, {"2", "8"}};
  CHECK(c->openings.book_lines == book);
  REQUIRE(c->engines.size() == 2);
  const auto& a = c->engines[0];
  CHECK(a.config.name == "a");
  CHECK(a.config.command == dir.file("bin/a"));  // relative to the file's directory
  const std::vector<std::string> args = {"--seed", "3", "two words", "--extra"};
  CHECK(a.config.args == args);
  CHECK(a.config.working_dir == dir.file("work"));
  REQUIRE(a.tc.has_value());
  CHECK(a.tc->movetime == Millis(100));
  CHECK(a.config.protocol0);
  CHECK(a.config.start_timeout_ms == 1500);
  CHECK(a.config.ready_timeout_ms == 700);
  CHECK(a.config.limits.memory_mb == 256);
  CHECK(a.config.limits.cpu_seconds == 60);
  CHECK(a.config.limits.processes == 8);
  CHECK(a.config.options.at("Hash") == "16");
  CHECK(a.config.options.at("Ponder") == "false");
  CHECK(a.config.options.at("Style") == "calm");
  CHECK(a.config.env.at("LANG") == "C");
  const auto& b = c->engines[1];
  CHECK(b.config.command == "b-in-path");  // a bare name is looked up in PATH
  CHECK_FALSE(b.tc.has_value());
  CHECK(c->source == dir.file("t.toml"));
}

TEST_CASE("tournament file: defaults") {
  rtest::TempDir dir;
  auto c = load(dir, kHead + kEngines);
  REQUIRE(c.ok());
  CHECK(c->database == "referee.db");
  CHECK(c->format == "round-robin");
  CHECK(c->cycles == 1);
  CHECK(c->concurrency == 0);
  CHECK(c->max_crashes == 3);
  CHECK(c->openings.random_plies == 0);
  CHECK(c->openings.per_pairing == 1);
  CHECK(c->engines[0].config.args.empty());
}

TEST_CASE("tournament file: JSON when the file ends in .json") {
  rtest::TempDir dir;
  auto c = load(dir, R"({"name": "j", "games": "awale", "tc": "movetime=50", "cycles": 2,
    "engine": [{"name": "a", "command": "./a"}, {"name": "b", "command": "/usr/bin/b"}]})",
                "t.json");
  INFO((c ? std::string() : c.error()));
  REQUIRE(c.ok());
  CHECK(c->name == "j");
  CHECK(c->cycles == 2);
  CHECK(c->games.size() == 1);
  CHECK(c->engines[0].config.command == dir.file("a"));
  CHECK(c->engines[1].config.command == "/usr/bin/b");
}

TEST_CASE("tournament file: syntax errors give the place") {
  expect_error("name = \"t\"\ngames = [\"awale\"\ntc = 3\n", "t.toml:3:");
  expect_error("name = \"t\nx = 1\n", "t.toml:1:");
  expect_error("{\"name\": \"t\",", "not valid JSON", "t.json");
}

TEST_CASE("tournament file: a missing file") {
  auto c = load_tournament_file("/nonexistent/dir/t.toml");
  REQUIRE_FALSE(c.ok());
  CHECK(c.error() == "cannot read tournament file '/nonexistent/dir/t.toml'");
}

TEST_CASE("tournament file: unknown keys") {
  expect_error(kHead + "colour = \"red\"\n" + kEngines, "unknown key 'colour'");
  expect_error(kHead + "[openings]\nplies = 3\n" + kEngines, "[openings]: unknown key 'plies'");
  expect_error(kHead + kEngines + "speed = 3\n", "engine 2: unknown key 'speed'");
}

TEST_CASE("tournament file: wrong types") {
  expect_error("name = 3\ngames = [\"awale\"]\ntc = \"10\"\n" + kEngines,
               "'name' must be a string");
  expect_error(kHead + "cycles = \"2\"\n" + kEngines, "'cycles' must be an integer");
  expect_error(kHead + "cycles = 0\n" + kEngines, "'cycles' must be from 1 to");
  expect_error(kHead + "concurrency = 1.5\n" + kEngines, "'concurrency' must be an integer");
  expect_error("name = \"t\"\ngames = 3\ntc = \"10\"\n" + kEngines,
               "'games' must be a list of strings");
  expect_error("name = \"t\"\ngames = [\"awale\", 2]\ntc = \"10\"\n" + kEngines,
               "'games' must be a list of strings");
  expect_error(kHead + "openings = 3\n" + kEngines, "[openings] must be a table");
  expect_error(kHead + "engine = 3\n", "needs [[engine]] tables");
  expect_error(kHead + kEngines + "protocol0 = \"yes\"\n", "'protocol0' must be true or false");
  expect_error(kHead + kEngines + "options = 3\n", "'options' must be a table");
  expect_error(kHead + kEngines + "options = { Hash = [1] }\n",
               "'options.Hash' must be a string, number or boolean");
  expect_error(kHead + kEngines + "args = \"x\"\nstart_timeout_ms = 0\n",
               "'start_timeout_ms' must be from 1 to");
}

TEST_CASE("tournament file: missing keys") {
  expect_error("games = [\"awale\"]\ntc = \"10\"\n" + kEngines, "'name' is missing");
  expect_error("name = \"t\"\ntc = \"10\"\n" + kEngines, "'games' is missing or empty");
  expect_error("name = \"t\"\ngames = []\ntc = \"10\"\n" + kEngines, "'games' is missing or empty");
  expect_error("name = \"t\"\ngames = [\"awale\"]\n" + kEngines, "'tc' (time control) is missing");
  expect_error(kHead, "needs [[engine]] tables");
  expect_error(kHead + "[[engine]]\ncommand = \"x\"\n[[engine]]\nname = \"b\"\ncommand = \"y\"\n",
               "engine 1: every engine needs a 'name'");
  expect_error(kHead + "[[engine]]\nname = \"a\"\n[[engine]]\nname = \"b\"\ncommand = \"y\"\n",
               "engine 1 (a): 'command' is missing");
}

TEST_CASE("tournament file: unknown games and parameters") {
  expect_error("name = \"t\"\ngames = [\"chess\"]\ntc = \"10\"\n" + kEngines, "chess");
  expect_error("name = \"t\"\ngames = [\"awale:colour=red\"]\ntc = \"10\"\n" + kEngines, "colour");
  expect_error("name = \"t\"\ngames = [\"oware:players=5\"]\ntc = \"10\"\n" + kEngines, "players");
}

TEST_CASE("tournament file: bad time controls, for the event and for one engine") {
  expect_error("name = \"t\"\ngames = [\"awale\"]\ntc = \"10+x\"\n" + kEngines, "'10+x'");
  expect_error(kHead + kEngines + "tc = \"movetime=0\"\n", "engine 2 (b): ");
  expect_error(kHead + kEngines + "tc = \"movetime=0\"\n", "'movetime=0'");
}

TEST_CASE("tournament file: engine names and commands") {
  expect_error(kHead +
                   "[[engine]]\nname = \"a\"\ncommand = \"x\"\n[[engine]]\nname = \"a\"\n"
                   "command = \"y\"\n",
               "two engines are named 'a'");
  expect_error(kHead + "[[engine]]\nname = \"a\"\ncommand = \"x\"\n",
               "a tournament needs at least two engines");
  expect_error(kHead + "[[engine]]\nname = \"a\"\ncommand = \"bin/a \\\"oops\"\n" +
                   "[[engine]]\nname = \"b\"\ncommand = \"y\"\n",
               "engine 1 (a): ");
  expect_error(kHead + "[[engine]]\nname = \"a\"\ncommand = \"bin/a 'oops\"\n" +
                   "[[engine]]\nname = \"b\"\ncommand = \"y\"\n",
               "quote");
}

TEST_CASE("tournament file: format and openings") {
  expect_error(kHead + "format = \"swiss\"\n" + kEngines,
               "'format' must be round-robin or gauntlet, not 'swiss'");
  rtest::TempDir dir;
  {
    auto c = load(dir, kHead + "[openings]\nbook = \"nope.txt\"\n" + kEngines);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error() == "cannot read opening book '" + dir.file("nope.txt") + "'");
  }
  rtest::write_text(dir.file("empty.txt"), "# nothing\n\n");
  auto c = load(dir, kHead + "[openings]\nbook = \"empty.txt\"\n" + kEngines);
  REQUIRE_FALSE(c.ok());
  CHECK(contains(c.error(), "has no openings"));
  CHECK(contains(c.error(), dir.file("empty.txt")));
}

TEST_CASE("tournament file: the schedule fingerprint follows what decides the schedule") {
  rtest::TempDir dir;
  auto base = load(dir, kHead + kEngines);
  REQUIRE(base.ok());
  const auto fp = schedule_fingerprint(*base);
  auto same = *base;
  same.concurrency = 7;  // how the games are run does not change which games
  same.tc = *parse_time_control("1+0");
  same.database = "other.db";
  CHECK(schedule_fingerprint(same) == fp);
  auto more = *base;
  more.cycles = 2;
  CHECK(schedule_fingerprint(more) != fp);
  auto seeded = *base;
  seeded.seed = 2;
  CHECK(schedule_fingerprint(seeded) != fp);
  auto renamed = *base;
  renamed.engines[1].config.name = "c";
  CHECK(schedule_fingerprint(renamed) != fp);
  auto plies = *base;
  plies.openings.random_plies = 2;
  CHECK(schedule_fingerprint(plies) != fp);
}

TEST_CASE("tournament file: engine definitions are validated for the protocol") {
  expect_error(kHead + kEngines + "options = { \"Hash size\" = 16 }\n",
               "engine 2: engine 'b': option name 'Hash size' holds a blank");
  expect_error(kHead + kEngines + "options = { Style = \"a\\nquit\" }\n",
               "line break in the value of option 'Style'");
  expect_error(kHead + kEngines + "env = { \"A=B\" = \"1\" }\n",
               "bad environment variable name 'A=B'");
}
