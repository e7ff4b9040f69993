// referee/tournament: real tournament runs with the mock engine and the example engines: every
// game lands in the database with its result and replays to it; a second run replays nothing;
// a run stopped midway (stop flag, or a claim left by a killed process) is completed by the next;
// several runs at once share the schedule, each slot finished once; engines that crash every game
// are withdrawn and the event goes on; engines that fail to start or do not declare the game
// leave their games unplayed (decided once, at the engine check); a full disk stops the event and
// the next run completes it; a changed specification under the same name is refused.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "engines/system.h"
#include "games/game.h"
#include "referee/event/event_spec.h"
#include "referee/event/schedule.h"
#include "referee/event/tournament.h"
#include "referee/match/replay.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using namespace referee::event;
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
  c.tc = *parse_time_control("10+0.1");
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
    INFO("game " << g.id << " slot " << g.slot << " " << referee::storage::to_text(g.status) << " "
                 << g.termination << ": " << g.reason);
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
    if (g.status == referee::storage::GameStatus::Finished) {
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

TEST_CASE("tournament: a double round robin stores every game, a second run plays nothing") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("m2")},
                     "awale:maxplies=20", 2);
  std::ostringstream progress;
  auto first = run(c, nullptr, &progress);
  CHECK(first.scheduled == 12);
  CHECK(first.played == 12);
  CHECK(first.already_done == 0);
  CHECK(first.not_played == 0);
  CHECK(first.complete());
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
    CHECK(g.event == "event");
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
  CHECK(s.not_played == 0);
  check_database(c, 12);
}

TEST_CASE("tournament: games pinned to CPUs are played and stored alike, the CPU is split") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("m2")},
                     "awale:maxplies=20", 2);
  c.concurrency = 3;  // more games than CPUs on a small machine: they share them round robin
  RunOptions o;
  o.pin_cpus = true;
  const auto cpus = engines::allowed_cpus();
  const auto before = engines::self_usage();
  auto s = run_tournament(c, o);
  const auto after = engines::self_usage();
  REQUIRE(s.ok());
  CHECK(s->played == 12);
  CHECK(s->not_played == 0);
  check_database(c, 12);
  CHECK(s->game_threads_cpu.user + s->game_threads_cpu.system > 0);
  CHECK(s->writer_cpu.user + s->writer_cpu.system > 0);
  // Every thread's time is part of the process's: the split cannot exceed what the run used.
  const double whole =
      after.user_seconds + after.system_seconds - before.user_seconds - before.system_seconds;
  CHECK(s->game_threads_cpu.user + s->game_threads_cpu.system + s->writer_cpu.user +
            s->writer_cpu.system <=
        whole + 0.01);
  CHECK(engines::allowed_cpus() == cpus);  // the calling thread is not left pinned
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
    if (g.status == referee::storage::GameStatus::Unfinished) {
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

TEST_CASE("tournament: a claim left by a killed run expires, its game is kept as interrupted") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1")}, "awale:maxplies=10", 1);
  auto schedule = make_schedule(c);
  REQUIRE(schedule.ok());
  {
    // A process claims slot 0 with a short lease, begins its game, and is killed.
    auto store = storage::Store::open(c.database);
    REQUIRE(store.ok());
    auto event = referee::storage::work_queue::open_event(
        *store, c.name, event_spec(c), schedule_fingerprint(c), slot_records(c, *schedule));
    REQUIRE(event.ok());
    auto owner = referee::storage::work_queue::register_owner(
        *store, {"killed", "host", 1, referee::storage::OwnerKind::Tournament});
    REQUIRE(owner.ok());
    auto claims = referee::storage::work_queue::claim_slots(*store, *owner, event->id, 1, 300, {});
    REQUIRE(claims.ok());
    REQUIRE(claims->size() == 1);
    storage::GameRecord rec;
    rec.event_id = event->id;
    rec.slot = 0;
    rec.game = (*schedule)[0].game;
    rec.players = {"m0", "m1"};
    rec.opening = (*schedule)[0].opening;
    rec.owner = *owner;
    auto id = store->begin_game(rec);
    REQUIRE(id.ok());
    storage::MoveRecord first{1, 1, (*schedule)[0].opening[0], -1, -1, "", "opening", ""};
    REQUIRE(store->add_move(*id, first).ok());
  }
  RunOptions o;
  o.lease_ms = 1000;
  auto s = run_tournament(c, o);
  REQUIRE(s.ok());
  CHECK(s->played == 2);  // the run waited for the dead claim to expire, then played it
  CHECK(s->complete());
  auto games = stored(c, false);
  REQUIRE(games.size() == 3);
  int closed = 0;
  for (const auto& g : games)
    if (g.status == referee::storage::GameStatus::Unfinished) {
      ++closed;
      CHECK(g.slot == 0);
      CHECK(g.termination == "interrupted");
      CHECK(contains(g.reason, "stopped renewing the claim"));
    }
  CHECK(closed == 1);
  check_database(c, 2);
}

