// The storage the daemon adds (store.h, schema v4): events listed with their progress and
// filtered by state and kind; state changes only from the allowed states; priorities; standing
// events (ladders) never finish by themselves and take appended slots; a cancelled tournament
// stays cancelled; pages of games filtered by event, engine, game, result and status, newest
// first or after an id, with their total; registered engines (re-registered, retired) with their
// finished games; a v3 file migrated to v4 keeps its events and engines.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/engine_registry.h"
#include "storage/schema.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

const char* const kGame = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

using storage_test::open_ok;

std::vector<SlotRecord> slots_of(int n, const std::string& a = "a", const std::string& b = "b") {
  std::vector<SlotRecord> out;
  for (int i = 0; i < n; ++i) {
    SlotRecord s;
    s.slot = i;
    s.game = kGame;
    s.seats = i % 2 ? std::vector<std::string>{b, a} : std::vector<std::string>{a, b};
    s.pair = i / 2;
    out.push_back(s);
  }
  return out;
}

// Claims the next slot of `event` and finishes its game with `ranks` (seat order).
std::int64_t play_one(Store& store, std::int64_t event, std::int64_t owner,
                      std::vector<int> ranks) {
  auto claims = work_queue::claim_slots(store, owner, event, 1, 60000, {});
  REQUIRE(claims.ok());
  REQUIRE(claims->size() == 1);
  GameRecord g;
  g.event_id = event;
  g.slot = claims->front().slot.slot;
  g.game = kGame;
  g.players = claims->front().slot.seats;
  auto id = store.begin_game(g);
  REQUIRE(id.ok());
  GameRecord result;
  result.status = referee::storage::GameStatus::Finished;
  result.ranks = std::move(ranks);
  result.termination = "normal";
  result.plies = 0;
  auto end = work_queue::finish_claimed(store, *id, result, owner);
  REQUIRE(end.ok());
  REQUIRE(*end == ClaimEnd::Done);
  return *id;
}

}  // namespace

TEST_CASE("daemon store: events are listed newest first with their progress, by state and kind") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      NewEventOptions queued;
      queued.state = referee::storage::EventState::Queued;
      queued.priority = 5;
      auto first = work_queue::open_event(store, "first", "{}", "", slots_of(4), queued);
      REQUIRE(first.ok());
      CHECK(first->state == referee::storage::EventState::Queued);
      CHECK(first->priority == 5);
      NewEventOptions ladder;
      ladder.kind = EventKind::Ladder;
      auto standing = work_queue::open_event(store, "ladder awale", "{}", "", {}, ladder);
      REQUIRE(standing.ok());
      CHECK(standing->state ==
            referee::storage::EventState::Running);  // no slots, yet not finished: a ladder
      auto owner = work_queue::register_owner(
          store, {"serve", "host", 1, referee::storage::OwnerKind::Serve});
      REQUIRE(owner.ok());
      play_one(store, first->id, *owner, {1, 2});
      auto claimed = work_queue::claim_slots(store, *owner, first->id, 1, 60000, {});
      REQUIRE(claimed.ok());

      auto all = work_queue::events(store, {});
      REQUIRE(all.ok());
      REQUIRE(all->total == 2);
      REQUIRE(all->events.size() == 2);
      CHECK(all->events[0].name == "ladder awale");
      CHECK(all->events[0].kind == referee::storage::EventKind::Ladder);
      const EventInfo& e = all->events[1];
      CHECK(e.name == "first");
      CHECK(e.kind == EventKind::Tournament);
      CHECK(e.state == referee::storage::EventState::Queued);
      CHECK(e.priority == 5);
      CHECK(e.done == 1);
      CHECK(e.claimed == 1);
      CHECK(e.pending == 2);
      CHECK(e.skipped == 0);
      CHECK(e.total() == 4);
      CHECK_FALSE(e.created_at.empty());
      CHECK_FALSE(e.started_at.empty());  // its first game's start
      CHECK(e.finished_at.empty());

      EventQuery by_kind;
      by_kind.kind = EventKind::Ladder;
      CHECK(work_queue::events(store, by_kind)->total == 1);
      EventQuery by_state;
      by_state.states = {EventState::Queued, EventState::Paused};
      auto queued_only = work_queue::events(store, by_state);
      REQUIRE(queued_only->events.size() == 1);
      CHECK(queued_only->events[0].name == "first");
      EventQuery page;
      page.limit = 1;
      page.offset = 1;
      auto second_page = work_queue::events(store, page);
      CHECK(second_page->total == 2);
      REQUIRE(second_page->events.size() == 1);
      CHECK(second_page->events[0].name == "first");

      CHECK(work_queue::event(store, e.id)->done == 1);
      auto missing = work_queue::event(store, 999);
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().find("no event 999") != std::string::npos);
    }
}

