// referee/tournament: real tournament runs with the mock engine and the example engines: every
// game lands in the database with its result and replays to it; a second run replays nothing;
// a run stopped midway (stop flag, or games left "running" by a killed process) is completed by
// the next; engines that crash every game are withdrawn and the event goes on; engines that fail
// to start or do not play the game leave their games unscored; concurrency; a changed schedule
// under the same name is refused.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "games/game.h"
#include "referee/event/schedule.h"
#include "referee/event/tournament.h"
#include "referee/match/replay.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using rtest::contains;

namespace {

TournamentEngine engine_of(const std::string& name, const std::string& command,
                           std::vector<std::string> args = {}) {
  TournamentEngine e;
  e.config.name = name;
  e.config.command = command;
  e.config.args = std::move(args);
  return e;
}

TournamentEngine mock_engine(const std::string& name, std::vector<std::string> flags = {}) {
  return engine_of(name, rtest::kMock, std::move(flags));
}

TournamentConfig config_of(const rtest::TempDir& dir, std::vector<TournamentEngine> engines,
                           const std::string& game = "awale:maxplies=20", int cycles = 1) {
  TournamentConfig c;
  c.name = "event";
  c.database = dir.file("event.db");
  c.games = {games::make_game(game)->canonical()};
  c.tc_text = "10+0.1";
  c.tc = *parse_time_control(c.tc_text);
  c.cycles = cycles;
  c.concurrency = 1;
  c.openings.random_plies = 2;
  c.engines = std::move(engines);
  return c;
}

RunSummary run(const TournamentConfig& c, const std::atomic<bool>* stop = nullptr,
               std::ostream* progress = nullptr) {
  RunOptions o;
  o.stop = stop;
  o.progress = progress;
  auto s = run_tournament(c, o);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

std::vector<storage::GameRecord> stored(const TournamentConfig& c, bool finished_only) {
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  storage::GameFilter f;
  f.finished_only = finished_only;
  auto games = store->games(f);
  REQUIRE(games.ok());
  return *games;
}

// Every finished game once per slot; every stored game replays to its recorded result.
void check_database(const TournamentConfig& c, std::size_t expected_finished) {
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  storage::GameFilter all;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games.ok());
  auto schedule = make_schedule(c);
  REQUIRE(schedule.ok());
  std::map<std::int64_t, int> finished_per_slot;
  for (const auto& g : *games) {
    INFO("game " << g.id << " slot " << g.slot << " " << g.status << " " << g.termination << ": "
                 << g.reason);
    REQUIRE(g.slot >= 0);
    REQUIRE(g.slot < static_cast<std::int64_t>(schedule->size()));
    const Slot& slot = (*schedule)[static_cast<std::size_t>(g.slot)];
    CHECK(g.game == slot.game);
    CHECK(g.opening == slot.opening);
    for (std::size_t s = 0; s < slot.seats.size(); ++s)
      CHECK(g.players[s] == c.engines[static_cast<std::size_t>(slot.seats[s])].config.name);
    auto moves = store->moves(g.id);
    REQUIRE(moves.ok());
    auto st = replay_check(g, *moves);
    INFO((st ? std::string() : st.error()));
    CHECK(st.ok());
    CHECK(storage::verify_game(g, *moves).ok());
    if (g.status == "finished") {
      ++finished_per_slot[g.slot];
      CHECK(g.ranks.size() == slot.seats.size());
      CHECK(g.plies == static_cast<std::int64_t>(moves->size()));
      // The opening is recorded as moves, unless the game was forfeited before it began.
      CHECK((moves->empty() || moves->size() >= slot.opening.size()));
    } else {
      CHECK(g.ranks.empty());
    }
  }
  CHECK(finished_per_slot.size() == expected_finished);
  for (const auto& [slot, n] : finished_per_slot) CHECK(n == 1);
}

int count_with(const std::vector<storage::GameRecord>& games, const std::string& engine) {
  int n = 0;
  for (const auto& g : games)
    n += std::find(g.players.begin(), g.players.end(), engine) != g.players.end();
  return n;
}

}  // namespace

