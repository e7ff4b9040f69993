// Events, slots and claims (store.h): an event is created once with its slots; claims are taken
// in schedule order by one owner at a time; leases expire and are renewed; finishing a game checks
// the claim in the same transaction (a lost claim is never rated); interrupted games release their
// slot; skipped slots are never claimed; a second finished game for one slot is impossible in the
// database itself; threads with their own connections claim every slot exactly once; the last
// two slots ended at once by two owners finish the event.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <future>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "storage/backends.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

const char* const kGame = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

using storage_test::open_ok;

std::vector<SlotRecord> slots_of(int n) {
  std::vector<SlotRecord> out;
  for (int i = 0; i < n; ++i) {
    SlotRecord s;
    s.slot = i;
    s.game = kGame;
    s.seats = i % 2 ? std::vector<std::string>{"b", i % 4 == 1 ? "a" : "c"}
                    : std::vector<std::string>{i % 4 == 0 ? "a" : "c", "b"};
    s.opening = {"3"};
    s.cycle = 0;
    s.round = 1 + i / 4;
    s.pair = i / 2;
    out.push_back(s);
  }
  return out;
}

std::int64_t event_of(Store& store, int slots, const std::string& name = "ev") {
  auto row = work_queue::open_event(store, name, "{\"spec\":1}", "{}", slots_of(slots));
  REQUIRE(row.ok());
  return row->id;
}

std::int64_t owner_of(Store& store, const std::string& name) {
  auto id = work_queue::register_owner(store, {name, "host", 42, OwnerKind::Tournament});
  REQUIRE(id.ok());
  return *id;
}

// Begins the game of a claim with `plies` moves recorded.
std::int64_t begin(Store& store, const Claim& c, std::int64_t owner, int plies = 1) {
  GameRecord g;
  g.event_id = c.event;
  g.slot = c.slot.slot;
  g.game = c.slot.game;
  g.players = c.slot.seats;
  g.owner = owner;
  auto id = store.begin_game(g);
  REQUIRE(id.ok());
  for (int p = 1; p <= plies; ++p)
    REQUIRE(store.add_move(*id, MoveRecord{p, 2 - p % 2, "3", 1, -1, "", "engine", ""}).ok());
  return *id;
}

GameRecord won(int plies = 1) {
  GameRecord r;
  r.status = referee::storage::GameStatus::Finished;
  r.ranks = {1, 2};
  r.termination = "rules";
  r.reason = "rules";
  r.plies = plies;
  return r;
}

std::string slot_state(Store& store, std::int64_t event, std::int64_t slot) {
  auto all = work_queue::slots(store, event);
  REQUIRE(all.ok());
  return to_text((*all)[static_cast<std::size_t>(slot)].state);
}

}  // namespace

TEST_CASE("claims: an event is created once with its slots, reopening returns it unchanged") {
  storage_test::TempDir dir;
  Store store = open_ok(dir.file("c.db"));
  auto first = work_queue::open_event(store, "ev", "{\"a\":1}", "{}", slots_of(6));
  REQUIRE(first.ok());
  CHECK(first->created);
  CHECK(first->state == referee::storage::EventState::Running);
  auto again = work_queue::open_event(store, "ev", "{\"a\":2}", "{}", slots_of(9));
  REQUIRE(again.ok());
  CHECK_FALSE(again->created);
  CHECK(again->id == first->id);
  CHECK(again->spec == "{\"a\":1}");  // the caller compares and refuses
  auto slots = work_queue::slots(store, first->id);
  REQUIRE(slots.ok());
  REQUIRE(slots->size() == 6);
  CHECK((*slots)[1].seats == std::vector<std::string>{"b", "a"});
  CHECK((*slots)[3].pair == 1);
  CHECK((*slots)[5].opening == std::vector<std::string>{"3"});
  for (const auto& s : *slots) CHECK(s.state == referee::storage::SlotState::Pending);
  CHECK_FALSE(work_queue::open_event(store, "", "{}", "{}", {}).ok());
  // An empty schedule is finished at once.
  auto empty = work_queue::open_event(store, "empty", "{}", "{}", {});
  REQUIRE(empty.ok());
  CHECK(empty->state == referee::storage::EventState::Finished);
  SQLite::Database sql(dir.file("c.db"), SQLite::OPEN_READONLY);
  CHECK(sql.execAndGet("SELECT state FROM events WHERE name = 'empty'").getString() == "finished");
}

