// referee/tournament_config: reading tournament files (TOML and JSON) and every error, each one
// line naming the file and the problem: malformed TOML (line:column) and JSON, unknown keys, wrong
// types, missing keys, unknown games and parameters, bad time controls, duplicate names, too few
// engines, unbalanced quotes, relative commands and books resolved against the file's directory.
#include <catch2/catch.hpp>

#include "games/game.h"
#include "referee/event/tournament_config.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using namespace referee::event;
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

[[engine]]
name = "c"
command = "/usr/bin/c"
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
  CHECK(c->tc.to_string() == "40/60+0.5");
  CHECK(c->cycles == 4);
  CHECK(c->concurrency == 2);
  CHECK(c->seed == 99u);
  CHECK(c->max_crashes == 5);
  CHECK(c->openings.random_plies == 2);
  CHECK(c->openings.per_pairing == 3);
  const std::vector<std::vector<std::string>> book = {{"1", "7"}, {"2", "8"}};
  CHECK(c->openings.book_lines == book);
  REQUIRE(c->engines.size() == 3);
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
               "engine 1 (a): 'command' (or 'artifact') is missing");
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
  expect_error(kHead + "format = \"elimination\"\n" + kEngines,
               "'format' must be round-robin, gauntlet, knockout or swiss, not 'elimination'");
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

// ---- Bad configuration refused up front (each of these loaded on the old code) ----

namespace {

// A file with the head, `openings` (TOML lines under [openings]) and the two engines.
std::string with_openings(const std::string& openings) {
  return kHead + "[openings]\n" + openings + kEngines;
}

}  // namespace

TEST_CASE("tournament file: every book line is replayed through the rules at load") {
  rtest::TempDir dir;
  rtest::write_text(dir.file("book.txt"),
                    "# comment line\n1 7\n\n2 8 # with a comment\r\n1 7 13\n");
  auto c = load(dir, with_openings("book = \"book.txt\"\n"));
  REQUIRE_FALSE(c.ok());
  // The culprit is the book's line 5, named as FILE:LINE, with the move and the game.
  CHECK(c.error().rfind(dir.file("book.txt") + ":5: move 3 '13' is illegal in awale:", 0) == 0);
  CHECK_FALSE(contains(c.error(), "\n"));

  rtest::write_text(dir.file("good.txt"), "1 7\r\n2 8\t3\n");  // CRLF and tabs are fine
  auto good = load(dir, with_openings("book = \"good.txt\"\n"));
  INFO((good ? std::string() : good.error()));
  REQUIRE(good.ok());
  const std::vector<std::vector<std::string>> lines = {{"1", "7"}, {"2", "8", "3"}};
  CHECK(good->openings.book_lines == lines);
}

TEST_CASE("tournament file: a book line must be legal in every game of the event") {
  rtest::TempDir dir;
  // In kalaha, sowing pit 1 ends in the store: player 1 moves again, so 7 is not his move.
  rtest::write_text(dir.file("book.txt"), "1 7\n");
  auto c = load(dir,
                "name = \"t\"\ngames = [\"awale\", \"kalaha\"]\ntc = \"10\"\n"
                "[openings]\nbook = \"book.txt\"\n" +
                    kEngines);
  REQUIRE_FALSE(c.ok());
  CHECK(c.error().rfind(dir.file("book.txt") + ":1: move 2 '7' is illegal in kalaha:", 0) == 0);
}

TEST_CASE("tournament file: a book line that ends the game is refused") {
  rtest::TempDir dir;
  rtest::write_text(dir.file("book.txt"), "1 7\n1 7 2\n1 7 2 8\n");
  auto c = load(dir,
                "name = \"t\"\ngames = [\"awale:maxplies=3\"]\ntc = \"10\"\n"
                "[openings]\nbook = \"book.txt\"\n" +
                    kEngines);
  REQUIRE_FALSE(c.ok());
  CHECK(c.error() == dir.file("book.txt") + ":2: the line ends the game of " +
                         games::make_game("awale:maxplies=3")->canonical() +
                         "; an opening must leave it going");
}

