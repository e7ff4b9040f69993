// One stored game shown to a bot author: match/ply_view (the position, clocks and the lines the
// engine to move was sent at ply K) and the `referee transcript` and `referee replay` commands
// run on a database a match wrote; replay draws the board in English.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>

#include "games/game.h"
#include "match/ply_view.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

// An awale game of `plies` plies, the first `opening` of them played by the referee ("opening"),
// each engine move taking 100 * ply ms, the first legal move each time.
struct StoredGame {
  referee::storage::GameRecord record;
  std::vector<referee::storage::MoveRecord> moves;
};

StoredGame stored_game(int plies, int opening) {
  StoredGame g;
  g.record.id = 7;
  g.record.game = "awale";
  g.record.players = {"north", "south"};
  g.record.time_control = "10+0.5";
  g.record.status = referee::storage::GameStatus::Finished;
  auto rules = referee::games::make_game("awale");
  REQUIRE(rules);
  auto state = rules->initial_state();
  for (int ply = 1; ply <= plies; ++ply) {
    referee::storage::MoveRecord m;
    m.ply = ply;
    m.player = state.current_player();
    m.move = state.legal_moves().front();
    if (ply <= opening) {
      m.source = "opening";
    } else {
      m.time_ms = 100 * ply;
    }
    REQUIRE(state.apply(m.move).ok());
    g.moves.push_back(m);
  }
  g.record.plies = plies;
  return g;
}

std::vector<std::string> first_moves(const StoredGame& g, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(g.moves[static_cast<std::size_t>(i)].move);
  return out;
}

}  // namespace

TEST_CASE("ply view: the position, each clock replayed from the stored times, the rebuilt lines") {
  const auto g = stored_game(6, 2);
  auto v = referee::match::view_at(g.record, g.moves, {}, 5);
  REQUIRE(v.ok());
  CHECK(v->ply == 5);
  CHECK(v->total_plies == 6);
  auto rules = referee::games::make_game("awale");
  auto expected = referee::games::state_after(*rules, "", first_moves(g, 5));
  REQUIRE(expected.ok());
  CHECK(*v->state == *expected);
  CHECK(v->to_move == expected->current_player());
  // Plies 3 and 5 were player 1's (300 and 500 ms), ply 4 player 2's (400 ms); +500 ms each.
  REQUIRE(v->clocks.size() == 2);
  CHECK(v->clocks[0] == 10000 - 300 + 500);
  CHECK(v->clocks[1] == 10000 - 400 + 500);
  REQUIRE(v->next);
  CHECK(v->next->ply == 6);
  CHECK(v->asked);
  CHECK(v->source == referee::match::PlyView::Source::Rebuilt);
  std::string position = "position startpos moves";
  for (const auto& m : first_moves(g, 5)) position += " " + m;
  CHECK(v->position_line == position);
  CHECK(v->go_line == "go player 2 p1time 10200 p2time 10100 p1inc 500 p2inc 500");
}

TEST_CASE("ply view: each seat's own time control when the game recorded them") {
  auto g = stored_game(6, 2);
  g.record.time_controls = {"10+0.5", "5+0.25"};
  auto v = referee::match::view_at(g.record, g.moves, {}, 5);
  REQUIRE(v.ok());
  // Plies 3 and 5 were player 1's (300 and 500 ms, +500 ms each), ply 4 player 2's (400, +250).
  REQUIRE(v->clocks.size() == 2);
  CHECK(v->clocks[0] == 10000 - 300 + 500);
  CHECK(v->clocks[1] == 5000 - 400 + 250);
  CHECK(v->go_line == "go player 2 p1time 10200 p2time 4850 p1inc 500 p2inc 250");
}

TEST_CASE("ply view: the lines stored in the transcript win, a different rebuilt go is kept") {
  const auto g = stored_game(4, 0);
  std::string position = "position startpos moves";
  for (const auto& m : first_moves(g, 2)) position += " " + m;
  const std::vector<referee::storage::LogLine> logs = {
      {1, '>', position, 10, 0},  // the other seat's copy is not player 1's
      {1, '>', "go player 1 wrong", 10, 1},
      {2, '<', "bestmove 1", 11, 0},
      {1, '>', position, 20, 0},
      {1, '>', "go player 1 p1time 1 p2time 2", 20, 5},
  };
  // Ply 2 is player 1's turn: its transcript's first copy of the line is taken.
  auto v = referee::match::view_at(g.record, g.moves, logs, 2);
  REQUIRE(v.ok());
  REQUIRE(v->to_move == 1);
  CHECK(v->source == referee::match::PlyView::Source::Transcript);
  CHECK(v->position_line == position);
  CHECK(v->go_line == "go player 1 wrong");
  CHECK(v->rebuilt_go == "go player 1 p1time 10400 p2time 10300 p1inc 500 p2inc 500");
  // Player 2's transcript does not have ply 3's lines: rebuilt.
  auto w = referee::match::view_at(g.record, g.moves, logs, 3);
  REQUIRE(w.ok());
  CHECK(w->source == referee::match::PlyView::Source::Rebuilt);
  CHECK(w->rebuilt_go.empty());
}

