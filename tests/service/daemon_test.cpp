// `referee serve` as a real process on an ephemeral loopback port, driven through its API with
// mock engines: a submitted event runs to the end and every read endpoint shows it (events,
// standings, crosstable, terminations, games with filters and paging, one game, transcript,
// positions, exports); pause, resume, cancel and priority; two events share the pool fairly and
// a higher priority takes the slots first; the health endpoint and the embedded dashboard.
#include <SQLiteCpp/Database.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "games/board_view_json.h"
#include "games/game.h"
#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

// The event ids of the games, in the order they began.
std::vector<std::int64_t> start_order(httplib::Client& c) {
  auto page = get_json(c, "/api/games?limit=500");
  std::vector<std::int64_t> out;
  for (const auto& g : page["games"]) out.insert(out.begin(), g["event_id"].get<std::int64_t>());
  return out;
}

}  // namespace

TEST_CASE("serve: a submitted event plays to the end, every read endpoint shows it") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, tournament_toml("first", 3, 1, 12, "args = [\"--slow-ms=2\"]\n"));
  REQUIRE(wait_state(c, id, "finished"));

  auto event = event_of(c, id);
  CHECK(event["name"] == "first");
  CHECK(event["kind"] == "tournament");
  CHECK(event["scheduled"] == 6);
  CHECK(event["finished"] == 6);
  CHECK(event["progress"] == 1.0);
  CHECK(event["engines"] == Json::array({"m0", "m1", "m2"}));
  CHECK(event["games"][0].get<std::string>().rfind("awale:", 0) == 0);
  CHECK(event["spec"]["cycles"] == 1);
  CHECK(event["engine_status"][0] ==
        Json({{"name", "m0"}, {"status", "ok"}, {"reason", nullptr}, {"skipped", 0}}));
  CHECK(event["skipped_reasons"] == Json::array());
  CHECK_FALSE(event["finished_at"].is_null());
  CHECK(event["sprt"].is_null());

  auto list = get_json(c, "/api/events");
  CHECK(list["total"] == 1);
  CHECK(list["events"][0]["id"] == id);
  CHECK(get_json(c, "/api/events?state=running")["total"] == 0);
  CHECK(get_json(c, "/api/events?state=finished&kind=tournament")["total"] == 1);

  auto standings = get_json(c, "/api/events/" + std::to_string(id) + "/standings");
  REQUIRE(standings["tables"].size() == 1);
  CHECK(standings["tables"][0]["games"] == 6);
  CHECK(standings["tables"][0]["rows"].size() == 3);
  auto cross = get_json(c, "/api/events/" + std::to_string(id) + "/crosstable");
  CHECK(cross["tables"][0]["engines"].size() == 3);
  auto terms = get_json(c, "/api/events/" + std::to_string(id) + "/terminations");
  CHECK(terms["engines"]["m0"]["games"] == 4);

  auto games = get_json(c, "/api/games?event=" + std::to_string(id) + "&limit=4");
  CHECK(games["total"] == 6);
  REQUIRE(games["games"].size() == 4);
  CHECK(get_json(c, "/api/games?engine=m2")["total"] == 4);
  CHECK(get_json(c, "/api/games?status=running")["total"] == 0);
  CHECK(get_json(c, "/api/games?game=oware")["total"] == 0);
  CHECK(get_json(c, "/api/games?game=awale")["total"] == 6);  // a prefix of the game strings
  std::int64_t by_result = 0;
  for (const std::string result : {"1-0", "0-1", "1/2-1/2"}) {
    const auto page = get_json(c, "/api/games?limit=500&result=" + result);
    by_result += page["total"].get<std::int64_t>();
    CHECK(page["games"].size() == page["total"].get<std::size_t>());
    for (const auto& g : page["games"]) CHECK(g["result"] == result);
  }
  CHECK(by_result == 6);
  const auto second_page = get_json(c, "/api/games?limit=4&offset=4");
  CHECK(second_page["games"].size() == 2);

  const std::int64_t game_id = games["games"][0]["id"];
  auto one = get_json(c, "/api/games/" + std::to_string(game_id));
  CHECK(one["status"] == "finished");
  CHECK(one["event"] == "first");
  CHECK(one["plies"] == 12);
  REQUIRE(one["moves"].size() == 12);
  CHECK(one["moves"][0]["source"] == "opening");
  CHECK(one["moves"][5]["source"] == "engine");
  CHECK(one["moves"][5]["time_ms"].is_number());
  CHECK(one["moves"][5]["clock_ms"].is_number());
  const std::string result = one["result"];
  CHECK((result == "1-0" || result == "0-1" || result == "1/2-1/2"));

  auto transcript = get_json(c, "/api/games/" + std::to_string(game_id) + "/transcript");
  REQUIRE(transcript["lines"].size() > 10);
  bool saw_go = false, saw_bestmove = false;
  for (const auto& l : transcript["lines"]) {
    saw_go = saw_go || (l["dir"] == ">" && l["text"].get<std::string>().rfind("go ", 0) == 0);
    saw_bestmove =
        saw_bestmove || (l["dir"] == "<" && l["text"].get<std::string>().rfind("bestmove", 0) == 0);
  }
  CHECK(saw_go);
  CHECK(saw_bestmove);

  // Positions replay the stored moves through the rules library.
  auto game = referee::games::make_game(one["game"].get<std::string>());
  REQUIRE(game.ok());
  auto start = get_json(c, "/api/games/" + std::to_string(game_id) + "/position?ply=0");
  CHECK(start["position"] == game->initial_state().to_string());
  CHECK(start["to_move"] == 1);
  CHECK(start["clocks_ms"] == Json::array({nullptr, nullptr}));
  std::vector<std::string> first_five;
  for (int i = 0; i < 5; ++i) first_five.push_back(one["moves"][i]["move"]);
  auto five = get_json(c, "/api/games/" + std::to_string(game_id) + "/position?ply=5");
  const auto after_five = referee::games::state_after(*game, "", first_five);
  CHECK(five["position"] == after_five->to_string());
  // The board view the dashboard draws: the rules library's view of that position.
  CHECK(five["view"] == referee::games::board_view_json(after_five->view()));
  CHECK(five["view"]["cells"].size() >= 12);
  CHECK(five["plies"] == 12);
  auto last = get_json(c, "/api/games/" + std::to_string(game_id) + "/position");
  CHECK(last["ply"] == 12);
  CHECK(last["clocks_ms"][0].is_number());

  // Exports stream every finished game.
  auto pgn = c.Get("/api/export?format=pgn&event=" + std::to_string(id));
  REQUIRE(pgn);
  CHECK(pgn->status == 200);
  CHECK(pgn->get_header_value("Transfer-Encoding") == "chunked");
  std::size_t events_in_pgn = 0;
  for (std::size_t at = pgn->body.find("[Event "); at != std::string::npos;
       at = pgn->body.find("[Event ", at + 1))
    ++events_in_pgn;
  CHECK(events_in_pgn == 6);
  auto jsonl = c.Get("/api/export?format=jsonl&engine=m0");
  REQUIRE(jsonl);
  CHECK(rtest::lines_of(jsonl->body).size() == 4);
  auto csv = c.Get("/api/export?format=csv");
  REQUIRE(csv);
  const auto rows = rtest::lines_of(csv->body);
  REQUIRE(rows.size() == 7);  // the header once, then one row per game
  CHECK(rows[0].rfind("id,tournament,", 0) == 0);

  // Health and the dashboard.
  auto health = get_json(c, "/api/health");
  CHECK(health["status"] == "ok");
  CHECK(health["slots"]["total"] == 2);
  CHECK(health["db"] == dir.file("serve.db"));
  auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(contains(page->get_header_value("Content-Type"), "text/html"));
  CHECK(page->body == rtest::read_text(SOURCE_DIR "/referee/service/dashboard/index.html"));
  CHECK(c.Get("/static/index.html")->body == page->body);

  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: pause lets running games finish and starts none, resume completes the event") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, tournament_toml("paused", 2, 4, 16, "args = [\"--slow-ms=30\"]\n"));
  const std::string path = "/api/events/" + std::to_string(id);
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 2; }));
  auto paused = c.Post(path + "/pause", "", "application/json");
  REQUIRE(paused);
  CHECK(paused->status == 200);
  CHECK(Json::parse(paused->body)["state"] == "paused");
  // The two games under way finish; nothing else starts.
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 0; }));
  const auto done = event_of(c, id)["finished"].get<int>();
  CHECK(done >= 2);
  CHECK(done < 8);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(event_of(c, id)["finished"] == done);
  CHECK(get_json(c, "/api/games?event=" + std::to_string(id) + "&status=unfinished")["total"] == 0);
  // Pausing again is a conflict; resuming plays the rest.
  auto again = c.Post(path + "/pause", "", "application/json");
  CHECK(again->status == 409);
  CHECK(contains(Json::parse(again->body)["error"].get<std::string>(), "is paused"));
  auto resumed = c.Post(path + "/resume", "", "application/json");
  CHECK(resumed->status == 200);
  REQUIRE(wait_state(c, id, "finished"));
  CHECK(event_of(c, id)["finished"] == 8);
  CHECK(c.Post(path + "/resume", "", "application/json")->status == 409);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: cancel interrupts the running games, nothing more is played") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, tournament_toml("doomed", 2, 4, 200, "args = [\"--slow-ms=20\"]\n"));
  REQUIRE(wait_until([&] { return event_of(c, id)["running"] == 2; }));
  auto res = c.Post("/api/events/" + std::to_string(id) + "/cancel", "", "application/json");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(Json::parse(res->body)["state"] == "cancelled");
  // The games stop at once (they would take seconds), and the slots go back to pending.
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["slots"]["busy"] == 0; }, 10));
  auto event = event_of(c, id);
  CHECK(event["state"] == "cancelled");
  CHECK(event["finished"] == 0);
  CHECK(event["running"] == 0);
  CHECK(event["pending"] == 8);
  auto games = get_json(c, "/api/games?event=" + std::to_string(id));
  CHECK(games["total"] == 2);
  for (const auto& g : games["games"]) {
    CHECK(g["status"] == "unfinished");
    CHECK(g["termination"] == "interrupted");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  CHECK(get_json(c, "/api/games")["total"] == 2);
  // Cancelled is final.
  CHECK(c.Post("/api/events/" + std::to_string(id) + "/resume", "", "application/json")->status ==
        409);
  CHECK(c.Post("/api/events/" + std::to_string(id) + "/cancel", "", "application/json")->status ==
        409);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: two events of one priority share the pool evenly") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // Paused at once so both are in place before the first claim.
  const auto a = submit_ok(c, tournament_toml("a", 2, 4, 16, "args = [\"--slow-ms=40\"]\n"));
  CHECK(c.Post("/api/events/" + std::to_string(a) + "/pause", "", "application/json")->status ==
        200);
  const auto b = submit_ok(c, tournament_toml("b", 2, 4, 16, "args = [\"--slow-ms=40\"]\n"));
  CHECK(c.Post("/api/events/" + std::to_string(b) + "/pause", "", "application/json")->status ==
        200);
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["slots"]["busy"] == 0; }));
  const auto before = get_json(c, "/api/games")["total"].get<int>();
  CHECK(c.Post("/api/events/" + std::to_string(a) + "/resume", "", "application/json")->status ==
        200);
  CHECK(c.Post("/api/events/" + std::to_string(b) + "/resume", "", "application/json")->status ==
        200);
  REQUIRE(wait_state(c, a, "finished"));
  REQUIRE(wait_state(c, b, "finished"));
  // From b's first game on, while both had games left to start, each ran one of the two slots:
  // the games began alternately. (Before it, both slots may take event a in the moment before b
  // is resumed, more than once on a loaded machine.)
  auto order = start_order(c);
  order.erase(order.begin(), order.begin() + before);
  REQUIRE(order.size() >= 12);
  const auto first_b = std::find(order.begin(), order.end(), b) - order.begin();
  const auto last_a = order.rend() - std::find(order.rbegin(), order.rend(), a) - 1;
  REQUIRE(first_b <= 4);
  int count_a = 0, count_b = 0, worst_gap = 0;
  for (auto i = first_b; i <= last_a; ++i) {
    (order[static_cast<std::size_t>(i)] == a ? count_a : count_b) += 1;
    worst_gap = std::max(worst_gap, std::abs(count_a - count_b));
  }
  INFO("start order gap " << worst_gap << " from " << first_b << " to " << last_a);
  CHECK(last_a - first_b >= 5);
  // A game's start is recorded after its engines' handshake, not at its claim: on a loaded
  // machine (ctest beside Chromium) two pairs of claims can show up in the other order, so two
  // of slack; without fair share one event would take both slots: a gap of 8.
  CHECK(worst_gap <= 4);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: a higher priority event takes the free slots first, PATCH changes it") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // Both submitted paused: submitted running, an event is claimed from at once, and a slot could
  // take games of "high" before a pause request reached the daemon (the test then saw fewer than
  // 6 of its games after the resumes, and failed one run in five on a loaded machine).
  auto low_res =
      c.Post("/api/events?state=paused",
             tournament_toml("low", 2, 4, 16, "args = [\"--slow-ms=10\"]\n"), "application/toml");
  REQUIRE(low_res);
  REQUIRE(low_res->status == 201);
  CHECK(Json::parse(low_res->body)["state"] == "paused");
  const std::int64_t low = Json::parse(low_res->body)["id"];
  auto high_res =
      c.Post("/api/events?priority=5&state=paused",
             tournament_toml("high", 2, 3, 16, "args = [\"--slow-ms=10\"]\n"), "application/toml");
  REQUIRE(high_res);
  REQUIRE(high_res->status == 201);
  const auto high_json = Json::parse(high_res->body);
  CHECK(high_json["priority"] == 5);
  CHECK(high_json["state"] == "paused");
  const std::int64_t high = high_json["id"];
  check_error(
      c.Post("/api/events?state=running", tournament_toml("x", 2, 1, 16), "application/toml"), 400,
      "state must be queued or paused");
  REQUIRE(start_order(c).empty());
  // High first, then low: from then on every slot that frees takes a game of "high" while it has
  // one left, whatever the timing of the two requests (fair share alone would alternate).
  c.Post("/api/events/" + std::to_string(high) + "/resume", "", "application/json");
  c.Post("/api/events/" + std::to_string(low) + "/resume", "", "application/json");
  REQUIRE(wait_state(c, low, "finished"));
  const auto order = start_order(c);
  REQUIRE(order.size() == 14);
  // The high event's 6 games are all claimed before the low event's first. A game's start is
  // recorded after its engines' handshake, so the other slot's first low game may show up before
  // the last high one, never more (fair share alone would interleave the two events).
  int high_seen = 0, low_seen = 0;
  for (auto e : order) {
    if (high_seen == 6) break;
    if (e == high) ++high_seen;
    if (e == low) ++low_seen;
  }
  CHECK(high_seen == 6);
  CHECK(low_seen <= 1);

  auto patched =
      c.Patch("/api/events/" + std::to_string(low), "{\"priority\": -7}", "application/json");
  REQUIRE(patched);
  CHECK(patched->status == 200);
  CHECK(Json::parse(patched->body)["priority"] == -7);
  CHECK(event_of(c, low)["priority"] == -7);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("serve: submitting the same file again returns the event, a changed one is refused") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  const std::string text = tournament_toml("same", 2, 1, 10);
  const auto id = submit_ok(c, text);
  auto again = submit(c, text);
  REQUIRE(again);
  CHECK(again->status == 200);
  CHECK(Json::parse(again->body)["id"] == id);
  auto changed = submit(c, tournament_toml("same", 2, 3, 10));
  REQUIRE(changed);
  CHECK(changed->status == 409);
  CHECK(contains(Json::parse(changed->body)["error"].get<std::string>(), "cycles"));
  // JSON works as well as TOML; kind and priority are the daemon's keys.
  Json doc = {
      {"name", "as json"},
      {"games", {"awale:maxplies=10"}},
      {"tc", "10+0.1"},
      {"kind", "tournament"},
      {"priority", 2},
      {"engine", {{{"name", "x"}, {"command", kMock}}, {{"name", "y"}, {"command", kMock}}}}};
  auto json_res = c.Post("/api/events", doc.dump(), "application/json");
  REQUIRE(json_res);
  CHECK(json_res->status == 201);
  CHECK(Json::parse(json_res->body)["priority"] == 2);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
