// referee/event/owner_loop: the one owner loop of `tournament`, `serve` and `worker`, and the
// decisions it takes once for the three: the commit interval per backend, what an event's
// concurrency of 0 means, the SPRT throttle, a storage failure's kind, the drain, and events
// whose games are appended while the loop runs (wake). Real SQLite files and the mock engine.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <optional>
#include <thread>

#include "engines/system.h"
#include "games/game.h"
#include "referee/event/owner_loop.h"
#include "referee/event/sprt_event.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"
#include "tests/referee/small_disk.h"
#include "tests/storage/backends.h"

using namespace referee;
using namespace referee::match;
using namespace referee::event;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

TournamentEngine mock(const std::string& name, std::vector<std::string> flags = {}) {
  TournamentEngine e;
  e.config.name = name;
  e.config.command = rtest::kMock;
  e.config.args = std::move(flags);
  return e;
}

std::vector<storage::SlotRecord> slots_of(int n, const std::string& spec = "awale:maxplies=6") {
  std::vector<storage::SlotRecord> out;
  const std::string game = games::make_game(spec)->canonical();
  for (int i = 0; i < n; ++i) {
    storage::SlotRecord s;
    s.slot = i;
    s.game = game;
    s.seats = i % 2 ? std::vector<std::string>{"b", "a"} : std::vector<std::string>{"a", "b"};
    s.pair = i / 2;
    out.push_back(s);
  }
  return out;
}

OwnerSettings settings_of(int threads, long lease_ms = 2000) {
  OwnerSettings s;
  s.info.name = "owner loop test";
  s.info.host = engines::host_name();
  s.info.pid = engines::process_id();
  s.info.lease_ms = lease_ms;
  s.threads = threads;
  s.keep_logs = false;
  return s;
}

std::shared_ptr<EventRoster> roster_of(std::vector<TournamentEngine> engines) {
  return std::make_shared<EventRoster>(std::move(engines), *parse_time_control("10+0.1"), 3, false);
}

// One event; threads end when nothing is left to claim.
WorkSource one_event(std::int64_t event, std::shared_ptr<EventRoster> roster,
                     std::atomic<int>* done = nullptr) {
  WorkSource source;
  source.candidates = [event, roster] { return std::vector<Candidate>{{event, roster}}; };
  source.exhausted = [] { return true; };
  source.watch = [done](const storage::Claim&) {
    GameWatch w;
    w.finished = [done](SlotOutcome& out) {
      if (done && out.kind == SlotOutcome::Kind::Done) ++*done;
    };
    return w;
  };
  return source;
}

std::int64_t slots_in(storage::Store& store, std::int64_t event, storage::SlotState state) {
  auto all = storage::work_queue::slots(store, event);
  REQUIRE(all);
  std::int64_t n = 0;
  for (const auto& s : *all) n += s.state == state;
  return n;
}

}  // namespace

TEST_CASE("owner loop: every owner commits every 20 ms on a file and every 100 ms on a server") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      auto store = storage::Store::open(test_db.url());
      REQUIRE(store);
      CHECK(commit_interval(*store).count() == (backend == "sqlite" ? 20 : 100));
      // The loop takes it unless told otherwise (serve's and worker's --commit-interval).
      auto loop = OwnerLoop::start(*store, settings_of(1));
      REQUIRE(loop);
      CHECK((*loop)->interval().count() == (backend == "sqlite" ? 20 : 100));
      CHECK((*loop)->stop());
    }
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  OwnerSettings told = settings_of(1);
  told.commit_interval = milliseconds(7);
  auto loop = OwnerLoop::start(*store, told);
  REQUIRE(loop);
  CHECK((*loop)->interval().count() == 7);
}

TEST_CASE(
    "owner loop: an event's concurrency of 0 means as many games as the process has threads") {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  CHECK(game_threads(0) == cores);  // `referee tournament` with concurrency = 0; `serve` without -j
  CHECK(game_threads(3) == 3);
  CHECK(games_at_once(0, 8) == 8);   // no limit of its own
  CHECK(games_at_once(2, 8) == 2);   // its own limit
  CHECK(games_at_once(12, 8) == 8);  // never more than the threads
}