TEST_CASE("tournament file: /etc/passwd, binary files and directories are not books") {
  rtest::TempDir dir;
  auto passwd = load(dir, with_openings("book = \"/etc/passwd\"\n"));
  REQUIRE_FALSE(passwd.ok());
  CHECK(passwd.error().rfind("/etc/passwd:1: move 1 '", 0) == 0);
  CHECK(contains(passwd.error(), "' is illegal in awale:"));

  rtest::write_text(dir.file("bin.dat"), std::string("\x7f"
                                                     "ELF\x02\x01\x01\0\0\0",
                                                     10));
  auto binary = load(dir, with_openings("book = \"bin.dat\"\n"));
  REQUIRE_FALSE(binary.ok());
  CHECK(binary.error() == dir.file("bin.dat") + ":1: not a line of text (control byte 0x7f)");

  rtest::write_text(dir.file("nul.txt"), std::string("1 7\n2\0 8\n", 9));
  auto nul = load(dir, with_openings("book = \"nul.txt\"\n"));
  REQUIRE_FALSE(nul.ok());
  CHECK(nul.error() == dir.file("nul.txt") + ":2: not a line of text (control byte 0x00)");

  std::filesystem::create_directory(dir.file("books"));
  auto directory = load(dir, with_openings("book = \"books\"\n"));
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error() == "opening book '" + dir.file("books") + "' is not a regular file");

  auto device = load(dir, with_openings("book = \"/dev/zero\"\n"));
  REQUIRE_FALSE(device.ok());
  CHECK(device.error() == "opening book '/dev/zero' is not a regular file");
}

TEST_CASE("tournament file: the tournament file itself must be a regular file") {
  auto device = load_tournament_file("/dev/zero");
  REQUIRE_FALSE(device.ok());
  CHECK(device.error() == "tournament file '/dev/zero' is not a regular file");
  rtest::TempDir dir;
  auto directory = load_tournament_file(dir.path());
  REQUIRE_FALSE(directory.ok());
  CHECK(contains(directory.error(), "is not a regular file"));
}

TEST_CASE("tournament file: random_plies the games cannot play are refused with the bound") {
  // Random play ends an awale game long before 500 plies.
  expect_error(with_openings("random_plies = 500\n"), "random_plies 500 is too many for awale:");
  expect_error(with_openings("random_plies = 500\n"), " random plies work");
  expect_error(
      "name = \"t\"\ngames = [\"awale:maxplies=10\"]\ntc = \"10\"\n"
      "[openings]\nrandom_plies = 10\n" +
          kEngines,
      "its games end at maxplies=10, so at most 9 random plies fit");
  expect_error(with_openings("random_plies = 1001\n"), "'random_plies' must be from 0 to 1000");
  rtest::TempDir dir;
  auto fine = load(dir, with_openings("random_plies = 8\n"));
  REQUIRE(fine.ok());
  CHECK(fine->openings.random_plies == 8);
}

TEST_CASE("tournament file: the same game twice is refused, compared by canonical string") {
  const std::string awale_full = games::make_game("awale")->canonical();
  expect_error(
      "name = \"t\"\ngames = [\"awale\", \"" + awale_full + "\"]\ntc = \"10\"\n" + kEngines,
      "games 'awale' and '" + awale_full + "' are the same game (" + awale_full + ")");
  expect_error(
      "name = \"t\"\ngames = [\"awale:first=1\", \"awale:grandslam=nocapture\"]\n"
      "tc = \"10\"\n" +
          kEngines,
      "are the same game");
  expect_error("name = \"t\"\ngames = [\"permainan\", \"surakarta\"]\ntc = \"10\"\n" + kEngines,
               "games 'permainan' and 'surakarta' are the same game");
  // Different parameters are different games.
  rtest::TempDir dir;
  auto two = load(dir,
                  "name = \"t\"\ngames = [\"awale\", \"awale:grandslam=illegal\"]\n"
                  "tc = \"10\"\n" +
                      kEngines);
  INFO((two ? std::string() : two.error()));
  CHECK(two.ok());
}

TEST_CASE("tournament file: engine names with control characters, line breaks or edge blanks") {
  auto named = [](const std::string& name) {
    return kHead + "[[engine]]\nname = \"" + name + "\"\ncommand = \"x\"\n" +
           "[[engine]]\nname = \"b\"\ncommand = \"y\"\n";
  };
  expect_error(named("a\\nb"), "engine 'a\\nb': line break in the name");
  expect_error(named("a\\u0007b"), "engine 'a\\x07b': control character in the name");
  expect_error(named("a\\tb"), "engine 'a\\tb': control character in the name");
  expect_error(named(" a"), "engine ' a': the name starts or ends with a blank");
  expect_error(named("a "), "the name starts or ends with a blank");
  expect_error(kHead + "[[engine]]\nname = \"a\\nb\"\n[[engine]]\nname = \"b\"\ncommand = \"y\"\n",
               "engine 1 (a\\nb): 'command' (or 'artifact') is missing");  // still one line
  rtest::TempDir dir;
  auto fine = load(dir, named("Sowbot 1.2 \\u00e9"));
  INFO((fine ? std::string() : fine.error()));
  CHECK(fine.ok());
}