TEST_CASE("tournament: an engine that crashes every game is withdrawn, the event goes on") {
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
  CHECK(s.not_played == 6);
  REQUIRE(s.not_played_reasons.size() == 1);
  CHECK(contains(s.not_played_reasons[0], "6 games: engine 'crasher' withdrawn after 2"));
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

TEST_CASE("tournament: an engine that fails to start is found before the first game") {
  rtest::TempDir dir;
  SECTION("missing binary") {
    auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"),
                             engine_of("ghost", dir.file("no-such-engine"))});
    auto s = run(c);
    CHECK(s.played == 2);
    CHECK(s.not_played == 4);
    CHECK_FALSE(s.complete());
    REQUIRE(s.engines.size() == 3);  // one line per engine
    CHECK(contains(s.engines[0], "engine m0: id name"));
    CHECK(contains(s.engines[2], "engine ghost: cannot start"));
    CHECK(contains(s.engines[2], "no-such-engine"));
    REQUIRE(s.messages.size() == 1);
    CHECK(contains(s.messages[0], "engine 'ghost' cannot start"));
    REQUIRE(s.not_played_reasons.size() == 1);
    CHECK(contains(s.not_played_reasons[0], "4 games: engine 'ghost' cannot start"));
    // Its games are not stored at all: they stay to be played by a later run.
    for (const auto& g : stored(c, false)) CHECK(count_with({g}, "ghost") == 0);
    check_database(c, 2);
  }
  SECTION("no ugiok in time") {
    auto mute = mock_engine("mute", {"--no-handshake"});
    mute.config.start_timeout_ms = 150;
    auto c = config_of(dir, {mock_engine("m0"), mute});
    auto s = run(c);
    CHECK(s.played == 0);
    CHECK(s.not_played == 2);
    REQUIRE(s.messages.size() == 1);  // told once, not once per game
    CHECK(contains(s.messages[0], "engine 'mute' cannot start: "));
    CHECK(contains(s.messages[0], "no ugiok within 150 ms"));
    CHECK(stored(c, false).empty());
  }
}

TEST_CASE("tournament: a game an engine does not declare is skipped once, never stored") {
  rtest::TempDir dir;
  auto c = config_of(
      dir,
      {mock_engine("m0"), engine_of("python", SOURCE_DIR "/examples/engines/random_engine.py")},
      "oware", 1);
  auto s = run(c);
  CHECK(s.played == 0);
  CHECK(s.not_played == 2);
  REQUIRE(s.engines.size() == 2);
  CHECK(contains(s.engines[1], "engine python: "));
  CHECK(contains(s.engines[1], "does not declare oware"));
  REQUIRE(s.not_played_reasons.size() == 1);
  CHECK(s.not_played_reasons[0] == "2 games: engine 'python' does not declare oware");
  CHECK(stored(c, false).empty());
  // A second run decides nothing again and stores nothing.
  auto again = run(c);
  CHECK(again.not_played == 2);
  CHECK(again.engines.empty());  // no engine started: nothing left to play
  CHECK(again.not_played_reasons == s.not_played_reasons);
  CHECK(stored(c, false).empty());
}

TEST_CASE("tournament: options an engine rejects are reported at the engine check") {
  rtest::TempDir dir;
  auto picky = engine_of("picky", ENGINES_DIR "/random_engine", {"--seed", "3"});
  picky.config.options["Bogus"] = "7";
  auto c = config_of(dir, {mock_engine("m0"), picky}, "awale:maxplies=6", 1);
  auto s = run(c);
  CHECK(s.played == 2);
  REQUIRE(s.engines.size() == 2);
  CHECK(contains(s.engines[1], "options rejected: Bogus"));
  REQUIRE(s.messages.size() == 1);
  CHECK(contains(s.messages[0], "engine 'picky' rejected options: Bogus"));
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
    CHECK((g.termination == "rules" || g.termination == "repetition" ||
           g.termination == "nocapture"));
  }
  check_database(c, 2);
}