TEST_CASE("owner loop: the SPRT runs after every game below 1000 games, then pays for itself") {
  const auto t0 = Clock::now();
  SprtThrottle throttle;
  CHECK(throttle.due(t0));
  throttle.ran(999, t0, t0 + milliseconds(50));  // slow, but the event is small
  CHECK(throttle.due(t0 + milliseconds(50)));
  throttle.ran(1000, t0, t0 + milliseconds(5));  // fast enough: no wait
  CHECK(throttle.due(t0 + milliseconds(5)));
  throttle.ran(1000, t0, t0 + milliseconds(10));  // 10 ms: waits 9 × 10 ms after it
  CHECK_FALSE(throttle.due(t0 + milliseconds(99)));
  CHECK(throttle.due(t0 + milliseconds(100)));
}

TEST_CASE("owner loop: the games of an event are played once each, then the threads end") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  auto ev = storage::work_queue::open_event(*store, "e", "{}", "", slots_of(6));
  REQUIRE(ev);
  auto loop = OwnerLoop::start(*store, settings_of(2));
  REQUIRE(loop);
  std::atomic<int> done{0};
  (*loop)->run(one_event(ev->id, roster_of({mock("a"), mock("b")}), &done));
  CHECK((*loop)->wait_games(milliseconds(60000)));
  CHECK(done.load() == 6);
  REQUIRE((*loop)->stop());
  CHECK_FALSE((*loop)->failed());
  CHECK((*loop)->totals().round_trips > 0);
  auto again = storage::Store::open(dir.file("x.db"));
  REQUIRE(again);
  CHECK(slots_in(*again, ev->id, storage::SlotState::Done) == 6);
}

TEST_CASE("owner loop: slots appended while it runs are played once woken") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  storage::NewEventOptions ladder;
  ladder.kind = storage::EventKind::Ladder;
  auto ev = storage::work_queue::open_event(*store, "ladder", "{}", "", {}, ladder);
  REQUIRE(ev);
  auto loop = OwnerLoop::start(*store, settings_of(1, 60000));
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  std::atomic<int> done{0};
  WorkSource source = one_event(ev->id, roster_of({mock("a"), mock("b")}), &done);
  source.exhausted = [] { return false; };  // a standing event: wait for more
  owner.run(source);
  std::this_thread::sleep_for(milliseconds(100));
  CHECK(done.load() == 0);
  // The idle wait of a 60 s lease is 500 ms; the wake makes it look at once.
  auto appended = owner.recorder().call<std::vector<std::int64_t>>(
      [&](storage::Store& s) { return storage::work_queue::append_slots(s, ev->id, slots_of(2)); });
  REQUIRE(appended);
  owner.wake();
  for (int i = 0; i < 600 && done.load() < 2; ++i) std::this_thread::sleep_for(milliseconds(50));
  CHECK(done.load() == 2);
  CHECK(owner.drain(0, [] { return false; }) == 0);
  CHECK(owner.stop());
}

TEST_CASE("owner loop: a drain lets games finish, then interrupts them and releases their slots") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  auto ev = storage::work_queue::open_event(*store, "e", "{}", "", slots_of(2));
  REQUIRE(ev);
  auto loop = OwnerLoop::start(*store, settings_of(2, 60000));
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  // Engines that take 400 ms a move: both games are in hand when the drain begins.
  owner.run(
      one_event(ev->id, roster_of({mock("a", {"--slow-ms=400"}), mock("b", {"--slow-ms=400"})})));
  for (int i = 0; i < 200 && owner.busy() < 2; ++i) std::this_thread::sleep_for(milliseconds(20));
  REQUIRE(owner.busy() == 2);
  CHECK(owner.busy_on(ev->id) == 2);
  const auto t0 = Clock::now();
  CHECK(owner.drain(0.3, [] { return true; }) == 2);
  CHECK(Clock::now() - t0 < milliseconds(5000));
  CHECK(owner.games_over());
  REQUIRE(owner.stop());
  auto again = storage::Store::open(dir.file("x.db"));
  REQUIRE(again);
  CHECK(slots_in(*again, ev->id, storage::SlotState::Pending) ==
        2);  // released, played by the next owner
  storage::GameFilter f;
  f.finished_only = false;
  auto games = again->games(f);
  REQUIRE(games);
  REQUIRE(games->size() == 2);
  for (const auto& g : *games) CHECK(g.termination == "interrupted");
}

