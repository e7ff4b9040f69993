// `referee play` (play.h): the whole screen, byte for byte, for given keyboard input.
//
// Transcripts in transcripts/NAME.in (what is typed) and NAME.out (the screen) were checked line by
// line against the rules (rules.md §2 awale) from the start position P0 below:
//   P0 = SUD 1,0,1,0,0,3 / NORD (7..12) 0,1,2,2,1,0, captured SUD 13, NORD 24, SUD to move.
//   SUD 3: one seed into 4 (own row): captures 0.  NORD 11: one seed into 12 (own row): 0.
//   SUD 6: 3 seeds into 7 (0→1), 8 (1→2), 9 (2→3); 9 holds 3 → taken, before it 8 (2) taken, 7 (1)
//     stops; awale also takes after it 10 (2), 11 (0) stops: 3+2+2 = 7 (awale-v1: 3+2 = 5, 10 keeps
//     2). North keeps 2 (awale) or 4 (v1) seeds: no grand slam. SUD 13+7 = 20 (v1 18).
//   NORD 12: one seed into 1 (1→2), South's row → taken (nothing before hole 1; 2 holds 0): 2,
//   South
//     keeps 1 in hole 4: NORD 26 ≥ 25, the game is over; remainder to owners: SUD 20+1 = 21,
//     NORD 26+1 (hole 7) = 27 (v1: SUD 18+1 = 19, NORD 26+1+2 = 29). NORD wins.
// The final board shows the counted situation: rows emptied, scores 27/21 (29/19).
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "match/play.h"

using namespace referee;
using namespace referee::match;

