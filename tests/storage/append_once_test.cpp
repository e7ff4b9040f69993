// storage/work_queue: games added to a running event by whichever owner sees they are due (a
// Swiss round, a knockout match's next games) are added exactly once, however many owners decide
// it at once, on SQLite and PostgreSQL: append_slots with the number the first should get.
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

}  // namespace

TEST_CASE("append once: the next round is added by one owner, the others are told Conflict") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      std::int64_t event = 0;
      {
        Store store = storage_test::open_ok(test_db.url());
        auto ev = work_queue::open_event(store, "swiss", "{}", "", round_of(4, 1));
        REQUIRE(ev);
        event = ev->id;
      }
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