// A database of one event of 40 awale games whose file may grow by 6 pages only (room for a few
// games): writes past that fail as on a full disk. `event` is set to the event's id.
storage::Store tiny_store(const rtest::TempDir& dir, std::int64_t& event) {
  {
    auto store = storage::Store::open(dir.file("x.db"));
    REQUIRE(store);
    auto ev =
        storage::work_queue::open_event(*store, "e", "{}", "", slots_of(40, "awale:maxplies=60"));
    REQUIRE(ev);
    event = ev->id;
  }
  int pages = 0;
  {
    SQLite::Database sql(dir.file("x.db"));
    pages = sql.execAndGet("PRAGMA page_count").getInt();
  }
  storage::OpenOptions tiny;
  tiny.max_page_count = pages + 6;
  auto store = storage::Store::open(dir.file("x.db"), tiny);
  REQUIRE(store);
  return std::move(*store);
}

TEST_CASE("owner loop: a storage failure halts every game and keeps its kind") {
  rtest::TempDir dir;
  std::int64_t event = 0;
  auto store = std::optional<storage::Store>(tiny_store(dir, event));
  OwnerSettings with_logs = settings_of(2);
  with_logs.keep_logs = true;
  with_logs.limits.degrade = false;  // as `referee tournament`: a full disk stops the owner
  auto loop = OwnerLoop::start(*store, with_logs);
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  owner.run(one_event(event, roster_of({mock("a"), mock("b")})));
  CHECK(owner.wait_games(milliseconds(60000)));
  REQUIRE(owner.failed());
  CHECK(owner.health().state == OwnerState::Failed);
  CHECK(owner.draining());
  CHECK_FALSE(owner.failure().message.empty());
  CHECK(owner.failure().kind == ErrorKind::Full);  // a full disk, not a lost connection
  (void)owner.stop();
}

namespace {

// Waits up to `seconds` for `done`.
bool eventually(const std::function<bool()>& done, double seconds = 30) {
  const auto until = Clock::now() + milliseconds(static_cast<long>(seconds * 1000));
  while (Clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return done();
}

std::int64_t games_in(const std::string& file) {
  auto store = storage::Store::open(file, storage::OpenOptions{true});
  REQUIRE(store);
  storage::GameFilter f;
  f.finished_only = false;
  auto games = store->games(f);
  REQUIRE(games);
  return static_cast<std::int64_t>(games->size());
}

// A standing event (a ladder): threads wait for more instead of ending.
WorkSource standing(std::int64_t event, std::shared_ptr<EventRoster> roster,
                    std::atomic<int>* done) {
  WorkSource source = one_event(event, std::move(roster), done);
  source.exhausted = [] { return false; };
  return source;
}

}  // namespace

TEST_CASE("owner loop: below its free-space headroom it starts no game, then resumes") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  auto ev = storage::work_queue::open_event(*store, "e", "{}", "", slots_of(4));
  REQUIRE(ev);
  OwnerSettings settings = settings_of(2);
  settings.limits.headroom_bytes = std::int64_t{1} << 60;  // above any disk's free space
  settings.limits.space_check = milliseconds(50);
  std::vector<OwnerHealth> told;
  std::mutex told_mutex;
  settings.limits.changed = [&](const OwnerHealth& h) {
    std::lock_guard lock(told_mutex);
    told.push_back(h);
  };
  auto loop = OwnerLoop::start(*store, settings);
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  std::atomic<int> done{0};
  owner.run(standing(ev->id, roster_of({mock("a"), mock("b")}), &done));
  const OwnerHealth h = owner.health();
  CHECK(h.state == OwnerState::Degraded);
  CHECK(rtest::contains(h.reason, "low disk"));
  CHECK(rtest::contains(h.reason, "below the headroom"));
  CHECK(h.free_bytes > 0);
  std::this_thread::sleep_for(milliseconds(600));  // a dozen checks
  CHECK(done.load() == 0);
  CHECK(owner.busy() == 0);
  CHECK(games_in(dir.file("x.db")) == 0);  // nothing started; reads answered meanwhile
  CHECK_FALSE(owner.failed());
  owner.set_headroom(0);  // room again, as a lower setting or a freed disk
  CHECK(owner.health().state == OwnerState::Ok);
  CHECK(eventually([&] { return done.load() == 4; }));
  {
    std::lock_guard lock(told_mutex);
    REQUIRE(told.size() == 2);  // once degraded (not once per check), once resumed
    CHECK(told[0].state == OwnerState::Degraded);
    CHECK(told[1].state == OwnerState::Ok);
  }
  CHECK(owner.drain(0, [] { return false; }) == 0);
  CHECK(owner.stop());
  auto again = storage::Store::open(dir.file("x.db"));
  REQUIRE(again);
  CHECK(slots_in(*again, ev->id, storage::SlotState::Done) == 4);
}

