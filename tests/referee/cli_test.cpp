// The `referee` command, run as a program: exit statuses, the one error line on stderr, and the
// output of the rules commands (games, rules, moves, perft, show), of tournament and match runs,
// and of ratings, export and verify on a database with games; damaged, foreign-version and
// unwritable databases.
#include <SQLiteCpp/Database.h>

#include <signal.h>

#include <catch2/catch.hpp>
#include <thread>

#include "games/game.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

rtest::RunResult referee_cmd(const std::vector<std::string>& args, const std::string& cwd = "") {
  rtest::TempDir scratch;
  return rtest::run_program(REFEREE_BIN, args, scratch, cwd);
}

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
  CHECK(verify.out == "2 games replayed, 0 mismatches\n");

  // A tampered move is found by verify.
  {
    SQLite::Database sql(db, SQLite::OPEN_READWRITE);
    sql.exec("UPDATE moves SET move = '12' WHERE ply = 3");
  }
  auto tampered = referee_cmd({"verify", "--db", db});
  CHECK(tampered.status == 1);
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

TEST_CASE("cli: a tournament with a missing engine binary scores nothing and says why") {
  rtest::TempDir dir;
  const auto file = tournament_file(dir, "", dir.file("no-such-engine"));
  auto r = referee_cmd({"tournament", file, "-q"});
  INFO(r.out << r.err);
  // The event itself ran: status 0; the games that could not be played are counted and explained.
  CHECK(r.status == 0);
  CHECK(contains(r.out, "0 played now, 2 not played"));
  one_error_line(r, "notice: engine 'm1': cannot start engine '" + dir.file("no-such-engine"));
  auto verify = referee_cmd({"verify", "--db", dir.file("t.db")});
  CHECK(verify.status == 0);
  CHECK(verify.out == "2 games replayed, 0 mismatches\n");  // unfinished, not scored
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
    sql.exec("UPDATE schema_version SET version = 7");
  }
  const std::string before = rtest::read_text(db);
  auto r = referee_cmd({"verify", "--db", db});
  CHECK(r.status == 1);
  one_error_line(r, db + " has schema version 7; this referee reads up to " +
                        std::to_string(referee::storage::kSchemaVersion));
  auto t = referee_cmd({"tournament", tournament_file(dir), "-q", "--db", db});
  CHECK(t.status == 1);
  one_error_line(t, "schema version 7");
  CHECK(rtest::read_text(db) == before);
}

TEST_CASE("cli: Ctrl-C ends a tournament cleanly; the same command resumes it") {
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
  CHECK(contains(rtest::read_text(out_path), "interrupted: run the same command again"));

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
