// The `referee` command, run as a program: exit statuses, the one error line on stderr, and the
// output of the rules commands (games, rules, moves, perft, show), of tournament and match runs,
// and of ratings, export and verify on a database with games; damaged, foreign-version and
// unwritable databases. The full-disk case takes about 30 s (200 games, so that a few-MiB disk
// fills in the middle of the event, then the rest played by a second run).
#include <SQLiteCpp/Database.h>
#include <sqlite3.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "games/game.h"
#include "referee_version.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

using rtest::referee_cmd;

// stderr holds exactly one line, containing `piece`.
void one_error_line(const rtest::RunResult& r, const std::string& piece) {
  INFO("stderr: " << r.err);
  REQUIRE(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, piece));
}

// What `referee moves` prints for a position that goes on, computed from the library.
std::string moves_output(const std::string& spec, const std::vector<std::string>& moves) {
  auto game = referee::games::make_game(spec);
  auto state = referee::games::state_after(*game, "", moves);
  std::string out = "position: " + state->to_string() +
                    "\nplayer: " + std::to_string(state->current_player()) + "\nlegal:";
  for (const auto& m : state->legal_moves()) out += " " + m;
  return out + "\n";
}

// A tournament file with two mock engines (and `extra` appended).
std::string tournament_file(const rtest::TempDir& dir, const std::string& extra = "",
                            const std::string& second = rtest::kMock) {
  const std::string path = dir.file("t.toml");
  rtest::write_text(path, "name = \"cli event\"\ndatabase = \"" + dir.file("t.db") +
                              "\"\ngames = [\"awale:maxplies=12\"]\ntc = \"10+0.1\"\n"
                              "concurrency = 1\n[openings]\nrandom_plies = 2\n"
                              "[[engine]]\nname = \"m0\"\ncommand = \"" +
                              rtest::kMock + "\"\n[[engine]]\nname = \"m1\"\ncommand = \"" +
                              second + "\"\n" + extra);
  return path;
}

}  // namespace

TEST_CASE("cli: usage, help and unknown commands") {
  auto none = referee_cmd({});
  CHECK(none.status == 2);
  CHECK(rtest::lines_of(none.err).front() ==
        "usage: referee COMMAND [ARGS...]   (referee COMMAND "
        "--help for its options)");
  auto help = referee_cmd({"--help"});
  CHECK(help.status == 0);
  for (const char* c : {"games", "rules", "moves", "perft", "show", "tournament", "match",
                        "ratings", "export", "verify", "check-engine", "bench"})
    CHECK(contains(help.out, std::string("  ") + c + " "));
  auto unknown = referee_cmd({"frobnicate"});
  CHECK(unknown.status == 2);
  CHECK(rtest::lines_of(unknown.err).front() == "referee: unknown command 'frobnicate'");
}

TEST_CASE("cli: an unknown option is one error line, status 2") {
  auto r = referee_cmd({"perft", "awale", "3", "--bogus"});
  CHECK(r.status == 2);
  one_error_line(r, "'--bogus'");
  CHECK(r.out.empty());
  auto t = referee_cmd({"ratings", "--colour", "red"});
  CHECK(t.status == 2);
  one_error_line(t, "'--colour'");
}

TEST_CASE("cli: perft prints one line per depth") {
  auto r = referee_cmd({"perft", "awale", "3"});
  CHECK(r.status == 0);
  CHECK(r.out == "1 6\n2 36\n3 190\n");
  CHECK(r.err.empty());
  auto from = referee_cmd({"perft", "awale", "1", "--moves", "3", "9"});
  CHECK(from.status == 0);
  auto game = referee::games::make_game("awale");
  auto state = referee::games::state_after(*game, "", {"3", "9"});
  CHECK(from.out == "1 " + std::to_string(state->perft(1)) + "\n");
}

TEST_CASE("cli: bench plays its tournament pinned and not pinned, or the one asked for") {
  auto both = referee_cmd({"bench", "-n", "6", "--perft", "awale", "--perft-seconds", "0.01"});
  INFO(both.err);
  REQUIRE(both.status == 0);
  CHECK(contains(both.out, "concurrency 2, games pinned to CPUs\n"));
  CHECK(contains(both.out, "concurrency 2, not pinned\n"));
  CHECK(contains(both.out, "referee CPU per ply: "));
  CHECK(contains(both.out, " us not pinned\n"));
  CHECK(contains(both.out, "perft awale"));
  auto pinned = referee_cmd(
      {"bench", "-n", "4", "--pin-cpus", "--perft", "awale", "--perft-seconds", "0.01"});
  REQUIRE(pinned.status == 0);
  CHECK(contains(pinned.out, "games pinned to CPUs"));
  CHECK_FALSE(contains(pinned.out, "not pinned"));
  auto unpinned =
      referee_cmd({"bench", "-n", "4", "--no-pin", "--perft", "awale", "--perft-seconds", "0.01"});
  REQUIRE(unpinned.status == 0);
  CHECK(contains(unpinned.out, "not pinned"));
  CHECK_FALSE(contains(unpinned.out, "games pinned to CPUs"));
  auto clash = referee_cmd({"bench", "--pin-cpus", "--no-pin"});
  CHECK(clash.status == 2);
  one_error_line(clash, "--pin-cpus and --no-pin exclude each other");
}

TEST_CASE("cli: bench --sandbox times engine starts and the tournament without and with it") {
  auto r = referee_cmd({"bench", "--sandbox", "-n", "4", "--starts", "3"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "engine starts: 3 of "));
  CHECK(contains(r.out, "  without the sandbox        median "));
  CHECK(contains(r.out, "  in the sandbox             median "));
  CHECK(contains(r.out, "  the sandbox per start      "));
  CHECK(contains(r.out, "concurrency 2, not pinned\n"));
  CHECK(contains(r.out, "concurrency 2, not pinned, both engines sandboxed\n"));
  CHECK(contains(r.out, " us with both engines in it\n"));
  CHECK_FALSE(contains(r.out, "perft"));
  auto bad = referee_cmd({"bench", "--sandbox", "--starts", "0"});
  CHECK(bad.status == 2);
  one_error_line(bad, "--starts must be 1 to 100000");
  // A sandboxed start that fails says why, in one line.
  auto missing = referee_cmd({"bench", "--sandbox", "--engine", "/nonexistent/engine"});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "/nonexistent/engine"));
}

TEST_CASE("cli: perft errors name the culprit") {
  auto bad_move = referee_cmd({"perft", "awale", "2", "--moves", "1", "99"});
  CHECK(bad_move.status == 1);
  one_error_line(bad_move, "99");
  CHECK(bad_move.out.empty());
  auto game = referee_cmd({"perft", "chess", "2"});
  CHECK(game.status == 1);
  one_error_line(game, "chess");
  auto param = referee_cmd({"perft", "awale:colour=red", "2"});
  CHECK(param.status == 1);
  one_error_line(param, "colour");
  auto depth = referee_cmd({"perft", "awale", "0"});
  CHECK(depth.status == 2);
  one_error_line(depth, "DEPTH must be from 1 to 64");
  auto position = referee_cmd({"perft", "awale", "1", "--position", "1,2,3"});
  CHECK(position.status == 1);
  CHECK(rtest::lines_of(position.err).size() == 1);
  auto missing = referee_cmd({"perft"});
  CHECK(missing.status == 2);
}