TEST_CASE("tournament: a changed specification under the same name is refused") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1")}, "awale:maxplies=4", 1);
  run(c);
  auto refused = [&](const TournamentConfig& changed, const std::string& what) {
    RunOptions o;
    auto s = run_tournament(changed, o);
    REQUIRE_FALSE(s.ok());
    INFO(s.error());
    CHECK(contains(s.error(), "\"event\""));
    CHECK(contains(s.error(), "different specification (" + what + ")"));
    CHECK(contains(s.error(), "give it a new name or use another database"));
    CHECK_FALSE(contains(s.error(), "\n"));
    CHECK(stored(c, false).size() == 2);  // nothing played
  };
  auto cycles = c;
  cycles.cycles = 2;
  refused(cycles, "cycles");
  auto command = c;
  command.engines[1].config.command = ENGINES_DIR "/random_engine";
  refused(command, "engine 'm1': command");
  auto args = c;
  args.engines[0].config.args = {"--slow-ms=1"};
  refused(args, "engine 'm0': args");
  auto options = c;
  options.engines[0].config.options["Depth"] = "3";
  refused(options, "engine 'm0': options");
  auto tc = c;
  tc.tc = *parse_time_control("5+0");
  refused(tc, "tc");
  auto engine_tc = c;
  engine_tc.engines[1].tc = *parse_time_control("5+0");
  refused(engine_tc, "engine 'm1': tc");
  // Changing only how games are run is a resume.
  auto rerun = c;
  rerun.concurrency = 2;
  rerun.max_crashes = 9;
  rerun.engines[0].config.start_timeout_ms = 20000;
  CHECK(run(rerun).already_done == 2);
}

TEST_CASE("tournament: the specification stored with the event rebuilds the event") {
  rtest::TempDir dir;
  // maxplies=6: the book line and 2 random plies leave the game going (an opening that ends it
  // is an error of the schedule).
  auto c = config_of(dir, {mock_engine("m0", {"--slow-ms=1"}), mock_engine("m1")},
                     "awale:maxplies=6", 3);
  c.engines[0].config.options["Depth"] = "3";
  c.engines[0].config.env["X"] = "1";
  c.engines[1].tc = *parse_time_control("5+0.1");
  c.openings.book_lines = {{"1", "7"}};
  c.withdraw_on_time = true;
  const std::string spec = event_spec(c);
  auto back = config_from_spec(spec);
  REQUIRE(back.ok());
  CHECK(event_spec(*back) == spec);
  CHECK(back->engines[0].config.options.at("Depth") == "3");
  CHECK(spec_changes(spec, spec).empty());
  CHECK_FALSE(config_from_spec("{\"name\": 3}").ok());
  // Slots of one opening played in both seatings share a pair.
  auto schedule = make_schedule(c);
  REQUIRE(schedule.ok());
  auto slots = slot_records(c, *schedule);
  REQUIRE(slots.size() == 6);
  for (std::size_t i = 0; i < slots.size(); ++i) CHECK(slots[i].pair == static_cast<int>(i / 2));
  CHECK(slots[1].seats == std::vector<std::string>{"m1", "m0"});
}

TEST_CASE("tournament: a full disk stops the event, the next run completes it exactly") {
  rtest::TempDir dir;
  auto c = config_of(dir, {mock_engine("m0"), mock_engine("m1"), mock_engine("m2")},
                     "awale:maxplies=20", 4);  // 24 games
  long pages = 0;
  {
    auto store = storage::Store::open(c.database);
    REQUIRE(store.ok());
    auto schedule = make_schedule(c);
    REQUIRE(referee::storage::work_queue::open_event(
                *store, c.name, event_spec(c), schedule_fingerprint(c), slot_records(c, *schedule))
                .ok());
    SQLite::Database sql(c.database, SQLite::OPEN_READONLY);
    pages = sql.execAndGet("PRAGMA page_count").getInt();
  }
  RunOptions o;
  o.store_options.max_page_count = pages + 6;  // room for a few games only
  std::ostringstream progress;
  o.progress = &progress;
  auto full = run_tournament(c, o);
  REQUIRE(full.ok());
  INFO(progress.str());
  CHECK(contains(full->storage_error, c.database));
  CHECK(contains(full->storage_error, "full"));
  CHECK_FALSE(contains(full->storage_error, "\n"));
  CHECK(full->played > 0);
  CHECK(full->played < 24);
  CHECK_FALSE(full->interrupted);
  // The summary counts only games whose finish is in the file, and adds up.
  CHECK(static_cast<std::int64_t>(stored(c, true).size()) == full->played);
  CHECK(full->already_done + full->played + full->not_played == 24);
  bool told = false;
  for (const auto& r : full->not_played_reasons)
    told = told || contains(r, "the event stopped on a storage failure");
  CHECK(told);

  auto again = run(c);  // room again
  CHECK(again.storage_error.empty());
  CHECK(again.already_done == full->played);
  CHECK(again.played == 24 - full->played);
  CHECK(again.complete());
  check_database(c, 24);
}

