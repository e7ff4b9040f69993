// Knockout and Swiss events played by the daemon and its workers (event/rounds.h,
// service/game_source.cpp): submitted to a real `referee serve`, or queued by `referee worker`,
// they run to their end with the bracket and the standings `referee tournament` gives for the same
// file (mock engines of fixed strength: each resigns once a game has N plies, so every result is
// known); the event is never seen finished before its last round is; a match whose games are all
// skipped (an engine refuses the game) still makes the next round; a daemon killed in the
// middle of a knockout finishes it after a restart; on PostgreSQL two workers share a Swiss
// event, adding each round once (the round's last two games may end side by side, one on each).
//
// About 12 s in all, none over 6 s (the killed daemon's engines are slowed so that it dies
// mid-event; its successor takes its claimed game back after a lease of 1 s).
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "storage/backends.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/service/daemon_util.h"
#include "tests/service/worker_process.h"

using namespace stest;

namespace {

// Five engines in the file's order a..e; their strengths make a the best, then c, e, d, b.
std::string rounds_toml(const std::string& name, const std::string& format, int slow_ms = 0,
                        const std::string& database = "") {
  std::string text = "name = \"" + name + "\"\n";
  if (!database.empty()) text += "database = \"" + database + "\"\n";
  text += "games = [\"awale\"]\ntc = \"10+0.1\"\nseed = 7\nformat = \"" + format + "\"\n";
  if (format == "swiss") text += "[swiss]\nrounds = 3\n";
  for (const auto& [engine, ply] : std::vector<std::pair<std::string, int>>{
           {"a", 12}, {"b", 2}, {"c", 10}, {"d", 4}, {"e", 6}}) {
    text += "[[engine]]\nname = \"" + engine + "\"\ncommand = \"" + kMock +
            "\"\nargs = [\"--resign-at-ply=" + std::to_string(ply) + "\"";
    if (slow_ms > 0) text += ", \"--slow-ms=" + std::to_string(slow_ms) + "\"";
    text += "]\n";
  }
  return text;
}

// The bracket or standings `referee tournament` makes of the same file (referee bracket --json,
// the API's JSON without its event_id).
Json tournament_rounds(const TempDir& dir, const std::string& name, const std::string& format) {
  const std::string db = dir.file("cli-" + name + ".db");
  rtest::write_text(dir.file(name + ".toml"), rounds_toml(name, format, 0, db));
  auto ran = rtest::referee_cmd({"tournament", dir.file(name + ".toml"), "-q"});
  INFO(ran.out << ran.err);
  REQUIRE(ran.status == 0);
  auto shown = rtest::referee_cmd({"bracket", name, "--db", db, "--json"});
  INFO(shown.err);
  REQUIRE(shown.status == 0);
  return Json::parse(shown.out);
}

Json api_rounds(httplib::Client& c, std::int64_t id) {
  Json j = get_json(c, "/api/events/" + std::to_string(id) + "/rounds");
  j.erase("event_id");
  return j;
}

// Polls the event until it is finished; fails when it is ever seen finished with its rounds not
// complete (finished between two rounds).
void watch_to_the_end(httplib::Client& c, std::int64_t id, double seconds = 90) {
  bool early = false;
  const bool ended = wait_until(
      [&] {
        const bool finished = event_of(c, id)["state"] == "finished";
        if (finished && !api_rounds(c, id)["complete"].get<bool>()) early = true;
        return finished;
      },
      seconds);
  CHECK_FALSE(early);
  REQUIRE(ended);
}

}  // namespace

TEST_CASE("serve: a knockout and a Swiss submitted to the daemon end as referee tournament's") {
  TempDir dir;
  const Json knockout = tournament_rounds(dir, "ko", "knockout");
  const Json swiss = tournament_rounds(dir, "sw", "swiss");
  CHECK(knockout["champion"] == "a");

  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto ko = submit_ok(c, rounds_toml("ko", "knockout"));
  const auto sw = submit_ok(c, rounds_toml("sw", "swiss"));
  watch_to_the_end(c, ko);
  watch_to_the_end(c, sw);
  CHECK(api_rounds(c, ko) == knockout);
  CHECK(api_rounds(c, sw) == swiss);
  // Every game of the rounds, and no more: 4 matches of one pair; 3 rounds of 2 pairings.
  CHECK(event_of(c, ko)["finished"] == 8);
  CHECK(event_of(c, sw)["finished"] == 12);
  INFO(d.err());
  CHECK(contains(d.err(), "games of the next Swiss round added"));
  // What is still refused is one line: these formats for games of more than two players.
  auto three = rounds_toml("ko3", "knockout");
  three.replace(three.find("[\"awale\"]"), 9, "[\"oware:players=3\"]");
  check_error(submit(c, three), 400, "format knockout is for two-player games");
}

TEST_CASE("serve: a knockout match whose games are all skipped still makes the next round") {
  // c refuses the game at setgame: the b-c match's games are skipped (settled, scoring nothing),
  // b advances as the higher seed, and the final a-b is added in the transaction of the last
  // skip (SlotHooks::settled).
  TempDir dir;
  std::string toml =
      "name = \"skips\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\n"
      "format = \"knockout\"\n";
  for (const auto& [engine, args] :
       std::vector<std::pair<std::string, std::string>>{{"a", "\"--resign-at-ply=12\""},
                                                        {"b", "\"--resign-at-ply=2\""},
                                                        {"c", "\"--refuse-setgame\""}})
    toml += "[[engine]]\nname = \"" + engine + "\"\ncommand = \"" + kMock + "\"\nargs = [" + args +
            "]\n";
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, toml);
  watch_to_the_end(c, id);
  const Json j = api_rounds(c, id);
  INFO(j.dump());
  REQUIRE(j["rounds"].size() == 2);
  CHECK(j["rounds"][0][1]["engines"] == Json({"b", "c"}));
  CHECK(j["rounds"][0][1]["winner"] == "b");
  CHECK(j["rounds"][0][1]["by_seed"] == true);
  CHECK(j["rounds"][1][0]["engines"] == Json({"a", "b"}));
  CHECK(j["champion"] == "a");
  CHECK(event_of(c, id)["skipped"] == 2);
  CHECK(event_of(c, id)["finished"] == 2);
}

