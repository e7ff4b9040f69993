// storage/work_queue: games added to a running event by whichever owner sees they are due (a
// Swiss round, a knockout match's next games) are added exactly once, however many owners decide
// it at once, on SQLite and PostgreSQL: append_slots with the number the first should get. A
// tournament marked finished when its last round ended runs again when the next is added; an
// event is found by its name (event_named). Two owners settling a round's last two games at once
// add the next round once, never neither (decide_exclusively).
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "storage/work_queue.h"
#include "tests/storage/backends.h"

using namespace referee;
using namespace referee::storage;

namespace {

std::vector<SlotRecord> round_of(int games, int round) {
  std::vector<SlotRecord> out;
  for (int i = 0; i < games; ++i) {
    SlotRecord s;
    s.slot = i;  // open_event takes the numbers given; append_slots numbers them itself
    s.game = "awale";
    s.seats = {"a", "b"};
    s.round = round;
    out.push_back(s);
  }
  return out;
}

// A new event "swiss" in `test_db` holding round 1 of `games` games; its id.
std::int64_t swiss_with_first_round(const storage_test::TestDb& test_db, int games) {
  Store store = storage_test::open_ok(test_db.url());
  auto ev = work_queue::open_event(store, "swiss", "{}", "", round_of(games, 1));
  REQUIRE(ev);
  return ev->id;
}

}  // namespace

TEST_CASE("append once: the next round is added by one owner, the others are told Conflict") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      const std::int64_t event = swiss_with_first_round(test_db, 4);
      // Six owners, each with its connection, read that round 1 ended at slot 3 and add round 2.
      constexpr int kOwners = 6;
      std::atomic<int> added{0}, refused{0}, other{0};
      std::vector<std::thread> owners;
      for (int o = 0; o < kOwners; ++o)
        owners.emplace_back([&] {
          Store store = storage_test::open_ok(test_db.url());
          auto got = work_queue::append_slots(store, event, round_of(4, 2), 4);
          if (got && *got == std::vector<std::int64_t>{4, 5, 6, 7})
            ++added;
          else if (!got && got.kind() == ErrorKind::Conflict)
            ++refused;
          else
            ++other;
        });
      for (auto& t : owners) t.join();
      CHECK(added.load() == 1);
      CHECK(refused.load() == kOwners - 1);
      CHECK(other.load() == 0);
      Store store = storage_test::open_ok(test_db.url());
      auto all = work_queue::slots(store, event);
      REQUIRE(all);
      REQUIRE(all->size() == 8);
      for (std::size_t i = 0; i < all->size(); ++i) CHECK((*all)[i].round == (i < 4 ? 1 : 2));
      // Without an expectation it appends as ladders do.
      auto more = work_queue::append_slots(store, event, round_of(1, 3));
      REQUIRE(more);
      CHECK(*more == std::vector<std::int64_t>{8});
      // A stale expectation adds nothing and names the event.
      auto stale = work_queue::append_slots(store, event, round_of(2, 3), 8);
      REQUIRE_FALSE(stale);
      CHECK(stale.kind() == ErrorKind::Conflict);
      CHECK(stale.error().find("event " + std::to_string(event)) != std::string::npos);
      CHECK(work_queue::slots(store, event)->size() == 9);
    }
}