TEST_CASE("cli: moves prints the position and the legal moves, key by key") {
  auto start = referee_cmd({"moves", "awale"});
  CHECK(start.status == 0);
  CHECK(start.out ==
        "position: 4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0\nplayer: 1\nlegal: 1 2 3 4 5 6\n");
  CHECK(start.err.empty());
  auto after = referee_cmd({"moves", "awale", "--moves", "3"});
  CHECK(after.status == 0);
  CHECK(after.out == moves_output("awale", {"3"}));
  auto three = referee_cmd({"moves", "oware:players=3", "--moves", "1", "5"});
  CHECK(three.status == 0);
  CHECK(three.out == moves_output("oware:players=3", {"1", "5"}));
  CHECK(contains(three.out, "\nplayer: 3\n"));
  auto bad = referee_cmd({"moves", "awale", "--moves", "8"});
  CHECK(bad.status == 1);
  one_error_line(bad, "8");
  CHECK(bad.out.empty());
  auto bad_position = referee_cmd({"moves", "awale", "--position", "4,4:1"});
  CHECK(bad_position.status == 1);
  one_error_line(bad_position, "4,4:1");
}

TEST_CASE("cli: an empty --moves list is the start position, for moves, perft and show") {
  const auto start = referee_cmd({"moves", "awale"});
  REQUIRE(start.status == 0);
  for (const std::vector<std::string>& empty :
       {std::vector<std::string>{"--moves"}, {"--moves", ""}, {"-m"}}) {
    std::vector<std::string> args = {"moves", "awale"};
    args.insert(args.end(), empty.begin(), empty.end());
    auto r = referee_cmd(args);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == start.out);
  }
  // A list given as one word, as a script may pass "$MOVES".
  auto quoted = referee_cmd({"moves", "oware:players=3", "--moves", "1 5"});
  CHECK(quoted.status == 0);
  CHECK(quoted.out == moves_output("oware:players=3", {"1", "5"}));
  auto perft = referee_cmd({"perft", "awale", "1", "--moves"});
  CHECK(perft.status == 0);
  CHECK(perft.out == referee_cmd({"perft", "awale", "1"}).out);
  auto show = referee_cmd({"show", "awale", "--moves", "--json"});
  CHECK(show.status == 0);
  CHECK(show.out == referee_cmd({"show", "awale", "--json"}).out);
}

TEST_CASE("cli: moves in a setup phase and before a forced move") {
  auto setup = referee_cmd({"moves", "lontu-holo"});
  CHECK(setup.status == 0);
  CHECK(setup.out == "position: 0,0,0,0,0,0/0,0,0,0,0,0:setup:1:0:0\nplayer: 1\nsetup: " +
                         referee::games::make_game("lontu-holo")->initial_state().setup_form() +
                         "\nlegal:\n");
  auto mirror = referee_cmd({"moves", "lontu-holo", "--moves", "=3,5,2,6,4,4"});
  CHECK(mirror.status == 0);
  CHECK(mirror.out ==
        "position: 3,5,2,0,0,0/0,0,0,6,4,4:mirror:2:1:1\nplayer: 2\nforced: =3,5,2,6,4,4\n"
        "legal: =3,5,2,6,4,4\n");
}

TEST_CASE("cli: moves at a game end prints an empty list and the result, status 3") {
  // South sows 6 into 7 (now 3) and reaches 25 captured (PROTOCOL.md §10's second game).
  auto won = referee_cmd(
      {"moves", "awale", "--position", "0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60", "--moves", "6"});
  CHECK(won.status == 3);
  CHECK(won.out ==
        "position: 0,0,0,0,3,0/0,5,0,0,0,0:25,15:2:0:61\nlegal:\nresult: p1win rules\n"
        "scores: 28 20\n");
  CHECK(won.err.empty());
  auto draw = referee_cmd({"moves", "awale:nocapture=2", "--moves", "1", "7"});
  CHECK(draw.status == 3);
  CHECK(contains(draw.out, "\nlegal:\nresult: draw nocapture\nscores: 24 24\n"));
  auto ranks = referee_cmd({"moves", "oware:players=3,maxplies=1", "--moves", "1"});
  CHECK(ranks.status == 3);
  CHECK(contains(ranks.out, "\nresult: ranks "));
  CHECK(contains(ranks.out, " maxplies\n"));
}

// Every `$ referee moves ...` transcript in the documentation (PROTOCOL.md §11, the rules index)
// is what the command prints, status included.
TEST_CASE("cli: the referee moves transcripts in the documentation are what it prints") {
  int transcripts = 0;
  for (const char* doc : {"/protocol/PROTOCOL.md", "/protocol/rules/README.md"}) {
    const auto lines = rtest::read_lines(std::string(SOURCE_DIR) + doc);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto at = lines[i].find("$ referee moves ");
      if (at == std::string::npos) continue;
      std::vector<std::string> args;
      std::istringstream words(lines[i].substr(at + 10));
      for (std::string w; words >> w;) args.push_back(w);
      std::string expected;
      for (std::size_t j = i + 1; j < lines.size(); ++j) {
        const std::string line = lines[j].size() > at ? lines[j].substr(at) : "";
        if (line.rfind("$ ", 0) == 0 || line.rfind("```", 0) == 0) break;
        expected += line + "\n";
      }
      INFO(doc << ":" << i + 1 << ": " << lines[i]);
      auto r = referee_cmd(args);
      CHECK(r.out == expected);
      CHECK(r.status == (contains(expected, "\nresult: ") ? 3 : 0));
      ++transcripts;
    }
  }
  CHECK(transcripts >= 4);
}

TEST_CASE("cli: show, games, rules") {
  auto show = referee_cmd({"show", "awale", "--moves", "3"});
  CHECK(show.status == 0);
  auto state = referee::games::state_after(*referee::games::make_game("awale"), "", {"3"});
  CHECK(contains(show.out, "position: " + state->to_string() + "\n"));
  CHECK(contains(show.out, "to move: player 2\n"));

  auto games = referee_cmd({"games"});
  CHECK(games.status == 0);
  bool listed = false;
  for (const auto& l : rtest::lines_of(games.out)) listed = listed || l.rfind("awale ", 0) == 0;
  CHECK(listed);
  auto extra = referee_cmd({"games", "awale"});
  CHECK(extra.status == 2);

  auto rules = referee_cmd({"rules", "oware:players=3"});
  CHECK(rules.status == 0);
  auto lines = rtest::lines_of(rules.out);
  REQUIRE(lines.size() > 3);
  CHECK(lines[1] == referee::games::make_game("oware:players=3")->canonical());
  CHECK(lines[2] == "players: 3");
  auto unknown = referee_cmd({"rules", "chess"});
  CHECK(unknown.status == 1);
  one_error_line(unknown, "chess");
}

