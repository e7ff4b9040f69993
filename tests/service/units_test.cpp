// The daemon's pure pieces, without a process: the scheduler's fair share, the ladder's pairing
// rule, the live stream's broadcaster (bounded, coalescing, never blocking), access rules and
// token files, the log's two line forms, the JSON views, the embedded dashboard.
#include <sys/stat.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <thread>

#include "games/game.h"
#include "service/auth.h"
#include "service/broadcaster.h"
#include "service/dashboard.h"
#include "service/ladder.h"
#include "service/log.h"
#include "service/scheduler.h"
#include "service/views.h"
#include "tests/referee/rtest_util.h"

using namespace referee::service;

namespace {

EventLoad load(std::int64_t id, int priority, int running, std::uint64_t served,
               const std::string& state = "running") {
  EventLoad e;
  e.id = id;
  e.priority = priority;
  e.running = running;
  e.served = served;
  e.state = *referee::storage::event_state_from_text(state);
  return e;
}

referee::storage::GameRecord game(const std::string& a, const std::string& b, int ra, int rb,
                                  const std::string& termination = "normal",
                                  const std::string& name = "awale") {
  referee::storage::GameRecord g;
  g.game = name;
  g.players = {a, b};
  g.ranks = {ra, rb};
  g.status = referee::storage::GameStatus::Finished;
  g.termination = termination;
  return g;
}

}  // namespace

TEST_CASE("scheduler: priority first, then fewest running, then least recently served") {
  std::vector<EventLoad> events = {load(1, 0, 1, 5), load(2, 0, 0, 9), load(3, 0, 0, 2),
                                   load(4, 5, 3, 1), load(5, 0, 0, 2)};
  CHECK(claim_order(events) == std::vector<std::int64_t>{4, 3, 5, 2, 1});
}

TEST_CASE(
    "scheduler: paused, cancelled, finished, capped, idle and paced events are not claimed from") {
  std::vector<EventLoad> events = {load(1, 0, 0, 0, "paused"),
                                   load(2, 0, 0, 0, "cancelled"),
                                   load(3, 0, 0, 0, "finished"),
                                   load(4, 0, 0, 0, "queued"),
                                   load(5, 0, 2, 0),
                                   load(6, 0, 0, 0)};
  events[4].cap = 2;  // at its cap
  events[5].out_of_work = true;
  CHECK(claim_order(events) == std::vector<std::int64_t>{4});
  events[4].cap = 3;
  CHECK(claim_order(events) == std::vector<std::int64_t>{4, 5});
  // Held back by its pace: its least interval since its last game start has not passed.
  events[4].paced = true;
  CHECK(claim_order(events) == std::vector<std::int64_t>{4});
}

TEST_CASE("scheduler: two events of one priority share a pool of slots evenly") {
  // Four slots claim in turn; each claim goes to the first event of the order.
  std::vector<EventLoad> events = {load(1, 0, 0, 0), load(2, 0, 0, 0)};
  std::uint64_t tick = 0;
  for (int slot = 0; slot < 4; ++slot) {
    const auto order = claim_order(events);
    REQUIRE_FALSE(order.empty());
    auto& e = events[static_cast<std::size_t>(order.front() - 1)];
    ++e.running;
    e.served = ++tick;
  }
  CHECK(events[0].running == 2);
  CHECK(events[1].running == 2);
}

TEST_CASE("ladder: close ratings and wide error bars are worth more") {
  LadderEntrant a{"a", 0, 100, 50}, b{"b", 10, 100, 50}, c{"c", 600, 100, 50};
  CHECK(pair_information(a, b) > pair_information(a, c));
  LadderEntrant wide{"w", 10, 300, 5};
  CHECK(pair_information(a, wide) > pair_information(a, b));
  LadderEntrant fresh{"new", 0, 0, 0};
  LadderEntrant infinite{"inf", 0, INFINITY, 3};
  CHECK(pair_information(a, fresh) == Approx(pair_information(a, infinite)));
  CHECK(pair_information(a, fresh) > pair_information(a, wide));
  CHECK(pair_information(a, b) == Approx(pair_information(b, a)));
}

