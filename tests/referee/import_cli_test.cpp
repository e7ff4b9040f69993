// `referee import` run as a program: export (--unfinished: the whole archive) → import into an
// empty database → export gives the same bytes (awale with openings, 3-player oware, kalaha's extra
// turns, unfinished and running games, clocks, info lines, notes) and `verify` passes; a second
// import skips every game as a duplicate; importing another archive appends (taken ids renumbered);
// a slot already finished with another game is refused; every bad line is one error naming the file
// and line, and nothing is written. The round trip runs on PostgreSQL too (a server the test
// starts).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "storage/backends.h"
#include "storage/game_maker.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

using rtest::referee_cmd;

using storage_test::MadeGame;
using storage_test::random_game;

// A database with games of every kind the export writes. `seed` varies the games.
void write_db(const std::string& db, std::uint64_t seed) {
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  auto rr = referee::storage::work_queue::open_tournament(*store, "rr", "{}");
  auto three =
      referee::storage::work_queue::open_tournament(*store, "three-" + std::to_string(seed), "{}");
  REQUIRE(rr.ok());
  REQUIRE(three.ok());
  auto put = [&](MadeGame made, std::optional<std::int64_t> tournament, std::int64_t slot,
                 const std::string& status) {
    made.record.event_id = tournament;
    made.record.slot = slot;
    auto id = store->begin_game(made.record);
    REQUIRE(id.ok());
    std::size_t keep = made.moves.size();
    if (status != "finished") keep = std::min<std::size_t>(keep - 1, 9);  // not over
    for (std::size_t i = 0; i < keep; ++i) {
      if (i == 4) made.moves[i].note = "round 2";
      REQUIRE(store->add_move(*id, made.moves[i]).ok());
    }
    if (status == "running") return;
    if (status == "unfinished") {
      made.record.status = referee::storage::GameStatus::Unfinished;
      made.record.ranks.clear();
      made.record.scores.clear();
      made.record.termination = "interrupted";
      made.record.reason = "the run stopped before the game ended";
      made.record.plies = static_cast<std::int64_t>(keep);
    }
    REQUIRE(store->finish_game(*id, made.record).ok());
  };
  for (int slot = 3; slot >= 0; --slot)
    put(random_game(
            "awale",
            slot % 2 ? std::vector<std::string>{"B", "A"} : std::vector<std::string>{"A", "B"},
            seed * 100 + static_cast<std::uint64_t>(slot), 2),
        *rr, slot, "finished");
  put(random_game("oware:players=3", {"A", "B", "C"}, seed * 100 + 10), *three, 0, "finished");
  put(random_game("oware:players=3", {"C", "A", "B"}, seed * 100 + 11), *three, 1, "unfinished");
  put(random_game("kalaha", {"A", "C"}, seed * 100 + 12, 1), std::nullopt, -1, "finished");
  put(random_game("kalaha", {"C", "A"}, seed * 100 + 13), std::nullopt, -1, "running");
}

std::string export_jsonl(const std::string& db) {
  auto r = referee_cmd({"export", "--format", "jsonl", "--unfinished", "--db", db});
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r.out;
}

