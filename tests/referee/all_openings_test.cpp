// event/all_openings and `[openings] all_plies`: every distinct position of exactly K plies, each
// once (transpositions by the first line), none that ends the game, in an order that depends on the
// game alone; the schedule plays each in every seating; the checks before anything runs; a real
// tournament and its results by opening (`crosstable --by-opening`, text and JSON).
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "games/game.h"
#include "referee/event/all_openings.h"
#include "referee/event/event_spec.h"
#include "referee/event/schedule.h"
#include "referee/ratings/opening_table.h"
#include "tests/referee/rtest_util.h"
#include "tests/storage/backends.h"

using namespace referee;
using namespace referee::event;

namespace {

games::Game game_of(const std::string& spec) {
  auto game = games::make_game(spec);
  REQUIRE(game.ok());
  return *game;
}

std::vector<std::vector<std::string>> openings_of(const std::string& spec, int plies) {
  auto lines = all_openings(game_of(spec), plies, 1'000'000);
  INFO((lines ? std::string() : lines.error()));
  REQUIRE(lines.ok());
  return *lines;
}

// Independently of all_openings: the hashes of the positions at the end of every line of exactly
// `plies` plies that does not end the game, by walking every line (no level merging).
std::set<std::uint64_t> every_line_end(const games::State& state, int plies) {
  std::set<std::uint64_t> out;
  std::function<void(const games::State&, int)> walk = [&](const games::State& s, int left) {
    if (left == 0) {
      out.insert(s.hash());
      return;
    }
    for (const auto& move : s.legal_moves()) {
      games::State next = s;
      REQUIRE(next.apply(move).ok());
      if (!next.is_terminal()) walk(next, left - 1);
    }
  };
  walk(state, plies);
  return out;
}

std::uint64_t end_of(const games::Game& game, const std::vector<std::string>& line) {
  auto state = games::state_after(game, "", line);
  REQUIRE(state.ok());
  CHECK_FALSE(state->is_terminal());
  return state->hash();
}

TournamentConfig two_engines(const std::string& game, int all_plies) {
  TournamentConfig c;
  c.name = "t";
  c.games = {game};
  c.openings.all_plies = all_plies;
  for (const char* name : {"a", "b"}) {
    TournamentEngine e;
    e.config.name = name;
    e.config.command = "/bin/true";
    c.engines.push_back(e);
  }
  return c;
}

}  // namespace

TEST_CASE("all openings: one ply is every legal first move") {
  const auto game = game_of("awale");
  const auto lines = openings_of("awale", 1);
  std::vector<std::string> firsts;
  for (const auto& line : lines) {
    REQUIRE(line.size() == 1);
    firsts.push_back(line[0]);
  }
  CHECK(firsts == game.initial_state().legal_moves());
}

TEST_CASE("all openings: every position of exactly K plies, each once, by walking every line") {
  for (const char* spec : {"awale", "kalaha", "oware", "wali", "oware:players=3"})
    for (int plies = 1; plies <= 4; ++plies) {
      INFO(spec << ", " << plies << " plies");
      const auto game = game_of(spec);
      const auto lines = openings_of(spec, plies);
      std::set<std::uint64_t> ends;
      for (const auto& line : lines) {
        CHECK(line.size() == static_cast<std::size_t>(plies));
        CHECK(ends.insert(end_of(game, line)).second);  // a transposition is played once
      }
      CHECK(ends == every_line_end(game.initial_state(), plies));
    }
}

TEST_CASE("all openings: a transposition is played by the first line that reaches it") {
  // Awale: the first length at which two lines reach one position (South's sowings commute
  // where they do not cross each other nor North's).
  const auto game = game_of("awale");
  int plies = 3;
  std::vector<std::vector<std::string>> lines;
  std::size_t every = 0;
  for (; plies <= 6; ++plies) {
    lines = openings_of("awale", plies);
    every = 0;
    std::function<void(const games::State&, int)> walk = [&](const games::State& s, int left) {
      if (left == 0) {
        ++every;
        return;
      }
      for (const auto& move : s.legal_moves()) {
        games::State next = s;
        REQUIRE(next.apply(move).ok());
        if (!next.is_terminal()) walk(next, left - 1);
      }
    };
    walk(game.initial_state(), plies);
    if (lines.size() < every) break;
  }
  INFO(plies << " plies");
  REQUIRE(lines.size() < every);  // there were transpositions
  every = 0;
  std::function<void(const games::State&, int, std::vector<std::string>&)> count;
  std::map<std::uint64_t, std::vector<std::string>> first_line;
  count = [&](const games::State& s, int left, std::vector<std::string>& line) {
    if (left == 0) {
      ++every;
      first_line.emplace(s.hash(), line);  // kept only the first time: the walk's order
      return;
    }
    for (const auto& move : s.legal_moves()) {
      games::State next = s;
      REQUIRE(next.apply(move).ok());
      if (next.is_terminal()) continue;
      line.push_back(move);
      count(next, left - 1, line);
      line.pop_back();
    }
  };
  std::vector<std::string> line;
  count(game.initial_state(), plies, line);
  CHECK(first_line.size() == lines.size());
  for (const auto& l : lines) CHECK(first_line.at(end_of(game, l)) == l);
}