namespace {

const std::string kP0 = "1,0,1,0,0,3/0,1,2,2,1,0:13,24:1:0:0";
// NORD to move with a single legal move, 12 (into hole 1, 1→2: takes 2 → 26, game over).
const std::string kOneMove = "1,0,0,1,0,0/0,0,0,0,0,1:21,24:2:0:0";

std::string slurp(const std::string& name) {
  std::ifstream f(std::string(SOURCE_DIR) + "/tests/referee/transcripts/" + name, std::ios::binary);
  REQUIRE(f.good());
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

games::Game game_of(const std::string& spec) {
  auto g = games::make_game(spec);
  REQUIRE(g.ok());
  return *g;
}

PlaySetup people(const std::string& spec, const std::string& position = "") {
  auto g = game_of(spec);
  PlaySetup s{g, position, {}, {}, nullptr, nullptr};
  s.seats.assign(static_cast<std::size_t>(g.num_players()), PlaySeat{});
  return s;
}

struct Run {
  PlayResult result;
  std::string screen;
};

Run run(const PlaySetup& setup, const std::string& typed) {
  std::istringstream in(typed);
  std::ostringstream out;
  Run r;
  r.result = play_console(setup, in, out);
  r.screen = out.str();
  return r;
}

// The screen must be transcripts/NAME.out byte for byte.
void check_transcript(const std::string& name, const Run& r) {
  INFO("transcript " << name);
  CHECK(r.screen == slurp(name + ".out"));
}

games::State state_of(const std::string& spec, const std::vector<std::string>& moves,
                      const std::string& position = "") {
  auto s = games::state_after(game_of(spec), position, moves);
  REQUIRE(s.ok());
  return *s;
}

struct TempDb {
  std::string path;
  TempDb() {
    path = (std::filesystem::temp_directory_path() /
            ("play_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++) + ".db"))
               .string();
  }
  ~TempDb() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

EngineSession start_engine(const std::string& command, const std::vector<std::string>& args = {}) {
  engines::SpawnSpec spec;
  spec.command = command;
  spec.args = args;
  auto s = EngineSession::start(spec, SessionSettings{});
  REQUIRE(s.ok());
  return std::move(*s);
}

}  // namespace

TEST_CASE("play: a full short game of awale, the seed's screen exactly", "[play]") {
  auto setup = people("awale", kP0);
  auto r = run(setup, slurp("awale_game.in"));
  check_transcript("awale_game", r);
  CHECK(r.result.finished);
  CHECK(r.result.termination == "rules");
  CHECK(r.result.ranks == std::vector<int>{2, 1});
  CHECK(r.result.scores == std::vector<double>{21, 27});
  CHECK(r.result.moves == std::vector<std::string>{"3", "11", "6", "12"});
  CHECK(r.result.game_id == 0);
}

TEST_CASE("play: a full short game of awale-v1 captures before the last hole only", "[play]") {
  auto setup = people("awale-v1", kP0);
  auto r = run(setup, slurp("awale_v1_game.in"));
  check_transcript("awale_v1_game", r);
  CHECK(r.result.finished);
  CHECK(r.result.ranks == std::vector<int>{2, 1});
  CHECK(r.result.scores == std::vector<double>{19, 29});
  // The only differences from awale: 5 seeds taken, not 7; hole 10 keeps 2; the title.
  CHECK(r.screen.find("SUD a ramassé 5 bille(s).\n") != std::string::npos);
  CHECK(r.screen.find("NORD [ 1] [ 0] [ 2] [ 0] [ 0] [ 1]\n") != std::string::npos);
  CHECK(r.screen.substr(r.screen.size() - 44) == "NORD gagne la partie d'Awalé (variante 1).\n");
}

TEST_CASE("play: every invalid entry is refused and the same player types again", "[play]") {
  // abc, empty, 13 (out of range), -1, 7 (NORD's hole), 2 (empty hole), 1.5, "05x": each prints
  // "A SUD de jouer." again and nothing else; "?" lists SUD's legal holes; " 3 " is accepted.
  auto setup = people("awale", kP0);
  auto r = run(setup, slurp("awale_invalid.in"));
  check_transcript("awale_invalid", r);
  CHECK(r.result.moves == std::vector<std::string>{"3"});
  // Then the input ends: the game is left unfinished.
  CHECK_FALSE(r.result.finished);
  CHECK(r.result.termination == "interrupted");
}

TEST_CASE("play: each invalid entry on its own leaves the position unchanged", "[play]") {
  const std::string board = state_of("awale", {}, kP0).draw(games::BoardWords::Seed);
  for (const std::string entry :
       {"x", "", "13", "99", "-1", "+3", "7", "12", "2", "4", "3.0", "100", "3 6", "0x"}) {
    INFO("entry '" << entry << "'");
    auto r = run(people("awale", kP0), entry + "\n");
    CHECK(r.screen == board + "A SUD de jouer.\nA SUD de jouer.\n");
    CHECK(r.result.moves.empty());
    CHECK(r.result.termination == "interrupted");
  }
  // A number with a leading zero is still that hole.
  auto r = run(people("awale", kP0), "03\n");
  CHECK(r.result.moves == std::vector<std::string>{"3"});
}

TEST_CASE("play: feeding is enforced on the seed's screen", "[play]") {
  // NORD's row is empty: SUD must play a move that reaches it. Hole 1 (1 seed into 2) does not and
  // is refused; hole 6 (1 seed into 7, which held 0: no capture) does.
  const std::string feeding = "1,0,0,0,0,1/0,0,0,0,0,0:22,24:1:0:0";
  auto r = run(people("awale", feeding), "1\n6\n");
  CHECK(r.result.moves == std::vector<std::string>{"6"});
  CHECK(r.screen ==
        "      12   11   10    9    8    7\n"
        "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
        "SUD  [ 1] [ 0] [ 0] [ 0] [ 0] [ 1]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 24 bille(s).\n"
        "SUD a 22 bille(s).\n"
        "A SUD de jouer.\n"
        "A SUD de jouer.\n"
        "SUD a ramassé 0 bille(s).\n"
        "      12   11   10    9    8    7\n"
        "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 1]\n"
        "SUD  [ 1] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 24 bille(s).\n"
        "SUD a 22 bille(s).\n"
        "A NORD de jouer.\n");
}

TEST_CASE("play: 0 ends awale by agreement, the remainder to each row's owner", "[play]") {
  auto setup = people("awale");
  auto r = run(setup, slurp("awale_agree.in"));
  check_transcript("awale_agree", r);
  CHECK(r.result.finished);
  CHECK(r.result.termination == "agreement");
  CHECK(r.result.ranks == std::vector<int>{1, 1});
  CHECK(r.result.scores == std::vector<double>{24, 24});
  CHECK(r.result.moves.empty());

  // Later in a game: SUD 13 + 5 left in his row, NORD 24 + 6.
  auto later = run(people("awale", kP0), "0\n");
  const std::string expected_end =
      "      12   11   10    9    8    7\n"
      "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
      "SUD  [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
      "       1    2    3    4    5    6\n"
      "NORD a 30 bille(s).\n"
      "SUD a 18 bille(s).\n"
      "NORD gagne la partie d'Awalé.\n";
  CHECK(later.screen == state_of("awale", {}, kP0).draw(games::BoardWords::Seed) +
                            "A SUD de jouer.\n" + expected_end);
  CHECK(later.result.scores == std::vector<double>{18, 30});
}

TEST_CASE("play: 0 is refused where the game has no agreed end", "[play]") {
  auto setup = people("felli");
  auto r = run(setup, "0\n");
  CHECK(r.screen == state_of("felli", {}).draw(games::BoardWords::English) + "player 1 to move\n" +
                        "cannot end here: this game has no agreed end\n" +
                        "input ended: the game is left unfinished\n");
  CHECK_FALSE(r.result.finished);
  CHECK(r.result.termination == "interrupted");
}

TEST_CASE("play: other games use referee show's drawing and canonical moves", "[play]") {
  // kalaha: ? lists the moves, 9 is refused with the rules' reason, 3 is played (6 seeds into
  // 4, 5, 6, S1, 7, 8: the last in 8, NORD moves), and NORD ends by agreement: SUD 1 + 6+6+0+7+7+7
  // = 34, NORD 0 + 7+7+6+6+6+6 = 38.
  auto r = run(people("kalaha"), "?\n9\n3\n0\n");
  CHECK(r.screen ==
        state_of("kalaha", {}).draw(games::BoardWords::English) + "player 1 to move\n" +
            "legal moves: 1 2 3 4 5 6\n" + "illegal move '9' (? lists the legal moves)\n" +
            "player 1 plays 3\n" + state_of("kalaha", {"3"}).draw(games::BoardWords::English) +
            "player 2 to move\n" + "game over (agreement): player 2 wins, scores 34 38\n");
  CHECK(r.result.termination == "agreement");
  CHECK(r.result.ranks == std::vector<int>{2, 1});
  CHECK(r.result.scores == std::vector<double>{34, 38});
  CHECK(r.result.moves == std::vector<std::string>{"3"});
}

TEST_CASE("play: setups are typed as the setup move, forced moves are played and shown", "[play]") {
  // lontu-holo: SUD places his 24 seeds; NORD's mirrored setup is forced.
  const std::string form = state_of("lontu-holo", {}).setup_form();
  REQUIRE_FALSE(form.empty());
  auto r = run(people("lontu-holo"), "moves\n=4,4,4,4,4,5\n=4,4,4,4,4,4\n");
  CHECK(r.screen == state_of("lontu-holo", {}).draw(games::BoardWords::English) +
                        "player 1 to move: setup " + form + "\n" + "setup: " + form + "\n" +
                        "illegal move '=4,4,4,4,4,5' (? lists the legal moves)\n" +
                        "player 1 plays =4,4,4,4,4,4\n" +
                        state_of("lontu-holo", {"=4,4,4,4,4,4"}).draw(games::BoardWords::English) +
                        "player 2 plays =4,4,4,4,4,4 (forced)\n" +
                        state_of("lontu-holo", {"=4,4,4,4,4,4", "=4,4,4,4,4,4"})
                            .draw(games::BoardWords::English) +
                        "player 1 to move\n" + "input ended: the game is left unfinished\n");
  CHECK(r.result.moves == std::vector<std::string>{"=4,4,4,4,4,4", "=4,4,4,4,4,4"});
}

TEST_CASE("play: the seed's screen is for the two-player 2x6 games of seed 004", "[play]") {
  CHECK(seed_title(game_of("awale")) == "d'Awalé");
  CHECK(seed_title(game_of("awale-v1")) == "d'Awalé (variante 1)");
  CHECK(seed_title(game_of("wali")) == "de Wali");
  CHECK(seed_title(game_of("oware")) == "d'Oware");
  CHECK(seed_title(game_of("tamtam-apachi")) == "de Tamtam-Apachi");
  CHECK(seed_title(game_of("kakua")) == "de Kakua");
  CHECK(seed_title(game_of("owani")) == "d'Owani");
  CHECK(seed_title(game_of("oware:players=3")).empty());
  CHECK(seed_title(game_of("kalaha")).empty());      // stores: its own drawing
  CHECK(seed_title(game_of("lontu-holo")).empty());  // setups and circuits
  CHECK(seed_title(game_of("chongkak")).empty());    // 2x7
  CHECK(seed_title(game_of("felli")).empty());
}

TEST_CASE("play: wali is played from either row on the seed's screen", "[play]") {
  // From the start SUD sows NORD's hole 9 (4 seeds into 10, 11, 12, 1: the last in SUD's own row,
  // no capture), then NORD types 0: remainder to owners, SUD's row 5+4·5 = 25, NORD's row
  // 4+4+0+5+5+5 = 23.
  auto r = run(people("wali"), "9\n0\n");
  const std::string after =
      "      12   11   10    9    8    7\n"
      "NORD [ 5] [ 5] [ 5] [ 0] [ 4] [ 4]\n"
      "SUD  [ 5] [ 4] [ 4] [ 4] [ 4] [ 4]\n"
      "       1    2    3    4    5    6\n"
      "NORD a 0 bille(s).\n"
      "SUD a 0 bille(s).\n";
  const std::string end =
      "      12   11   10    9    8    7\n"
      "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
      "SUD  [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
      "       1    2    3    4    5    6\n"
      "NORD a 23 bille(s).\n"
      "SUD a 25 bille(s).\n"
      "SUD gagne la partie de Wali.\n";
  CHECK(r.screen == state_of("wali", {}).draw(games::BoardWords::Seed) +
                        "A SUD de jouer.\nSUD a ramassé 0 bille(s).\n" + after +
                        "A NORD de jouer.\n" + end);
  CHECK(r.result.ranks == std::vector<int>{1, 2});
}

TEST_CASE("play: a forced pass is played silently on the seed's screen", "[play]") {
  // tamtam-apachi, SUD 1,0,0,0,0,0, NORD's row empty. SUD 1: one seed into 2, an empty hole of his
  // own row: he takes the opposite hole 11, which is empty (0). NORD has no seed: the referee plays
  // his pass (recorded, nothing printed: the board does not change), and SUD is asked again.
  const std::string pos = "1,0,0,0,0,0/0,0,0,0,0,0:24,23:1:0:0";
  auto r = run(people("tamtam-apachi", pos), "1\n");
  CHECK(r.result.moves == std::vector<std::string>{"1", "pass"});
  CHECK(r.screen ==
        "      12   11   10    9    8    7\n"
        "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
        "SUD  [ 1] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 23 bille(s).\n"
        "SUD a 24 bille(s).\n"
        "A SUD de jouer.\n"
        "SUD a ramassé 0 bille(s).\n"
        "      12   11   10    9    8    7\n"
        "NORD [ 0] [ 0] [ 0] [ 0] [ 0] [ 0]\n"
        "SUD  [ 0] [ 1] [ 0] [ 0] [ 0] [ 0]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 23 bille(s).\n"
        "SUD a 24 bille(s).\n"
        "A SUD de jouer.\n");
}

TEST_CASE("play: an engine plays one side", "[play][engine]") {
  auto engine = start_engine(std::string(ENGINES_DIR) + "/random_engine");
  auto setup = people("awale", kOneMove);
  setup.seats[1] = PlaySeat{&engine, "random_engine"};
  setup.tc = *parse_time_control("movetime=200");
  auto r = run(setup, slurp("awale_engine.in"));
  check_transcript("awale_engine", r);
  CHECK(r.result.finished);
  CHECK(r.result.ranks == std::vector<int>{2, 1});
  CHECK(r.result.scores == std::vector<double>{22, 26});
  CHECK(r.result.moves == std::vector<std::string>{"12"});
  engine.quit();
}

TEST_CASE("play: an engine that fails forfeits, the person wins", "[play][engine]") {
  auto engine = start_engine(std::string(SUPPORT_DIR) + "/mock_engine", {"--crash-on-go"});
  auto setup = people("awale", kP0);
  setup.seats[1] = PlaySeat{&engine, "mock"};
  setup.tc = *parse_time_control("movetime=200");
  auto r = run(setup, "3\n");
  CHECK(r.screen == state_of("awale", {}, kP0).draw(games::BoardWords::Seed) + "A SUD de jouer.\n" +
                        "SUD a ramassé 0 bille(s).\n" +
                        state_of("awale", {"3"}, kP0).draw(games::BoardWords::Seed) +
                        "A NORD de jouer.\n" + "NORD perd par forfait (crash).\n" +
                        "SUD gagne la partie d'Awalé.\n");
  CHECK(r.result.finished);
  CHECK(r.result.termination == "crash");
  CHECK(r.result.ranks == std::vector<int>{1, 2});
  CHECK(r.result.moves == std::vector<std::string>{"3"});
}

TEST_CASE("play: the game is stored with its moves as played", "[play][storage]") {
  TempDb db;
  auto store = storage::Store::open(db.path);
  REQUIRE(store.ok());

  auto setup = people("awale", kP0);
  setup.store = &*store;
  auto r = run(setup, slurp("awale_game.in"));
  REQUIRE(r.result.db_error.empty());
  REQUIRE(r.result.game_id > 0);
  auto rec = store->game(r.result.game_id);
  REQUIRE(rec.ok());
  CHECK(rec->game == game_of("awale").canonical());
  CHECK(rec->start_position == kP0);
  CHECK(rec->players == std::vector<std::string>{"human", "human"});
  CHECK(rec->status == referee::storage::GameStatus::Finished);
  CHECK(rec->termination == "rules");
  CHECK(rec->ranks == std::vector<int>{2, 1});
  CHECK(rec->scores == std::vector<double>{21, 27});
  CHECK(rec->plies == 4);
  auto moves = store->moves(r.result.game_id);
  REQUIRE(moves.ok());
  REQUIRE(moves->size() == 4);
  const std::vector<std::string> expected{"3", "11", "6", "12"};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK((*moves)[i].ply == static_cast<int>(i + 1));
    CHECK((*moves)[i].player == static_cast<int>(i % 2 + 1));
    CHECK((*moves)[i].move == expected[i]);
  }
  CHECK(storage::verify_game(*rec, *moves).ok());

  // End of input: unfinished, interrupted, the moves so far kept.
  auto cut = people("awale", kP0);
  cut.store = &*store;
  auto r2 = run(cut, "3\n11\n");
  auto rec2 = store->game(r2.result.game_id);
  REQUIRE(rec2.ok());
  CHECK(rec2->status == referee::storage::GameStatus::Unfinished);
  CHECK(rec2->termination == "interrupted");
  CHECK(rec2->plies == 2);
  auto moves2 = store->moves(r2.result.game_id);
  REQUIRE(moves2.ok());
  CHECK(moves2->size() == 2);

  // An agreed end is finished, termination "agreement".
  auto agreed = people("awale");
  agreed.store = &*store;
  auto r3 = run(agreed, "0\n");
  auto rec3 = store->game(r3.result.game_id);
  REQUIRE(rec3.ok());
  CHECK(rec3->status == referee::storage::GameStatus::Finished);
  CHECK(rec3->termination == "agreement");
  CHECK(rec3->ranks == std::vector<int>{1, 1});
}

TEST_CASE("play: an engine game is stored under the engine's name", "[play][storage][engine]") {
  TempDb db;
  auto store = storage::Store::open(db.path);
  REQUIRE(store.ok());
  auto engine = start_engine(std::string(ENGINES_DIR) + "/random_engine");
  auto setup = people("awale", kOneMove);
  setup.seats[1] = PlaySeat{&engine, "random_engine"};
  setup.tc = *parse_time_control("movetime=200");
  setup.store = &*store;
  auto r = run(setup, "");
  auto rec = store->game(r.result.game_id);
  REQUIRE(rec.ok());
  CHECK(rec->players == std::vector<std::string>{"human", "random_engine"});
  CHECK(rec->time_control == "movetime=200");
  CHECK(rec->status == referee::storage::GameStatus::Finished);
  CHECK(rec->ranks == std::vector<int>{2, 1});
  auto moves = store->moves(r.result.game_id);
  REQUIRE(moves.ok());
  REQUIRE(moves->size() == 1);
  CHECK((*moves)[0].move == "12");
  CHECK((*moves)[0].player == 2);
  CHECK((*moves)[0].time_ms >= 0);
  auto logs = store->logs(r.result.game_id);
  REQUIRE(logs.ok());
  CHECK_FALSE(logs->empty());
  engine.quit();
}

TEST_CASE("play: a bad start position or seat count does not start a game", "[play]") {
  auto r = run(people("awale", "not a position"), "");
  CHECK(r.result.not_started);
  CHECK(r.result.moves.empty());
  auto setup = people("awale");
  setup.seats.pop_back();
  auto r2 = run(setup, "");
  CHECK(r2.result.not_started);
}

TEST_CASE("play: oware's pass-through four is announced for the hole's owner", "[play]") {
  // SUD 6 (2 seeds): 7 goes 3→4 on a seed that is not the last, so NORD, its owner, takes 4; the
  // last seed falls into 8, empty: the turn ends. 10 seeds stay in play: the game goes on.
  const std::string pos = "1,1,1,1,3,2/3,0,1,1,1,1:16,16:1:0:0";
  auto r = run(people("oware", pos), "6\n");
  CHECK(r.screen ==
        "      12   11   10    9    8    7\n"
        "NORD [ 1] [ 1] [ 1] [ 1] [ 0] [ 3]\n"
        "SUD  [ 1] [ 1] [ 1] [ 1] [ 3] [ 2]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 16 bille(s).\n"
        "SUD a 16 bille(s).\n"
        "A SUD de jouer.\n"
        "SUD a ramassé 0 bille(s).\n"
        "NORD a ramassé 4 bille(s).\n"
        "      12   11   10    9    8    7\n"
        "NORD [ 1] [ 1] [ 1] [ 1] [ 1] [ 0]\n"
        "SUD  [ 1] [ 1] [ 1] [ 1] [ 3] [ 0]\n"
        "       1    2    3    4    5    6\n"
        "NORD a 20 bille(s).\n"
        "SUD a 16 bille(s).\n"
        "A NORD de jouer.\n");
}

namespace {

struct Cli {
  int status = -1;
  std::string out, err;
};

// Runs `referee play ARGS < input` through the shell; stdout and stderr kept apart.
Cli referee_play(const std::string& args, const std::string& input) {
  TempDb files;
  const std::string in = files.path + ".in", out = files.path + ".out", err = files.path + ".err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string command = std::string("'") + REFEREE_BIN + "' play " + args + " < '" + in +
                              "' > '" + out + "' 2> '" + err + "'";
  Cli r;
  const int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  auto read = [](const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  };
  r.out = read(out);
  r.err = read(err);
  for (const auto& p : {in, out, err}) std::remove(p.c_str());
  return r;
}

}  // namespace

TEST_CASE("play: the command line plays the same screen from standard input", "[play][cli]") {
  REQUIRE(std::filesystem::exists(REFEREE_BIN));
  auto r = referee_play("awale --no-db --position '" + kP0 + "'", slurp("awale_game.in"));
  CHECK(r.status == 0);
  CHECK(r.out == slurp("awale_game.out"));
  CHECK(r.err.empty());

  // --first 2 and the database: NORD starts, 0 ends, the game is recorded.
  TempDb db;
  auto first = referee_play("awale --first 2 --db '" + db.path + "'", "0\n");
  CHECK(first.status == 0);
  CHECK(first.out.find("A NORD de jouer.\n") != std::string::npos);
  CHECK(first.out.find("A SUD de jouer.\n") == std::string::npos);
  CHECK(first.err.find("recorded in") != std::string::npos);
  auto store = storage::Store::open(db.path);
  REQUIRE(store.ok());
  storage::GameFilter all;
  auto games = store->games(all);
  REQUIRE(games.ok());
  REQUIRE(games->size() == 1);
  CHECK(games->front().game == game_of("awale:first=2").canonical());
  CHECK(games->front().termination == "agreement");

  CHECK(referee_play("nosuchgame --no-db", "").status == 2);
  CHECK(referee_play("", "").status == 2);
  CHECK(referee_play("awale --no-db --tc nonsense", "").status == 2);
  CHECK(referee_play("awale --no-db --north /nonexistent/engine", "").status == 1);
  CHECK(referee_play("awale --no-db --position nonsense", "").status == 1);
}