rtest::RunResult import_file(const std::string& file, const std::string& db) {
  return referee_cmd({"import", file, "--db", db});
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("import: export, import into an empty database, export: the same bytes, verify passes") {
  rtest::TempDir dir;
  const std::string src = dir.file("src.db"), copy = dir.file("copy.db");
  write_db(src, 1);
  const std::string first = export_jsonl(src);
  REQUIRE(count_lines(first) == 8);
  // The file holds what the round trip must keep.
  CHECK(contains(first, "\"oware:players=3"));
  CHECK(contains(first, "\"status\":\"unfinished\""));
  CHECK(contains(first, "\"status\":\"running\""));
  CHECK(contains(first, "\"note\":\"round 2\""));
  CHECK(contains(first, "\"source\":\"opening\""));
  CHECK(contains(first, "\"info\":\"depth "));
  CHECK(contains(first, "\"tournament_id\":null"));
  {
    // Kalaha's extra turns: one player moves twice in a row somewhere.
    auto store = referee::storage::Store::open(src);
    REQUIRE(store.ok());
    bool twice = false;
    referee::storage::GameFilter all;
    all.finished_only = false;
    auto games = store->games(all);
    REQUIRE(games.ok());
    const std::vector<referee::storage::GameRecord> list = *games;
    for (const auto& g : list) {
      if (g.game.rfind("kalaha", 0) != 0) continue;
      auto moves = store->moves(g.id);
      for (std::size_t i = 1; i < moves->size(); ++i)
        twice = twice || (*moves)[i].player == (*moves)[i - 1].player;
    }
    CHECK(twice);
  }
  const std::string file = dir.file("archive.jsonl");
  rtest::write_text(file, first);

  auto r = import_file(file, copy);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "8 games imported, 0 duplicates skipped"));
  CHECK(export_jsonl(copy) == first);
  auto verified = referee_cmd({"verify", "--db", copy});
  INFO(verified.out);
  CHECK(verified.status == 0);
  CHECK(contains(verified.out, "8 games replayed, 0 mismatches"));
  // Ratings read the imported results (the results table follows the imported games).
  auto ratings = referee_cmd({"ratings", "--db", copy});
  CHECK(ratings.status == 0);
  CHECK(ratings.out == referee_cmd({"ratings", "--db", src}).out);

  SECTION("the same file again: every game is a duplicate, nothing changes") {
    auto again = import_file(file, copy);
    INFO(again.err);
    REQUIRE(again.status == 0);
    CHECK(contains(again.out, "0 games imported, 8 duplicates skipped"));
    CHECK(export_jsonl(copy) == first);
  }
  SECTION("the file back into the database it came from: every game is a duplicate") {
    auto back = import_file(file, src);
    INFO(back.err);
    REQUIRE(back.status == 0);
    CHECK(contains(back.out, "0 games imported, 8 duplicates skipped"));
    CHECK(export_jsonl(src) == first);
  }
  SECTION("another machine's archive is appended; taken ids get new ones") {
    const std::string other = dir.file("other.db");
    write_db(other, 2);
    // Its tournament "rr" holds other games in the same slots: that is a conflict, so keep only
    // the games outside "rr" (the tournament "three-2" is new here).
    std::string kept;
    for (const auto& line : rtest::lines_of(export_jsonl(other)))
      if (!contains(line, "\"tournament\":\"rr\"")) kept += line + "\n";
    REQUIRE(count_lines(kept) == 4);
    const std::string second = dir.file("second.jsonl");
    rtest::write_text(second, kept);
    auto merged = import_file(second, copy);
    INFO(merged.err);
    REQUIRE(merged.status == 0);
    CHECK(contains(merged.out, "4 games imported, 0 duplicates skipped"));
    const std::string all = export_jsonl(copy);
    CHECK(count_lines(all) == 12);
    // The first archive's games kept their ids and records.
    for (const auto& line : rtest::lines_of(first)) CHECK(contains(all, line));
    auto ok = referee_cmd({"verify", "--db", copy});
    CHECK(ok.status == 0);
    CHECK(contains(ok.out, "12 games replayed, 0 mismatches"));
    // The other tournament's games are under their own name, new ids.
    CHECK(contains(all, "\"tournament\":\"three-2\""));
    CHECK(contains(all, "\"id\":9,"));
  }
  SECTION("a finished game for a slot that has another one is refused, that batch undone") {
    const std::string other = dir.file("other.db");
    write_db(other, 3);
    const std::string clash = dir.file("clash.jsonl");
    rtest::write_text(clash, export_jsonl(other));
    auto refused = import_file(clash, copy);
    INFO(refused.err);
    CHECK(refused.status == 1);
    REQUIRE(rtest::lines_of(refused.err).size() == 1);
    CHECK(contains(refused.err, clash + ":3: slot 0 of tournament 'rr' already has another "
                                        "finished game"));
    CHECK(contains(refused.err, "0 games imported before it"));
    CHECK(export_jsonl(copy) == first);
  }
}

