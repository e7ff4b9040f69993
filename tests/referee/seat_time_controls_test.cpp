// Each seat's time control, from the tournament file to the archive and back: a tournament whose
// engines have their own `tc` stores every seat's with each game (seat 1's stays time_control);
// export → import into an empty database → export gives the same bytes in JSON Lines, PGN and CSV,
// with per-seat controls and without; an archive of the format before them (no `time_controls`
// anywhere) imports and exports as it was; a bad per-seat list is one error naming the line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "referee/event/tournament.h"
#include "referee/event/tournament_config.h"
#include "storage/game_maker.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using namespace referee::event;
using rtest::contains;

namespace seat_tc_cli {

using Controls = std::vector<std::string>;

// Games of two and three seats, outside tournaments and in one; `controls[i]` are game i's
// per-seat controls ({}: none recorded, as before schema v11).
void write_games(const std::string& db, const std::vector<Controls>& controls) {
  auto store = storage::Store::open(db);
  REQUIRE(store.ok());
  auto rr = storage::work_queue::open_tournament(*store, "rr", "{}");
  REQUIRE(rr.ok());
  const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      {"awale", {"A", "B"}}, {"oware:players=3", {"A", "B", "C"}}, {"kalaha", {"B", "A"}}};
  for (std::size_t i = 0; i < controls.size(); ++i) {
    const auto& [game, players] = kinds[i % kinds.size()];
    auto made = storage_test::random_game(game, players, 500 + i, 2);
    made.record.time_controls = controls[i];
    if (!controls[i].empty()) made.record.time_control = controls[i].front();
    if (i % 2) {
      made.record.event_id = *rr;
      made.record.slot = static_cast<std::int64_t>(i);
    }
    auto id = store->begin_game(made.record);
    REQUIRE(id.ok());
    for (const auto& m : made.moves) REQUIRE(store->add_move(*id, m).ok());
    REQUIRE(store->finish_game(*id, made.record).ok());
  }
}

const std::vector<std::vector<std::string>> kExports = {{"--format", "jsonl"},
                                                        {"--format", "pgn"},
                                                        {"--format", "pgn", "--pairwise"},
                                                        {"--format", "csv"},
                                                        {"--format", "csv", "--pairwise"}};

std::vector<std::string> exports_of(const std::string& db) {
  std::vector<std::string> out;
  for (auto args : kExports) {
    args.insert(args.begin(), "export");
    args.insert(args.end(), {"--db", db});
    auto r = rtest::referee_cmd(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    out.push_back(r.out);
  }
  return out;
}

// export → import into an empty database → export: every format the same bytes. Returns the
// first exports.
std::vector<std::string> round_trip(const rtest::TempDir& dir, const std::string& src) {
  const auto first = exports_of(src);
  const std::string file = dir.file("archive.jsonl"), copy = dir.file("copy.db");
  rtest::write_text(file, first[0]);
  auto r = rtest::referee_cmd({"import", file, "--db", copy});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto second = exports_of(copy);
  for (std::size_t i = 0; i < kExports.size(); ++i) {
    INFO(kExports[i][1] << (kExports[i].size() > 2 ? " --pairwise" : ""));
    CHECK(second[i] == first[i]);
  }
  return first;
}

}  // namespace seat_tc_cli

