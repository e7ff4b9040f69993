// The live SPRT of a two-engine event (event/sprt_event.h, the `sprt` table, `match --sprt`):
// a clearly stronger engine is accepted as such (H1) long before the schedule's end, the slots
// left skipped with the decision; equal engines never accept H1; the LLR printed after each
// finished pair is the one computed on the stored games (and `referee sprt` prints the same at the
// end); a run stopped midway, killed with -9, or killed after deciding but before skipping,
// resumes to the same decision from the database; bad sprt configurations are refused with one
// line.
#include <SQLiteCpp/Database.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "games/game.h"
#include "referee/event/event_spec.h"
#include "referee/event/sprt_event.h"
#include "referee/event/tournament.h"
#include "referee/ratings/format_util.h"
#include "referee/ratings/sprt_games.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using namespace referee::event;
using rtest::contains;

namespace {

TournamentEngine mock_engine(const std::string& name, std::vector<std::string> flags = {}) {
  TournamentEngine e;
  e.config.name = name;
  e.config.command = rtest::kMock;
  e.config.args = std::move(flags);
  return e;
}

// A against B, `cycles` cycles of one opening played twice (2 games per cycle).
TournamentConfig sprt_config(const rtest::TempDir& dir, TournamentEngine a, TournamentEngine b,
                             int cycles, ratings::SprtConfig sprt = {}) {
  TournamentConfig c;
  c.name = "sprt";
  c.database = dir.file("sprt.db");
  c.games = {games::make_game("awale:maxplies=20")->canonical()};
  c.tc = *parse_time_control("10+0.1");
  c.cycles = cycles;
  c.concurrency = 1;
  c.openings.random_plies = 2;
  c.engines = {std::move(a), std::move(b)};
  c.sprt = sprt;
  return c;
}

RunSummary run(const TournamentConfig& c, std::ostream* progress = nullptr,
               const std::atomic<bool>* stop = nullptr) {
  RunOptions o;
  o.progress = progress;
  o.stop = stop;
  auto s = run_tournament(c, o);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

std::vector<storage::GameRecord> finished_games(const TournamentConfig& c) {
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  return *games;
}

std::vector<storage::SlotRecord> slots_of(const TournamentConfig& c) {
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  auto slots = referee::storage::work_queue::slots(*store, 1);
  REQUIRE(slots.ok());
  return *slots;
}

std::string fixed2(double x) {
  return text::fixed(x, 2);  // as the progress line prints it ("0.00", never "-0.00")
}

}  // namespace

TEST_CASE("sprt event: a much stronger engine is accepted early (H1), the rest skipped") {
  rtest::TempDir dir;
  // b resigns at its first move: every pair is a double win for a. (With elo1 = 5 normalised
  // Elo such a sweep takes about 200 pairs; 100 takes 10.)
  ratings::SprtConfig sprt;
  sprt.elo1 = 100;
  auto c = sprt_config(dir, mock_engine("a"), mock_engine("b", {"--always-resign"}), 50, sprt);
  std::ostringstream progress;
  auto s = run(c, &progress);
  INFO(progress.str());
  REQUIRE(s.sprt);
  CHECK(s.sprt_decided());
  CHECK(s.sprt->tally.state.decision == ratings::SprtDecision::kAcceptH1);
  CHECK(s.sprt->tally.h.engine == "a");
  CHECK(s.scheduled == 100);
  CHECK(s.played <= 30);
  CHECK(s.played >= 2);
  CHECK_FALSE(s.complete());
  CHECK_FALSE(s.interrupted);
  // The decision is on every stored game: pairs only, all of them double wins.
  CHECK(s.sprt->tally.h.pairs.ww == s.sprt->tally.h.pairs.total());
  CHECK(s.sprt->tally.h.pairs.total() * 2 == s.played);
  const std::string verdict = sprt_verdict(s.sprt->tally.state);
  CHECK(contains(verdict, "H1 accepted, LLR "));
  CHECK(contains(verdict, " >= 2.94"));
  // Every slot left is skipped with the decision as its reason; none is pending.
  int skipped = 0;
  for (const auto& slot : slots_of(c)) {
    CHECK(slot.state != referee::storage::SlotState::Pending);
    CHECK(slot.state != referee::storage::SlotState::Claimed);
    if (slot.state == referee::storage::SlotState::Skipped) {
      ++skipped;
      CHECK(slot.reason == "sprt: " + verdict);
    }
  }
  CHECK(skipped == 100 - s.played);
  REQUIRE(s.not_played_reasons.size() == 1);
  CHECK(s.not_played_reasons[0] == std::to_string(skipped) + " games: sprt: " + verdict);
  // The live progress shows the LLR, its bounds and the hypotheses.
  CHECK(contains(progress.str(), "sprt: LLR 0.00 (-2.94, 2.94) [0.00, 100.00]"));
  CHECK(contains(progress.str(), "LLR " + fixed2(s.sprt->tally.state.llr) + " (-2.94, 2.94)"));

  // A second run plays nothing and states the same decision.
  auto again = run(c);
  CHECK(again.played == 0);
  CHECK(again.sprt_decided());
  CHECK(again.sprt->tally.state.llr == s.sprt->tally.state.llr);
}

TEST_CASE("sprt event: the LLR after each finished pair is the one of the stored games") {
  rtest::TempDir dir;
  // The example engines, greedy against random: pairs of every kind, an LLR that moves.
  ratings::SprtConfig wide;
  wide.elo0 = -300;
  wide.elo1 = 300;
  TournamentEngine greedy, random;
  greedy.config.name = "a";
  greedy.config.command = ENGINES_DIR "/greedy_engine";
  greedy.config.args = {"--seed", "2"};
  random.config.name = "b";
  random.config.command = ENGINES_DIR "/random_engine";
  random.config.args = {"--seed", "1"};
  auto c = sprt_config(dir, greedy, random, 8, wide);
  std::ostringstream progress;
  auto s = run(c, &progress);
  INFO(progress.str());
  auto games = finished_games(c);
  REQUIRE(static_cast<std::int64_t>(games.size()) == s.played);
  std::sort(games.begin(), games.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  // The LLR printed after the k-th finished game, one line each (one game at a time).
  std::vector<std::string> printed;
  const std::regex llr(R"(finished game .*  LLR (-?[0-9]+\.[0-9]+) \()");
  std::smatch m;
  for (const auto& line : rtest::lines_of(progress.str()))
    if (std::regex_search(line, m, llr)) printed.push_back(m[1]);
  REQUIRE(printed.size() == games.size());
  for (std::size_t k = 2; k <= games.size(); k += 2) {
    std::vector<storage::GameRecord> prefix(games.begin(), games.begin() + std::ptrdiff_t(k));
    // What `referee sprt` computes on these games (pairs, since every two games are a pair).
    const auto on_stored = sprt_tally(prefix, "a", "b", wide);
    CHECK(on_stored.paired);
    CHECK(on_stored.h.pairs.total() == std::int64_t(k / 2));
    CHECK(printed[k - 1] == fixed2(on_stored.state.llr));
  }
  // The live line ends with the pair counts, fastchess's Ptnml(0-2): the last one is the stored
  // games' (from a's side).
  const std::regex ptnml(
      R"(finished game .*  Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]$)");
  std::vector<std::int64_t> last;
  for (const auto& line : rtest::lines_of(progress.str()))
    if (std::regex_search(line, m, ptnml))
      last = {std::stoll(m[1]), std::stoll(m[2]), std::stoll(m[3]), std::stoll(m[4]),
              std::stoll(m[5])};
  const auto p = sprt_tally(games, "a", "b", wide).h.pairs;
  CHECK(last == std::vector<std::int64_t>{p.ll, p.ld, p.wl + p.dd, p.wd, p.ww});
  CHECK(p.total() == s.played / 2);
  // And `referee sprt` on the stored games prints the final one.
  const auto out = rtest::run_program(REFEREE_BIN,
                                      {"sprt", "--db", c.database, "--engine", "a", "--engine", "b",
                                       "--elo0", "-300", "--elo1", "300"},
                                      dir);
  INFO(out.err);
  CHECK(out.status == 0);
  CHECK(contains(out.out, "LLR " + fixed2(s.sprt->tally.state.llr) + " (bounds -2.94, 2.94)"));
}

TEST_CASE("sprt event: equal engines never accept H1, undecided, the event plays every game") {
  rtest::TempDir dir;
  auto c = sprt_config(dir, mock_engine("a"), mock_engine("b"), 8);
  auto s = run(c);
  REQUIRE(s.sprt);
  CHECK(s.sprt->tally.state.decision != ratings::SprtDecision::kAcceptH1);
  if (s.sprt_decided()) {
    CHECK(s.sprt->tally.state.decision == ratings::SprtDecision::kAcceptH0);
    for (const auto& slot : slots_of(c))
      if (slot.state == referee::storage::SlotState::Skipped)
        CHECK(contains(slot.reason, "sprt: H0 accepted, LLR "));
  } else {
    CHECK(s.complete());
    CHECK(s.played == 16);
  }
  // Same engine twice under two names: every pair scores 1 (the openings decide, seats swap).
  CHECK(s.sprt->tally.h.pairs.ll + s.sprt->tally.h.pairs.ww == 0);
}

TEST_CASE("sprt event: a stopped run resumes the test, a kill before the skip is repaired") {
  rtest::TempDir dir;
  ratings::SprtConfig sprt;
  sprt.elo1 = 100;
  auto c = sprt_config(dir, mock_engine("a", {"--slow-ms=20"}),
                       mock_engine("b", {"--always-resign"}), 50, sprt);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    for (int i = 0; i < 500 && !stop; ++i) {
      std::this_thread::sleep_for(Millis(20));
      auto store = storage::Store::open(c.database);
      if (!store) continue;
      auto done = store->games({});
      if (done && done->size() >= 2) break;
    }
    stop = true;
  });
  auto first = run(c, nullptr, &stop);
  stopper.join();
  REQUIRE(first.sprt);
  if (!first.sprt_decided()) {
    CHECK(first.interrupted);
    auto second = run(c);
    CHECK(second.already_done == first.played);
    CHECK(second.sprt_decided());
  }
  const auto decided = run(c);
  REQUIRE(decided.sprt_decided());
  const double llr = decided.sprt->tally.state.llr;
  const auto stored = finished_games(c);

