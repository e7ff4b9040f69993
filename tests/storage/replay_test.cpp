// Every stored game replays through the rules library to its recorded result: real awale games
// made by seeded random playouts are written through the Store, read back, and replayed with
// make_game(game string) and state_after(start, move_sequence(...)).
#include <catch2/catch.hpp>

#include <random>

#include "games/game.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee;
using namespace referee::storage;
using storage_test::TempDir;

namespace {

struct Played {
  GameRecord record;
  std::vector<MoveRecord> moves;
  games::Outcome outcome;
};

// A random awale game: `opening_plies` random moves by the referee, then random "engine" moves to
// the end. `record_opening` also records the opening as moves with source "opening".
// `from_middle` starts from the position reached after 6 random plies instead of the start.
Played random_game(std::uint64_t seed, int opening_plies, bool record_opening, bool from_middle) {
  std::mt19937_64 rng(seed);
  auto game = games::make_game("awale");
  REQUIRE(game.ok());
  games::State state = game->initial_state();
  auto pick = [&](const games::State& s) {
    auto legal = s.legal_moves();
    REQUIRE_FALSE(legal.empty());
    return legal[rng() % legal.size()];
  };
  Played p;
  p.record.game = game->canonical();
  p.record.players = {"north-" + std::to_string(seed % 3), "south-" + std::to_string(seed % 2)};
  if (from_middle) {
    for (int i = 0; i < 6 && !state.is_terminal(); ++i) REQUIRE(state.apply(pick(state)).ok());
    p.record.start_position = state.to_string();
  }
  int ply = 0;
  for (int i = 0; i < opening_plies && !state.is_terminal(); ++i) {
    std::string m = pick(state);
    p.record.opening.push_back(m);
    if (record_opening)
      p.moves.push_back({++ply, state.current_player(), m, -1, -1, "", "opening", ""});
    if (!record_opening) ++ply;
    REQUIRE(state.apply(m).ok());
  }
  long clock = 10000;
  while (!state.is_terminal()) {
    std::string m = pick(state);
    const long used = static_cast<long>(rng() % 50);
    clock -= used;
    p.moves.push_back({++ply, state.current_player(), m, used, clock, "info depth 1",
                       state.is_forced() ? "forced" : "engine", ""});
    REQUIRE(state.apply(m).ok());
  }
  p.outcome = state.outcome();
  p.record.ranks = p.outcome.ranks;
  p.record.scores = p.outcome.scores;
  p.record.termination = p.outcome.reason;  // one vocabulary (games/terminations.h)
  p.record.reason = p.outcome.reason;
  p.record.plies = ply;
  p.record.status = referee::storage::GameStatus::Finished;
  return p;
}

}  // namespace

TEST_CASE("replay: random awale games stored and read back replay to their recorded results") {
  TempDir dir;
  auto store = Store::open(dir.file("referee.db"));
  REQUIRE(store.ok());
  auto t = work_queue::open_tournament(*store, "random", "{}");
  REQUIRE(t.ok());
  constexpr int kGames = 24;
  std::vector<Played> played;
  for (int i = 0; i < kGames; ++i) {
    Played p = random_game(1000 + i, i % 4, i % 2 == 0, i % 3 == 0);
    p.record.event_id = *t;
    p.record.slot = i;
    auto id = store->begin_game(p.record);
    REQUIRE(id.ok());
    for (const auto& m : p.moves) REQUIRE(store->add_move(*id, m).ok());
    REQUIRE(store->finish_game(*id, p.record).ok());
    played.push_back(std::move(p));
  }

  auto games = store->games({*t, "awale", true});
  REQUIRE(games.ok());
  REQUIRE(games->size() == kGames);
  int decisive = 0;
  for (std::size_t i = 0; i < games->size(); ++i) {
    const GameRecord& g = (*games)[i];
    auto moves = store->moves(g.id);
    REQUIRE(moves.ok());
    CHECK(g.opening == played[i].record.opening);
    CHECK(g.start_position == played[i].record.start_position);
    CHECK(moves->size() == played[i].moves.size());

    auto rules = games::make_game(g.game);
    REQUIRE(rules.ok());
    auto end = games::state_after(*rules, g.start_position, move_sequence(g, *moves));
    INFO("game " << g.id << ": " << (end.ok() ? std::string() : end.error()));
    REQUIRE(end.ok());
    REQUIRE(end->is_terminal());
    CHECK(end->outcome().ranks == g.ranks);
    CHECK(end->outcome().scores == g.scores);
    CHECK(static_cast<std::size_t>(g.plies) == move_sequence(g, *moves).size());
    auto verified = verify_game(g, *moves);
    INFO((verified.ok() ? std::string() : verified.error()));
    CHECK(verified.ok());
    if (g.ranks[0] != g.ranks[1]) ++decisive;
  }
  CHECK(decisive > 0);  // the sample is not all draws
}

TEST_CASE("replay: verify_game finds a record that does not match its moves") {
  Played p = random_game(7, 2, false, false);
  p.record.id = 7;
  REQUIRE(verify_game(p.record, p.moves).ok());

  SECTION("wrong ranks") {
    GameRecord r = p.record;
    r.ranks = r.ranks[0] == r.ranks[1] ? std::vector<int>{1, 2}
                                       : std::vector<int>{r.ranks[1], r.ranks[0]};
    auto v = verify_game(r, p.moves);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().find("recorded ranks") != std::string::npos);
  }
  SECTION("an illegal move") {
    auto moves = p.moves;
    moves[0].move = "13";
    auto v = verify_game(p.record, moves);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().rfind("game 7: ply 3 '13'", 0) == 0);
  }
  SECTION("a move after the end") {
    auto moves = p.moves;
    moves.push_back({moves.back().ply + 1, 1, "1", -1, -1, "", "engine", ""});
    auto v = verify_game(p.record, moves);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().find("after the game ended") != std::string::npos);
  }
  SECTION("a wrong ply number or player") {
    auto moves = p.moves;
    moves[1].ply += 1;
    CHECK_FALSE(verify_game(p.record, moves).ok());
    moves = p.moves;
    moves[1].player = 3 - moves[1].player;
    auto v = verify_game(p.record, moves);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().find("was to move") != std::string::npos);
  }
  SECTION("recorded as a rules end but cut short") {
    auto moves = p.moves;
    moves.pop_back();
    auto v = verify_game(p.record, moves);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().find("is not over") != std::string::npos);
  }
  SECTION("a forfeit needs only legal moves") {
    auto moves = p.moves;
    moves.pop_back();
    GameRecord r = p.record;
    r.termination = "time";
    r.ranks = {2, 1};
    CHECK(verify_game(r, moves).ok());
  }
  SECTION("a bad game string or start position") {
    GameRecord r = p.record;
    r.game = "nosuchgame";
    CHECK_FALSE(verify_game(r, p.moves).ok());
    r = p.record;
    r.start_position = "not a position";
    CHECK_FALSE(verify_game(r, p.moves).ok());
  }
}
