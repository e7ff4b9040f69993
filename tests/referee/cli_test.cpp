// The `referee` command, run as a program: exit statuses, the one error line on stderr, and the
// output of the rules commands (games, rules, moves, perft, show), of tournament and match runs,
// and of ratings, export and verify on a database with games; damaged, foreign-version and
// unwritable databases.
#include <SQLiteCpp/Database.h>

#include <signal.h>

#include <catch2/catch.hpp>
#include <thread>

#include "games/game.h"
#include "referee_version.h"
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

std::string legal_moves_line(const std::string& spec, const std::vector<std::string>& moves) {
  auto game = referee::games::make_game(spec);
  auto state = referee::games::state_after(*game, "", moves);
  std::string out;
  for (const auto& m : state->legal_moves()) out += (out.empty() ? "" : " ") + m;
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

TEST_CASE("cli: moves, show, games, rules") {
  auto start = referee_cmd({"moves", "awale"});
  CHECK(start.status == 0);
  CHECK(start.out == "1 2 3 4 5 6\n");
  auto after = referee_cmd({"moves", "awale", "--moves", "3"});
  CHECK(after.status == 0);
  CHECK(after.out == legal_moves_line("awale", {"3"}));
  auto bad = referee_cmd({"moves", "awale", "--moves", "8"});
  CHECK(bad.status == 1);
  one_error_line(bad, "8");

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

// ---- --help, --version and match's defaults ----

TEST_CASE("cli: --version, for the program and for every command") {
  const std::string line = std::string("referee ") + referee::kVersion + "\n";
  auto top = referee_cmd({"--version"});
  CHECK(top.status == 0);
  CHECK(top.out == line);
  CHECK(top.err.empty());
  // The version comes from CMake's project(): digits and dots.
  CHECK(std::string(referee::kVersion).find_first_not_of("0123456789.") == std::string::npos);
  CHECK(std::string(referee::kVersion).find('.') != std::string::npos);
  for (const char* c : {"games", "rules", "moves", "perft", "show", "tournament", "match",
                        "ratings", "export", "verify", "check-engine", "bench", "play"}) {
    auto r = referee_cmd({c, "--version"});
    INFO(c << ": " << r.err);
    CHECK(r.status == 0);
    CHECK(r.out == line);
  }
}

TEST_CASE("cli: every command's --help has the same shape") {
  for (const char* c : {"games", "rules", "moves", "perft", "show", "tournament", "match",
                        "ratings", "export", "verify", "check-engine", "bench", "play"}) {
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
    for (auto it = options + 1; it != lines.end(); ++it) {
      CHECK(it->size() <= 80);
      CHECK(it->rfind("  ", 0) == 0);
      CHECK_FALSE(contains(*it, "--file"));  // positional arguments are not options
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
        "  --book FILE                 opening book: one opening per line (README.md); \n"
        "                              random plies follow it\n"
        "  --seed N (=1)               seed of the openings\n"
        "  --db FILE (=referee.db)     database file\n"
        "  --name NAME                 event name, the resume key (default: 'match', the\n"
        "                              engines and the games)\n"
        "  -q [ --quiet ]              no progress line\n");
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