  // A process killed after the deciding game but before the skip leaves the slots pending: the
  // next run finds the decision in the stored games, plays nothing and skips them.
  {
    SQLite::Database db(c.database, SQLite::OPEN_READWRITE);
    db.exec("UPDATE slots SET state = 'pending', reason = '' WHERE state = 'skipped'");
    db.exec("UPDATE events SET state = 'running'");
  }
  const auto resumed = run(c);
  CHECK(resumed.played == 0);
  REQUIRE(resumed.sprt_decided());
  CHECK(resumed.sprt->tally.state.llr == llr);
  CHECK(finished_games(c).size() == stored.size());
  for (const auto& slot : slots_of(c)) CHECK(slot.state != referee::storage::SlotState::Pending);
}

TEST_CASE("sprt event: the sprt table is read, stored with the event and validated") {
  rtest::TempDir dir;
  const std::string head =
      "name = 't'\ngames = ['awale']\ntc = '10+0.1'\n"
      "[[engine]]\nname = 'a'\ncommand = '/bin/true'\n"
      "[[engine]]\nname = 'b'\ncommand = '/bin/true'\n";
  auto load = [&](const std::string& top, const std::string& tail = "") {
    return load_tournament_text(top + head + tail, false, "t.toml", dir.path());
  };
  auto ok = load(
      "sprt = { elo0 = -1, elo1 = 4, alpha = 0.1, beta = 0.2, model = 'logistic' }\n"
      "max_games = 9\n");
  REQUIRE(ok.ok());
  REQUIRE(ok->sprt);
  CHECK(ok->sprt->elo0 == -1);
  CHECK(ok->sprt->elo1 == 4);
  CHECK(ok->sprt->beta == 0.2);
  CHECK(ok->sprt->model == ratings::SprtModel::kLogistic);
  CHECK(ok->cycles == 5);  // 2 games a cycle: 5 cycles hold 9 games
  // The specification keeps it; an event without one has no "sprt" key.
  auto back = config_from_spec(event_spec(*ok));
  REQUIRE(back.ok());
  REQUIRE(back->sprt);
  CHECK(back->sprt->alpha == 0.1);
  CHECK(back->sprt->model == ratings::SprtModel::kLogistic);
  auto plain = load("");
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->sprt);
  CHECK_FALSE(contains(event_spec(*plain), "sprt"));
  CHECK(spec_changes(event_spec(*plain), event_spec(*ok)) == "cycles; sprt");

  auto error = [&](const std::string& top, const std::string& tail = "") {
    auto r = load(top, tail);
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  CHECK(error("sprt = { elo0 = 5, elo1 = 0 }\n") == "t.toml: sprt: elo0 must be less than elo1");
  CHECK(error("sprt = { elo0 = 0, elo1 = 5, alpha = 0.5 }\n") ==
        "t.toml: sprt: alpha must be between 0 and 0.5");
  CHECK(error("sprt = { elo0 = 0, elo1 = 5, beta = 0 }\n") ==
        "t.toml: sprt: beta must be between 0 and 0.5");
  CHECK(error("sprt = { elo0 = 0, elo1 = 5, model = 'bayeselo' }\n") ==
        "t.toml: sprt.model must be \"normalized\" or \"logistic\"");
  CHECK(error("sprt = { elo1 = 5 }\n") == "t.toml: sprt needs elo0 and elo1");
  CHECK(error("sprt = 5\n") == "t.toml: sprt must be a table");
  CHECK(
      error("sprt = { elo0 = 0, elo1 = 5 }\n", "[[engine]]\nname = 'c'\ncommand = '/bin/true'\n") ==
      "t.toml: an sprt event needs exactly two engines, not 3");
  CHECK(error("max_games = 10\n") ==
        "t.toml: 'max_games' goes with an 'sprt' table (other events play 'cycles')");
  CHECK(error("sprt = { elo0 = 0, elo1 = 5 }\nmax_games = 10\ncycles = 2\n") ==
        "t.toml: give 'cycles' or 'max_games', not both");
  CHECK(error("sprt = { elo0 = 0, elo1 = 5 }\nmax_games = 0\n") ==
        "t.toml: 'max_games' must be from 1 to 1000000");
}