TEST_CASE("serve: a daemon killed in the middle of a knockout finishes it after a restart") {
  TempDir dir;
  const Json expected = tournament_rounds(dir, "ko", "knockout");
  std::int64_t id = 0;
  {
    // A short lease: the killed daemon's claimed game is played again a second later.
    Daemon d(dir, {"-c", "1", "--lease", "1"});
    REQUIRE(d.ready());
    auto c = d.client();
    // Slowed engines: about 0.3 s a game, 8 games in one thread.
    id = submit_ok(c, rounds_toml("ko", "knockout", 50));
    // Killed once the first round's match and a game of the next are played.
    REQUIRE(wait_until([&] { return event_of(c, id)["finished"].get<int>() >= 3; }, 60));
    CHECK(d.signal_and_wait(SIGKILL) == 128 + SIGKILL);
  }
  Daemon again(dir, {"-c", "2", "--lease", "1"}, "serve2");
  REQUIRE(again.ready());
  auto c = again.client();
  CHECK(event_of(c, id)["state"] != "finished");
  watch_to_the_end(c, id);
  CHECK(api_rounds(c, id) == expected);
  CHECK(event_of(c, id)["finished"] == 8);
}

TEST_CASE("worker: a knockout queued by a worker is played to its end, every round") {
  TempDir dir;
  const Json expected = tournament_rounds(dir, "ko", "knockout");
  const std::string db = dir.file("w.db");
  rtest::write_text(dir.file("queued.toml"), rounds_toml("ko", "knockout"));
  auto ran = rtest::referee_cmd(
      {"worker", "--db", db, "--queue", dir.file("queued.toml"), "-c", "2", "--exit-when-done"});
  INFO(ran.out << ran.err);
  REQUIRE(ran.status == 0);
  auto shown = rtest::referee_cmd({"bracket", "ko", "--db", db, "--json"});
  REQUIRE(shown.status == 0);
  CHECK(Json::parse(shown.out) == expected);
}

TEST_CASE("worker: on PostgreSQL two workers play a Swiss's later rounds, each added once") {
  storage_test::PgServer* pg = storage_test::postgres_or_skip();
  if (!pg) return;
  TempDir dir;
  const Json expected = tournament_rounds(dir, "sw", "swiss");
  const std::string db = pg->new_database();
  rtest::write_text(dir.file("sw.toml"), rounds_toml("sw", "swiss"));
  // The first queues the event; both play it, two games at once each, so that a round's last
  // games end side by side in two processes.
  std::vector<std::unique_ptr<WorkerProcess>> workers;
  for (const std::string name : {"w1", "w2"}) {
    std::filesystem::create_directories(dir.file(name));
    std::vector<std::string> args = {"--db",       db,  "-c",     "2",  "--lease",         "2",
                                     "--idle-max", "1", "--name", name, "--exit-when-done"};
    if (name == "w1") args.insert(args.end(), {"--queue", dir.file("sw.toml")});
    workers.push_back(std::make_unique<WorkerProcess>(dir.file(name), args));
    if (name == "w1")  // the event is queued before the second starts (it would exit at once)
      REQUIRE(wait_until([&] { return contains(rtest::read_text(dir.file("w1/err")), "queued"); }));
  }
  for (auto& w : workers) CHECK(w->wait() == 0);
  auto shown = rtest::referee_cmd({"bracket", "sw", "--db", db, "--json"});
  INFO(shown.err << rtest::read_text(dir.file("w1/err")) << rtest::read_text(dir.file("w2/err")));
  REQUIRE(shown.status == 0);
  CHECK(Json::parse(shown.out) == expected);
  // Each round was added once: 3 rounds of 2 pairings of one pair, every slot played once; the
  // second and third rounds were added by one worker each time (the other found them made).
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  auto row = referee::storage::work_queue::event_named(*store, "sw");
  REQUIRE(row.ok());
  REQUIRE(row->has_value());
  auto slots = referee::storage::work_queue::slots(*store, (*row)->id);
  REQUIRE(slots.ok());
  CHECK(slots->size() == 12);
  for (const auto& s : *slots) CHECK(s.state == referee::storage::SlotState::Done);
  referee::storage::GameFilter filter;
  filter.event_id = (*row)->id;
  auto games = store->games(filter);
  REQUIRE(games.ok());
  CHECK(games->size() == 12);
  std::size_t added = 0;
  for (const std::string name : {"w1", "w2"}) {
    const std::string log = rtest::read_text(dir.file(name + "/err"));
    for (auto at = log.find("games of the next Swiss round added"); at != std::string::npos;
         at = log.find("games of the next Swiss round added", at + 1))
      ++added;
  }
  CHECK(added == 2);
  auto verified = rtest::referee_cmd({"verify", "--db", db});
  INFO(verified.out << verified.err);
  CHECK(verified.status == 0);
}