TEST_CASE("tournament: a double round robin stores every game; a second run plays nothing") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("m2")},
                     "awale:maxplies=20", 2);
  std::ostringstream progress;
  auto first = run(c, nullptr, &progress);
  CHECK(first.scheduled == 12);
  CHECK(first.played == 12);
  CHECK(first.already_done == 0);
  CHECK(first.skipped == 0);
  CHECK_FALSE(first.interrupted);
  CHECK(first.messages.empty());
  CHECK(first.plies == 12 * 20);
  // One handshake per engine, one isready per game and seat, one exchange per engine move.
  CHECK(first.round_trips == 3 + 12 * 2 + 12 * 18);
  CHECK(contains(progress.str(), "[12/12] 100%"));
  check_database(c, 12);
  auto games = stored(c, true);
  REQUIRE(games.size() == 12);
  for (const auto& g : games) {
    CHECK(g.termination == "maxplies");
    CHECK(g.time_control == "10+0.1");
    CHECK(g.tournament == "event");
  }
  // The exchanged lines are stored with each game.
  auto store = storage::Store::open(c.database);
  auto logs = store->logs(games.back().id);
  REQUIRE(logs.ok());
  int gos = 0;
  for (const auto& l : *logs) gos += l.direction == '>' && l.text.rfind("go ", 0) == 0;
  CHECK(gos == 18);

  auto second = run(c);
  CHECK(second.played == 0);
  CHECK(second.already_done == 12);
  CHECK(second.round_trips == 0);
  CHECK(stored(c, false).size() == 12);
}

TEST_CASE("tournament: two games at once") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("m2")},
                     "awale:maxplies=20", 2);
  c.concurrency = 2;
  auto s = run(c);
  CHECK(s.played == 12);
  CHECK(s.skipped == 0);
  check_database(c, 12);
}

TEST_CASE("tournament: a stopped run is completed by the next one") {
  rtest::TempDir dir;
  auto c =
      config_of(dir, {mock_engine("m0", {"--slow-ms=20"}), mock_engine("m1", {"--slow-ms=20"})},
                "awale:maxplies=8", 4);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    auto store = storage::Store::open(c.database);
    for (int i = 0; i < 500; ++i) {
      std::this_thread::sleep_for(Millis(20));
      if (!store) {
        store = storage::Store::open(c.database);
        continue;
      }
      auto done = store->games({});
      if (done && done->size() >= 2) break;
    }
    stop = true;
  });
  auto first = run(c, &stop);
  stopper.join();
  CHECK(first.interrupted);
  CHECK(first.played >= 2);
  CHECK(first.played < 8);
  auto after_stop = stored(c, false);
  int unfinished = 0;
  for (const auto& g : after_stop) {
    if (g.status == "unfinished") {
      ++unfinished;
      CHECK(g.termination == "interrupted");
    }
  }
  CHECK(unfinished <= 1);  // the game in progress when the flag was set
  CHECK(static_cast<std::int64_t>(stored(c, true).size()) == first.played);

  auto second = run(c);
  CHECK_FALSE(second.interrupted);
  CHECK(second.already_done == first.played);
  CHECK(second.played == 8 - first.played);
  check_database(c, 8);
}

TEST_CASE("tournament: games left running by a killed run are closed and replayed") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1")}, "awale:maxplies=10", 1);
  auto schedule = make_schedule(c);
  REQUIRE(schedule.ok());
  {
    auto store = storage::Store::open(c.database);
    REQUIRE(store.ok());
    auto tid = store->open_tournament(c.name, schedule_fingerprint(c));
    REQUIRE(tid.ok());
    storage::GameRecord rec;
    rec.tournament_id = *tid;
    rec.slot = 1;
    rec.game = (*schedule)[1].game;
    rec.players = {"m1", "m0"};
    rec.opening = (*schedule)[1].opening;
    REQUIRE(store->begin_game(rec).ok());  // status "running": its process was killed
  }
  auto s = run(c);
  CHECK(s.played == 2);
  auto games = stored(c, false);
  REQUIRE(games.size() == 3);
  int closed = 0;
  for (const auto& g : games)
    if (g.status == "unfinished") {
      ++closed;
      CHECK(g.slot == 1);
      CHECK(g.termination == "interrupted");
    }
  CHECK(closed == 1);
  check_database(c, 2);
}

TEST_CASE("tournament: an engine that crashes every game is withdrawn; the event goes on") {
  rtest::TempDir dir;
  auto c = config_of(
      dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("crasher", {"--crash-on-go"})},
      "awale:maxplies=10", 2);
  c.max_crashes = 2;
  auto s = run(c);
  CHECK(s.scheduled == 12);
  REQUIRE(s.messages.size() == 1);
  CHECK(contains(s.messages[0], "engine 'crasher' withdrawn after 2 failures in a row"));
  CHECK(contains(s.messages[0], "exit 3"));
  CHECK(s.played == 4 + 2);  // m0-m1 games, and the crasher's two forfeits
  CHECK(s.skipped == 6);
  auto finished = stored(c, true);
  CHECK(count_with(finished, "crasher") == 2);
  for (const auto& g : finished) {
    if (count_with({g}, "crasher") == 0) {
      CHECK(g.termination == "maxplies");
      continue;
    }
    CHECK(g.termination == "crash");
    const std::size_t seat = g.players[0] == "crasher" ? 0 : 1;
    CHECK(g.ranks[seat] == 2);
    CHECK(g.ranks[1 - seat] == 1);
  }
  check_database(c, 6);
}