TEST_CASE("sprt event: referee match --sprt decides, and refuses a bad --sprt with exit 2") {
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto out = rtest::run_program(
      REFEREE_BIN,
      {"match", "--engine", "a=" + rtest::kMock, "--engine",
       "b=" + rtest::kMock + " --always-resign", "--game", "awale:maxplies=20", "--cycles", "40",
       "--concurrency", "1", "--sprt", "0,100", "--db", db, "--quiet"},
      dir);
  INFO(out.out << out.err);
  CHECK(out.status == 0);
  CHECK(contains(out.out, "not played: "));
  CHECK(contains(out.out, " games: sprt: H1 accepted, LLR "));
  // b resigns every game: every pair is a's twice (WW), in the summary's pair counts.
  std::smatch pairs;
  REQUIRE(std::regex_search(
      out.out, pairs,
      std::regex(R"(\npairs: (\d+), Ptnml\(0-2\): \[0, 0, 0, 0, (\d+)\] from a's side\n)")));
  CHECK(pairs[1] == pairs[2]);
  CHECK(std::stoi(pairs[1]) >= 2);
  CHECK(contains(out.out, "sprt: LLR "));
  CHECK(contains(out.out, ": H1 accepted, LLR "));

  auto bad = rtest::run_program(REFEREE_BIN,
                                {"match", "--engine", "a=" + rtest::kMock, "--engine",
                                 "b=" + rtest::kMock, "--sprt", "5,0", "--db", db},
                                dir);
  CHECK(bad.status == 2);
  CHECK(bad.err == "referee match: --sprt: elo0 must be less than elo1\n");
  auto three =
      rtest::run_program(REFEREE_BIN,
                         {"match", "--engine", "a=" + rtest::kMock, "--engine", "b=" + rtest::kMock,
                          "--engine", "c=" + rtest::kMock, "--sprt", "0,5", "--db", db},
                         dir);
  CHECK(three.status == 2);
  CHECK(three.err == "referee match: an sprt event needs exactly two engines, not 3\n");
}