TEST_CASE("ply view: no engine was asked at an opening move, plies out of range are refused") {
  const auto g = stored_game(4, 2);
  auto opening = referee::match::view_at(g.record, g.moves, {}, 1);
  REQUIRE(opening.ok());
  CHECK_FALSE(opening->asked);
  CHECK(opening->position_line.empty());
  // The last position of an unfinished game: the engine to move was asked (and failed).
  auto last = referee::match::view_at(g.record, g.moves, {}, 4);
  REQUIRE(last.ok());
  CHECK_FALSE(last->next);
  CHECK(last->asked);
  auto start = referee::match::view_at(g.record, g.moves, {}, 0);
  REQUIRE(start.ok());
  CHECK(start->ply == 0);
  CHECK_FALSE(start->asked);  // ply 1 was an opening move
  for (int bad : {-1, 5}) {
    auto out = referee::match::view_at(g.record, g.moves, {}, bad);
    REQUIRE_FALSE(out.ok());
    CHECK(contains(out.error(), "game 7 has 4 plies"));
  }
  auto tampered = g;
  tampered.moves[2].move = "99";
  auto refused = referee::match::view_at(tampered.record, tampered.moves, {}, 4);
  REQUIRE_FALSE(refused.ok());
  CHECK(contains(refused.error(), "game 7 ply 3 '99'"));
}

namespace {

using rtest::referee_cmd;

}  // namespace

TEST_CASE("cli: transcript and replay show a stored game as its engines saw it") {
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto run = referee_cmd({"match", "--engine", "alpha=" + rtest::kMock, "--engine",
                          "beta=" + rtest::kMock, "--game", "awale:maxplies=10", "--tc", "5+0.1",
                          "--random-plies", "2", "--cycles", "1", "-c", "1", "--db", db, "-q"});
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);

  auto t = referee_cmd({"transcript", "1", "--db", db});
  INFO(t.out << t.err);
  CHECK(t.status == 0);
  CHECK(contains(t.out, "game 1 of tournament"));
  {
    // The slot as the archive, the CSV and the API number it (from 0), not one more.
    SQLite::Database sql(db, SQLite::OPEN_READONLY);
    const int slot = sql.execAndGet("SELECT slot FROM games WHERE id = 1").getInt();
    CHECK(contains(t.out, "(slot " + std::to_string(slot) + "):"));
  }
  CHECK(contains(t.out, "players: 1 alpha, 2 beta"));
  CHECK(contains(t.out, " 1 alpha > ugi\n"));
  CHECK(contains(t.out, " 2 beta  > ugi\n"));
  CHECK(contains(t.out, " < bestmove "));
  auto seat2 = referee_cmd({"transcript", "1", "--seat", "2", "--db", db});
  CHECK(seat2.status == 0);
  CHECK_FALSE(contains(seat2.out, " 1 alpha "));
  CHECK(contains(seat2.out, " 2 beta "));

  auto r = referee_cmd({"replay", "1", "--ply", "4", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(contains(r.out, "ply 4 of 10: player 1 (alpha) to move"));
  CHECK(contains(r.out, "clocks: p1 "));
  CHECK(contains(r.out, "played: "));
  CHECK(contains(r.out,
                 "sent to player 1 (alpha) (as stored in its transcript):\n"
                 "  position startpos moves "));
  CHECK(contains(r.out, "\n  go player 1 p1time "));
  CHECK_FALSE(contains(r.out, "differs"));  // the rebuilt go line is the one that was sent
  {
    // The board in English, as `referee show` draws it: the seed's French is for `referee play`.
    const auto at = r.out.find("\nposition: ") + 11;
    const auto state = referee::games::make_game("awale:maxplies=10")
                           ->parse_state(r.out.substr(at, r.out.find('\n', at) - at));
    REQUIRE(state.ok());
    CHECK(contains(r.out, state->draw(referee::games::BoardWords::English)));
    CHECK(contains(r.out, "\nNorth has "));
    CHECK_FALSE(contains(r.out, "NORD"));
    CHECK_FALSE(contains(r.out, "bille"));
  }
  auto opening = referee_cmd({"replay", "1", "--ply", "0", "--db", db});
  CHECK(contains(opening.out, "played by the referee: no engine was asked"));
  CHECK_FALSE(contains(opening.out, "sent to"));
  auto last = referee_cmd({"replay", "1", "--db", db});
  CHECK(contains(last.out, "ply 10 of 10: the game is over"));

  auto bad_ply = referee_cmd({"replay", "1", "--ply", "11", "--db", db});
  CHECK(bad_ply.status == 2);
  CHECK(bad_ply.err == "referee replay: --ply 11: game 1 has 10 plies (0 to 10)\n");
  auto bad_id = referee_cmd({"replay", "x", "--db", db});
  CHECK(bad_id.status == 2);
  CHECK(bad_id.err == "referee replay: GAME_ID must be a game number, not 'x'\n");
  auto no_id = referee_cmd({"transcript", "--db", db});
  CHECK(no_id.status == 2);
  CHECK(contains(no_id.err, "give a game number"));
  auto missing = referee_cmd({"transcript", "99", "--db", db});
  CHECK(missing.status == 1);
  CHECK(rtest::lines_of(missing.err).size() == 1);
  CHECK(contains(missing.err, "99"));
  auto bad_seat = referee_cmd({"transcript", "1", "--seat", "3", "--db", db});
  CHECK(bad_seat.status == 2);
  CHECK(bad_seat.err == "referee transcript: --seat 3: game 1 has seats 1 to 2\n");
  auto no_db = referee_cmd({"replay", "1", "--db", dir.file("none.db")});
  CHECK(no_db.status == 1);
  CHECK_FALSE(std::filesystem::exists(dir.file("none.db")));
}