TEST_CASE("cli: a tournament file, then ratings, export and verify on its database") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir);
  auto run = referee_cmd({"tournament", file, "-q"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(contains(run.out, "games: 2 scheduled, 0 done before, 2 played now, 0 not played"));
  CHECK(contains(run.out, "m0"));

  auto again = referee_cmd({"tournament", file, "-q"});
  CHECK(again.status == 0);
  CHECK(contains(again.out, "games: 2 scheduled, 2 done before, 0 played now, 0 not played"));

  const std::string db = dir.file("t.db");
  auto ratings = referee_cmd({"ratings", "--db", db});
  CHECK(ratings.status == 0);
  CHECK(contains(ratings.out, "m0"));
  CHECK(contains(ratings.out, "m1"));

  auto pgn = referee_cmd({"export", "--format", "pgn", "--db", db});
  CHECK(pgn.status == 0);
  CHECK(contains(pgn.out, "[Event \"cli event\"]"));
  CHECK(contains(pgn.out, "[White \"m0\"]"));
  CHECK(contains(pgn.out, "[White \"m1\"]"));
  auto csv = referee_cmd({"export", "--format", "csv", "--db", db});
  CHECK(csv.status == 0);
  CHECK(rtest::lines_of(csv.out).size() == 3);  // header and two games
  auto jsonl =
      referee_cmd({"export", "--format", "jsonl", "--db", db, "--output", dir.file("g.jsonl")});
  CHECK(jsonl.status == 0);
  CHECK(rtest::read_lines(dir.file("g.jsonl")).size() == 2);
  auto bad_format = referee_cmd({"export", "--format", "xml", "--db", db});
  CHECK(bad_format.status == 2);
  one_error_line(bad_format, "--format must be pgn, jsonl or csv");

  auto verify = referee_cmd({"verify", "--db", db});
  CHECK(verify.status == 0);
  CHECK(verify.out == "integrity: ok\n2 games replayed, 0 mismatches\n");

  // A tampered move is found by verify.
  {
    SQLite::Database sql(db, SQLite::OPEN_READWRITE);
    sql.exec("UPDATE moves SET move = '12' WHERE ply = 3");
  }
  auto tampered = referee_cmd({"verify", "--db", db});
  CHECK(tampered.status == 1);
  CHECK(contains(tampered.out, "integrity: ok\n"));
  CHECK(contains(tampered.out, "MISMATCH game "));
  CHECK(contains(tampered.out, "2 games replayed, 2 mismatches"));
}

TEST_CASE("cli: match runs engines given on the command line") {
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto r = referee_cmd({"match", "--engine", "a=" + rtest::kMock, "--engine",
                        "b=" + rtest::kMock + " --slow-ms=1", "--game", "awale:maxplies=6", "--tc",
                        "5+0", "--db", db, "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(contains(r.out, "2 played now"));
  auto no_eq = referee_cmd({"match", "--engine", "a", "--engine", "b=x", "--db", db});
  CHECK(no_eq.status == 2);
  one_error_line(no_eq, "must be NAME=COMMAND");
  auto one = referee_cmd({"match", "--engine", "a=x", "--db", db});
  CHECK(one.status == 2);
  one_error_line(one, "at least two");
  auto tc = referee_cmd({"match", "--engine", "a=x", "--engine", "b=y", "--tc", "fast"});
  CHECK(tc.status == 2);
  one_error_line(tc, "'fast'");
}

TEST_CASE("cli: a two-engine event's summary gives its game pairs as pentanomial counts") {
  rtest::TempDir dir;
  auto run = [&](const std::vector<std::string>& engines, const std::string& db) {
    std::vector<std::string> args = {"match"};
    for (const auto& e : engines) args.insert(args.end(), {"--engine", e});
    args.insert(args.end(), {"--game", "awale:maxplies=8", "--tc", "5+0", "--cycles", "3", "--db",
                             dir.file(db), "-q"});
    auto r = referee_cmd(args);
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    return r.out;
  };
  // b resigns at once: every pair is won twice by a (WW from a's side, LL from b's).
  const std::string resigns = "b=" + rtest::kMock + " --always-resign";
  CHECK(contains(run({"a=" + rtest::kMock, resigns}, "ab.db"),
                 "\npairs: 3, Ptnml(0-2): [0, 0, 0, 0, 3] from a's side\n"));
  CHECK(contains(run({resigns, "a=" + rtest::kMock}, "ba.db"),
                 "\npairs: 3, Ptnml(0-2): [3, 0, 0, 0, 0] from b's side\n"));
  // Three engines: no such line (pairs are per two engines: `referee crosstable`).
  CHECK_FALSE(
      contains(run({"a=" + rtest::kMock, resigns, "c=" + rtest::kMock}, "abc.db"), "Ptnml"));
}

TEST_CASE("cli: an engine that cannot start: status 3, the reason per engine, nothing stored") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir, "", dir.file("no-such-engine"));
  auto r = referee_cmd({"tournament", file, "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK(contains(r.out, "games: 2 scheduled, 0 done before, 0 played now, 2 not played\n"));
  CHECK(contains(r.out, "not played: 2 games: engine 'm1' cannot start: cannot start engine '" +
                            dir.file("no-such-engine")));
  auto err = rtest::lines_of(r.err);
  REQUIRE(err.size() == 2);
  CHECK(contains(err[0], "notice: engine 'm1' cannot start: "));
  CHECK(err[1] == "referee: 2 of 2 games not played (see the 'not played' lines)");
  auto verify = referee_cmd({"verify", "--db", dir.file("t.db")});
  CHECK(verify.status == 0);
  CHECK(verify.out == "integrity: ok\n0 games replayed, 0 mismatches\n");
}

TEST_CASE("cli: without a terminal, the engine check and a started and finished line per game") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir, "", rtest::kMock);
  auto r = referee_cmd({"tournament", file});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto lines = rtest::lines_of(r.err);
  int engines = 0, started = 0, finished = 0;
  std::set<int> started_slots;
  SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READONLY);
  // "finished game 7 (slot 1): ...": the id `transcript` takes, the slot numbered as stored.
  const std::regex finished_line(R"(finished game (\d+) \(slot (\d+)\): .*)");
  for (const auto& l : lines) {
    engines += l.rfind("engine m", 0) == 0;
    if (l.rfind("started  slot ", 0) == 0) {
      ++started;
      started_slots.insert(std::stoi(l.substr(14)));
    }
    std::smatch m;
    if (std::regex_match(l, m, finished_line)) {
      ++finished;
      SQLite::Statement q(sql, "SELECT slot FROM games WHERE id = ?");
      q.bind(1, std::stoi(m[1]));
      REQUIRE(q.executeStep());
      CHECK(q.getColumn(0).getInt() == std::stoi(m[2]));
      CHECK(contains(l, "score m0 "));  // a running score for a two-engine event
      CHECK(contains(l, " games/s  ETA "));
      CHECK_FALSE(contains(l, " 0.00 games/s"));
    }
  }
  CHECK(engines == 2);
  CHECK(started == 2);
  CHECK(started_slots == std::set<int>{0, 1});
  CHECK(finished == 2);
}

TEST_CASE("cli: a finished line names the engine that forfeited and why") {
  rtest::TempDir dir;
  const std::string path = dir.file("crash.toml");
  rtest::write_text(path, "name = \"crash\"\ndatabase = \"" + dir.file("c.db") +
                              "\"\ngames = [\"awale:maxplies=8\"]\ntc = \"10+0\"\n"
                              "concurrency = 1\nmax_crashes = 5\n[[engine]]\nname = \"a\"\n"
                              "command = \"" +
                              rtest::kMock +
                              "\"\n[[engine]]\nname = \"b\"\n"
                              "command = \"" +
                              rtest::kMock + "\"\nargs = [\"--crash-on-go\"]\n");
  auto r = referee_cmd({"tournament", path});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  int forfeits = 0;
  for (const auto& l : rtest::lines_of(r.err))
    forfeits += l.rfind("finished game ", 0) == 0 && contains(l, "(crash: b crashed (exit 3))");
  CHECK(forfeits == 2);
}