TEST_CASE(
    "import: unknown times are null as in the API, an archive written with -1 still imports") {
  rtest::TempDir dir;
  const std::string src = dir.file("src.db");
  write_db(src, 3);
  const std::string now = export_jsonl(src);
  // Opening moves have no time used and no clock: null, as GET /api/games/{id} writes them.
  CHECK(contains(now, "\"source\":\"opening\""));
  CHECK(contains(now, "\"time_ms\":null,\"clock_ms\":null"));
  CHECK_FALSE(contains(now, "\"time_ms\":-1"));
  CHECK_FALSE(contains(now, "\"clock_ms\":-1"));
  // The same archive as versions before wrote it imports to the same games.
  std::string old = now;
  for (const std::string key : {"\"time_ms\":", "\"clock_ms\":"})
    for (auto at = old.find(key + "null"); at != std::string::npos; at = old.find(key + "null"))
      old.replace(at, key.size() + 4, key + "-1");
  REQUIRE(old != now);
  rtest::write_text(dir.file("old.jsonl"), old);
  auto r = import_file(dir.file("old.jsonl"), dir.file("old.db"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(export_jsonl(dir.file("old.db")) == now);
  // A time that is neither a number nor null is refused, naming the key.
  std::string bad = now;
  bad.replace(bad.find("\"time_ms\":null"), 14, "\"time_ms\":\"0\"");
  rtest::write_text(dir.file("bad.jsonl"), bad);
  auto refused = import_file(dir.file("bad.jsonl"), dir.file("bad.db"));
  CHECK(refused.status != 0);
  CHECK(contains(refused.err, "'moves.time_ms' must be an integer or null"));
}

TEST_CASE("import: the round trip on every backend, a game begun after an import takes a new id") {
  rtest::TempDir dir;
  const std::string src = dir.file("src.db");
  write_db(src, 3);
  const std::string first = export_jsonl(src);
  const std::string file = dir.file("archive.jsonl");
  rtest::write_text(file, first);
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      auto r = import_file(file, db.url());
      INFO(r.err);
      REQUIRE(r.status == 0);
      CHECK(contains(r.out, "8 games imported, 0 duplicates skipped"));
      CHECK(export_jsonl(db.url()) == first);
      CHECK(referee_cmd({"verify", "--db", db.url()}).status == 0);
      auto again = import_file(file, db.url());
      CHECK(contains(again.out, "0 games imported, 8 duplicates skipped"));
      // Rows were inserted with their exported ids: the next game must not collide with them
      // (on PostgreSQL the identity sequence is moved past the largest).
      auto store = referee::storage::Store::open(db.url());
      REQUIRE(store.ok());
      referee::storage::GameRecord g;
      g.game = "awale";
      g.players = {"a", "b"};
      auto id = store->begin_game(g);
      INFO((id.ok() ? std::string() : id.error()));
      REQUIRE(id.ok());
      std::int64_t largest = 0;
      for (const auto& line : nlohmann::json::parse("[" + [&] {
             std::string joined = first;
             while (!joined.empty() && joined.back() == '\n') joined.pop_back();
             for (auto& c : joined)
               if (c == '\n') c = ',';
             return joined;
           }() + "]"))
        largest = std::max<std::int64_t>(largest, line.at("id").get<std::int64_t>());
      CHECK(*id > largest);
    }
}

TEST_CASE("import: games of an event this database schedules are refused, nothing is written") {
  rtest::TempDir dir;
  const std::string src = dir.file("src.db"), live = dir.file("live.db");
  write_db(src, 5);
  const std::string file = dir.file("archive.jsonl");
  rtest::write_text(file, export_jsonl(src));
  {
    auto store = referee::storage::Store::open(live);
    REQUIRE(store.ok());
    referee::storage::SlotRecord slot;
    slot.game = "awale";
    slot.seats = {"A", "B"};
    REQUIRE(
        referee::storage::work_queue::open_event(*store, "rr", "{}", "fingerprint", {slot}).ok());
  }
  auto r = import_file(file, live);
  INFO(r.err);
  CHECK(r.status == 1);
  REQUIRE(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "tournament 'rr' is an event of this database"));
  CHECK(contains(r.err, "0 games imported before it"));
  auto store = referee::storage::Store::open(live);
  REQUIRE(store.ok());
  referee::storage::GameFilter all;
  all.finished_only = false;
  auto games = store->games(all);
  REQUIRE(games.ok());
  CHECK(games.value().empty());
}