TEST_CASE("all openings: lines that end the game are not openings") {
  // maxplies=3 ends every game at its third ply.
  auto ended = all_openings(game_of("awale:maxplies=3"), 3, 1000);
  REQUIRE_FALSE(ended.ok());
  CHECK(ended.error() ==
        "all_plies 3: every line of awale:grandslam=nocapture,first=1,nocapture=100,maxplies=3 "
        "ends the game within 3 plies");
  CHECK(openings_of("awale:maxplies=3", 2).size() == openings_of("awale", 2).size());
}

TEST_CASE("all openings: a game that begins with a setup, too many positions, a bad K: refused") {
  auto setup = all_openings(game_of("mweso"), 2, 1000);
  REQUIRE_FALSE(setup.ok());
  CHECK(setup.error().find("begins with a setup") != std::string::npos);
  auto many = all_openings(game_of("awale"), 4, 100);
  REQUIRE_FALSE(many.ok());
  CHECK(many.error().find("has more than 100 distinct positions after") != std::string::npos);
  CHECK_FALSE(all_openings(game_of("awale"), 0, 100).ok());
  CHECK_FALSE(all_openings(game_of("awale"), kMaxAllPlies + 1, 100).ok());
}

TEST_CASE("all openings: the schedule plays each opening in every seating and every cycle") {
  TournamentConfig c = two_engines("awale", 2);
  c.cycles = 2;
  const auto lines = openings_of("awale", 2);
  auto size = schedule_size(c);
  REQUIRE(size.ok());
  CHECK(*size == static_cast<std::int64_t>(lines.size()) * 2 * 2);
  auto slots = make_schedule(c);
  REQUIRE(slots.ok());
  REQUIRE(slots->size() == static_cast<std::size_t>(*size));
  std::map<std::vector<std::string>, std::set<std::pair<int, int>>> seatings;  // by opening
  std::map<std::vector<std::string>, int> plays;
  for (const auto& s : *slots) {
    seatings[s.opening].insert({s.seats[0], s.cycle});
    ++plays[s.opening];
  }
  CHECK(seatings.size() == lines.size());
  for (const auto& line : lines) {
    CHECK(plays[line] == 4);
    CHECK(seatings[line] == std::set<std::pair<int, int>>{{0, 0}, {1, 0}, {0, 1}, {1, 1}});
  }
  // The last slot's round: cycle 2's last opening.
  CHECK(slots->back().round == static_cast<int>(2 * lines.size()));
}

TEST_CASE("all openings: checked before anything runs, stored with the event") {
  TournamentConfig c = two_engines("awale", 2);
  CHECK(check_tournament(c).ok());
  c.openings.random_plies = 2;
  CHECK(check_tournament(c).error() ==
        "all_plies plays every opening: it excludes random_plies, book and per_pairing");
  c.openings.random_plies = 0;
  c.openings.per_pairing = 3;
  CHECK_FALSE(check_tournament(c).ok());
  c.openings.per_pairing = 1;
  c.format = "swiss";
  CHECK(check_tournament(c).error() ==
        "format swiss draws each game pair's opening: all_plies is for round-robin and gauntlet "
        "events");
  c.format = "round-robin";
  // The schedule's cap counts the openings.
  TournamentConfig big = two_engines("awale", 6);
  big.cycles = 1000;
  auto refused = check_tournament(big);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("an event holds at most 1000000 (use fewer cycles, openings per "
                             "pairing, all_plies, engines or games)") != std::string::npos);
  // A resume with another K is another event; the stored specification keeps K.
  CHECK(schedule_fingerprint(c) != schedule_fingerprint(two_engines("awale", 3)));
  const std::string engines =
      "[[engine]]\nname = \"a\"\ncommand = \"/bin/true\"\n[[engine]]\nname = \"b\"\n"
      "command = \"/bin/true\"\n";
  const std::string head = "name = \"t\"\ngames = [\"awale\"]\ntc = \"10+0\"\n";
  auto read = parse_tournament(head + "[openings]\nall_plies = 3\n" + engines, "/tmp/t.toml");
  INFO((read ? std::string() : read.error()));
  REQUIRE(read.ok());
  CHECK(read->openings.all_plies == 3);
  auto bad = parse_tournament(head + "[openings]\nall_plies = 0\n" + engines, "/tmp/t.toml");
  CHECK(bad.error() == "/tmp/t.toml: [openings]: 'all_plies' must be from 1 to 30");
}