TEST_CASE("owner loop: a write failing on a full file degrades it instead of stopping it") {
  rtest::TempDir dir;
  std::int64_t event = 0;
  auto store = std::optional<storage::Store>(tiny_store(dir, event));
  OwnerSettings settings = settings_of(2);
  settings.keep_logs = true;
  settings.limits.headroom_bytes = 0;
  settings.limits.space_check = milliseconds(60000);  // no retry within the test
  auto loop = OwnerLoop::start(*store, settings);
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  owner.run(standing(event, roster_of({mock("a"), mock("b")}), nullptr));
  REQUIRE(eventually([&] { return owner.degraded(); }, 60));
  CHECK(eventually([&] { return owner.busy() == 0; }));  // the games in hand were interrupted
  const OwnerHealth h = owner.health();
  CHECK(h.state == OwnerState::Degraded);
  CHECK(rtest::contains(h.reason, "full"));
  CHECK_FALSE(owner.failed());
  CHECK_FALSE(owner.draining());
  CHECK(owner.stop());
}

TEST_CASE("owner loop: on a real full disk it degrades, and plays every game once there is room") {
  rtest::SmallDisk disk(24);
  if (!disk.ok()) {
    WARN("skipped: mounting a tmpfs needs root");
    return;
  }
  const std::string db = disk.file("x.db");
  std::int64_t event = 0;
  {
    auto store = storage::Store::open(db);
    REQUIRE(store);
    auto ev =
        storage::work_queue::open_event(*store, "e", "{}", "", slots_of(12, "awale:maxplies=40"));
    REQUIRE(ev);
    event = ev->id;
  }
  auto store = storage::Store::open(db);
  REQUIRE(store);
  OwnerSettings settings = settings_of(2);
  settings.keep_logs = true;
  settings.limits.headroom_bytes = 4 << 20;
  settings.limits.space_check = milliseconds(50);
  auto loop = OwnerLoop::start(*store, settings);
  REQUIRE(loop);
  OwnerLoop& owner = **loop;
  std::atomic<int> done{0};
  disk.fill(1 << 20);  // 1 MiB free: below the headroom before anything starts
  owner.run(standing(event, roster_of({mock("a", {"--slow-ms=5"}), mock("b")}), &done));
  CHECK(owner.health().state == OwnerState::Degraded);
  CHECK(rtest::contains(owner.health().reason, "low disk"));
  std::this_thread::sleep_for(milliseconds(400));
  CHECK(done.load() == 0);
  CHECK(games_in(db) == 0);  // reads go on
  // Room: it resumes by itself (no restart) and starts games.
  disk.unfill();
  REQUIRE(eventually([&] { return done.load() >= 1; }));
  // Now a disk that fills up under running games, the headroom off: the writes fail with
  // ErrorKind::Full, the owner degrades (it does not stop), and frees the games in hand.
  owner.set_headroom(0);
  disk.fill(0);
  REQUIRE(eventually([&] { return owner.degraded() || done.load() == 12; }, 60));
  if (done.load() < 12) {
    CHECK(rtest::contains(owner.health().reason, "full"));
    CHECK_FALSE(owner.failed());
    CHECK(eventually([&] { return owner.busy() == 0; }));
    const int before = done.load();
    std::this_thread::sleep_for(milliseconds(300));
    CHECK(done.load() == before);
    disk.unfill();
  }
  REQUIRE(eventually([&] { return done.load() == 12; }, 120));
  CHECK(owner.health().state == OwnerState::Ok);
  CHECK(owner.drain(0, [] { return false; }) == 0);
  CHECK(owner.stop());
  auto again = storage::Store::open(db);
  REQUIRE(again);
  CHECK(slots_in(*again, event, storage::SlotState::Done) == 12);
  storage::GameFilter f;
  auto finished = again->games(f);
  REQUIRE(finished);
  CHECK(finished->size() == 12);  // each slot's game finished once
  for (const auto& g : *finished) {
    auto moves = again->moves(g.id);
    REQUIRE(moves);
    CHECK(static_cast<std::int64_t>(moves->size()) == g.plies);  // no move lost, none twice
  }
}