TEST_CASE("tournament: an engine that fails to start leaves its games unscored") {
  rtest::TempDir dir;
  SECTION("missing binary") {
    auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"),
                             engine_of("ghost", dir.file("no-such-engine"))});
    auto s = run(c);
    CHECK(s.played == 2);
    CHECK(s.skipped == 4);
    auto all = stored(c, false);
    int nostart = 0;
    for (const auto& g : all) {
      if (g.status == "finished") {
        CHECK(count_with({g}, "ghost") == 0);
      } else {
        ++nostart;
        CHECK(g.termination == "nostart");
        CHECK(contains(g.reason, "no-such-engine"));
      }
    }
    CHECK(nostart == 3);  // the fourth is skipped once the engine is withdrawn
    REQUIRE(s.messages.size() == 2);
    CHECK(contains(s.messages[0], "engine 'ghost': cannot start engine"));
    CHECK(contains(s.messages[0], "no-such-engine"));
    CHECK(contains(s.messages[0], "not scored"));
    CHECK(contains(s.messages[1], "engine 'ghost' withdrawn after 3 failures in a row"));
    check_database(c, 2);
  }
  SECTION("no ugiok in time") {
    auto mute = mock_engine("mute", {"--no-handshake"});
    mute.config.start_timeout_ms = 150;
    auto c = config_of(dir, {mock_engine("m0"), mute});
    auto s = run(c);
    CHECK(s.played == 0);
    CHECK(s.skipped == 2);
    REQUIRE(s.messages.size() == 1);  // told once, not once per game
    CHECK(contains(s.messages[0], "engine 'mute': "));
    CHECK(contains(s.messages[0], "failed to start: no ugiok within 150 ms"));
    for (const auto& g : stored(c, false)) {
      CHECK(g.status == "unfinished");
      CHECK(g.termination == "nostart");
      CHECK(contains(g.reason, "no ugiok within 150 ms"));
    }
  }
}

TEST_CASE("tournament: an engine that does not declare the game is not scored in it") {
  rtest::TempDir dir;
  auto c = config_of(
      dir,
      {mock_engine("m0"), engine_of("python", SOURCE_DIR "/examples/engines/random_engine.py")},
      "oware", 1);
  auto s = run(c);
  CHECK(s.played == 0);
  CHECK(s.skipped == 2);
  for (const auto& g : stored(c, false)) {
    CHECK(g.status == "unfinished");
    CHECK(g.termination == "unsupported");
    CHECK(contains(g.reason, "'python' does not declare oware"));
  }
}

TEST_CASE("tournament: an engine that never answers isready forfeits by stall") {
  rtest::TempDir dir;
  auto deaf = mock_engine("deaf", {"--no-readyok"});
  deaf.config.ready_timeout_ms = 100;
  deaf.config.setgame_timeout_ms = 100;
  auto c = config_of(dir, {mock_engine("m0"), deaf}, "awale:maxplies=10", 1);
  auto s = run(c);
  CHECK(s.played == 2);
  for (const auto& g : stored(c, true)) {
    CHECK(g.termination == "stall");
    CHECK(contains(g.reason, "no readyok within 100 ms"));
    const std::size_t seat = g.players[0] == "deaf" ? 0 : 1;
    CHECK(g.ranks[seat] == 2);
  }
  check_database(c, 2);
}

TEST_CASE("tournament: the example engines play a full event that replays") {
  rtest::TempDir dir;
  auto c = config_of(dir,
                     {engine_of("random", ENGINES_DIR "/random_engine", {"--seed", "1"}),
                      engine_of("greedy", ENGINES_DIR "/greedy_engine", {"--seed", "2"})},
                     "awale", 1);
  c.tc = *parse_time_control("5+0.05");
  c.concurrency = 2;
  auto s = run(c);
  CHECK(s.played == 2);
  CHECK(s.messages.empty());
  for (const auto& g : stored(c, true)) {
    INFO(g.reason);
    CHECK((g.termination == "normal" || g.termination == "repetition" ||
           g.termination == "nocapture"));
  }
  check_database(c, 2);
}

TEST_CASE("tournament: a changed schedule under the same name is refused") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1")}, "awale:maxplies=4", 1);
  run(c);
  auto changed = c;
  changed.cycles = 2;
  RunOptions o;
  auto s = run_tournament(changed, o);
  REQUIRE_FALSE(s.ok());
  INFO(s.error());
  CHECK(contains(s.error(), "\"event\""));
  CHECK(contains(s.error(), "different"));
  CHECK(contains(s.error(), "give it a new name or use another database"));
  CHECK_FALSE(contains(s.error(), "\n"));
  CHECK(stored(c, false).size() == 2);  // nothing played
  // Changing only how games are run is a resume.
  auto rerun = c;
  rerun.concurrency = 2;
  rerun.tc = *parse_time_control("5+0");
  CHECK(run(rerun).already_done == 2);
}