TEST_CASE("cli: tournament file errors") {
  rtest::TempDir dir;
  auto missing = referee_cmd({"tournament", dir.file("nope.toml")});
  CHECK(missing.status == 1);
  one_error_line(missing, "cannot read tournament file '" + dir.file("nope.toml") + "'");
  rtest::write_text(dir.file("bad.toml"), "name = \"x\"\ncycles = \"two\"\n");
  auto bad = referee_cmd({"tournament", dir.file("bad.toml")});
  CHECK(bad.status == 1);
  one_error_line(bad, "'cycles' must be an integer");
  auto usage = referee_cmd({"tournament"});
  CHECK(usage.status == 2);
}

TEST_CASE("cli: an unwritable database path is one error line") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir);
  const std::string db = dir.file("no-such-dir/t.db");
  auto r = referee_cmd({"tournament", file, "-q", "--db", db});
  CHECK(r.status == 1);
  one_error_line(r, db);
  CHECK(rtest::lines_of(r.err)[0].rfind("referee: ", 0) == 0);
}

TEST_CASE("cli: a corrupt database file is one error line and is left untouched") {
  rtest::TempDir dir;
  const std::string db = dir.file("garbage.db");
  std::string bytes;
  for (int i = 0; i < 8192; ++i) bytes += static_cast<char>((i * 7919 + 13) % 256);
  rtest::write_text(db, bytes);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"ratings", "--db", db},
           {"verify", "--db", db},
           {"export", "--format", "csv", "--db", db},
           {"tournament", tournament_file(dir), "-q", "--db", db}}) {
    auto r = referee_cmd(args);
    INFO(args[0]);
    CHECK(r.status == 1);
    one_error_line(r, db);
    CHECK(rtest::read_text(db) == bytes);
  }
  auto none = referee_cmd({"ratings", "--db", dir.file("absent.db")});
  CHECK(none.status == 1);
  one_error_line(none, "no database '" + dir.file("absent.db") + "'");
}

TEST_CASE("cli: a database of a newer schema version is refused, untouched") {
  rtest::TempDir dir;
  const std::string db = dir.file("newer.db");
  {
    auto store = referee::storage::Store::open(db);
    REQUIRE(store.ok());
  }
  {
    SQLite::Database sql(db, SQLite::OPEN_READWRITE);
    sql.exec("UPDATE schema_version SET version = " +
             std::to_string(referee::storage::kSchemaVersion + 1));
  }
  const std::string newer =
      "schema version " + std::to_string(referee::storage::kSchemaVersion + 1);
  const std::string before = rtest::read_text(db);
  auto r = referee_cmd({"verify", "--db", db});
  CHECK(r.status == 1);
  one_error_line(r, db + " has " + newer + "; this referee reads up to " +
                        std::to_string(referee::storage::kSchemaVersion));
  auto t = referee_cmd({"tournament", tournament_file(dir), "-q", "--db", db});
  CHECK(t.status == 1);
  one_error_line(t, newer);
  CHECK(rtest::read_text(db) == before);
}