TEST_CASE("all openings: a tournament plays each and crosstable --by-opening shows them") {
  rtest::TempDir dir;
  const std::string file = dir.file("t.toml");
  rtest::write_text(file, "name = \"every opening\"\ndatabase = \"" + dir.file("t.db") +
                              "\"\ngames = [\"awale:maxplies=8\"]\ntc = \"10+0\"\n"
                              "concurrency = 2\n[openings]\nall_plies = 1\n"
                              "[[engine]]\nname = \"a\"\ncommand = \"" +
                              rtest::kMock + "\"\n[[engine]]\nname = \"b\"\ncommand = \"" +
                              rtest::kMock + "\"\n");
  auto run = rtest::referee_cmd({"tournament", file, "-q"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  auto text = rtest::referee_cmd({"crosstable", "--by-opening", "--db", dir.file("t.db")});
  INFO(text.err);
  REQUIRE(text.status == 0);
  CHECK(rtest::contains(text.out, "by opening\n"));
  auto json = rtest::referee_cmd(
      {"crosstable", "--by-opening", "--format", "json", "--db", dir.file("t.db")});
  REQUIRE(json.status == 0);
  const auto table = nlohmann::json::parse(json.out);
  REQUIRE(table["openings"].size() == 6);  // awale's six first moves
  std::vector<std::string> firsts;
  for (const auto& row : table["openings"]) {
    CHECK(row["games"] == 2);  // both seatings
    CHECK(row["seat_wins"][0].get<int>() + row["draws"].get<int>() +
              row["seat_wins"][1].get<int>() ==
          2);
    CHECK(row["engines"].size() == 2);
    firsts.push_back(row["opening"][0]);
  }
  CHECK(firsts == std::vector<std::string>{"1", "2", "3", "4", "5", "6"});
  CHECK(table["skipped"] == 0);
}

TEST_CASE("results by opening: wins by seat, draws, each engine's points, N players skipped") {
  ratings::OpeningTally tally;
  tally.add("awale", {"3"}, {"a", "b"}, {1, 2});  // seat 1 (a) wins
  tally.add("awale", {"3"}, {"b", "a"}, {1, 1});  // a draw
  tally.add("awale", {"10"}, {"a", "b"}, {2, 1});
  tally.add("awale", {"9"}, {"b", "a"}, {2, 1});
  tally.add("oware:players=3", {"1"}, {"a", "b", "c"}, {1, 2, 3});
  const auto table = tally.table();
  CHECK(table.skipped == 1);
  REQUIRE(table.rows.size() == 3);
  // Moves as numbers: 3, 9, 10.
  CHECK(table.rows[0].opening == std::vector<std::string>{"3"});
  CHECK(table.rows[1].opening == std::vector<std::string>{"9"});
  CHECK(table.rows[2].opening == std::vector<std::string>{"10"});
  const auto& three = table.rows[0];
  CHECK(three.games == 2);
  CHECK(three.seat_wins[0] == 1);
  CHECK(three.draws == 1);
  CHECK(three.seat_wins[1] == 0);
  REQUIRE(three.engines.size() == 2);
  CHECK(three.engines[0].name == "a");
  CHECK(three.engines[0].points == 1.5);
  CHECK(three.engines[1].points == 0.5);
  CHECK(table.rows[2].seat_wins[1] == 1);
  const std::string text = ratings::opening_table_text(table);
  CHECK(rtest::contains(text, "awale, by opening\n"));
  CHECK(rtest::contains(text, "a 1.5/2, b 0.5/2\n"));
  CHECK(rtest::contains(text, "1 finished games of more than two players are not in the table\n"));
  CHECK(rtest::contains(ratings::opening_table_csv(table), "awale,3,2,1,1,0,a,2,1.5\n"));
}

TEST_CASE("all openings: referee match --all-plies plays each opening, with one-line errors") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb test_db(backend);
      const std::string& url = test_db.url();
      auto run =
          rtest::referee_cmd({"match", "-e", "a=" + rtest::kMock, "-e", "b=" + rtest::kMock, "-g",
                              "awale:maxplies=6", "--all-plies", "2", "--db", url, "-q"});
      INFO(run.err);
      REQUIRE(run.status == 0);
      auto json =
          rtest::referee_cmd({"crosstable", "--by-opening", "--format", "json", "--db", url});
      REQUIRE(json.status == 0);
      const auto table = nlohmann::json::parse(json.out);
      CHECK(table["openings"].size() == 36);
      for (const auto& row : table["openings"]) CHECK(row["games"] == 2);
    }
  rtest::TempDir dir;
  const std::string db = dir.file("m.db");
  auto both = rtest::referee_cmd(
      {"match", "-e", "a=x", "-e", "b=y", "--all-plies", "1", "--random-plies", "2", "--db", db});
  CHECK(both.status == 2);
  CHECK(both.err == "referee match: --all-plies and --random-plies exclude each other\n");
  auto zero =
      rtest::referee_cmd({"match", "-e", "a=x", "-e", "b=y", "--all-plies", "0", "--db", db});
  CHECK(zero.status == 2);
  CHECK(zero.err == "referee match: --all-plies must be 1 to 30\n");
}

TEST_CASE("all openings: the counts TOURNAMENTS.md gives") {
  std::vector<std::size_t> awale;
  for (int plies = 1; plies <= 4; ++plies) awale.push_back(openings_of("awale", plies).size());
  CHECK(awale == std::vector<std::size_t>{6, 36, 190, 1014});
  CHECK(openings_of("kalaha", 2).size() == 35);
}