TEST_CASE("owner loop: a flooding engine is held to its output budget across games") {
  rtest::TempDir dir;
  auto store = storage::Store::open(dir.file("x.db"));
  REQUIRE(store);
  auto ev =
      storage::work_queue::open_event(*store, "e", "{}", "", slots_of(8, "awale:maxplies=20"));
  REQUIRE(ev);
  OwnerSettings settings = settings_of(1);
  settings.keep_logs = true;
  settings.limits.engine_output.bytes = 16 << 10;
  std::atomic<int> done{0};
  std::vector<std::string> notices;
  WorkSource source =
      one_event(ev->id, roster_of({mock("a", {"--spam-info=40", "--stderr=3"}), mock("b")}));
  source.watch = [&](const storage::Claim&) {
    GameWatch w;
    w.finished = [&](SlotOutcome& out) {
      done += out.kind == SlotOutcome::Kind::Done;
      for (const auto& n : out.notices) notices.push_back(n);  // one game thread
    };
    return w;
  };
  auto loop = OwnerLoop::start(*store, settings);
  REQUIRE(loop);
  (*loop)->run(source);
  CHECK((*loop)->wait_games(milliseconds(60000)));
  REQUIRE((*loop)->stop());
  CHECK(done.load() == 8);
  REQUIRE(notices.size() == 1);  // told once, not per line or per game
  CHECK(rtest::contains(notices[0], "engine 'a' has spent its output budget (16 KiB per 1 h)"));

  auto again = storage::Store::open(dir.file("x.db"));
  REQUIRE(again);
  auto games = again->games(storage::GameFilter{});
  REQUIRE(games);
  REQUIRE(games->size() == 8);
  std::map<std::string, std::int64_t> stored;  // engine -> bytes of its own output kept
  int notes = 0;
  for (const auto& g : *games) {
    auto moves = again->moves(g.id);
    REQUIRE(moves);
    CHECK(static_cast<std::int64_t>(moves->size()) == g.plies);  // every move kept
    for (const auto& m : *moves)
      if (m.player >= 1)
        stored[g.players[static_cast<std::size_t>(m.player - 1)]] +=
            m.info.empty() ? 0 : static_cast<std::int64_t>(m.info.size()) + 1;
    auto lines = again->logs(g.id);
    REQUIRE(lines);
    for (const auto& l : *lines) {
      if (l.direction == '>') continue;
      if (rtest::contains(l.text, "has spent its output budget")) {
        ++notes;
        continue;
      }
      stored[g.players[static_cast<std::size_t>(l.seat - 1)]] +=
          static_cast<std::int64_t>(l.text.size()) + 1;
    }
  }
  // Without the budget the flooding engine would have stored ~70 KiB.
  CHECK(stored["a"] <= 16 << 10);
  CHECK(stored["a"] > 8 << 10);
  CHECK(stored["b"] > 0);  // the quiet engine keeps its output
  CHECK(notes >= 1);       // the games after the budget say where its output was dropped
  CHECK(notes <= 8);       // at most once per game
}