TEST_CASE("claims: an event given in batches is stored whole, or not at all when a batch fails") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      // 257 slots in batches of 50: whole INSERTs of many rows and single rows after them.
      const auto all = slots_of(257);
      auto batches_of = [&](std::size_t size, std::size_t fail_at) {
        auto at = std::make_shared<std::size_t>(0);
        return SlotBatches([&all, at, size, fail_at](std::vector<SlotRecord>& batch) -> Status {
          if (*at >= fail_at) return referee::Error{"the opening of cycle 3: no"};
          for (; *at < all.size() && batch.size() < size; ++*at) batch.push_back(all[*at]);
          return referee::Ok{};
        });
      };
      auto failed = work_queue::open_event_in_batches(store, "ev", "{}", "{}", batches_of(50, 150));
      REQUIRE_FALSE(failed.ok());
      CHECK(failed.error() == "the opening of cycle 3: no");
      auto none = work_queue::events(store, {});
      REQUIRE(none.ok());
      CHECK(none->total == 0);  // nothing of it was kept
      auto row = work_queue::open_event_in_batches(store, "ev", "{}", "{}",
                                                   batches_of(50, all.size() + 1));
      REQUIRE(row.ok());
      CHECK(row->created);
      auto stored = work_queue::slots(store, row->id);
      REQUIRE(stored.ok());
      REQUIRE(stored->size() == all.size());
      for (std::size_t i = 0; i < all.size(); ++i) {
        INFO("slot " << i);
        const auto& s = (*stored)[i];
        CHECK(s.slot == all[i].slot);
        CHECK(s.seats == all[i].seats);
        CHECK(s.opening == all[i].opening);
        CHECK(s.round == all[i].round);
        CHECK(s.pair == all[i].pair);
      }
      // Reopened: the existing event, its batches never asked for.
      bool asked = false;
      auto again = work_queue::open_event_in_batches(store, "ev", "{}", "{}",
                                                     [&](std::vector<SlotRecord>&) -> Status {
                                                       asked = true;
                                                       return referee::Ok{};
                                                     });
      REQUIRE(again.ok());
      CHECK_FALSE(again->created);
      CHECK_FALSE(asked);
    }
}

TEST_CASE("claims: owners take distinct slots in schedule order, excluded engines left alone") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      const auto event = event_of(store, 6);
      const auto a = owner_of(store, "a"), b = owner_of(store, "b");
      auto c1 = work_queue::claim_slots(store, a, event, 2, 60000, {});
      auto c2 = work_queue::claim_slots(store, b, event, 1, 60000, {});
      REQUIRE(c1.ok());
      REQUIRE(c2.ok());
      REQUIRE(c1->size() == 2);
      REQUIRE(c2->size() == 1);
      CHECK((*c1)[0].slot.slot == 0);
      CHECK((*c1)[1].slot.slot == 1);
      CHECK((*c2)[0].slot.slot == 2);
      CHECK((*c2)[0].slot.attempts == 1);
      CHECK((*c2)[0].slot.owner == b);
      // Slots 3 (b, c), 4 (a, b) and 5 (b, a): without engine a, only slot 3.
      auto without_a = work_queue::claim_slots(store, b, event, 10, 60000, {"a"});
      REQUIRE(without_a.ok());
      REQUIRE(without_a->size() == 1);
      CHECK((*without_a)[0].slot.slot == 3);
      auto counts = work_queue::slot_counts(store, event, b);
      REQUIRE(counts.ok());
      CHECK(counts->claimed_mine == 2);
      CHECK(counts->claimed_others == 2);
      CHECK(counts->pending == 2);
      CHECK(counts->total() == 6);
      auto rest = work_queue::claim_slots(store, b, std::nullopt, 10, 60000, {});  // any event
      REQUIRE(rest.ok());
      CHECK(rest->size() == 2);
      CHECK(work_queue::claim_slots(store, a, event, 10, 60000, {})->empty());
    }
}