TEST_CASE("tournament: time losses are shown but withdraw only with withdraw_on_time") {
  for (const bool withdraw : {false, true}) {
    INFO("withdraw_on_time = " << withdraw);
    rtest::TempDir dir;
    auto c = config_of(dir, {mock_engine("m0"), mock_engine("slow", {"--stall-after-go=1"})},
                       "awale:maxplies=6", 3);
    c.tc = *parse_time_control("movetime=20,margin=20");
    c.max_crashes = 2;
    c.withdraw_on_time = withdraw;
    std::ostringstream progress;
    auto s = run(c, nullptr, &progress);
    CHECK(s.played == (withdraw ? 2 : 6));
    CHECK(s.not_played == (withdraw ? 4 : 0));
    for (const auto& g : stored(c, true)) CHECK(g.termination == "time");
    CHECK(contains(progress.str(), "(time: slow lost on time: no bestmove within 40 ms"));
    if (withdraw) {
      REQUIRE(s.messages.size() == 1);
      CHECK(
          contains(s.messages[0], "engine 'slow' withdrawn after 2 failures in a row (last: time"));
    } else {
      CHECK(s.messages.empty());
    }
  }
}

TEST_CASE("tournament: withdraw_on_time is read from the tournament file") {
  rtest::TempDir dir;
  const std::string base = "name = \"w\"\ngames = [\"awale\"]\ntc = \"10+0\"\n";
  const std::string engines =
      "[[engine]]\nname = \"a\"\ncommand = \"x\"\n[[engine]]\nname = "
      "\"b\"\ncommand = \"y\"\n";
  rtest::write_text(dir.file("on.toml"), base + "withdraw_on_time = true\n" + engines);
  auto on = load_tournament_file(dir.file("on.toml"));
  REQUIRE(on.ok());
  CHECK(on->withdraw_on_time);
  rtest::write_text(dir.file("off.toml"), base + engines);
  CHECK_FALSE(load_tournament_file(dir.file("off.toml"))->withdraw_on_time);
  rtest::write_text(dir.file("bad.toml"), base + "withdraw_on_time = \"yes\"\n" + engines);
  auto bad = load_tournament_file(dir.file("bad.toml"));
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error(), "'withdraw_on_time' must be true or false"));
}

TEST_CASE("tournament: heartbeats keep the claims of long games under a short lease") {
  rtest::TempDir dir;
  // Games of about a second under a 300 ms lease: without renewals the other run would take them.
  auto c =
      config_of(dir, {mock_engine("m0", {"--slow-ms=40"}), mock_engine("m1", {"--slow-ms=40"})},
                "awale:maxplies=24", 2);
  RunOptions o;
  o.lease_ms = 300;
  Expected<RunSummary> a = Error{""}, b = Error{""};
  // A watcher: every claim it sees must have a lease in the future (renewed every lease/4).
  std::atomic<bool> done{false};
  int claims_seen = 0, expired_seen = 0;
  std::thread watcher([&] {
    while (!done) {
      std::this_thread::sleep_for(Millis(20));
      try {
        SQLite::Database sql(c.database, SQLite::OPEN_READONLY);
        const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        SQLite::Statement q(sql, "SELECT lease_expires_at FROM slots WHERE state = 'claimed'");
        while (q.executeStep()) {
          ++claims_seen;
          expired_seen += q.getColumn(0).getInt64() < now - 100;  // 100 ms of slack for load
        }
      } catch (const std::exception&) {  // not created yet
      }
    }
  });
  std::thread other([&] { b = run_tournament(c, o); });
  a = run_tournament(c, o);
  other.join();
  done = true;
  watcher.join();
  CHECK(claims_seen > 10);
  CHECK(expired_seen == 0);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->messages.empty());  // no claim lost
  CHECK(b->messages.empty());
  CHECK(a->played + b->played == 4);
  CHECK(a->played > 0);
  CHECK(b->played > 0);
  CHECK(a->complete());
  CHECK(b->complete());
  CHECK(stored(c, false).size() == 4);  // nothing played twice, nothing abandoned
  check_database(c, 4);
}