TEST_CASE("ladder: a new engine is paired first, pairs spread over the engines") {
  std::vector<LadderEntrant> entrants = {
      {"a", 50, 60, 200}, {"b", 0, 60, 200}, {"c", -50, 60, 200}, {"new", 0, 0, 0}};
  auto pairs = choose_pairs(entrants, {}, 3);
  REQUIRE(pairs.size() == 3);
  for (const auto& p : pairs) CHECK((p.first == "new" || p.second == "new"));
  // Already open games of a pair lower its worth: with many open games of "new", others come.
  std::map<EnginePair, int> open = {{{"a", "new"}, 500}, {{"b", "new"}, 500}, {{"c", "new"}, 500}};
  auto later = choose_pairs(entrants, open, 1);
  REQUIRE(later.size() == 1);
  CHECK(later[0].first != "new");
  CHECK(later[0].second != "new");
  // Deterministic, alphabetical pairs; fewer than two engines, no pairs.
  CHECK(choose_pairs(entrants, {}, 3) == pairs);
  CHECK(choose_pairs({{"solo", 0, 0, 0}}, {}, 2).empty());
  for (const auto& p : choose_pairs(entrants, {}, 10)) CHECK(p.first < p.second);
}

TEST_CASE("broadcaster: readers get messages in order, filtered by event, from their cursor") {
  Broadcaster b(16);
  std::uint64_t all = b.head(), one = b.head();
  b.publish(1, "game_started", "", "{\"a\":1}");
  b.publish(2, "game_started", "", "{\"a\":2}");
  b.publish(1, "game_finished", "", "{\"a\":3}");
  auto batch = b.wait(all, 0, std::chrono::milliseconds(10));
  REQUIRE(batch.messages.size() == 3);
  CHECK(batch.messages[0]->frame == "id: 1\nevent: game_started\ndata: {\"a\":1}\n\n");
  CHECK(batch.messages[2]->type == "game_finished");
  CHECK(batch.missed == 0);
  auto mine = b.wait(one, 1, std::chrono::milliseconds(10));
  REQUIRE(mine.messages.size() == 2);
  CHECK(mine.messages[1]->seq == 3);
  // Nothing new: the wait times out empty.
  auto none = b.wait(all, 0, std::chrono::milliseconds(20));
  CHECK(none.messages.empty());
  CHECK_FALSE(none.closed);
}

TEST_CASE("broadcaster: moves of one game coalesce to the last one, in place") {
  Broadcaster b(64);
  std::uint64_t cursor = 0;
  b.publish(1, "game_started", "", "{\"game\":7}");
  for (int ply = 1; ply <= 5; ++ply)
    b.publish(1, "move", "move:7", "{\"ply\":" + std::to_string(ply) + "}");
  b.publish(1, "move", "move:8", "{\"ply\":1}");
  b.publish(1, "game_finished", "", "{\"game\":7}");
  auto batch = b.wait(cursor, 0, std::chrono::milliseconds(10));
  REQUIRE(batch.messages.size() == 4);
  CHECK(batch.messages[0]->type == "game_started");
  CHECK(batch.messages[1]->frame.find("{\"ply\":5}") != std::string::npos);
  CHECK(batch.messages[2]->coalesce == "move:8");
  CHECK(batch.messages[3]->type == "game_finished");
}

TEST_CASE("broadcaster: a reader that falls behind the ring loses the oldest, and is told") {
  Broadcaster b(4);
  std::uint64_t cursor = 0;
  for (int i = 0; i < 10; ++i) b.publish(1, "x", "", std::to_string(i));
  auto batch = b.wait(cursor, 0, std::chrono::milliseconds(10));
  CHECK(batch.missed == 6);
  REQUIRE(batch.messages.size() == 4);
  CHECK(batch.messages.front()->seq == 7);
  CHECK(cursor == 10);
}

