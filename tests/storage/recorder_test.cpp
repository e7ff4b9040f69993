// The Recorder: queued writes land in the database, in order, grouped in batches; errors are
// reported, not thrown; everything is committed by flush() and by the destructor.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "storage/backends.h"
#include "storage/recorder.h"
#include "storage/temp_dir.h"

using namespace referee::storage;

namespace {

GameRecord game_of(const std::string& a, const std::string& b) {
  GameRecord g;
  g.game = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";
  g.players = {a, b};
  return g;
}

MoveRecord move_of(int ply, int player, const std::string& move) {
  MoveRecord m;
  m.ply = ply;
  m.player = player;
  m.move = move;
  m.time_ms = 1;
  return m;
}

Store open_store(const std::string& path) {
  auto store = Store::open(path);
  REQUIRE(store.ok());
  return std::move(*store);
}

}  // namespace

TEST_CASE("recorder: queued moves, logs and results are all committed by flush") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Recorder recorder(open_store(path));
      auto id = recorder.begin_game(game_of("a", "b"));
      REQUIRE(id.ok());
      const char* moves[] = {"1", "7", "2", "8"};
      for (int i = 0; i < 4; ++i) recorder.add_move(*id, move_of(i + 1, i % 2 + 1, moves[i]));
      recorder.add_logs(*id, {LogLine{1, '>', "ugi", 0}, LogLine{1, '<', "ugiok", 1}});
      GameRecord done = game_of("a", "b");
      done.status = referee::storage::GameStatus::Finished;
      done.ranks = {1, 2};
      done.scores = {25, 23};
      done.termination = "rules";
      done.reason = "test";
      done.plies = 4;
      recorder.finish_game(*id, done);
      recorder.flush();
      CHECK(recorder.take_errors().empty());

      // A second connection sees everything, in order.
      Store reader = open_store(path);
      auto stored = reader.moves(*id);
      REQUIRE(stored.ok());
      REQUIRE(stored->size() == 4);
      for (int i = 0; i < 4; ++i) CHECK((*stored)[static_cast<std::size_t>(i)].move == moves[i]);
      auto logs = reader.logs(*id);
      REQUIRE(logs.ok());
      CHECK(logs->size() == 2);
      GameFilter filter;
      auto games = reader.games(filter);
      REQUIRE(games.ok());
      REQUIRE(games->size() == 1);
      CHECK(games->front().ranks == std::vector<int>{1, 2});
    }
}

TEST_CASE("recorder: a failed write is a storage failure, told once, later writes are dropped") {
  storage_test::TempDir dir;
  const auto path = dir.file("r.db");
  std::atomic<int> told{0};
  std::string told_text;
  Recorder recorder(open_store(path), std::chrono::milliseconds(2), [&](const referee::Error& e) {
    told_text = e.message;
    ++told;
  });
  auto id = recorder.begin_game(game_of("a", "b"));
  REQUIRE(id.ok());
  CHECK_FALSE(recorder.failed());
  recorder.add_move(*id, move_of(1, 1, "1"));
  recorder.add_move(*id, move_of(1, 2, "7"));  // the same ply twice: refused by the schema
  recorder.add_move(*id, move_of(2, 2, "7"));  // after the failure: dropped, not a gap-filler
  recorder.add_move(*id, move_of(3, 1, "2"));
  recorder.flush();
  auto errors = recorder.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().find(path) != std::string::npos);
  CHECK(recorder.take_errors().empty());
  CHECK(recorder.failed());
  CHECK(recorder.first_error() == errors.front());
  CHECK(told == 1);
  CHECK(told_text == errors.front());
  // Synchronous calls still run (releasing claims and reading what was stored need them).
  auto count = recorder.call<std::vector<MoveRecord>>([&](Store& s) { return s.moves(*id); });
  REQUIRE(count.ok());
  CHECK(count->size() == 1);
  Store reader = open_store(path);
  auto stored = reader.moves(*id);
  REQUIRE(stored.ok());
  CHECK(stored->size() == 1);  // a contiguous prefix of the game's moves
}

TEST_CASE("recorder: a synchronous call sees every write queued before it, committed") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Recorder recorder(open_store(path), std::chrono::milliseconds(1000));
      auto id = recorder.begin_game(game_of("a", "b"));
      REQUIRE(id.ok());
      for (int ply = 1; ply <= 30; ++ply)
        recorder.add_move(*id, move_of(ply, (ply - 1) % 2 + 1, "1"));
      // A second connection sees them as soon as the call returns: they were committed first.
      auto seen = recorder.call<std::size_t>([&](Store&) -> referee::Expected<std::size_t> {
        Store other = open_store(path);
        auto m = other.moves(*id);
        if (!m) return m.failure();
        return m->size();
      });
      REQUIRE(seen.ok());
      CHECK(*seen == 30);
    }
}