TEST_CASE("import: a bad line is one error naming the file and line, nothing is imported") {
  rtest::TempDir dir;
  const std::string src = dir.file("src.db");
  write_db(src, 4);
  const auto lines = rtest::lines_of(export_jsonl(src));
  REQUIRE(lines.size() == 8);
  // Schedule order: games outside tournaments (kalaha), "rr", then "three" (slot 0 finished).
  const std::string good = lines[6];
  REQUIRE(contains(good, "oware:players=3"));

  using OJson = nlohmann::ordered_json;
  auto changed = [&](const std::function<void(OJson&)>& change) {
    return rtest::changed_line(good, change);
  };
  struct Case {
    std::string name, line, error;
  };
  const std::vector<Case> cases = {
      {"not JSON", "{\"id\": 1,", "not JSON"},
      {"not an object", "[1, 2]", "a record must be a JSON object"},
      {"a missing key", changed([](OJson& j) { j.erase("time_control"); }),
       "missing key 'time_control'"},
      {"a missing move key", changed([](OJson& j) { j["moves"][0].erase("player"); }),
       "missing key 'moves.player'"},
      {"an unknown key", changed([](OJson& j) { j["colour"] = "red"; }), "unknown key 'colour'"},
      {"an unknown game", changed([](OJson& j) { j["game"] = "owari:players=3"; }),
       "unknown game 'owari:players=3'"},
      {"a game not canonical", changed([](OJson& j) { j["game"] = "oware:players=3"; }),
       "is not canonical"},
      {"a wrong type", changed([](OJson& j) { j["slot"] = "0"; }), "'slot' must be an integer"},
      {"two players for three seats", changed([](OJson& j) {
         j["players"] = {"A", "B"};
         j["ranks"] = {1, 2};
         j["scores"] = {1, 0};
       }),
       "is played by 3 players, not 2"},
      {"a bad status", changed([](OJson& j) { j["status"] = "won"; }),
       "'status' must be finished, unfinished or running"},
      {"an illegal move", changed([](OJson& j) { j["moves"][0]["move"] = "zz"; }),
       "does not replay: ply 1 'zz'"},
      {"the wrong mover", changed([](OJson& j) { j["moves"][0]["player"] = 2; }),
       "does not replay: ply 1 recorded for player 2"},
      {"a rank out of range", changed([](OJson& j) { j["ranks"][0] = 7; }),
       "a rank must be an integer from 1"},
      {"ranks the rules do not give", changed([](OJson& j) {
         j["ranks"] = {1, 1, 1};
       }),
       "does not replay: recorded ranks 1,1,1"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name + ": " + c.error) {
      const std::string file = dir.file("bad.jsonl");
      // The bad line is the third: two good lines before it are not imported either.
      rtest::write_text(file, lines[0] + "\n" + lines[1] + "\n" + c.line + "\n" + lines[2] + "\n");
      const std::string db = dir.file("target.db");
      auto r = import_file(file, db);
      INFO(r.err);
      CHECK(r.status == 1);
      REQUIRE(rtest::lines_of(r.err).size() == 1);
      CHECK(r.err.rfind("referee import: " + file + ":3: ", 0) == 0);
      CHECK(contains(r.err, c.error));
      CHECK(contains(r.err, "nothing imported"));
      CHECK_FALSE(std::filesystem::exists(db));
    }
  }
}

TEST_CASE("import: usage errors") {
  rtest::TempDir dir;
  auto none = referee_cmd({"import"});
  CHECK(none.status == 2);
  CHECK(contains(none.err, "give the file to import"));
  auto stdin_file = referee_cmd({"import", "-"});
  CHECK(stdin_file.status == 2);
  auto missing = referee_cmd({"import", dir.file("nope.jsonl"), "--db", dir.file("x.db")});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "cannot read '" + dir.file("nope.jsonl") + "'"));
  auto help = referee_cmd({"import", "--help"});
  CHECK(help.status == 0);
  CHECK(contains(help.out, "usage: referee import FILE.jsonl"));
}
