// Knockout and Swiss events end to end (event/rounds.h): `run_tournament` with mock engines whose
// strength is fixed (each resigns once a game has N plies: a higher N wins every game),
// so that every bracket and every standing is known in advance. A run stopped midway and resumed
// ends with the same bracket or standings as one uninterrupted run; a round whose games ended
// before its successor was added (a killed run) is added when the event is resumed; the keys of
// both formats are checked up front with one-line errors.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "games/game.h"
#include "referee/event/event_spec.h"
#include "referee/event/rounds.h"
#include "referee/event/tournament.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::event;
using rtest::contains;

namespace {

// An engine that resigns once a game has `strength` plies (0: never resigns).
TournamentEngine ranked_engine(const std::string& name, int strength, int slow_ms = 0) {
  TournamentEngine e;
  e.config.name = name;
  e.config.command = rtest::kMock;
  if (strength > 0) e.config.args.push_back("--resign-at-ply=" + std::to_string(strength));
  if (slow_ms > 0) e.config.args.push_back("--slow-ms=" + std::to_string(slow_ms));
  return e;
}

TournamentConfig rounds_config(const rtest::TempDir& dir, const std::string& db,
                               const std::string& format, std::vector<TournamentEngine> engines) {
  TournamentConfig c;
  c.name = format;
  c.format = format;
  c.database = dir.file(db);
  c.games = {games::make_game("awale")->canonical()};
  c.tc = *match::parse_time_control("10+0.1");
  c.concurrency = 2;
  c.engines = std::move(engines);
  return c;
}

RunSummary run_event(const TournamentConfig& c, const std::atomic<bool>* stop = nullptr) {
  RunOptions o;
  o.stop = stop;
  auto s = run_tournament(c, o);
  INFO((s ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

// Runs the event with a stop once `games` games are stored, then again to the end.
RunSummary interrupted_then_resumed(const TournamentConfig& c, std::size_t games) {
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    for (int i = 0; i < 1000 && !stop; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      auto store = storage::Store::open(c.database);
      if (!store) continue;
      auto done = store->games({});
      if (done && done->size() >= games) break;
    }
    stop = true;
  });
  const RunSummary first = run_event(c, &stop);
  stopper.join();
  CHECK(first.interrupted);
  CHECK_FALSE(first.complete());
  const RunSummary second = run_event(c);
  CHECK(second.already_done >= first.played);
  CHECK(second.complete());
  return second;
}

RoundsView stored_view(const TournamentConfig& c) {
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  auto view = read_rounds(*store, 1, c);
  REQUIRE(view.ok());
  return *view;
}

// Five engines in the file's order a..e; their strengths make a the best, then c, e, d, b.
std::vector<TournamentEngine> five(int slow_ms = 0) {
  return {ranked_engine("a", 12, slow_ms), ranked_engine("b", 2, slow_ms),
          ranked_engine("c", 10, slow_ms), ranked_engine("d", 4, slow_ms),
          ranked_engine("e", 6, slow_ms)};
}

}  // namespace

TEST_CASE(
    "formats: a knockout of five engines, byes to the top seeds, resumed to the same bracket") {
  rtest::TempDir dir;
  auto c = rounds_config(dir, "ko.db", "knockout", five());
  c.knockout.pairs = 1;
  const RunSummary s = run_event(c);
  INFO(s.rounds_text);
  CHECK(s.complete());
  // Seeds a b c d e: round 1 is d-e only (seeds 4 and 5), a, b and c have byes; then a-e and
  // b-c; the final a-c. Four matches of one pair: 8 games.
  CHECK(s.scheduled == 8);
  CHECK(s.played == 8);
  CHECK(contains(s.rounds_text, "#1 a: bye"));
  CHECK(contains(s.rounds_text, "#2 b: bye"));
  CHECK(contains(s.rounds_text, "#3 c: bye"));
  CHECK(contains(s.rounds_text, "#4 d 0 - 2 #5 e  (1/1 pairs): e wins"));
  CHECK(contains(s.rounds_text, "#1 a 2 - 0 #5 e  (1/1 pairs): a wins"));
  CHECK(contains(s.rounds_text, "#2 b 0 - 2 #3 c  (1/1 pairs): c wins"));
  CHECK(contains(s.rounds_text, "final\n  #1 a 2 - 0 #3 c"));
  CHECK(contains(s.rounds_text, "winner: a"));
  const RoundsView view = stored_view(c);
  CHECK(view.complete);
  CHECK(view.bracket.champion == 0);
  // Every game was played; the event is finished.
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  auto slots = storage::work_queue::slots(*store, 1);
  REQUIRE(slots.ok());
  for (const auto& slot : *slots) CHECK(slot.state == storage::SlotState::Done);
  CHECK(storage::work_queue::event(*store, 1)->state == storage::EventState::Finished);

  // The same event stopped after two games and resumed ends with the same bracket.
  auto slow = rounds_config(dir, "ko-stopped.db", "knockout", five(30));
  const RunSummary resumed = interrupted_then_resumed(slow, 2);
  CHECK(resumed.rounds_text == s.rounds_text);
  // Run again, a finished event plays nothing and prints the same.
  const RunSummary again = run_event(c);
  CHECK(again.played == 0);
  CHECK(again.rounds_text == s.rounds_text);

  // `referee bracket` prints it from the database, as text or JSON.
  auto text = rtest::referee_cmd({"bracket", "knockout", "--db", c.database});
  CHECK(text.status == 0);
  CHECK(text.out == s.rounds_text);
  auto json = rtest::referee_cmd({"bracket", "knockout", "--db", c.database, "--json"});
  REQUIRE(json.status == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["format"] == "knockout");
  CHECK(j["champion"] == "a");
  CHECK(j["seeds"] == nlohmann::json({"a", "b", "c", "d", "e"}));
  REQUIRE(j["rounds"].size() == 3);
  CHECK(j["rounds"][0][0]["state"] == "bye");
  CHECK(j["rounds"][0][1]["engines"] == nlohmann::json({"d", "e"}));
  CHECK(j["rounds"][0][1]["points"] == nlohmann::json({0, 2}));
  CHECK(j["rounds"][0][1]["winner"] == "e");
  auto missing = rtest::referee_cmd({"bracket", "nope", "--db", c.database});
  CHECK(missing.status == 1);
  CHECK(missing.err == "referee bracket: no event named 'nope' in " + c.database + "\n");
}

TEST_CASE(
    "formats: a tied knockout match plays its tie-break pairs, then the higher seed advances") {
  rtest::TempDir dir;
  // Two identical engines: every pair is tied (each seat wins once, or both draw).
  auto c = rounds_config(dir, "tie.db", "knockout", {ranked_engine("x", 0), ranked_engine("y", 0)});
  c.games = {games::make_game("awale:maxplies=16")->canonical()};
  c.knockout.pairs = 2;
  c.knockout.tiebreak_pairs = 2;
  const RunSummary s = run_event(c);
  INFO(s.rounds_text);
  CHECK(s.complete());
  CHECK(s.played == 8);  // 2 pairs and 2 tie-break pairs
  CHECK(contains(s.rounds_text, "(4/4 pairs, 2 tie-break): x advances as the higher seed"));
  CHECK(contains(s.rounds_text, "winner: x"));
  // The slots carry the pair's number in the match.
  auto store = storage::Store::open(c.database);
  REQUIRE(store.ok());
  auto slots = storage::work_queue::slots(*store, 1);
  REQUIRE(slots.ok());
  std::set<int> numbers;
  for (const auto& slot : *slots) numbers.insert(slot.cycle);
  CHECK(numbers == std::set<int>{0, 1, 2, 3});
}

TEST_CASE("formats: knockout seeding by rating takes the database's Elo, unrated engines last") {
  rtest::TempDir dir;
  // A round robin of c, d and e first (e best): their ratings. a and b have none.
  auto rr = rounds_config(dir, "seed.db", "round-robin",
                          {ranked_engine("c", 4), ranked_engine("d", 2), ranked_engine("e", 8)});
  rr.name = "before";
  run_event(rr);
  auto c = rounds_config(dir, "seed.db", "knockout", five());
  c.knockout.seeding = "rating";
  const RunSummary s = run_event(c);
  INFO(s.rounds_text);
  // Seeds e, c, d (by rating), then a, b (file order): round 1 is a-b (seeds 4 and 5).
  CHECK(contains(s.rounds_text, "#1 e: bye"));
  CHECK(contains(s.rounds_text, "#2 c: bye"));
  CHECK(contains(s.rounds_text, "#3 d: bye"));
  CHECK(contains(s.rounds_text, "#4 a 2 - 0 #5 b"));
  // The seeds are stored with the event: a resumed run keeps them whatever was played since.
  auto store = storage::Store::open(c.database);
  auto row = storage::work_queue::event_named(*store, "knockout");
  REQUIRE(row.ok());
  REQUIRE(row->has_value());
  auto stored = config_from_spec((*row)->spec);
  REQUIRE(stored.ok());
  CHECK(stored->knockout.seeds == std::vector<std::string>{"e", "c", "d", "a", "b"});
  const RunSummary again = run_event(c);
  CHECK(again.played == 0);
  CHECK(again.rounds_text == s.rounds_text);
}

TEST_CASE("formats: a Swiss of five engines, byes and no rematch, resumed to the same standings") {
  rtest::TempDir dir;
  auto c = rounds_config(dir, "swiss.db", "swiss", five());
  c.swiss.rounds = 3;
  const RunSummary s = run_event(c);
  INFO(s.rounds_text);
  CHECK(s.complete());
  CHECK(s.scheduled == 12);  // 3 rounds of 2 pairings of one pair
  const RoundsView view = stored_view(c);
  REQUIRE(view.played.size() == 3);
  std::set<std::pair<int, int>> met;
  std::set<int> byes;
  for (const auto& r : view.played) {
    CHECK(r.pairings.size() == 2);
    byes.insert(r.bye);
    for (const auto& p : r.pairings)
      CHECK(met.insert({std::min(p.a, p.b), std::max(p.a, p.b)}).second);  // no rematch
  }
  CHECK(byes.size() == 3);
  // Round 1 by the file's order: a-c, b-d, bye e.
  CHECK(contains(s.rounds_text, "round 1:  a 2-0 c  b 0-2 d  bye e"));
  // a wins everything: first with 3 points (its bye or wins).
  CHECK(view.standings.front().player == 0);
  CHECK(view.standings.front().score == 3);
  CHECK(contains(s.rounds_text, "buchholz"));
  // Stopped after two games and resumed: the same rounds and standings.
  auto slow = rounds_config(dir, "swiss-stopped.db", "swiss", five(30));
  slow.swiss.rounds = 3;
  const RunSummary resumed = interrupted_then_resumed(slow, 2);
  CHECK(resumed.rounds_text == s.rounds_text);
}

TEST_CASE("formats: a round whose successor was never added is added when the event resumes") {
  rtest::TempDir dir;
  auto c = rounds_config(dir, "kill.db", "swiss", five());
  c.swiss.rounds = 2;
  const RunSummary full = run_event(c);
  // As if the run had been killed after round 1's last game: round 2 removed, event finished.
  {
    SQLite::Database db(c.database, SQLite::OPEN_READWRITE);
    db.exec("PRAGMA foreign_keys = ON");  // the games' moves and logs go with them
    db.exec("UPDATE slots SET game_id = NULL WHERE round = 2");
    db.exec("DELETE FROM games WHERE slot IN (SELECT slot FROM slots WHERE round = 2)");
    db.exec("DELETE FROM slots WHERE round = 2");
    db.exec("UPDATE events SET state = 'finished'");
  }
  const RunSummary resumed = run_event(c);
  CHECK(resumed.played == 4);
  CHECK(resumed.complete());
  CHECK(resumed.rounds_text == full.rounds_text);
}

TEST_CASE("formats: the keys of knockout and swiss are checked up front, one line each") {
  rtest::TempDir dir;
  const std::string head = "name = \"t\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\n";
  const std::string engines =
      "[[engine]]\nname = \"a\"\ncommand = \"/bin/true\"\n"
      "[[engine]]\nname = \"b\"\ncommand = \"/bin/true\"\n"
      "[[engine]]\nname = \"c\"\ncommand = \"/bin/true\"\n";
  auto error_of = [&](const std::string& text) {
    rtest::write_text(dir.file("t.toml"), text);
    auto c = load_tournament_file(dir.file("t.toml"));
    REQUIRE_FALSE(c.ok());
    CHECK_FALSE(contains(c.error(), "\n"));
    CHECK(contains(c.error(), dir.file("t.toml")));
    return c.error();
  };
  auto good = [&](const std::string& text) {
    rtest::write_text(dir.file("t.toml"), text);
    auto c = load_tournament_file(dir.file("t.toml"));
    INFO((c ? std::string() : c.error()));
    REQUIRE(c.ok());
    return *c;
  };
  const auto ko = good(head +
                       "format = \"knockout\"\n[knockout]\nseeding = \"rating\"\npairs = 3\n"
                       "tiebreak_pairs = 2\n" +
                       engines);
  CHECK(ko.knockout.seeding == "rating");
  CHECK(ko.knockout.pairs == 3);
  CHECK(ko.knockout.tiebreak_pairs == 2);
  CHECK(good(head + "format = \"knockout\"\n" + engines).knockout.pairs == 1);
  CHECK(good(head + "format = \"swiss\"\n[swiss]\nrounds = 4\n" + engines).swiss.rounds == 4);
  CHECK(contains(error_of("name = \"t\"\ngames = [\"oware:players=3\"]\ntc = \"10+0.1\"\n"
                          "format = \"swiss\"\n[swiss]\nrounds = 2\n" +
                          engines),
                 "format swiss is for two-player games; oware has 3 players here"));
  CHECK(
      contains(error_of("name = \"t\"\ngames = [\"awale\", \"oware:players=3\"]\ntc = \"10+0.1\"\n"
                        "format = \"knockout\"\n" +
                        engines),
               "format knockout is for two-player games"));
  CHECK(contains(error_of(head + "format = \"swiss\"\n" + engines), "needs '[swiss] rounds'"));
  CHECK(contains(error_of(head + "format = \"swiss\"\n[swiss]\n" + engines),
                 "[swiss]: 'rounds' is missing"));
  CHECK(contains(error_of(head + "format = \"swiss\"\n[swiss]\nrounds = 0\n" + engines),
                 "[swiss]: 'rounds' must be from 1 to 1000"));
  CHECK(contains(error_of(head + "format = \"swiss\"\n[swiss]\nrounds = 2\nround = 3\n" + engines),
                 "[swiss]: unknown key 'round'"));
  CHECK(
      contains(error_of(head + "format = \"knockout\"\n[knockout]\nseeding = \"elo\"\n" + engines),
               "[knockout]: 'seeding' must be file or rating, not 'elo'"));
  CHECK(contains(error_of(head + "format = \"knockout\"\n[knockout]\npairs = 0\n" + engines),
                 "[knockout]: 'pairs' must be from 1 to 1000"));
  CHECK(contains(
      error_of(head + "format = \"knockout\"\n[knockout]\ntiebreak_pairs = -1\n" + engines),
      "[knockout]: 'tiebreak_pairs' must be from 0 to 1000"));
  CHECK(contains(error_of(head + "[knockout]\npairs = 2\n" + engines),
                 "'[knockout]' goes with format = \"knockout\""));
  CHECK(contains(error_of(head + "format = \"knockout\"\n[swiss]\nrounds = 2\n" + engines),
                 "'[swiss]' goes with format = \"swiss\""));
  CHECK(contains(error_of(head + "format = \"knockout\"\ncycles = 2\n" + engines),
                 "'cycles' is not a key of format knockout"));
  CHECK(contains(error_of(head +
                          "format = \"swiss\"\n[swiss]\nrounds = 2\n[openings]\n"
                          "per_pairing = 2\n" +
                          engines),
                 "per_pairing must be 1"));
  CHECK(contains(error_of(head + "format = \"elimination\"\n" + engines),
                 "'format' must be round-robin, gauntlet, knockout or swiss, not 'elimination'"));
  CHECK(contains(error_of(head + "format = \"knockout\"\n" + engines + "games = [\"awale\"]\n"),
                 "'games' is not allowed in format knockout"));
}