TEST_CASE("daemon store: states change only from the allowed ones, paused events are not claimed") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      auto ev = work_queue::open_event(store, "ev", "{}", "", slots_of(2));
      REQUIRE(ev.ok());
      auto owner = work_queue::register_owner(
          store, {"serve", "host", 1, referee::storage::OwnerKind::Serve});
      REQUIRE(*work_queue::set_event_state(store, ev->id, EventState::Paused,
                                           {EventState::Queued, EventState::Running}));
      CHECK(work_queue::claim_slots(store, *owner, ev->id, 1, 60000, {})->empty());
      CHECK(work_queue::claim_slots(store, *owner, std::nullopt, 1, 60000, {})->empty());
      CHECK_FALSE(
          *work_queue::set_event_state(store, ev->id, EventState::Paused,
                                       {EventState::Queued, EventState::Running}));  // already
      REQUIRE(
          *work_queue::set_event_state(store, ev->id, EventState::Running, {EventState::Paused}));
      CHECK(work_queue::claim_slots(store, *owner, ev->id, 1, 60000, {})->size() == 1);
      REQUIRE(*work_queue::set_event_state(
          store, ev->id, EventState::Cancelled,
          {EventState::Queued, EventState::Running, EventState::Paused}));
      auto info = work_queue::event(store, ev->id);
      CHECK(info->state == referee::storage::EventState::Cancelled);
      CHECK_FALSE(info->finished_at.empty());
      CHECK_FALSE(
          *work_queue::set_event_state(store, ev->id, EventState::Running, {EventState::Paused}));
      REQUIRE(work_queue::set_event_priority(store, ev->id, -3).ok());
      CHECK(work_queue::event(store, ev->id)->priority == -3);
      CHECK_FALSE(work_queue::set_event_priority(store, 4242, 1).ok());
    }
}

TEST_CASE("daemon store: a cancelled tournament stays cancelled when its last game finishes") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      auto ev = work_queue::open_event(store, "ev", "{}", "", slots_of(1));
      auto owner = work_queue::register_owner(
          store, {"serve", "host", 1, referee::storage::OwnerKind::Serve});
      auto claims = work_queue::claim_slots(store, *owner, ev->id, 1, 60000, {});
      REQUIRE(claims->size() == 1);
      REQUIRE(*work_queue::set_event_state(store, ev->id, EventState::Cancelled,
                                           {EventState::Running}));
      GameRecord g;
      g.event_id = ev->id;
      g.slot = 0;
      g.game = kGame;
      g.players = {"a", "b"};
      auto id = store.begin_game(g);
      GameRecord result;
      result.status = referee::storage::GameStatus::Finished;
      result.ranks = {1, 2};
      REQUIRE(*work_queue::finish_claimed(store, *id, result, *owner) == ClaimEnd::Done);
      CHECK(work_queue::event(store, ev->id)->state == referee::storage::EventState::Cancelled);
    }
}