TEST_CASE("cli: Ctrl-C ends a tournament cleanly, the same command resumes it") {
  rtest::TempDir dir;
  const std::string path = dir.file("slow.toml");
  const std::string db = dir.file("slow.db");
  rtest::write_text(path, "name = \"slow\"\ndatabase = \"" + db +
                              "\"\ngames = [\"awale:maxplies=8\"]\ntc = \"10+0\"\ncycles = 4\n"
                              "concurrency = 1\n[[engine]]\nname = \"a\"\ncommand = \"" +
                              rtest::kMock +
                              "\"\nargs = [\"--slow-ms=20\"]\n[[engine]]\nname = "
                              "\"b\"\ncommand = \"" +
                              rtest::kMock + "\"\nargs = [\"--slow-ms=20\"]\n");
  const std::string out_path = dir.file("out"), err_path = dir.file("err");
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execl(REFEREE_BIN, REFEREE_BIN, "tournament", path.c_str(), "-q",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  REQUIRE(pid > 0);
  // Wait for two finished games, then Ctrl-C.
  for (int i = 0; i < 300; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (::access(db.c_str(), F_OK) != 0) continue;
    auto store = referee::storage::Store::open(db);
    if (!store) continue;
    auto done = store->games({});
    if (done && done->size() >= 2) break;
  }
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  INFO(rtest::read_text(out_path) << rtest::read_text(err_path));
  CHECK(WEXITSTATUS(status) == 130);
  const std::string out = rtest::read_text(out_path);
  CHECK(contains(out, "interrupted: run the same command again"));
  // The summary adds up: scheduled = done before + played now + not played, with the reason.
  long numbers[4] = {-1, -1, -1, -1};
  REQUIRE(std::sscanf(out.substr(out.find("games: ")).c_str(),
                      "games: %ld scheduled, %ld done before, %ld played now, %ld not played",
                      &numbers[0], &numbers[1], &numbers[2], &numbers[3]) == 4);
  CHECK(numbers[0] == 8);
  CHECK(numbers[1] == 0);
  CHECK(numbers[2] >= 2);
  CHECK(numbers[1] + numbers[2] + numbers[3] == 8);
  CHECK(contains(out, "not played: " + std::to_string(numbers[3]) + " games: interrupted\n"));
  {
    auto store = referee::storage::Store::open(db);
    REQUIRE(store.ok());
    CHECK(static_cast<long>(store->games({})->size()) == numbers[2]);
  }

  auto again = referee_cmd({"tournament", path, "-q"});
  CHECK(again.status == 0);
  CHECK(contains(again.out, "games: 8 scheduled, "));
  auto verify = referee_cmd({"verify", "--db", db});
  CHECK(verify.status == 0);
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  auto finished = store->games({});
  REQUIRE(finished.ok());
  CHECK(finished->size() == 8u);
}

// ---- --help, --version and match's defaults ----

// Every command `referee --help` lists, so that a new one is tested without being named here.
std::vector<std::string> every_command() {
  auto usage = referee_cmd({"--help"});
  std::vector<std::string> names;
  bool listing = false;
  for (const auto& l : rtest::lines_of(usage.out)) {
    if (l == "commands:") {
      listing = true;
    } else if (listing && l.rfind("  ", 0) == 0) {
      names.push_back(l.substr(2, l.find(' ', 2) - 2));
    }
  }
  return names;
}

TEST_CASE("cli: --version, for the program and for every command") {
  const std::string line = std::string("referee ") + referee::kVersion + "\n";
  auto top = referee_cmd({"--version"});
  CHECK(top.status == 0);
  CHECK(top.out == line);
  CHECK(top.err.empty());
  // The version comes from CMake's project(): digits and dots.
  CHECK(std::string(referee::kVersion).find_first_not_of("0123456789.") == std::string::npos);
  CHECK(std::string(referee::kVersion).find('.') != std::string::npos);
  const auto commands = every_command();
  CHECK(commands.size() >= 27);
  for (const auto& c : commands) {
    auto r = referee_cmd({c, "--version"});
    INFO(c << ": " << r.err);
    CHECK(r.status == 0);
    CHECK(r.out == line);
  }
}

TEST_CASE("cli: every command's --help has the same shape") {
  for (const auto& c : every_command()) {
    auto r = referee_cmd({c, "--help"});
    INFO(c << ":\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    auto lines = rtest::lines_of(r.out);
    REQUIRE(lines.size() >= 4);
    // usage: referee COMMAND ..., what it does (optional), a blank line, the options: --help and
    // --version first.
    CHECK(lines[0].rfind(std::string("usage: referee ") + c, 0) == 0);
    auto options = std::find(lines.begin(), lines.end(), "options:");
    REQUIRE(options != lines.end());
    REQUIRE(options - lines.begin() >= 2);
    CHECK((options - 1)->empty());
    REQUIRE(lines.end() - options >= 3);
    CHECK((options + 1)->rfind("  -h [ --help ] ", 0) == 0);
    CHECK((options + 2)->rfind("  --version ", 0) == 0);
    std::vector<std::string> positionals;
    std::string previous;
    std::istringstream usage_words(lines[0]);
    for (std::string word; usage_words >> word;) {
      std::string name;
      for (char ch : word)
        if (ch >= 'A' && ch <= 'Z') name += static_cast<char>(ch - 'A' + 'a');
      const bool capitals = !name.empty() && word.find('=') == std::string::npos &&
                            word.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos;
      if (capitals && previous.find("--") == std::string::npos) positionals.push_back(name);
      previous = word;
    }
    // The options, up to a blank line (a few commands say more below them).
    for (auto it = options + 1; it != lines.end() && !it->empty(); ++it) {
      CHECK(it->size() <= 80);
      CHECK(it->rfind("  ", 0) == 0);
      // Positional arguments (the usage's words in capitals that are not an option's value)
      // are not options.
      for (const auto& positional : positionals)
        CHECK_FALSE(contains(*it, "--" + positional + " "));
      CHECK_FALSE(contains(*it, "--action "));  // token's
    }
    // -h is the same as --help.
    auto short_help = referee_cmd({c, "-h"});
    CHECK(short_help.status == 0);
    CHECK(short_help.out == r.out);
  }
}

TEST_CASE("cli: match --help shows every default") {
  auto r = referee_cmd({"match", "--help"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "usage: referee match --engine NAME=CMD --engine NAME=CMD [options]\n"
        "A round robin between engines given on the command line, stored like a tournament;\n"
        "the same command again resumes it.\n"
        "\n"
        "options:\n"
        "  -h [ --help ]               show this help\n"
        "  --version                   print the version and exit\n"
        "  -e [ --engine ] NAME=CMD    an engine and its command line (quote it); two or\n"
        "                              more\n"
        "  -g [ --game ] G (=awale)    game string, e.g. oware:players=3; repeatable\n"
        "  -t [ --tc ] TC (=5+0.05)    time control: 10+0.1, 40/60+0, movetime=200, \n"
        "                              depth=6,cap=5000\n"
        "  -n [ --cycles ] N (=1)      times each pairing plays each opening in every \n"
        "                              seating\n"
        "  -c [ --concurrency ] N (=0) games at once (0 = cores)\n"
        "  --random-plies N (=4)       random plies the referee plays first, one opening\n"
        "                              per pairing and cycle\n"
        "  --all-plies K               instead of random plies: every distinct position \n"
        "                              of exactly K plies, each played in every seating \n"
        "                              (TOURNAMENTS.md, Every opening)\n"
        "  --book FILE                 opening book: one opening per line (README.md); \n"
        "                              random plies follow it\n"
        "  --seed N (=1)               seed of the openings\n"
        "  --sprt E0,E1[,A,B[,MODEL]]  two engines only: stop when the SPRT of the first\n"
        "                              against the second decides: 0,5 (elo0 0, elo1 5, \n"
        "                              alpha = beta = 0.05, normalized Elo) or \n"
        "                              0,5,0.05,0.1,logistic; --cycles then sets the \n"
        "                              most games (cycles x games x 2)\n"
        "  --draw KEYS                 KEYS from_ply=N,score=S,plies=M: a draw when \n"
        "                              every engine's score stayed within +-S cp for M \n"
        "                              plies from ply N on (TOURNAMENTS.md, \n"
        "                              Adjudication)\n"
        "  --resign KEYS               KEYS score=S,plies=M[,two_sided=true]: a loss for\n"
        "                              an engine whose own score stayed at or below -S \n"
        "                              cp for M plies (two_sided: its opponent's at or \n"
        "                              above +S too)\n"
        "  --db DB (=referee.db)       database: a file or a postgresql:// URL\n"
        "  --name NAME                 event name, the resume key (default: 'match', the\n"
        "                              engines and the games)\n"
        "  -q [ --quiet ]              no progress line\n"
        "  --debug                     print every line exchanged with the engines to \n"
        "                              stderr, as it happens\n"
        "  --pin-cpus                  pin each game and its engines to one CPU \n"
        "                              (single-threaded engines; README.md, Benchmarks)\n");
}

TEST_CASE("cli: match plays random opening plies by default, new ones every cycle") {
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto r = referee_cmd({"match", "--engine", "a=" + rtest::kMock, "--engine", "b=" + rtest::kMock,
                        "--game", "kalaha:maxplies=12", "--tc", "5+0", "--cycles", "2", "--db", db,
                        "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  REQUIRE(games->size() == 4u);
  std::sort(games->begin(), games->end(),
            [](const auto& x, const auto& y) { return x.slot < y.slot; });
  for (const auto& g : *games) {
    CHECK(g.game == referee::games::make_game("kalaha:maxplies=12")->canonical());  // not awale
    CHECK(g.opening.size() == 4u);
  }
  CHECK((*games)[0].opening == (*games)[1].opening);  // a pair: seats swapped, same opening
  CHECK((*games)[2].opening == (*games)[3].opening);
  CHECK((*games)[0].opening != (*games)[2].opening);  // the second cycle: other games
  CHECK((*games)[0].players != (*games)[1].players);
}

TEST_CASE("cli: a refused configuration is one error line and writes nothing") {
  rtest::TempDir dir;
  const std::string db = dir.file("t.db");
  auto file_with = [&](const std::string& head, const std::string& tail = "") {
    const std::string path = dir.file("bad.toml");
    const std::string tc = contains(head, "tc = ") ? "" : "tc = \"10+0.1\"\n";
    rtest::write_text(path, "name = \"bad\"\ndatabase = \"" + db + "\"\n" + tc + head +
                                "\n[[engine]]\nname = \"m0\"\ncommand = \"" + rtest::kMock +
                                "\"\n[[engine]]\nname = \"m1\"\ncommand = \"" + rtest::kMock +
                                "\"\n" + tail);
    return path;
  };
  struct FileCase {
    std::string head, tail, piece;
  };
  const std::vector<FileCase> files = {
      {"games = [\"awale\"]\ncycles = 100000\n[openings]\nper_pairing = 10000", "",
       "the schedule has 2000000000 games; an event holds at most 1000000"},
      {"games = [\"awale\"]\ncycles = 0", "", "'cycles' must be from 1 to"},
      {"games = [\"awale\"]\nconcurrency = -2", "", "'concurrency' must be from 0 to 256"},
      {"games = [\"awale\"]\n[openings]\nbook = \"/etc/passwd\"", "", "/etc/passwd:1: move 1 '"},
      {"games = [\"awale\"]\n[openings]\nrandom_plies = 500", "",
       "random_plies 500 is too many for awale:"},
      {"games = [\"awale\", \"awale:first=1\"]", "", "are the same game"},
      {"games = [\"awale\"]", "[[engine]]\nname = \"m\\u0001\"\ncommand = \"x\"\n",
       "engine 'm\\x01': control character in the name"},
      {"games = [\"awale\"]", "[[engine]]\nname = \"m\\nx\"\ncommand = \"x\"\n",
       "engine 'm\\nx': line break in the name"},
      {"games = [\"awale\"]\ntc = \"99999999999999999999\"", "", "at most 1000000 s"},
  };
  for (const auto& f : files) {
    auto r = referee_cmd({"tournament", file_with(f.head, f.tail), "-q"});
    INFO(f.piece);
    CHECK(r.status == 1);
    one_error_line(r, f.piece);
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(db));
  }
  auto concurrency = referee_cmd({"tournament", file_with("games = [\"awale\"]"), "-c", "-1"});
  CHECK(concurrency.status == 2);
  one_error_line(concurrency, "--concurrency must be from 0 to 256, not -1");
  CHECK_FALSE(std::filesystem::exists(db));

  // The match command: run where its default database would go.
  const std::vector<std::string> two = {"--engine", "a=" + rtest::kMock, "--engine",
                                        "b=" + rtest::kMock};
  struct MatchCase {
    std::vector<std::string> flags;
    std::string piece;
  };
  const std::vector<MatchCase> matches = {
      {{"--cycles", "0"}, "cycles must be from 1 to 1000000, not 0"},
      {{"--cycles", "-1"}, "cycles must be from 1 to 1000000, not -1"},
      {{"--cycles", "1000000000"}, "cycles must be from 1 to 1000000, not 1000000000"},
      {{"--cycles", "600000"}, "the schedule has 1200000 games; an event holds at most 1000000"},
      {{"--cycles", "99999999999999"}, "'--cycles' is invalid"},
      {{"--concurrency", "-1"}, "concurrency must be from 0 to 256, not -1"},
      {{"--random-plies", "500"}, "random_plies 500 is too many for awale:"},
      {{"--random-plies", "-1"}, "random_plies must be from 0 to 1000, not -1"},
      {{"--game", "awale", "--game", "awale:grandslam=nocapture"}, "are the same game"},
      {{"--game", "chess"}, "chess"},
      {{"--tc", "99999999999999999999"}, "at most 1000000 s"},
      {{"--tc", "10\n"}, "bad time control '10\\n'"},
      {{"--book", "/etc/passwd"}, "/etc/passwd:1: move 1 '"},
      {{"--engine", "a=x"}, "two engines are named 'a'"},
      {{"--engine", "c\td=x"}, "engine 'c\\td': control character in the name"},
      {{"--engine", " c=x"}, "engine ' c': the name starts or ends with a blank"},
  };
  for (const auto& m : matches) {
    std::vector<std::string> args = {"match"};
    args.insert(args.end(), two.begin(), two.end());
    args.insert(args.end(), m.flags.begin(), m.flags.end());
    auto r = referee_cmd(args, dir.path());
    INFO(m.piece);
    CHECK(r.status == 2);
    one_error_line(r, m.piece);
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(dir.file("referee.db")));
  }
}

namespace {

// A program started in the background, stdin from /dev/null, output into files of `dir`.
struct Background {
  pid_t pid = -1;
  std::string out_path, err_path;
};

Background start_referee(const std::vector<std::string>& args, const rtest::TempDir& dir,
                         const std::string& tag) {
  Background b;
  b.out_path = dir.file(tag + ".out");
  b.err_path = dir.file(tag + ".err");
  std::vector<std::string> text = {REFEREE_BIN};
  text.insert(text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : text) argv.push_back(a.data());
  argv.push_back(nullptr);
  b.pid = ::fork();
  if (b.pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(b.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(b.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(REFEREE_BIN, argv.data());
    ::_exit(127);
  }
  return b;
}

rtest::RunResult wait_for(const Background& b) {
  rtest::RunResult r;
  int status = 0;
  if (::waitpid(b.pid, &status, 0) != b.pid) return r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = rtest::read_text(b.out_path);
  r.err = rtest::read_text(b.err_path);
  return r;
}

// "N played now" of a summary line.
long played_now(const std::string& out) {
  auto at = out.find(" played now");
  if (at == std::string::npos) return -1;
  auto start = out.rfind(' ', at - 1);
  return std::stol(out.substr(start + 1, at - start - 1));
}

// A file of `engines` mock engines, `cycles` cycles of awale:maxplies=`plies`.
std::string event_file(const rtest::TempDir& dir, int engines, int cycles, int plies,
                       const std::string& engine_args = "") {
  const std::string path = dir.file("shared.toml");
  std::string text = "name = \"shared\"\ndatabase = \"" + dir.file("shared.db") +
                     "\"\ngames = [\"awale:maxplies=" + std::to_string(plies) +
                     "\"]\ntc = \"10+0.1\"\ncycles = " + std::to_string(cycles) +
                     "\nconcurrency = 1\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < engines; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + rtest::kMock +
            "\"\n" + engine_args;
  rtest::write_text(path, text);
  return path;
}

// Every slot of the event finished exactly once; nothing else rated; the file verifies.
void check_exactly_once(const std::string& db, std::size_t scheduled) {
  SQLite::Database sql(db, SQLite::OPEN_READONLY);
  CHECK(sql.execAndGet("SELECT count(*) FROM slots").getInt64() ==
        static_cast<std::int64_t>(scheduled));
  CHECK(sql.execAndGet("SELECT count(*) FROM slots WHERE state = 'done'").getInt64() ==
        static_cast<std::int64_t>(scheduled));
  CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE status = 'finished'").getInt64() ==
        static_cast<std::int64_t>(scheduled));
  CHECK(sql.execAndGet("SELECT count(DISTINCT slot) FROM games WHERE status = 'finished'")
            .getInt64() == static_cast<std::int64_t>(scheduled));
  CHECK(sql.execAndGet("SELECT count(*) FROM slots s JOIN games g ON g.id = s.game_id WHERE "
                       "g.slot = s.slot AND g.status = 'finished'")
            .getInt64() == static_cast<std::int64_t>(scheduled));
  auto verify = referee_cmd({"verify", "--db", db});
  CHECK(verify.status == 0);
  CHECK(contains(verify.out, "integrity: ok\n"));
}

}  // namespace

TEST_CASE("cli: two and four tournament processes at once finish exactly the schedule") {
  for (int processes : {2, 4}) {
    INFO(processes << " processes");
    rtest::TempDir dir;
    const auto file = event_file(dir, 4, 2, 20);  // 6 pairings x 2 seatings x 2 cycles = 24
    std::vector<Background> runs;
    for (int p = 0; p < processes; ++p)
      runs.push_back(start_referee({"tournament", file, "-q"}, dir, "run" + std::to_string(p)));
    long played = 0;
    for (const auto& b : runs) {
      auto r = wait_for(b);
      INFO(r.out << r.err);
      CHECK(r.status == 0);
      CHECK(r.err.empty());
      CHECK(contains(r.out, "games: 24 scheduled, "));
      CHECK(contains(r.out, " 0 not played\n"));
      played += played_now(r.out);
    }
    CHECK(played == 24);
    check_exactly_once(dir.file("shared.db"), 24);
    auto ratings = referee_cmd({"ratings", "--db", dir.file("shared.db")});
    CHECK(contains(ratings.out,
                   "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=20 (24 games, "));
  }
}

TEST_CASE("cli: a process killed mid-event leaves claims that expire, the next run plays them") {
  rtest::TempDir dir;
  const auto file = event_file(dir, 2, 4, 10, "args = [\"--slow-ms=20\"]\n");  // 8 games
  const std::string db = dir.file("shared.db");
  auto victim = start_referee({"tournament", file, "-q", "--lease", "1"}, dir, "victim");
  // Wait for a finished game and another one under way, then SIGKILL.
  bool ready = false;
  for (int i = 0; i < 1000 && !ready; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    try {
      SQLite::Database sql(db, SQLite::OPEN_READONLY);
      ready =
          sql.execAndGet("SELECT count(*) FROM games WHERE status = 'finished'").getInt() >= 1 &&
          sql.execAndGet(
                 "SELECT count(*) FROM games g JOIN moves m ON m.game_id = g.id "
                 "WHERE g.status = 'running'")
                  .getInt() >= 3;
    } catch (const std::exception&) {
    }
  }
  REQUIRE(ready);
  ::kill(victim.pid, SIGKILL);
  auto killed = wait_for(victim);
  CHECK(killed.status == 128 + SIGKILL);
  auto next = referee_cmd({"tournament", file, "-q", "--lease", "1"});
  INFO(next.out << next.err);
  CHECK(next.status == 0);
  CHECK(contains(next.out, " 0 not played\n"));
  check_exactly_once(db, 8);
  SQLite::Database sql(db, SQLite::OPEN_READONLY);
  // The half-played game of the killed process is kept, as interrupted.
  CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE status = 'unfinished' AND termination = "
                       "'interrupted' AND reason LIKE '%stopped renewing the claim%'")
            .getInt() == 1);
  CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE status = 'running'").getInt() == 0);
}

namespace {

// Runs the referee unable to write: as user nobody when the tests run as root (root writes
// through any permission), else as this user (the permissions are enough).
rtest::RunResult referee_unprivileged(const std::vector<std::string>& args) {
  rtest::TempDir scratch;
  ::chmod(scratch.path().c_str(), 0777);
  const std::string out_path = scratch.file("out"), err_path = scratch.file("err");
  std::vector<std::string> text = {REFEREE_BIN};
  text.insert(text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(125);
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (in < 0 || out < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(REFEREE_BIN, argv.data());
    ::_exit(127);
  }
  rtest::RunResult r;
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = rtest::read_text(out_path);
  r.err = rtest::read_text(err_path);
  return r;
}

// Every file of a directory with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out[e.path().filename().string()] = rtest::read_text(e.path().string());
  return out;
}

}  // namespace

TEST_CASE("cli: ratings, export and verify read a read-only file in a read-only directory") {
  for (const bool with_wal : {false, true}) {
    INFO((with_wal ? "with a write-ahead log" : "a clean file"));
    rtest::TempDir dir;
    ::chmod(dir.path().c_str(), 0755);
    const std::string ro = dir.file("ro");
    std::filesystem::create_directory(ro);
    const std::string db = ro + "/t.db";
    const auto file = tournament_file(dir);
    REQUIRE(referee_cmd({"tournament", file, "-q", "--db", db}).status == 0);
    if (with_wal) {
      // A committed change left in the write-ahead log (no checkpoint when the connection closes).
      SQLite::Database sql(db, SQLite::OPEN_READWRITE);
      sqlite3_db_config(sql.getHandle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
      sql.exec("PRAGMA wal_autocheckpoint = 0");
      sql.exec("UPDATE events SET name = 'renamed in the log'");
    }
    CHECK(std::filesystem::exists(db + "-wal") == with_wal);
    for (const auto& e : std::filesystem::directory_iterator(ro)) ::chmod(e.path().c_str(), 0444);
    ::chmod(ro.c_str(), 0555);
    const auto before = snapshot(ro);

    auto ratings = referee_unprivileged({"ratings", "--db", db});
    INFO(ratings.err);
    CHECK(ratings.status == 0);
    CHECK(contains(ratings.out,
                   "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=12 (2 games, "));
    auto pgn = referee_unprivileged({"export", "--format", "pgn", "--db", db});
    CHECK(pgn.status == 0);
    CHECK(contains(pgn.out, with_wal ? "[Event \"renamed in the log\"]" : "[Event \"cli event\"]"));
    auto csv = referee_unprivileged({"export", "--format", "csv", "--db", db});
    CHECK(csv.status == 0);
    CHECK(rtest::lines_of(csv.out).size() == 3);
    auto verify = referee_unprivileged({"verify", "--db", db});
    CHECK(verify.status == 0);
    CHECK(verify.out == "integrity: ok\n2 games replayed, 0 mismatches\n");
    auto missing = referee_unprivileged({"ratings", "--db", ro + "/none.db"});
    CHECK(missing.status == 1);
    one_error_line(missing, "no database '" + ro + "/none.db'");
    // A command that writes is refused with one line, the file untouched.
    auto write = referee_unprivileged({"tournament", file, "-q", "--db", db});
    CHECK(write.status == 1);
    CHECK(rtest::lines_of(write.err).size() == 1);
    CHECK(snapshot(ro) == before);  // nothing created, nothing changed
    if (with_wal) {
      ::chmod(ro.c_str(), 0755);
      std::filesystem::remove(db + "-shm");
      ::chmod(ro.c_str(), 0555);
      auto no_shm = referee_unprivileged({"ratings", "--db", db});
      CHECK(no_shm.status == 1);
      one_error_line(no_shm, "cannot be read without its -shm file in a read-only directory");
    }
    ::chmod(ro.c_str(), 0755);
  }
}

TEST_CASE("cli: reading a WAL database in a writable directory changes nothing in the file") {
  // What stored_games.h and store.h promise: the database file keeps its bytes; SQLite's reader
  // creates the side files of a WAL database (an empty -wal and the -shm) and cannot remove them;
  // the next read-write connection's close does.
  rtest::TempDir dir;
  const auto file = tournament_file(dir);
  REQUIRE(referee_cmd({"tournament", file, "-q"}).status == 0);
  const std::string db = dir.file("t.db");
  REQUIRE_FALSE(std::filesystem::exists(db + "-wal"));  // the writer's close removed its side files
  REQUIRE_FALSE(std::filesystem::exists(db + "-shm"));
  const std::string bytes = rtest::read_text(db);
  const auto modified = std::filesystem::last_write_time(db);
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"ratings", "--db", db},
                                             {"crosstable", "--db", db},
                                             {"export", "--format", "jsonl", "--db", db},
                                             {"verify", "--db", db}}) {
    INFO(args[0]);
    auto r = referee_cmd(args);
    CHECK(r.status == 0);
    CHECK(rtest::read_text(db) == bytes);
    CHECK(std::filesystem::last_write_time(db) == modified);
    CHECK(std::filesystem::exists(db + "-shm"));
    CHECK(std::filesystem::exists(db + "-wal"));
    CHECK(std::filesystem::file_size(db + "-wal") == 0);
  }
  {
    SQLite::Database writer(db, SQLite::OPEN_READWRITE);
    CHECK(writer.execAndGet("SELECT count(*) FROM games").getInt() == 2);
  }
  CHECK_FALSE(std::filesystem::exists(db + "-wal"));
  CHECK_FALSE(std::filesystem::exists(db + "-shm"));
  CHECK(rtest::read_text(db) == bytes);
}

