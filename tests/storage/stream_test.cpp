// Games streamed one at a time: schedule order (tournament, slot, then id; games outside a
// tournament first), each game with exactly its own moves (games without moves in between), the
// same games as the records the filters select, results-only passes, a visitor's error stops the
// pass, games picked by id, in id order on request, and a game whose player rows are gone is
// still visited.
#include <catch2/catch.hpp>

#include <algorithm>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/game_maker.h"
#include "storage/game_query.h"
#include "storage/game_stream.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

std::int64_t store_made(Store& store, const storage_test::MadeGame& made,
                        std::optional<std::int64_t> tournament, std::int64_t slot,
                        bool with_moves = true) {
  GameRecord g = made.record;
  g.event_id = tournament;
  g.slot = slot;
  auto id = store.begin_game(g);
  REQUIRE(id.ok());
  if (with_moves)
    for (const auto& m : made.moves) REQUIRE(store.add_move(*id, m).ok());
  GameRecord result = g;
  if (!with_moves) result.plies = 0;
  REQUIRE(store.finish_game(*id, result).ok());
  return *id;
}

std::vector<std::pair<GameRecord, std::vector<MoveRecord>>> stream(Store& store,
                                                                   const GameQuery& query,
                                                                   bool moves = true,
                                                                   bool by_id = false) {
  std::vector<std::pair<GameRecord, std::vector<MoveRecord>>> out;
  StreamOptions options;
  options.moves = moves;
  options.by_id = by_id;
  REQUIRE(
      for_each_game(store, query, options,
                    [&](const GameRecord& g, const std::vector<MoveRecord>& m) -> referee::Status {
                      out.emplace_back(g, m);
                      return referee::Ok{};
                    })
          .ok());
  return out;
}

}  // namespace

TEST_CASE("stream: games in schedule order, each with its own moves") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = Store::open(dir_db.url());
      REQUIRE(store.ok());
      auto late = work_queue::open_tournament(*store, "late", "{}");
      auto early = work_queue::open_tournament(*store, "early", "{}");
      REQUIRE(late.ok());
      REQUIRE(early.ok());
      // Stored out of order: "late" (created first) slots 2, 0, 1; an unscheduled game; "early"
      // slot 1 then 0; one game stored without its moves.
      std::vector<storage_test::MadeGame> made;
      for (std::uint64_t seed = 1; seed <= 7; ++seed)
        made.push_back(storage_test::random_game(seed % 2 ? "awale" : "kalaha", {"a", "b"}, seed));
      const auto l2 = store_made(*store, made[0], *late, 2);
      const auto l0 = store_made(*store, made[1], *late, 0, false);
      const auto l1 = store_made(*store, made[2], *late, 1);
      const auto free1 = store_made(*store, made[3], std::nullopt, -1);
      const auto e1 = store_made(*store, made[4], *early, 1);
      const auto e0 = store_made(*store, made[5], *early, 0);
      const auto free2 = store_made(*store, made[6], std::nullopt, -1);
      const auto games = stream(*store, GameQuery{});
      std::vector<std::int64_t> order;
      for (const auto& [g, m] : games) order.push_back(g.id);
      CHECK(order == std::vector<std::int64_t>{free1, free2, l0, l1, l2, e0, e1});
      const std::vector<std::size_t> source = {3, 6, 1, 2, 0, 5, 4};
      for (std::size_t k = 0; k < games.size(); ++k) {
        const auto& [g, m] = games[k];
        const auto& want = made[source[k]];
        INFO("game " << g.id);
        CHECK(g.players == want.record.players);
        CHECK(g.ranks == want.record.ranks);
        CHECK(g.scores == want.record.scores);
        CHECK(g.game == want.record.game);
        CHECK(g.event == (k < 2 ? "" : k < 5 ? "late" : "early"));
        if (g.id == l0) {
          CHECK(m.empty());
          continue;
        }
        REQUIRE(m.size() == want.moves.size());
        for (std::size_t p = 0; p < m.size(); ++p) {
          CHECK(m[p].ply == want.moves[p].ply);
          CHECK(m[p].player == want.moves[p].player);
          CHECK(m[p].move == want.moves[p].move);
          CHECK(m[p].time_ms == want.moves[p].time_ms);
          CHECK(m[p].clock_ms == want.moves[p].clock_ms);
          CHECK(m[p].info == want.moves[p].info);
          CHECK(m[p].source == want.moves[p].source);
        }
      }
      // By id: the same games, each with the same moves, in id order.
      const auto by_id = stream(*store, GameQuery{}, true, true);
      REQUIRE(by_id.size() == games.size());
      std::vector<std::int64_t> ascending = order;
      std::sort(ascending.begin(), ascending.end());
      for (std::size_t k = 0; k < by_id.size(); ++k) {
        CHECK(by_id[k].first.id == ascending[k]);
        for (const auto& [g, m] : games)
          if (g.id == by_id[k].first.id) {
            CHECK(by_id[k].first.players == g.players);
            CHECK(by_id[k].second.size() == m.size());
          }
      }
      // The same games as Store::games, whatever the order.
      auto records = store->games({});
      REQUIRE(records.ok());
      CHECK(records->size() == games.size());
      // Results only: no moves read.
      for (const auto& [g, m] : stream(*store, GameQuery{}, false)) CHECK(m.empty());
      // A filter applies to the games and their moves alike.
      GameQuery q;
      q.event_name = "early";
      const auto filtered = stream(*store, q);
      REQUIRE(filtered.size() == 2);
      CHECK(filtered[0].first.id == e0);
      CHECK(filtered[0].second.size() == made[5].moves.size());
      CHECK(filtered[1].second.size() == made[4].moves.size());
    }
}