TEST_CASE("sprt event: referee tournament killed with -9 mid-test resumes to the same decision") {
  rtest::TempDir dir;
  const std::string file = dir.file("sprt.toml"), db = dir.file("k.db");
  rtest::write_text(file, "name = \"k\"\ndatabase = \"" + db +
                              "\"\ngames = [\"awale:maxplies=20\"]\ntc = \"10+0.1\"\n"
                              "max_games = 100\nconcurrency = 2\n"
                              "sprt = { elo0 = 0, elo1 = 100 }\n[openings]\nrandom_plies = 2\n"
                              "[[engine]]\nname = \"a\"\ncommand = \"" +
                              rtest::kMock +
                              "\"\nargs = [\"--slow-ms=40\"]\n"
                              "[[engine]]\nname = \"b\"\ncommand = \"" +
                              rtest::kMock + "\"\nargs = [\"--always-resign\"]\n");
  std::vector<std::string> argv_text = {REFEREE_BIN, "tournament", file, "--quiet", "--lease", "1"};
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(REFEREE_BIN, argv.data());
    ::_exit(127);
  }
  REQUIRE(pid > 0);
  // Killed once a few games are stored, before the test can decide (10 pairs).
  std::size_t finished_at_kill = 0;
  for (int i = 0; i < 1500; ++i) {
    std::this_thread::sleep_for(Millis(10));
    auto store = storage::Store::open(db);
    if (!store) continue;
    auto games = store->games({});
    if (games && games->size() >= 4) {
      finished_at_kill = games->size();
      break;
    }
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(finished_at_kill >= 4);

  // The next run (a short lease: the killed run's claims expire soon) goes on with the test.
  const auto out =
      rtest::run_program(REFEREE_BIN, {"tournament", file, "--quiet", "--lease", "1"}, dir);
  INFO(out.out << out.err);
  CHECK(out.status == 0);
  CHECK(contains(out.out, ": H1 accepted, LLR "));
  CHECK(contains(out.out, "not played: "));
  // Its decision is the one of the stored games, which a third run repeats without playing.
  const auto again = rtest::run_program(REFEREE_BIN, {"tournament", file, "--quiet"}, dir);
  CHECK(again.status == 0);
  CHECK(contains(again.out, "0 played now"));
  auto store = storage::Store::open(db);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  ratings::SprtConfig sprt;
  sprt.elo1 = 100;
  const auto tally = sprt_tally(*games, "a", "b", sprt, true);
  CHECK(tally.state.decision == ratings::SprtDecision::kAcceptH1);
  CHECK(contains(again.out, "sprt: LLR " + fixed2(tally.state.llr)));
  // Each slot finished at most once.
  std::set<std::int64_t> slots;
  for (const auto& g : *games) CHECK(slots.insert(g.slot).second);
}