TEST_CASE("daemon store: a ladder takes appended slots and never finishes by itself") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      NewEventOptions ladder;
      ladder.kind = EventKind::Ladder;
      auto ev = work_queue::open_event(store, "ladder awale", "{}", "", {}, ladder);
      REQUIRE(ev.ok());
      auto numbers = work_queue::append_slots(store, ev->id, slots_of(2, "x", "y"));
      REQUIRE(numbers.ok());
      CHECK(*numbers == std::vector<std::int64_t>{0, 1});
      numbers = work_queue::append_slots(store, ev->id, slots_of(2, "x", "z"));
      CHECK(*numbers == std::vector<std::int64_t>{2, 3});
      auto open = work_queue::open_slots(store, ev->id);
      REQUIRE(open->size() == 4);
      CHECK((*open)[2].seats == std::vector<std::string>{"x", "z"});
      auto owner = work_queue::register_owner(
          store, {"serve", "host", 1, referee::storage::OwnerKind::Serve});
      for (int i = 0; i < 4; ++i) play_one(store, ev->id, *owner, {1, 2});
      CHECK(work_queue::open_slots(store, ev->id)->empty());
      CHECK(work_queue::event(store, ev->id)->state == referee::storage::EventState::Running);
      CHECK(work_queue::event(store, ev->id)->done == 4);
      // A skipped slot does not finish it either.
      REQUIRE(work_queue::append_slots(store, ev->id, slots_of(1)));
      CHECK(*work_queue::skip_slots(store, ev->id, {4}, "engine 'a' retired") == 1);
      CHECK(work_queue::event(store, ev->id)->state == referee::storage::EventState::Running);
    }
}

TEST_CASE("daemon store: pages of games by event, engine, game, result and status") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      auto one = work_queue::open_event(store, "one", "{}", "", slots_of(4, "a", "b"));
      auto two = work_queue::open_event(store, "two", "{}", "", slots_of(2, "a", "c"));
      auto owner = work_queue::register_owner(
          store, {"serve", "host", 1, referee::storage::OwnerKind::Serve});
      // one: a-b 1-0, b-a 1-0 (b wins), a-b draw, b-a 0-1 (a wins); two: a-c 1-0, c-a 1/2.
      std::vector<std::int64_t> ids;
      ids.push_back(play_one(store, one->id, *owner, {1, 2}));
      ids.push_back(play_one(store, one->id, *owner, {1, 2}));
      ids.push_back(play_one(store, one->id, *owner, {1, 1}));
      ids.push_back(play_one(store, one->id, *owner, {2, 1}));
      ids.push_back(play_one(store, two->id, *owner, {1, 2}));
      ids.push_back(play_one(store, two->id, *owner, {1, 1}));
      GameRecord running;
      running.game = "oware";
      running.players = {"a", "b"};
      REQUIRE(store.begin_game(running).ok());

      GamePageQuery all;
      auto page = store.game_page(all);
      REQUIRE(page.ok());
      CHECK(page->total == 7);
      REQUIRE(page->games.size() == 7);
      CHECK(page->games.front().game == "oware");  // newest first
      CHECK(page->games.back().id == ids.front());

      GamePageQuery q;
      q.event = one->id;
      CHECK(store.game_page(q)->total == 4);
      q = {};
      q.engine = "c";
      CHECK(store.game_page(q)->total == 2);
      q = {};
      q.result = "1/2-1/2";
      CHECK(store.game_page(q)->total == 2);
      q.result = "1-0";
      CHECK(store.game_page(q)->total == 3);
      q.result = "0-1";
      auto wins = store.game_page(q);
      REQUIRE(wins->games.size() == 1);
      CHECK(wins->games[0].id == ids[3]);
      q = {};
      q.status = referee::storage::GameStatus::Running;
      CHECK(store.game_page(q)->total == 1);
      q = {};
      q.game_prefix = "oware";
      CHECK(store.game_page(q)->total == 1);
      q = {};
      q.engine = "a";
      q.event = two->id;
      q.result = "1-0";
      CHECK(store.game_page(q)->total == 1);

      // Paging: limit/offset newest first; after an id oldest first; the total stays the whole.
      q = {};
      q.limit = 2;
      q.offset = 2;
      auto middle = store.game_page(q);
      CHECK(middle->total == 7);
      REQUIRE(middle->games.size() == 2);
      CHECK(middle->games[0].id == ids[4]);
      CHECK(middle->games[1].id == ids[3]);
      q = {};
      q.after_id = ids[1];
      q.newest_first = false;
      q.limit = 3;
      q.count_total = false;
      auto after = store.game_page(q);
      CHECK(after->total == 0);
      REQUIRE(after->games.size() == 3);
      CHECK(after->games[0].id == ids[2]);
      CHECK(after->games[2].id == ids[4]);
      CHECK(after->games[0].players == std::vector<std::string>{"a", "b"});
      CHECK(after->games[0].ranks == std::vector<int>{1, 1});
    }
}