TEST_CASE("claims: an expired lease is taken over, the late finish is kept unfinished, unrated") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      const auto event = event_of(store, 2);
      const auto dead = owner_of(store, "dead"), alive = owner_of(store, "alive");
      auto mine = work_queue::claim_slots(store, dead, event, 1, 1, {});  // a 1 ms lease
      REQUIRE(mine.ok());
      REQUIRE(mine->size() == 1);
      const auto late_game = begin(store, mine->front(), dead);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      auto taken = work_queue::claim_slots(store, alive, event, 1, 60000, {});
      REQUIRE(taken.ok());
      REQUIRE(taken->size() == 1);
      CHECK(taken->front().slot.slot == 0);
      CHECK(taken->front().slot.attempts == 2);
      // The game of the expired claim is closed as interrupted when the slot is taken.
      auto closed = store.game(late_game);
      REQUIRE(closed.ok());
      CHECK(closed->status == referee::storage::GameStatus::Unfinished);
      CHECK(closed->termination == "interrupted");
      // The old owner ends its game: not done, not rated.
      auto end = work_queue::finish_claimed(store, late_game, won(), dead);
      REQUIRE(end.ok());
      CHECK(*end == ClaimEnd::Lost);
      auto lost = store.game(late_game);
      CHECK(lost->status == referee::storage::GameStatus::Unfinished);
      CHECK(lost->termination == "lost-claim");
      CHECK(lost->ranks.empty());
      CHECK(slot_state(store, event, 0) == "claimed");
      // The new owner finishes it.
      const auto game = begin(store, taken->front(), alive);
      auto done = work_queue::finish_claimed(store, game, won(), alive);
      REQUIRE(done.ok());
      CHECK(*done == ClaimEnd::Done);
      CHECK(slot_state(store, event, 0) == "done");
      CHECK(store.games({})->size() == 1);
    }
}

TEST_CASE("claims: renewed leases are not taken, stopping an owner releases its claims") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      const auto event = event_of(store, 3);
      const auto a = owner_of(store, "a"), b = owner_of(store, "b");
      REQUIRE(work_queue::claim_slots(store, a, event, 2, 100, {})->size() == 2);
      auto renewed = work_queue::renew_claims(store, a, 60000);
      REQUIRE(renewed.ok());
      CHECK(*renewed == 2);
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      auto other = work_queue::claim_slots(store, b, event, 5, 60000, {});
      REQUIRE(other.ok());
      REQUIRE(other->size() == 1);
      CHECK(other->front().slot.slot == 2);
      REQUIRE(work_queue::stop_owner(store, a).ok());
      CHECK(slot_state(store, event, 0) == "pending");
      CHECK(slot_state(store, event, 1) == "pending");
      CHECK(slot_state(store, event, 2) == "claimed");
      CHECK(*work_queue::renew_claims(store, a, 60000) == 0);
    }
}

TEST_CASE("claims: an interrupted game releases its slot, a released slot is claimed again") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      Store store = open_ok(dir_db.url());
      const auto event = event_of(store, 1);
      const auto a = owner_of(store, "a");
      auto c = work_queue::claim_slots(store, a, event, 1, 60000, {});
      REQUIRE(c->size() == 1);
      const auto game = begin(store, c->front(), a);
      GameRecord stop;
      stop.status = referee::storage::GameStatus::Unfinished;
      stop.termination = "interrupted";
      stop.reason = "Ctrl-C";
      auto end = work_queue::finish_claimed(store, game, stop, a);
      REQUIRE(end.ok());
      CHECK(*end == ClaimEnd::Released);
      CHECK(slot_state(store, event, 0) == "pending");
      auto again = work_queue::claim_slots(store, a, event, 1, 60000, {});
      REQUIRE(again->size() == 1);
      CHECK(again->front().slot.attempts == 2);
      REQUIRE(work_queue::release_slot(store, event, 0, a).ok());
      CHECK(slot_state(store, event, 0) == "pending");
    }
}