TEST_CASE("recorder: the destructor commits what is still queued") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      std::int64_t id = 0;
      {
        Recorder recorder(open_store(path), std::chrono::milliseconds(1000));
        auto begun = recorder.begin_game(game_of("a", "b"));
        REQUIRE(begun.ok());
        id = *begun;
        for (int ply = 1; ply <= 50; ++ply)
          recorder.add_move(id, move_of(ply, (ply - 1) % 2 + 1, "1"));
      }
      Store reader = open_store(path);
      auto stored = reader.moves(id);
      REQUIRE(stored.ok());
      CHECK(stored->size() == 50);
    }
}

TEST_CASE("recorder: several threads share one recorder") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Recorder recorder(open_store(path));
      std::vector<std::thread> threads;
      std::vector<std::int64_t> ids(4);
      for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
          auto id = recorder.begin_game(game_of("a" + std::to_string(t), "b"));
          if (!id) return;
          ids[static_cast<std::size_t>(t)] = *id;
          for (int ply = 1; ply <= 100; ++ply)
            recorder.add_move(*id, move_of(ply, (ply - 1) % 2 + 1, "1"));
        });
      }
      for (auto& t : threads) t.join();
      recorder.flush();
      CHECK(recorder.take_errors().empty());
      Store reader = open_store(path);
      for (auto id : ids) {
        REQUIRE(id > 0);
        auto stored = reader.moves(id);
        REQUIRE(stored.ok());
        CHECK(stored->size() == 100);
      }
    }
}

TEST_CASE("recorder: moves of many batches, queued around synchronous calls, all land in order") {
  // The queue and the batch being written are two vectors swapped and reused: every batch must
  // still start empty and lose nothing, whatever was queued while the last one was written.
  storage_test::TempDir dir;
  const auto path = dir.file("r.db");
  Recorder recorder(open_store(path), std::chrono::milliseconds(1));
  auto id = recorder.begin_game(game_of("a", "b"));
  REQUIRE(id.ok());
  int ply = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 25; ++i) {
      ++ply;
      MoveRecord m = move_of(ply, (ply - 1) % 2 + 1, std::to_string(ply % 12 + 1));
      m.info = "info depth " + std::to_string(ply) + " a line longer than a short string's";
      recorder.add_move(*id, std::move(m));
    }
    if (round % 3 == 0) recorder.flush();
    if (round % 4 == 1) {
      auto n = recorder.call<int>([&](Store& s) -> referee::Expected<int> {
        auto stored = s.moves(*id);
        if (!stored) return stored.failure();
        return static_cast<int>(stored->size());
      });
      REQUIRE(n.ok());
      CHECK(*n == ply);  // a call sees every move queued before it
    }
  }
  recorder.flush();
  CHECK(recorder.take_errors().empty());
  Store reader = open_store(path);
  auto stored = reader.moves(*id);
  REQUIRE(stored.ok());
  REQUIRE(stored->size() == static_cast<std::size_t>(ply));
  for (int i = 0; i < ply; ++i) {
    const auto& m = (*stored)[static_cast<std::size_t>(i)];
    CHECK(m.ply == i + 1);
    CHECK(m.move == std::to_string((i + 1) % 12 + 1));
    CHECK(m.info == "info depth " + std::to_string(i + 1) + " a line longer than a short string's");
  }
}

TEST_CASE("recorder: a call in batch shares the transaction of the writes queued before it") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Recorder recorder(open_store(path), std::chrono::milliseconds(1000));
      auto id = recorder.begin_game(game_of("a", "b"));
      REQUIRE(id.ok());
      auto trips = [&] {
        auto t = recorder.call<RoundTrips>(
            [](Store& s) -> referee::Expected<RoundTrips> { return s.round_trips(); });
        REQUIRE(t.ok());
        return *t;
      };
      const RoundTrips before = trips();
      for (int ply = 1; ply <= 30; ++ply)
        recorder.add_move(*id, move_of(ply, (ply - 1) % 2 + 1, "1"));
      auto seen =
          recorder.call_in_batch<std::size_t>([&](Store& s) -> referee::Expected<std::size_t> {
            auto m = s.moves(*id);  // its own connection sees the queued moves
            if (!m) return m.failure();
            return m->size();
          });
      REQUIRE(seen.ok());
      CHECK(*seen == 30);
      // One commit for the moves and the call (a plain call commits them first: two).
      CHECK(trips().transactions - before.transactions == 1);
      // Committed once the call has returned: another connection sees every move.
      Store reader = open_store(path);
      auto stored = reader.moves(*id);
      REQUIRE(stored.ok());
      CHECK(stored->size() == 30);
    }
}