TEST_CASE("tournament file: time controls that overflow are refused with the limit") {
  expect_error("name = \"t\"\ngames = [\"awale\"]\ntc = \"99999999999999999999999\"\n" + kEngines,
               "base and increment are at most 1000000 s");
  expect_error(
      "name = \"t\"\ngames = [\"awale\"]\ntc = \"movetime=99999999999999999999\"\n" + kEngines,
      "movetime is from 1 to 1000000000 ms");
  expect_error(kHead + kEngines + "tc = \"100/10+99999\"\n",
               "engine 2 (b): time control '100/10+99999': a period");
}

TEST_CASE("tournament file: a schedule too large to run is refused with its size") {
  expect_error(kHead + "cycles = 100000\n[openings]\nper_pairing = 10000\n" + kEngines,
               "the schedule has 2000000000 games; an event holds at most 1000000");
  expect_error(kHead + "cycles = 1000001\n" + kEngines, "'cycles' must be from 1 to 1000000");
  expect_error(kHead + "cycles = -3\n" + kEngines, "'cycles' must be from 1 to 1000000");
  expect_error(kHead + "concurrency = -1\n" + kEngines, "'concurrency' must be from 0 to 256");
}

TEST_CASE("tournament file: an event name with a control character") {
  expect_error("name = \"a\\rb\"\ngames = [\"awale\"]\ntc = \"10\"\n" + kEngines,
               "the event's name 'a\\rb' holds a control character");
}

TEST_CASE("tournament file: syntax errors stay on one line") {
  expect_error("name = \"t\"\n\"bad\nkey\" = 1\n", "t.toml:2:");
  expect_error("{\"name\": \"t\", \"x\": \"\x01\"}", "not valid JSON", "t.json");
}

TEST_CASE("check_tournament: the checks shared with the match command") {
  TournamentConfig c;
  c.name = "m";
  c.games = {games::make_game("awale")->canonical()};
  for (const char* n : {"a", "b"}) {
    TournamentEngine e;
    e.config.name = n;
    e.config.command = "/bin/true";
    c.engines.push_back(e);
  }
  REQUIRE(check_tournament(c).ok());
  auto error_of = [](const TournamentConfig& bad) {
    auto s = check_tournament(bad);
    return s.ok() ? std::string("(accepted)") : s.error();
  };
  auto x = c;
  x.cycles = 0;
  CHECK(error_of(x) == "cycles must be from 1 to 1000000, not 0");
  x = c;
  x.cycles = -5;
  CHECK(error_of(x) == "cycles must be from 1 to 1000000, not -5");
  x = c;
  x.concurrency = -1;
  CHECK(error_of(x) == "concurrency must be from 0 to 256, not -1");
  x = c;
  x.cycles = 600000;
  CHECK(error_of(x) ==
        "the schedule has 1200000 games; an event holds at most 1000000 (use fewer cycles, "
        "openings per pairing, engines or games)");
  x = c;
  x.games.push_back("awale");
  CHECK(contains(error_of(x), "are the same game"));
  x = c;
  x.games.clear();
  CHECK(error_of(x) == "no games");
  x = c;
  x.engines.pop_back();
  CHECK(error_of(x) == "a tournament needs at least two engines");
  x = c;
  x.engines[1].config.name = "a";
  CHECK(error_of(x) == "two engines are named 'a'");
  x = c;
  x.engines[1].config.name = "b\n";
  CHECK(error_of(x) == "engine 'b\\n': line break in the name");
  x = c;
  x.openings.random_plies = 400;
  CHECK(contains(error_of(x), "random_plies 400 is too many for awale:"));
  x = c;
  x.games = {"oware:players=3"};
  CHECK(contains(error_of(x), "needs 3 engines; the tournament has 2"));
  x = c;
  x.name = "";
  CHECK(error_of(x) == "the event has no name");
  x = c;
  x.database = "a\nb.db";
  CHECK(error_of(x) == "bad database path 'a\\nb.db'");
  x = c;
  x.database = "";
  CHECK(error_of(x) == "bad database path ''");
  x = c;
  x.format = "elimination";
  CHECK(error_of(x) ==
        "format must be round-robin, gauntlet, knockout or swiss, not 'elimination'");
}

TEST_CASE("tournament file: the example tournament files pass every check") {
  for (const char* name :
       {"awale.toml", "oware-3.toml", "all-games.toml", "knockout.toml", "swiss.toml"}) {
    const std::string path = std::string(SOURCE_DIR) + "/examples/tournaments/" + name;
    auto c = load_tournament_file(path);
    INFO(path << ": " << (c ? std::string() : c.error()));
    CHECK(c.ok());
  }
}