TEST_CASE("cli: commands that only read never create a database") {
  rtest::TempDir dir;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"ratings", "--db", dir.file("a.db")},
           {"export", "--format", "csv", "--db", dir.file("a.db")},
           {"verify", "--db", dir.file("a.db")}}) {
    auto r = referee_cmd(args);
    CHECK(r.status == 1);
    one_error_line(r, "no database '" + dir.file("a.db") + "'");
  }
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("cli: a database damaged in the middle is refused before any write, verify says so") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir);
  const std::string db = dir.file("t.db");
  REQUIRE(referee_cmd({"tournament", file, "-q"}).status == 0);
  // More games, so that the file has pages in the middle to damage.
  for (int i = 0; i < 3; ++i) {
    std::string text = rtest::read_text(file);
    text.replace(text.find("\"cli event\""), 11,
                 "\"cli event " + std::to_string(i) + "\"\ncycles = 4");
    const std::string more = dir.file("more.toml");
    rtest::write_text(more, text);
    REQUIRE(referee_cmd({"tournament", more, "-q"}).status == 0);
  }
  std::string bytes = rtest::read_text(db);
  const std::size_t page = 4096, pages = bytes.size() / page;
  REQUIRE(pages > 24);
  // 16 pages in the middle overwritten with random bytes.
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t p = pages / 2 - 8; p < pages / 2 + 8; ++p)
    for (std::size_t i = 0; i < page; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      bytes[p * page + i] = static_cast<char>(x & 0xFF);
    }
  rtest::write_text(db, bytes);
  auto run = referee_cmd({"tournament", file, "-q"});
  CHECK(run.status == 1);
  one_error_line(run, db + " is corrupt (");
  CHECK(contains(run.err, "nothing was written to it"));
  CHECK(rtest::read_text(db) == bytes);
  auto verify = referee_cmd({"verify", "--db", db});
  INFO(verify.out << verify.err);
  CHECK(verify.status == 1);
  CHECK(rtest::read_text(db) == bytes);
  CHECK((contains(verify.out, "integrity: ") || contains(verify.err, "corrupt")));
  CHECK_FALSE(contains(verify.out, "integrity: ok"));
}