TEST_CASE("recorder: a call in batch that fails is a storage failure, the writes before it stay") {
  storage_test::TempDir dir;
  const auto path = dir.file("r.db");
  std::atomic<int> told{0};
  Recorder recorder(open_store(path), std::chrono::milliseconds(1000),
                    [&](const referee::Error&) { ++told; });
  auto id = recorder.begin_game(game_of("a", "b"));
  REQUIRE(id.ok());
  for (int ply = 1; ply <= 5; ++ply) recorder.add_move(*id, move_of(ply, (ply - 1) % 2 + 1, "1"));
  auto refused = recorder.call_in_batch<int>([&](Store& s) -> referee::Expected<int> {
    // A write of the call that the schema refuses (a sixth move at ply 1), then its error.
    if (auto st = s.add_move(*id, move_of(1, 1, "2")); !st) return st.failure();
    return 1;
  });
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("record move 1 of game") != std::string::npos);
  CHECK(recorder.failed());
  CHECK(told == 1);
  Store reader = open_store(path);
  auto stored = reader.moves(*id);
  REQUIRE(stored.ok());
  CHECK(stored->size() == 5);
}

TEST_CASE("recorder: a queued begin gives a stand-in the writer replaces, games interleaved") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Recorder recorder(open_store(path));
      const auto before = recorder.begin_game(game_of("x", "y"));  // a real id, for contrast
      REQUIRE(before.ok());
      const std::int64_t a = recorder.begin_game_queued(game_of("a", "b"));
      const std::int64_t b = recorder.begin_game_queued(game_of("c", "d"));
      CHECK(a < 0);
      CHECK(b < 0);
      CHECK(a != b);
      const char* moves[] = {"1", "7", "2", "8"};
      for (int i = 0; i < 4; ++i) {  // the two games' moves interleaved, as two threads write
        recorder.add_move(a, move_of(i + 1, i % 2 + 1, moves[i]));
        recorder.add_move(b, move_of(i + 1, i % 2 + 1, moves[3 - i]));
      }
      recorder.add_logs(a, {LogLine{1, '>', "position startpos moves 1 7 2 8", 0}});
      // A call in the batch sees both games with their real ids.
      auto seen =
          recorder.call_in_batch<std::int64_t>([&](Store& s) -> referee::Expected<std::int64_t> {
            const auto real = recorder.real_id(b);
            auto stored = s.moves(real);
            if (!stored) return stored.failure();
            return static_cast<std::int64_t>(stored->size()) * 1000 + real;
          });
      REQUIRE(seen.ok());
      CHECK(*seen / 1000 == 4);
      GameRecord done = game_of("a", "b");
      done.status = referee::storage::GameStatus::Finished;
      done.ranks = {2, 1};
      done.scores = {23, 25};
      done.termination = "rules";
      done.plies = 4;
      recorder.finish_game(a, done);
      recorder.flush();
      CHECK(recorder.take_errors().empty());
      const std::int64_t real_a = recorder.real_id(a), real_b = recorder.real_id(b);
      CHECK(real_a == *before + 1);  // inserted in the order queued
      CHECK(real_b == *before + 2);
      CHECK(*seen % 1000 == real_b);
      CHECK(recorder.real_id(*before) == *before);  // a real id is itself

      Store reader = open_store(path);
      auto stored_a = reader.moves(real_a), stored_b = reader.moves(real_b);
      REQUIRE(stored_a.ok());
      REQUIRE(stored_b.ok());
      REQUIRE(stored_a->size() == 4);
      REQUIRE(stored_b->size() == 4);
      for (std::size_t i = 0; i < 4; ++i) {
        CHECK((*stored_a)[i].move == moves[i]);
        CHECK((*stored_b)[i].move == moves[3 - i]);
      }
      auto logs = reader.logs(real_a);
      REQUIRE(logs.ok());
      REQUIRE(logs->size() == 1);
      CHECK(logs->front().text == "position startpos moves 1 7 2 8");
      GameFilter all;
      all.finished_only = false;
      auto games = reader.games(all);
      REQUIRE(games.ok());
      REQUIRE(games->size() == 3);
      for (const auto& g : *games)
        CHECK(g.status == (g.id == real_a ? referee::storage::GameStatus::Finished
                                          : referee::storage::GameStatus::Running));
      recorder.forget(a);
      CHECK(recorder.real_id(a) == 0);
    }
}

TEST_CASE("recorder: a queued begin that fails is a storage failure, the game's writes dropped") {
  storage_test::TempDir dir;
  const auto path = dir.file("r.db");
  std::atomic<int> told{0};
  Recorder recorder(open_store(path), std::chrono::milliseconds(2),
                    [&](const referee::Error&) { ++told; });
  GameRecord bad = game_of("a", "b");
  bad.event_id = 999;  // no such tournament: refused by the schema
  const std::int64_t id = recorder.begin_game_queued(bad);
  recorder.add_move(id, move_of(1, 1, "1"));
  recorder.add_logs(id, {LogLine{1, '>', "ugi", 0}});
  recorder.flush();
  CHECK(recorder.failed());
  CHECK(told == 1);
  CHECK(recorder.take_errors().size() == 1);
  CHECK(recorder.real_id(id) == 0);
  Store reader = open_store(path);
  GameFilter all;
  all.finished_only = false;
  auto games = reader.games(all);
  REQUIRE(games.ok());
  CHECK(games->empty());
}