TEST_CASE("claims: skipped slots keep their reason and are never claimed") {
  storage_test::TempDir dir;
  Store store = open_ok(dir.file("c.db"));
  const auto event = event_of(store, 3);
  const auto a = owner_of(store, "a");
  auto c = work_queue::claim_slots(store, a, event, 1, 60000, {});
  const auto game = begin(store, c->front(), a);
  REQUIRE(*work_queue::finish_claimed(store, game, won(), a) == ClaimEnd::Done);
  auto skipped =
      work_queue::skip_slots(store, event, {0, 1, 2}, "engine 'c' does not declare awale");
  REQUIRE(skipped.ok());
  CHECK(*skipped == 2);  // the done slot stays done
  auto all = work_queue::slots(store, event);
  CHECK((*all)[0].state == referee::storage::SlotState::Done);
  CHECK((*all)[1].state == referee::storage::SlotState::Skipped);
  CHECK((*all)[2].reason == "engine 'c' does not declare awale");
  CHECK(work_queue::claim_slots(store, a, event, 5, 60000, {})->empty());
  SQLite::Database sql(dir.file("c.db"), SQLite::OPEN_READONLY);
  CHECK(sql.execAndGet("SELECT state FROM events").getString() == "finished");
}

TEST_CASE("claims: a finish without every move stored is refused, a second finish is impossible") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      Store store = open_ok(path);
      const auto event = event_of(store, 1);
      const auto a = owner_of(store, "a");
      auto c = work_queue::claim_slots(store, a, event, 1, 60000, {});
      const auto game = begin(store, c->front(), a, 2);
      auto short_of_moves = work_queue::finish_claimed(store, game, won(3), a);
      REQUIRE_FALSE(short_of_moves.ok());
      CHECK(short_of_moves.error() == path + ": cannot finish game " + std::to_string(game) +
                                          ": 2 of its 3 moves are stored");
      CHECK(slot_state(store, event, 0) == "claimed");
      REQUIRE(*work_queue::finish_claimed(store, game, won(2), a) == ClaimEnd::Done);
      // Whatever the code does, the database holds one finished game per slot.
      const auto second = begin(store, c->front(), a);
      auto twice = store.finish_game(second, won());
      REQUIRE_FALSE(twice.ok());
      // SQLite: "UNIQUE constraint failed"; PostgreSQL: "violates unique constraint".
      CHECK((twice.error().find("UNIQUE") != std::string::npos ||
             twice.error().find("unique constraint") != std::string::npos));
      CHECK(store.game(second)->status == referee::storage::GameStatus::Running);
      auto not_in_event = store.begin_game([] {
        GameRecord g;
        g.game = kGame;
        g.players = {"a", "b"};
        return g;
      }());
      REQUIRE(not_in_event.ok());
      auto outside = work_queue::finish_claimed(store, *not_in_event, won(0), a);
      REQUIRE_FALSE(outside.ok());
      CHECK(outside.error().find("belongs to no slot") != std::string::npos);
    }
}

TEST_CASE("claims: threads with their own connections claim every slot exactly once") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      const auto path = dir_db.url();
      std::int64_t event = 0;
      {
        Store store = open_ok(path);
        event = event_of(store, 40);
      }
      constexpr int kThreads = 4;
      std::latch start(kThreads);
      std::mutex mutex;
      std::map<std::int64_t, int> claimed;
      std::vector<std::string> errors(kThreads);
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
          auto store = Store::open(path);
          if (!store) {
            errors[static_cast<std::size_t>(t)] = store.error();
            return;
          }
          auto owner = work_queue::register_owner(
              *store, {"t", "host", t, referee::storage::OwnerKind::Worker});
          start.arrive_and_wait();
          while (owner) {
            auto c = work_queue::claim_slots(*store, *owner, event, 1, 60000, {});
            if (!c) {
              errors[static_cast<std::size_t>(t)] = c.error();
              return;
            }
            if (c->empty()) return;
            GameRecord g;
            g.event_id = event;
            g.slot = c->front().slot.slot;
            g.game = kGame;
            g.players = c->front().slot.seats;
            auto id = store->begin_game(g);
            auto end = id ? work_queue::finish_claimed(*store, *id, won(0), *owner)
                          : referee::Expected<ClaimEnd>(id.failure());
            if (!end || *end != ClaimEnd::Done) {
              errors[static_cast<std::size_t>(t)] = end ? "not done" : end.error();
              return;
            }
            std::lock_guard lock(mutex);
            ++claimed[c->front().slot.slot];
          }
        });
      for (auto& th : threads) th.join();
      for (const auto& e : errors) CHECK(e == "");
      CHECK(claimed.size() == 40);
      for (const auto& [slot, n] : claimed) CHECK(n == 1);
      Store store = open_ok(path);
      CHECK(store.games({})->size() == 40);
    }
}