TEST_CASE("cli: a game an engine does not declare: status 3, decided once, never stored") {
  rtest::TempDir dir;
  const std::string path = dir.file("oware.toml");
  rtest::write_text(path, "name = \"undeclared\"\ndatabase = \"" + dir.file("u.db") +
                              "\"\ngames = [\"awale:maxplies=6\", \"oware\"]\ntc = \"10+0\"\n"
                              "concurrency = 1\n[[engine]]\nname = \"m\"\ncommand = \"" +
                              rtest::kMock + "\"\n[[engine]]\nname = \"py\"\ncommand = \"" +
                              SOURCE_DIR + "/examples/engines/random_engine.py\"\n");
  for (int run = 0; run < 2; ++run) {
    auto r = referee_cmd({"tournament", path});
    INFO(r.out << r.err);
    CHECK(r.status == 3);
    CHECK(contains(r.out, "not played: 2 games: engine 'py' does not declare oware\n"));
    if (run == 0) {
      // The progress says how many games were skipped and why, and counts them as settled.
      CHECK(contains(r.err, "\nskipped 2 games: engine 'py' does not declare oware\n"));
      CHECK(contains(r.err, "  [1/4] 75%  skipped 2  "));
      CHECK(contains(r.err, "  [2/4] 100%  skipped 2  "));
    }
    CHECK(contains(r.err, "referee: 2 of 4 games not played"));
    SQLite::Database sql(dir.file("u.db"), SQLite::OPEN_READONLY);
    CHECK(sql.execAndGet("SELECT count(*) FROM games").getInt() == 2);  // the awale games only
    CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE game LIKE 'oware%'").getInt() == 0);
    CHECK(sql.execAndGet("SELECT count(*) FROM slots WHERE state = 'skipped'").getInt() == 2);
  }
}

