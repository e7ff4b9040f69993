// work_queue::respecify_unplayed_event on both backends: an event in which no game was played
// takes a new specification and schedule (its old slots gone, its state running again); one with
// a slot claimed by a live owner, or with a game recorded (even an unfinished one), is left as it
// was.
#include <catch2/catch.hpp>
#include <memory>

#include "storage/backends.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;
using referee::Expected, referee::Ok, referee::Status;

namespace {

const char* const kGame = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

std::vector<SlotRecord> slots_of(int n, const std::string& first) {
  std::vector<SlotRecord> out;
  for (int i = 0; i < n; ++i) {
    SlotRecord s;
    s.slot = i;
    s.game = kGame;
    s.seats = i % 2 ? std::vector<std::string>{"b", first} : std::vector<std::string>{first, "b"};
    s.pair = i / 2;
    out.push_back(s);
  }
  return out;
}

SlotBatches batches_of(const std::vector<SlotRecord>& slots) {
  auto given = std::make_shared<bool>(false);
  return [slots, given](std::vector<SlotRecord>& batch) -> Status {
    if (!*given) batch = slots;
    *given = true;
    return Ok{};
  };
}

Expected<bool> respecify(Store& store, std::int64_t event, const std::string& spec, int slots) {
  return work_queue::respecify_unplayed_event(store, event, spec, "{}",
                                              batches_of(slots_of(slots, "c")), EventKind::Sprt);
}

std::string spec_of(Store& store, std::int64_t event) {
  auto info = work_queue::event(store, event);
  REQUIRE(info.ok());
  return info->spec;
}

}  // namespace

TEST_CASE("respecify: an unplayed event takes a new specification, a played one does not") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      auto store = storage_test::open_ok(db.url());
      auto row = work_queue::open_event(store, "ev", "{\"v\":1}", "{}", slots_of(4, "a"));
      REQUIRE(row.ok());
      const auto event = row->id;

      // A live owner holds a claim: it may be about to play, so nothing changes.
      auto owner = work_queue::register_owner(store, {"o", "host", 42, OwnerKind::Tournament});
      REQUIRE(owner.ok());
      auto claims = work_queue::claim_slots(store, *owner, event, 1, 60000, {});
      REQUIRE(claims.ok());
      REQUIRE(claims->size() == 1);
      auto held = respecify(store, event, "{\"v\":2}", 2);
      REQUIRE(held.ok());
      CHECK_FALSE(*held);
      CHECK(spec_of(store, event) == "{\"v\":1}");

      // Its owner stopped (its claim released), no game recorded: replaced.
      REQUIRE(work_queue::stop_owner(store, *owner).ok());
      auto replaced = respecify(store, event, "{\"v\":2}", 2);
      REQUIRE(replaced.ok());
      CHECK(*replaced);
      CHECK(spec_of(store, event) == "{\"v\":2}");
      auto info = work_queue::event(store, event);
      REQUIRE(info.ok());
      CHECK(info->kind == EventKind::Sprt);
      CHECK(info->state == EventState::Running);
      auto slots = work_queue::slots(store, event);
      REQUIRE(slots.ok());
      REQUIRE(slots->size() == 2);
      CHECK(slots->front().seats == std::vector<std::string>{"c", "b"});

      // A game recorded (begun, never finished): the event keeps what it was played under.
      auto second = work_queue::register_owner(store, {"p", "host", 43, OwnerKind::Tournament});
      REQUIRE(second.ok());
      auto claim = work_queue::claim_slots(store, *second, event, 1, 60000, {});
      REQUIRE(claim.ok());
      REQUIRE(claim->size() == 1);
      GameRecord g;
      g.event_id = event;
      g.slot = claim->front().slot.slot;
      g.game = kGame;
      g.players = claim->front().slot.seats;
      g.owner = *second;
      REQUIRE(store.begin_game(g).ok());
      REQUIRE(work_queue::stop_owner(store, *second).ok());
      auto played = respecify(store, event, "{\"v\":3}", 4);
      REQUIRE(played.ok());
      CHECK_FALSE(*played);
      CHECK(spec_of(store, event) == "{\"v\":2}");
      auto kept = work_queue::slots(store, event);
      REQUIRE(kept.ok());
      CHECK(kept->size() == 2);
    }
}