TEST_CASE("seat time controls: a tournament whose engines have their own tc records each seat's") {
  rtest::TempDir dir;
  const std::string file = dir.file("event.toml");
  rtest::write_text(file, "name = \"tcs\"\ndatabase = \"" + dir.file("event.db") +
                              "\"\ngames = [\"awale:maxplies=12\"]\ntc = \"10+0.1\"\n"
                              "cycles = 1\nconcurrency = 1\n"
                              "[[engine]]\nname = \"quick\"\ncommand = \"" +
                              rtest::kMock +
                              "\"\ntc = \"5+0.050\"\n"
                              "[[engine]]\nname = \"plain\"\ncommand = \"" +
                              rtest::kMock + "\"\n");
  auto config = load_tournament_file(file);
  INFO((config ? std::string() : config.error()));
  REQUIRE(config.ok());
  auto run = run_tournament(*config, RunOptions{});
  INFO((run ? std::string() : run.error()));
  REQUIRE(run.ok());
  CHECK(run->played == 2);

  auto store = storage::Store::open(config->database);
  REQUIRE(store.ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  REQUIRE(games->size() == 2);
  std::set<std::string> firsts;
  for (const auto& g : *games) {
    INFO("game " << g.id << ": " << g.reason);
    REQUIRE(g.players.size() == 2);
    REQUIRE(g.time_controls.size() == 2);
    for (std::size_t s = 0; s < 2; ++s)
      CHECK(g.time_controls[s] == (g.players[s] == "quick" ? "5+0.05" : "10+0.1"));
    CHECK(g.time_control == g.time_controls[0]);  // seat 1's: what --tc filters on
    firsts.insert(g.players[0]);
  }
  CHECK(firsts == std::set<std::string>{"quick", "plain"});  // both seatings
  // The exports say it: White's and Black's controls.
  auto pgn = rtest::referee_cmd({"export", "--format", "pgn", "--db", config->database});
  REQUIRE(pgn.status == 0);
  CHECK(contains(pgn.out, "[White \"quick\"]\n[Black \"plain\"]\n"));
  CHECK(contains(pgn.out, "[WhiteTimeControl \"5+0.05\"]\n[BlackTimeControl \"10+0.1\"]\n"));
  CHECK(contains(pgn.out, "[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"5+0.05\"]\n"));
  CHECK_FALSE(contains(pgn.out, "[TimeControl "));
}

TEST_CASE("seat time controls: JSONL, PGN and CSV round trips are byte-identical with them") {
  using namespace seat_tc_cli;
  rtest::TempDir dir;
  const std::string src = dir.file("src.db");
  write_games(src, {{"10+0.1", "5+0.05"},
                    {"10+0.1", "5+0.05", "5+0.05"},
                    {"40/60+0.5", "movetime=200"},
                    {"5+0.05", "10+0.1"},
                    {"10+0.1", "10+0.1", "10+0.1"},
                    {}});
  const auto first = round_trip(dir, src);
  CHECK(contains(first[0], R"("time_control":"10+0.1","time_controls":["10+0.1","5+0.05"],)"));
  CHECK(contains(first[0], R"("time_controls":["10+0.1","5+0.05","5+0.05"])"));
  CHECK(
      contains(first[1], "[WhiteTimeControl \"40/60+0.5\"]\n[BlackTimeControl \"movetime=200\"]"));
  CHECK(contains(first[2], "[TimeControl \"5+0.05\"]\n"));  // seats 2 and 3 of the 3-player game
  CHECK(contains(first[3], ",A;B;C,10+0.1;5+0.05;5+0.05,finished,"));
  CHECK(contains(first[4], ",B;C,5+0.05,finished,"));
  // Only games whose seats differ carry them.
  CHECK(rtest::lines_of(first[0]).size() == 6);
  std::size_t with = 0;
  for (const auto& line : rtest::lines_of(first[0])) with += contains(line, "time_controls");
  CHECK(with == 4);
}

TEST_CASE(
    "seat time controls: an archive of the format before them imports and exports as it was") {
  using namespace seat_tc_cli;
  rtest::TempDir dir;
  const std::string src = dir.file("old.db");
  // Games as a referee before schema v11 stored them (no per-seat list) or one whose seats all had
  // the event's control: the archive has the keys it always had, in the same order.
  write_games(src, {{}, {}, {}, {"10+0.1", "10+0.1"}});
  const auto first = round_trip(dir, src);
  for (const auto& line : rtest::lines_of(first[0])) {
    auto j = nlohmann::ordered_json::parse(line);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"id", "tournament_id", "tournament", "slot", "game",
                                           "start_position", "opening", "players", "time_control",
                                           "status", "ranks", "scores", "termination", "reason",
                                           "started_at", "finished_at", "plies", "moves"});
  }
  for (const auto& text : first) {
    CHECK_FALSE(contains(text, "WhiteTimeControl"));
    CHECK_FALSE(contains(text, "5+0.05"));
  }
  CHECK(contains(first[1], "[TimeControl \"10+0.1\"]\n"));
  CHECK(contains(first[3], ",A;B,10+0.1,finished,"));
}

TEST_CASE("seat time controls: a bad per-seat list is one error naming the line") {
  using namespace seat_tc_cli;
  rtest::TempDir dir;
  const std::string src = dir.file("src.db");
  write_games(src, {{"10+0.1", "5+0.05"}, {}, {}});
  const auto lines = rtest::lines_of(exports_of(src)[0]);
  REQUIRE(lines.size() == 3);
  std::string good;
  for (const auto& l : lines)
    if (contains(l, "time_controls")) good = l;
  REQUIRE_FALSE(good.empty());
  std::vector<std::string> others;
  for (const auto& l : lines)
    if (l != good) others.push_back(l);

  using OJson = nlohmann::ordered_json;
  auto changed = [&](const std::function<void(OJson&)>& change) {
    return rtest::changed_line(good, change);
  };
  struct Case {
    std::string name, line, error;
  };
  const std::vector<Case> cases = {
      {"not a list", changed([](OJson& j) { j["time_controls"] = "10+0.1"; }),
       "'time_controls' must be an array of strings"},
      {"not one per seat", changed([](OJson& j) { j["time_controls"].push_back("5+0.05"); }),
       "'time_controls' must have one time control per player (3 for 2)"},
      {"not a time control", changed([](OJson& j) { j["time_controls"][1] = "fast"; }),
       "'time_controls' seat 2: "},
      {"not canonical", changed([](OJson& j) { j["time_controls"][1] = "5+0.050"; }),
       "'time_controls' seat 2: '5+0.050' is not canonical ('5+0.05')"},
      {"seat 1 not time_control", changed([](OJson& j) { j["time_controls"][0] = "1"; }),
       "'time_controls' seat 1 must be 'time_control' ('10+0.1'), not '1'"},
      {"no seat differs", changed([](OJson& j) { j["time_controls"][1] = "10+0.1"; }),
       "'time_controls' is written only when a seat's differs from 'time_control'"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const std::string file = dir.file("bad.jsonl");
      rtest::write_text(file, others[0] + "\n" + others[1] + "\n" + c.line + "\n");
      const std::string db = dir.file("target.db");
      auto r = rtest::referee_cmd({"import", file, "--db", db});
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