namespace {

// A small tmpfs for a real full disk; unmounted when done. Needs root and mount rights.
class SmallDisk {
 public:
  explicit SmallDisk(const std::string& dir) : dir_(dir) {
    mounted_ =
        ::geteuid() == 0 &&
        std::system(("mount -t tmpfs -o size=512k tmpfs '" + dir + "' 2>/dev/null").c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) [[maybe_unused]]
      int r = std::system(("umount '" + dir_ + "'").c_str());
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  bool mounted() const { return mounted_; }
  bool grow() { return std::system(("mount -o remount,size=64m '" + dir_ + "'").c_str()) == 0; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

}  // namespace

// About 30 s: 200 games, so that the disk fills in the middle of the event (file header).
TEST_CASE("cli: a full disk stops the event: one line, status 1, the next run completes it") {
  rtest::TempDir dir;
  const std::string disk = dir.file("disk");
  std::filesystem::create_directory(disk);
  SmallDisk small(disk);
  if (!small.mounted()) {
    WARN("no rights to mount a small tmpfs here: the in-process full-disk test covers this");
    return;
  }
  const std::string db = disk + "/t.db";
  const auto file = tournament_file(dir, "", rtest::kMock);
  std::string text = rtest::read_text(file);
  text.replace(text.find("\"cli event\""), 11, "\"cli event\"\ncycles = 100");  // 200 games
  rtest::write_text(file, text);
  // No headroom: the disk is a few MiB (the default keeps 256 MiB free and would start nothing).
  auto full = referee_cmd({"tournament", file, "-q", "--db", db, "--min-free-mb", "0"});
  INFO(full.out << full.err);
  CHECK(full.status == 1);
  auto err = rtest::lines_of(full.err);
  REQUIRE(err.size() == 1);
  CHECK(contains(err[0], "referee: storage failure, the event stopped ("));
  CHECK(contains(err[0], db));
  long numbers[4] = {-1, -1, -1, -1};
  REQUIRE(std::sscanf(full.out.substr(full.out.find("games: ")).c_str(),
                      "games: %ld scheduled, %ld done before, %ld played now, %ld not played",
                      &numbers[0], &numbers[1], &numbers[2], &numbers[3]) == 4);
  CHECK(numbers[0] == 200);
  CHECK(numbers[2] < 200);
  CHECK(numbers[1] + numbers[2] + numbers[3] == 200);
  {
    SQLite::Database sql(db, SQLite::OPEN_READONLY);
    CHECK(sql.execAndGet("SELECT count(*) FROM games WHERE status = 'finished'").getInt() ==
          numbers[2]);
  }
  REQUIRE(small.grow());
  auto again = referee_cmd({"tournament", file, "-q", "--db", db, "--min-free-mb", "0"});
  INFO(again.out << again.err);
  CHECK(again.status == 0);
  CHECK(contains(again.out, "games: 200 scheduled, " + std::to_string(numbers[2]) +
                                " done before, " + std::to_string(200 - numbers[2]) +
                                " played now, 0 not played"));
  check_exactly_once(db, 200);
}