TEST_CASE("broadcaster: publishing never waits for readers, close wakes them") {
  Broadcaster b(8);
  std::atomic<int> woke{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r)
    readers.emplace_back([&] {
      Broadcaster::Subscription sub(b);
      std::uint64_t cursor = b.head();
      while (!b.wait(cursor, 0, std::chrono::seconds(30)).closed) {
      }
      ++woke;
    });
  // Nobody reads the 100,000 messages: the ring keeps 8 and publish returns every time.
  for (int i = 0; i < 100000; ++i) b.publish(1, "move", "move:1", "{}");
  CHECK(b.head() == 100000);
  for (int i = 0; i < 500 && b.subscribers() < 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(b.has_subscribers());
  b.close();
  for (auto& t : readers) t.join();
  CHECK(woke == 4);
  CHECK_FALSE(b.has_subscribers());
  std::uint64_t cursor = 0;
  CHECK(b.wait(cursor, 0, std::chrono::seconds(5)).closed);
}

TEST_CASE("auth: tokens compare whole, in constant time, loopback addresses") {
  CHECK(token_matches("s3cret-token-0123", "s3cret-token-0123"));
  CHECK_FALSE(token_matches("s3cret-token-0123", "s3cret-token-012"));
  CHECK_FALSE(token_matches("s3cret-token-0123", "s3cret-token-01234"));
  CHECK_FALSE(token_matches("s3cret-token-0123", "S3cret-token-0123"));
  CHECK_FALSE(token_matches("", ""));
  for (const char* a : {"127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "localhost"})
    CHECK(is_loopback(a));
  for (const char* a : {"10.0.0.1", "0.0.0.0", "192.168.1.5", "::", "fe80::1", "128.0.0.1"})
    CHECK_FALSE(is_loopback(a));
}

TEST_CASE("auth: token files are refused when missing, empty, short or world-readable") {
  rtest::TempDir dir;
  const auto path = dir.file("token");
  CHECK(read_token_file(path).error().find("does not exist") != std::string::npos);
  CHECK(read_token_file(dir.path()).error().find("is not a file") != std::string::npos);
  rtest::write_text(path, "\n");
  ::chmod(path.c_str(), 0600);
  CHECK(read_token_file(path).error().find("is empty") != std::string::npos);
  rtest::write_text(path, "short\n");
  CHECK(read_token_file(path).error().find("too short") != std::string::npos);
  rtest::write_text(path, "  0123456789abcdefXYZ  \nsecond line ignored\n");
  auto token = read_token_file(path);
  REQUIRE(token.ok());
  CHECK(*token == "0123456789abcdefXYZ");
  ::chmod(path.c_str(), 0644);
  CHECK(read_token_file(path).error().find("readable by every user") != std::string::npos);
  ::chmod(path.c_str(), 0640);  // group-readable is allowed (a service group)
  CHECK(read_token_file(path).ok());
}

TEST_CASE("log: journald lines carry a priority, other lines a UTC timestamp, one line each") {
  CHECK(Log::format(LogLevel::Info, "event 3 submitted", true, 0) == "<6>event 3 submitted");
  CHECK(Log::format(LogLevel::Error, "disk\nfull", true, 0) == "<3>disk full");
  CHECK(Log::format(LogLevel::Warning, "x", false, 1795000000123LL) ==
        "2026-11-18T11:06:40.123Z warning: x");
  CHECK(iso_utc(0, false) == "1970-01-01T00:00:00Z");
}

TEST_CASE("log: a file log is reopened by name (logrotate moved it away)") {
  rtest::TempDir dir;
  LogOptions options;
  options.file = dir.file("serve.log");
  auto log = Log::open(options);
  REQUIRE(log.ok());
  (*log)->info("before");
  std::filesystem::rename(options.file, dir.file("serve.log.1"));
  (*log)->info("still to the moved file");
  REQUIRE((*log)->reopen().ok());
  (*log)->info("after");
  (*log)->debug("not without verbose");
  CHECK(rtest::contains(rtest::read_text(dir.file("serve.log.1")), "info: still to the moved"));
  const std::string fresh = rtest::read_text(options.file);
  CHECK(rtest::contains(fresh, "info: after\n"));
  CHECK_FALSE(rtest::contains(fresh, "before"));
  CHECK_FALSE(rtest::contains(fresh, "verbose"));
  options.file = dir.file("missing/dir/log");
  CHECK_FALSE(Log::open(options).ok());
}

TEST_CASE("views: results, standings with error bars, crosstable and terminations") {
  CHECK(result_text({1, 2}) == "1-0");
  CHECK(result_text({2, 1}) == "0-1");
  CHECK(result_text({1, 1}) == "1/2-1/2");
  CHECK(result_text({2, 1, 3}) == "ranks 2,1,3");
  CHECK(result_text({}) == "");
  const std::string awale_game = referee::games::make_game("awale")->canonical();
  std::vector<referee::storage::GameRecord> games = {
      game("a", "b", 1, 2, "normal", awale_game), game("b", "a", 1, 2, "normal", awale_game),
      game("a", "b", 1, 1, "normal", awale_game), game("a", "c", 1, 2, "time", awale_game),
      game("c", "a", 1, 2, "normal", awale_game), game("c", "b", 1, 2, "normal", "oware")};
  games.push_back(game("a", "b", 0, 0, "normal", awale_game));
  games.back().status = referee::storage::GameStatus::Running;
  games.back().ranks.clear();
  auto standings = standings_json(games);
  CHECK(standings["confidence"] == 95);
  REQUIRE(standings["tables"].size() == 3);  // awale, oware, all games
  const auto& awale = standings["tables"][0];
  CHECK(awale["game"] == awale_game);
  CHECK(awale["games"] == 5);
  REQUIRE(awale["rows"].size() == 3);
  int total_wins = 0;
  for (const auto& row : awale["rows"]) {
    CHECK(row["error"].is_number());
    CHECK(row["bound"].is_null());
    CHECK(row["group"] == 1);
    CHECK(row["lower"].get<double>() < row["elo"].get<double>());
    CHECK(row["upper"].get<double>() > row["elo"].get<double>());
    total_wins += row["w"].get<int>();
  }
  CHECK(total_wins == 4);
  CHECK(awale["rows"][0]["rank"] == 1);
  CHECK(awale["rows"].back()["los"].is_null());
  CHECK(standings["tables"][2]["game"] == "all games");
  CHECK(standings["tables"][2]["games"] == 6);
  // Someone who only won is a bound, not a number with an error bar.
  auto bounded = standings_json(
      {game("x", "y", 1, 2, "normal", awale_game), game("y", "x", 2, 1, "normal", awale_game)});
  CHECK(bounded["tables"][0]["rows"][0]["bound"] == "lower");
  CHECK(bounded["tables"][0]["rows"][0]["error"].is_null());

  auto cross = crosstable_json(games);
  REQUIRE(cross["tables"].size() == 3);
  const auto& t = cross["tables"][0];
  CHECK(t["engines"] == Json::array({"a", "b", "c"}));
  auto wdl = [](const Json& cell) {
    return std::vector<int>{cell["w"].get<int>(), cell["d"].get<int>(), cell["l"].get<int>()};
  };
  CHECK(t["cells"][0][0].is_null());
  CHECK(wdl(t["cells"][0][1]) == std::vector<int>{1, 1, 1});
  CHECK(wdl(t["cells"][0][2]) == std::vector<int>{1, 0, 1});
  CHECK(wdl(t["cells"][2][0]) == std::vector<int>{1, 0, 1});
  CHECK(t["cells"][1][2].is_null());  // b and c never met at awale
  CHECK(t["cells"][0][2]["pairs"] == Json::array({0, 0, 1, 0, 0, 0}));  // one pair, won each

  auto term = terminations_json(games);
  CHECK(term["engines"]["c"]["time"] == 1);  // c lost on time against a
  CHECK(term["engines"]["a"]["time"] == 0);
  CHECK(term["engines"]["a"]["games"] == 5);
  CHECK(term["engines"]["a"]["other"]["normal"] == 4);
  CHECK(term["engines"]["b"]["other"]["normal"] == 4);
}

TEST_CASE("views: engine text that is not UTF-8 still makes JSON") {
  referee::storage::GameRecord g = game("a", "b", 1, 2);
  g.reason = std::string("bad \xff\xfe bytes");
  const std::string text = dump(game_summary(g));
  CHECK(Json::parse(text)["reason"].get<std::string>().find("bad") == 0);
  CHECK(Json::parse(error_body("x \xc3"))["error"].is_string());
}

TEST_CASE("dashboard: embedded files are found by their exact relative name only") {
  auto index = find_dashboard_file("index.html");
  REQUIRE(index);
  CHECK(index->content_type == "text/html; charset=utf-8");
  CHECK(std::string(index->bytes) ==
        rtest::read_text(SOURCE_DIR "/referee/service/dashboard/index.html"));
  for (const char* bad : {"../index.html", "/index.html", "./index.html", "index.html/", "",
                          "../../CMakeLists.txt", "dashboard/index.html"})
    CHECK_FALSE(find_dashboard_file(bad));
  // Every file of the folder is embedded.
  std::size_t on_disk = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(SOURCE_DIR "/referee/service/dashboard"))
    on_disk += e.is_regular_file();
  CHECK(dashboard_files().size() == on_disk);
}