TEST_CASE("append once: a tournament finished with its last round runs again when one is added") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      Store store = storage_test::open_ok(test_db.url());
      auto ev = work_queue::open_event(store, "knockout", "{\"format\":\"knockout\"}", "",
                                       round_of(2, 1));
      REQUIRE(ev);
      // Every slot of round 1 ended: the event is finished and nothing can be claimed from it.
      REQUIRE(*work_queue::skip_slots(store, ev->id, {0, 1}, "test") == 2);
      auto owner = work_queue::register_owner(store, OwnerInfo{"t", "h", 1});
      REQUIRE(owner);
      CHECK(work_queue::claim_slots(store, *owner, ev->id, 1, 1000, {})->empty());
      CHECK(work_queue::event(store, ev->id)->state == EventState::Finished);
      // Round 2 added: running again, finished_at cleared, its slots claimable.
      REQUIRE(work_queue::append_slots(store, ev->id, round_of(2, 2), 2));
      auto info = work_queue::event(store, ev->id);
      CHECK(info->state == EventState::Running);
      CHECK(info->finished_at.empty());
      auto claims = work_queue::claim_slots(store, *owner, ev->id, 2, 1000, {});
      REQUIRE(claims);
      CHECK(claims->size() == 2);
      // A cancelled event stays cancelled, and a ladder is never touched.
      REQUIRE(*work_queue::set_event_state(store, ev->id, EventState::Cancelled,
                                           {EventState::Running}));
      REQUIRE(work_queue::append_slots(store, ev->id, round_of(1, 3)));
      CHECK(work_queue::event(store, ev->id)->state == EventState::Cancelled);
      // The event by its name, with its specification; none for another name.
      auto named = work_queue::event_named(store, "knockout");
      REQUIRE(named);
      REQUIRE(named->has_value());
      CHECK((*named)->id == ev->id);
      CHECK((*named)->spec == "{\"format\":\"knockout\"}");
      CHECK((*named)->kind == EventKind::Tournament);
      auto none = work_queue::event_named(store, "swiss");
      REQUIRE(none);
      CHECK_FALSE(none->has_value());
    }
}

TEST_CASE("append once: two owners settling a round's last two games side by side add it once") {
  // Each owner settles one of round 1's two games and, in the same transaction (a game's finish
  // and its rounds: event/slot_player.h, SlotHooks::settled), decides from what it reads whether
  // round 2 is due. On PostgreSQL (read committed) each would read the other's game as still in
  // play and neither would add the round; decide_exclusively makes the second wait for the first's
  // commit and read it.
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      const std::int64_t event = swiss_with_first_round(test_db, 2);
      std::atomic<int> added{0}, failed{0}, settled{0}, read{0};
      std::vector<std::thread> owners;
      for (std::int64_t slot = 0; slot < 2; ++slot)
        owners.emplace_back([&, slot] {
          Store store = storage_test::open_ok(test_db.url());
          if (!store.begin_batch()) {
            ++failed;
            return;
          }
          if (!work_queue::skip_slots(store, event, {slot}, "settled")) ++failed;
          ++settled;
          // Both games are settled (uncommitted) before either decides on PostgreSQL; SQLite's
          // second writer waits for the first's commit to begin, so the first goes on alone.
          const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
          while (settled.load() < 2 && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          auto decided = work_queue::decide_exclusively(store, [&]() -> Expected<int> {
            auto all = work_queue::slots(store, event);
            if (!all) return all.failure();
            // Each waits (up to 1 s) for the other to have read too: without the lock both would
            // read before either commits. With it the other reads only after this one's commit.
            ++read;
            const auto read_by = std::chrono::steady_clock::now() + std::chrono::seconds(1);
            while (read.load() < 2 && std::chrono::steady_clock::now() < read_by)
              std::this_thread::sleep_for(std::chrono::milliseconds(5));
            for (const auto& s : *all)
              if (s.state == SlotState::Pending || s.state == SlotState::Claimed || s.round == 2)
                return 0;  // round 1 not over, or round 2 made
            auto got = work_queue::append_slots(store, event, round_of(2, 2), 2);
            if (!got) return got.failure();
            return static_cast<int>(got->size());
          });
          if (!decided) ++failed;
          if (decided) added += *decided;
          if (!store.commit_batch()) ++failed;
        });
      for (auto& t : owners) t.join();
      CHECK(failed.load() == 0);
      CHECK(added.load() == 2);
      Store store = storage_test::open_ok(test_db.url());
      auto all = work_queue::slots(store, event);
      REQUIRE(all);
      CHECK(all->size() == 4);
      CHECK(work_queue::event(store, event)->state != EventState::Finished);
    }
}