TEST_CASE("daemon store: engines registered, re-registered and retired") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb dir_db(backend);
      auto store = open_ok(dir_db.url());
      RegisteredEngine e;
      e.name = "bot";
      e.command = "/usr/bin/bot";
      e.args = {"--fast"};
      e.options = {{"Hash", "16"}};
      e.games = {kGame};
      e.settings = "{\"protocol0\":true}";
      auto stored = engine_registry::register_engine(store, e);
      REQUIRE(stored.ok());
      CHECK(stored->command == "/usr/bin/bot");
      CHECK(stored->args == std::vector<std::string>{"--fast"});
      CHECK(stored->options.at("Hash") == "16");
      CHECK(stored->games == std::vector<std::string>{kGame});
      CHECK(stored->settings == "{\"protocol0\":true}");
      CHECK_FALSE(stored->registered_at.empty());
      CHECK(stored->retired_at.empty());

      CHECK(*engine_registry::retire_engine(store, "bot"));
      CHECK_FALSE(*engine_registry::retire_engine(store, "bot"));     // already retired
      CHECK_FALSE(*engine_registry::retire_engine(store, "nobody"));  // not registered
      // An engine known from games only is not registered and cannot be retired.
      GameRecord g;
      g.game = kGame;
      g.players = {"bot", "other"};
      REQUIRE(store.begin_game(g).ok());
      CHECK_FALSE(*engine_registry::retire_engine(store, "other"));
      auto all = engine_registry::engines(store);
      REQUIRE(all.ok());
      REQUIRE(all->size() == 2);
      CHECK((*all)[0].name == "bot");
      CHECK_FALSE((*all)[0].retired_at.empty());
      CHECK((*all)[1].name == "other");
      CHECK((*all)[1].registered_at.empty());
      CHECK((*all)[1].finished_games == 0);

      e.command = "/opt/bot2";
      auto again = engine_registry::register_engine(store, e);
      REQUIRE(again.ok());
      CHECK(again->command == "/opt/bot2");
      CHECK(again->retired_at.empty());  // registering again brings it back
      RegisteredEngine nameless;
      CHECK_FALSE(engine_registry::register_engine(store, nameless).ok());
    }
}

TEST_CASE("migration: a v3 file gains kinds and engine registrations, its events kept") {
  storage_test::TempDir dir;
  const auto path = dir.file("v3.db");
  {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    for (const auto& m : migrations())
      if (m.version <= 3) db.exec(m.sql);
    db.exec("INSERT INTO schema_version VALUES (3)");
    db.exec("INSERT INTO tournaments (name, spec, state) VALUES ('old', '{}', 'running')");
    db.exec("INSERT INTO engines (name, command) VALUES ('e', 'prog')");
  }
  auto store = open_ok(path);
  auto events = work_queue::events(store, {});
  REQUIRE(events->events.size() == 1);
  CHECK(events->events[0].kind == EventKind::Tournament);
  CHECK(events->events[0].state == referee::storage::EventState::Running);
  auto engines = engine_registry::engines(store);
  REQUIRE(engines->size() == 1);
  CHECK(engines->front().command == "prog");
  CHECK(engines->front().registered_at.empty());
  CHECK(engines->front().args.empty());
  SQLite::Database raw(path);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
}