TEST_CASE("stream: unfinished games only when asked, and a visitor's error stops the pass") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = Store::open(dir_db.url());
      REQUIRE(store.ok());
      auto made = storage_test::random_game("awale", {"a", "b"}, 3);
      store_made(*store, made, std::nullopt, -1);
      GameRecord running = made.record;
      REQUIRE(store->begin_game(running).ok());
      CHECK(stream(*store, GameQuery{}).size() == 1);
      GameQuery everything;
      everything.finished_only = false;
      CHECK(stream(*store, everything).size() == 2);
      int visited = 0;
      referee::Status st =
          for_each_game(*store, everything, {},
                        [&](const GameRecord&, const std::vector<MoveRecord>&) -> referee::Status {
                          ++visited;
                          return referee::Error{"disk full"};
                        });
      CHECK(visited == 1);
      REQUIRE_FALSE(st.ok());
      CHECK(st.error() == "disk full");
    }
}

TEST_CASE("stream: games by id, and a game with no player rows is still visited") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = Store::open(dir_db.url());
      REQUIRE(store.ok());
      std::vector<std::int64_t> ids;
      for (std::uint64_t seed = 1; seed <= 4; ++seed)
        ids.push_back(store_made(*store, storage_test::random_game("awale", {"a", "b"}, seed),
                                 std::nullopt, -1));
      GameQuery some;
      some.ids = {ids[3], ids[1]};
      const auto picked = stream(*store, some);
      REQUIRE(picked.size() == 2);
      CHECK(picked[0].first.id == ids[1]);
      CHECK(picked[1].first.id == ids[3]);
      CHECK_FALSE(picked[0].second.empty());
      CHECK(has_game(*store, ids[2]).value());
      CHECK_FALSE(has_game(*store, ids[3] + 100).value());
      // A damaged archive: the player rows of a game gone. Verify must still see the game.
      store->connection().exec("DELETE FROM game_players WHERE game_id = " +
                               std::to_string(ids[2]));
      const auto all = stream(*store, GameQuery{});
      REQUIRE(all.size() == 4);
      CHECK(all[2].first.id == ids[2]);
      CHECK(all[2].first.players.empty());
      CHECK(all[2].first.ranks.empty());
      CHECK(all[2].second.size() == static_cast<std::size_t>(all[2].first.plies));
      CHECK(all[3].first.players == std::vector<std::string>{"a", "b"});
    }
}