TEST_CASE("claims: the last two slots finished at once by two owners finish the event") {
  // PostgreSQL runs them side by side (read committed): each finish saw the other's slot still
  // claimed, and the event stayed running for ever (CI saw serve_pg_test wait for it). Owner a's
  // finish is held open in a batch while owner b finishes the other slot on its own connection,
  // then a commits.
  auto* pg = storage_test::postgres_or_skip();
  if (!pg) return;
  const std::string url = pg->new_database();
  Store a_store = open_ok(url);
  Store b_store = open_ok(url);
  const auto event = event_of(a_store, 3);
  const auto a = owner_of(a_store, "a"), b = owner_of(b_store, "b");
  // A first game makes its result kind: a second new one would wait for the first's commit.
  auto first = work_queue::claim_slots(a_store, a, event, 1, 60000, {});
  REQUIRE(*work_queue::finish_claimed(a_store, begin(a_store, first->front(), a), won(), a) ==
          ClaimEnd::Done);
  auto a_claim = work_queue::claim_slots(a_store, a, event, 1, 60000, {});
  auto b_claim = work_queue::claim_slots(b_store, b, event, 1, 60000, {});
  REQUIRE(a_claim->size() == 1);
  REQUIRE(b_claim->size() == 1);
  const auto a_game = begin(a_store, a_claim->front(), a);
  const auto b_game = begin(b_store, b_claim->front(), b);

  REQUIRE(a_store.begin_batch().ok());
  REQUIRE(*work_queue::finish_claimed(a_store, a_game, won(), a) == ClaimEnd::Done);
  std::promise<std::string> b_done;
  auto b_result = b_done.get_future();
  std::thread b_thread([&] {
    auto end = work_queue::finish_claimed(b_store, b_game, won(), b);
    b_done.set_value(!end ? end.error() : *end == ClaimEnd::Done ? "done" : "not done");
  });
  // b ends its slot while a's is still uncommitted (a bound: b may wait for a on some backend).
  b_result.wait_for(std::chrono::milliseconds(300));
  REQUIRE(a_store.commit_batch().ok());
  b_thread.join();
  CHECK(b_result.get() == "done");
  CHECK(work_queue::event(a_store, event)->state == referee::storage::EventState::Finished);
}

TEST_CASE("claims: an event left running with every slot done is finished by the next claim") {
  // A database written before the fix above can hold such an event; nothing else would end it.
  storage_test::TempDir dir;
  const auto path = dir.file("c.db");
  Store store = open_ok(path);
  const auto event = event_of(store, 1);
  const auto a = owner_of(store, "a");
  auto claim = work_queue::claim_slots(store, a, event, 1, 60000, {});
  REQUIRE(*work_queue::finish_claimed(store, begin(store, claim->front(), a), won(), a) ==
          ClaimEnd::Done);
  REQUIRE(work_queue::event(store, event)->state == referee::storage::EventState::Finished);
  {
    SQLite::Database sql(path, SQLite::OPEN_READWRITE);
    sql.exec("UPDATE events SET state = 'running', finished_at = ''");
  }
  REQUIRE(work_queue::event(store, event)->state == referee::storage::EventState::Running);
  auto none = work_queue::claim_slots(store, a, std::nullopt, 4, 60000, {});
  REQUIRE(none.ok());
  CHECK(none->empty());
  CHECK(work_queue::event(store, event)->state == referee::storage::EventState::Finished);
}
