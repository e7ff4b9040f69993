// for_each_two_player_result: the finished two-player games of a query, narrow, in schedule order
// (the order of for_each_game), on both backends; the stream game pairs are counted from.
#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/game_stream.h"
#include "storage/pair_stream.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;
using referee::Ok;
using referee::Status;

namespace {

struct Spec {
  std::string tournament;  // "" = outside any tournament
  std::int64_t slot;
  std::vector<std::string> players;
  std::vector<int> ranks;  // empty: the game is left unfinished
  std::vector<std::string> opening = {};
};

// Stored in this order (not the schedule's), so that the stream has to sort them.
void store_all(Store& store, const std::vector<Spec>& specs) {
  for (const auto& s : specs) {
    GameRecord g;
    if (!s.tournament.empty()) {
      auto tid = work_queue::open_tournament(store, s.tournament, "{}");
      REQUIRE(tid.ok());
      g.event_id = *tid;
    }
    g.slot = s.slot;
    g.game = "awale";
    g.start_position = s.slot % 2 ? "" : "start" + std::to_string(s.slot);
    g.opening = s.opening;
    g.players = s.players;
    g.time_control = "10+0.1";
    auto id = store.begin_game(g);
    REQUIRE(id.ok());
    GameRecord result;
    result.ranks = s.ranks;
    result.status = s.ranks.empty() ? referee::storage::GameStatus::Unfinished
                                    : referee::storage::GameStatus::Finished;
    result.termination = s.ranks.empty() ? "interrupted" : "rules";
    result.finished_at = "2026-05-01T12:00:00Z";
    REQUIRE(store.finish_game(*id, result).ok());
  }
}

struct Seen {
  std::int64_t id, tournament, slot;
  std::string game, start, opening, first, second;
  int rank1, rank2;
};

std::vector<Seen> streamed(Store& store, const GameQuery& query) {
  std::vector<Seen> out;
  TwoPlayerNames names;
  Status st = for_each_two_player_result(store, query, names, [&](const TwoPlayerResult& r) {
    out.push_back({r.id, r.event_id, r.slot, names.games.at(r.game), r.start_position, r.opening,
                   names.engines.at(r.engines[0]), names.engines.at(r.engines[1]), r.ranks[0],
                   r.ranks[1]});
    return Status(Ok{});
  });
  REQUIRE(st.ok());
  return out;
}

}  // namespace

TEST_CASE("pair stream: finished two-player games only, in schedule order, narrow") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      auto store = Store::open(db.url());
      REQUIRE(store.ok());
      store_all(*store, {
                            {"t2", 1, {"B", "A"}, {1, 1}, {"3", "9"}},
                            {"t1", 3, {"A", "B"}, {2, 1}},
                            {"t1", 0, {"A", "B", "C"}, {1, 2, 3}},  // three players: left out
                            {"", -1, {"C", "A"}, {1, 2}},
                            {"t1", 1, {"B", "A"}, {}},  // unfinished: left out
                            {"t2", 0, {"A", "B"}, {1, 2}, {"3", "9"}},
                            {"t1", 2, {"B", "C"}, {2, 1}},
                        });
      // The schedule order of the exports (for_each_game), without the games left out.
      std::vector<std::int64_t> order;
      StreamOptions no_moves;
      no_moves.moves = false;
      REQUIRE(for_each_game(*store, GameQuery{}, no_moves,
                            [&](const GameRecord& g, const std::vector<MoveRecord>&) {
                              if (g.players.size() == 2) order.push_back(g.id);
                              return Status(Ok{});
                            })
                  .ok());
      const auto all = streamed(*store, GameQuery{});
      REQUIRE(all.size() == 5);
      REQUIRE(order.size() == 5);
      for (std::size_t k = 0; k < all.size(); ++k) CHECK(all[k].id == order[k]);
      CHECK(all[0].tournament == -1);  // outside any tournament: first
      CHECK(all[0].first == "C");
      CHECK(all[0].rank1 == 1);
      CHECK(all[0].rank2 == 2);
      // t2 before t1 (t2 was created first), each by slot.
      CHECK(all[1].slot == 0);
      CHECK(all[1].start == "start0");
      CHECK(all[1].opening == R"(["3","9"])");
      CHECK(all[1].game == "awale");
      CHECK(all[2].slot == 1);
      CHECK(all[2].first == "B");
      CHECK(all[2].second == "A");
      CHECK(all[2].rank1 == 1);
      CHECK(all[2].rank2 == 1);
      CHECK(all[2].start == "");
      CHECK(all[3].slot == 2);
      CHECK(all[3].opening == "[]");
      CHECK(all[4].slot == 3);
      CHECK(all[4].rank1 == 2);
      CHECK(all[1].tournament == all[2].tournament);
      CHECK(all[3].tournament == all[4].tournament);
      CHECK(all[2].tournament != all[3].tournament);

      // The query's filters, as for_each_game applies them.
      GameQuery only_c;
      only_c.engines = {"C"};
      const auto with_c = streamed(*store, only_c);
      REQUIRE(with_c.size() == 2);
      CHECK(with_c[0].first == "C");
      CHECK(with_c[1].second == "C");
      GameQuery t2;
      t2.event_name = "t2";
      CHECK(streamed(*store, t2).size() == 2);

      GameQuery unfinished;
      unfinished.finished_only = false;
      TwoPlayerNames names;
      CHECK_FALSE(for_each_two_player_result(*store, unfinished, names, [](const auto&) {
                    return Status(Ok{});
                  }).ok());
    }
}
