// `referee export` run as a program: the games in schedule order, the filters of `ratings`, the
// PGN options, N-player games left out of a PGN with a count on stderr (or pairwise), --output
// written whole or not at all, and one clear error line for every bad option.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "games/game.h"
#include "storage/game_maker.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

using rtest::referee_cmd;

void usage_error(const std::vector<std::string>& args, const std::string& piece) {
  auto r = referee_cmd(args);
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, piece));
  CHECK(r.out.empty());
}

std::size_t count_of(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}

// Two tournaments, stored out of schedule order: "rr" (awale, slots 3..0, A and B) and "three"
// (oware with three players, slots 0..1), games finished in March and May.
void write_db(const std::string& db) {
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  auto rr = referee::storage::work_queue::open_tournament(*store, "rr", "{}");
  auto three = referee::storage::work_queue::open_tournament(*store, "three", "{}");
  REQUIRE(rr.ok());
  REQUIRE(three.ok());
  auto put = [&](storage_test::MadeGame made, std::int64_t tournament, std::int64_t slot,
                 const std::string& finished_at) {
    made.record.event_id = tournament;
    made.record.slot = slot;
    auto id = store->begin_game(made.record);
    REQUIRE(id.ok());
    for (const auto& m : made.moves) REQUIRE(store->add_move(*id, m).ok());
    made.record.finished_at = finished_at;
    REQUIRE(store->finish_game(*id, made.record).ok());
  };
  for (int slot = 3; slot >= 0; --slot)
    put(storage_test::random_game(
            "awale",
            slot % 2 ? std::vector<std::string>{"B", "A"} : std::vector<std::string>{"A", "B"},
            static_cast<std::uint64_t>(slot + 1), 2),
        *rr, slot, slot < 2 ? "2026-03-01T10:00:00Z" : "2026-05-01T10:00:00Z");
  for (int slot = 1; slot >= 0; --slot)
    put(storage_test::random_game("oware:players=3", {"A", "B", "C"},
                                  static_cast<std::uint64_t>(slot + 10)),
        *three, slot, "2026-05-02T10:00:00Z");
}

}  // namespace

TEST_CASE("export cli: PGN in schedule order, N-player games counted on stderr unless pairwise") {
  rtest::TempDir dir;
  const auto db = dir.file("e.db");
  write_db(db);
  auto r = referee_cmd({"export", "--format", "pgn", "--db", db});
  REQUIRE(r.status == 0);
  CHECK(count_of(r.out, "[Event \"rr\"]") == 4);
  CHECK(count_of(r.out, "[Event \"three\"]") == 0);
  CHECK(r.out.find("[Round \"1\"]") < r.out.find("[Round \"2\"]"));
  CHECK(r.out.find("[Round \"2\"]") < r.out.find("[Round \"3\"]"));
  CHECK(r.out.find("[Round \"3\"]") < r.out.find("[Round \"4\"]"));
  CHECK(contains(r.out, "{p1 book}"));
  CHECK(contains(r.out, "[%clk "));
  CHECK(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "2 games of more than two players left out of the PGN"));

  r = referee_cmd({"export", "--format", "pgn", "--pairwise", "--no-clock", "--db", db});
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  CHECK(count_of(r.out, "[Event \"three\"]") == 6);
  CHECK_FALSE(contains(r.out, "[%clk "));
  CHECK_FALSE(contains(r.out, "[%emt "));

  r = referee_cmd({"export", "--format", "pgn", "--no-moves", "--tournament", "rr", "--db", db});
  REQUIRE(r.status == 0);
  CHECK(count_of(r.out, "[Event \"rr\"]") == 4);
  CHECK_FALSE(contains(r.out, "1. "));
  CHECK(count_of(r.out, "\n\n1-0\n") + count_of(r.out, "\n\n0-1\n") +
            count_of(r.out, "\n\n1/2-1/2\n") ==
        4);

  r = referee_cmd({"export", "--format", "jsonl", "--db", db});
  REQUIRE(r.status == 0);
  CHECK(rtest::lines_of(r.out).size() == 6);  // whole records, N-player games included
  CHECK(r.err.empty());
}

TEST_CASE("export cli: the filters of ratings") {
  rtest::TempDir dir;
  const auto db = dir.file("f.db");
  write_db(db);
  auto lines = [&](std::vector<std::string> args) {
    std::vector<std::string> all = {"export", "--format", "csv", "--db", db};
    all.insert(all.end(), args.begin(), args.end());
    auto r = referee_cmd(all);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return rtest::lines_of(r.out).size() - 1;  // the header
  };
  CHECK(lines({}) == 6);
  CHECK(lines({"--tournament", "three"}) == 2);
  CHECK(lines({"--game", "awale"}) == 4);
  CHECK(lines({"--game", "oware:players=3"}) == 2);
  CHECK(lines({"--game", "oware"}) == 0);  // two-player oware: none stored
  CHECK(lines({"--engine", "C"}) == 2);
  CHECK(lines({"--engine", "A", "--engine", "B"}) == 4);
  CHECK(lines({"--since", "2026-05-01"}) == 4);
  CHECK(lines({"--until", "2026-03-01"}) == 2);
  CHECK(lines({"--tc", "10+0.1", "--until", "2026-05-01T10:00"}) == 4);
  usage_error({"export", "--format", "csv", "--db", db, "--engine", "Z"},
              "--engine: no stored game has an engine named 'Z'");
  usage_error({"export", "--format", "csv", "--db", db, "--tournament", "x"},
              "--tournament: no stored game belongs to a tournament named 'x'");
  usage_error({"export", "--format", "csv", "--db", db, "--since", "May"}, "--since 'May'");
  usage_error({"export", "--format", "csv", "--db", db, "--game", "chess"}, "--game");
}

TEST_CASE("export cli: --output is written whole or not at all") {
  rtest::TempDir dir;
  const auto db = dir.file("o.db");
  write_db(db);
  const auto out = dir.file("games.pgn");
  auto r = referee_cmd({"export", "--format", "pgn", "--db", db, "--output", out});
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());
  CHECK(count_of(rtest::read_text(out), "[Event \"rr\"]") == 4);
  CHECK_FALSE(std::filesystem::exists(out + ".partial"));
  r = referee_cmd({"export", "--format", "pgn", "--db", db, "--output", dir.file("no/such/x")});
  CHECK(r.status == 1);
  CHECK(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "cannot write"));
  // Standard output that cannot be written (a full disk).
  rtest::TempDir scratch;
  r = rtest::run_program(
      "/bin/sh",
      {"-c", std::string(REFEREE_BIN) + " export --format pgn --db '" + db + "' > /dev/full"},
      scratch);
  CHECK(r.status == 1);
  CHECK(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "referee export: cannot write standard output"));
}

TEST_CASE("export cli: bad options are one line and status 2") {
  rtest::TempDir dir;
  const auto db = dir.file("b.db");
  write_db(db);
  usage_error({"export", "--db", db}, "--format must be pgn, jsonl or csv");
  usage_error({"export", "--format", "jsonl", "--no-moves", "--db", db}, "--no-moves is for PGN");
  usage_error({"export", "--format", "csv", "--no-clock", "--db", db}, "--no-clock is for PGN");
  usage_error({"export", "--format", "jsonl", "--pairwise", "--db", db}, "--pairwise is for PGN");
  usage_error({"export", "--format", "pgn", "--min-games", "-1", "--db", db},
              "--min-games must be 0 or more");
  usage_error({"export", "--format", "pgn", "--game", "nosuchgame", "--db", db}, "--game:");
  auto r = referee_cmd({"export", "--format", "pgn", "--db", dir.file("missing.db")});
  CHECK(r.status == 1);
  CHECK(contains(r.err, "no database"));
}

TEST_CASE("bench --ratings: a small run prints every figure, bad arguments are one-line errors") {
  auto r = referee_cmd({"bench", "--ratings", "400", "6", "--seed", "3"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (const char* piece :
       {"ratings: 400 awale games between 6 engines (seed 3)", "referee ratings CPU",
        "referee ratings peak RSS", "(6 engines rated)", "95 % bars covering truth",
        "referee crosstable CPU", "referee crosstable peak RSS", "export pgn --no-moves",
        "export peak RSS"})
    CHECK(contains(r.out, piece));
  usage_error({"bench", "--ratings", "400"}, "--ratings takes two numbers");
  usage_error({"bench", "--ratings", "0", "6"}, "--ratings needs N >= 1 games");
  usage_error({"bench", "--ratings", "10", "1"}, "at least 2 engines");
  rtest::TempDir dir;
  const std::string db = dir.file("kept.db");
  auto kept = referee_cmd({"bench", "--ratings", "50", "3", "--db", db});
  CHECK(kept.status == 0);
  CHECK(std::filesystem::exists(db));
  usage_error({"bench", "--ratings", "50", "3", "--db", db}, "--db must name a new file");
}

TEST_CASE("export cli: the filters select the games ratings counts, in every format") {
  rtest::TempDir dir;
  const auto db = dir.file("s.db");
  write_db(db);
  const std::vector<std::vector<std::string>> filters = {
      {},
      {"--tournament", "rr"},
      {"--tournament", "three"},
      {"--engine", "C"},
      {"--engine", "A", "--engine", "B"},
      {"--since", "2026-05-01"},
      {"--until", "2026-03-01"},
      {"--game", "awale", "--since", "2026-04-01"},
      {"--tc", "10+0.1"},
      {"--min-games", "4"},
      {"--min-games", "5"},
      {"--engine", "C", "--min-games", "3"}};
  for (const auto& filter : filters) {
    std::string shown;
    for (const auto& f : filter) shown += f + " ";
    INFO("filter: " << shown);
    auto run = [&](std::vector<std::string> args) {
      args.insert(args.end(), filter.begin(), filter.end());
      args.insert(args.end(), {"--db", db});
      auto r = referee_cmd(args);
      INFO(r.err);
      REQUIRE(r.status == 0);
      return r.out;
    };
    const auto report = nlohmann::json::parse(run({"ratings", "--format", "json"}));
    std::int64_t rated = 0, rated_multi = 0;
    for (const auto& table : report.at("tables")) {
      if (table.at("title") == "all games") continue;  // the summary table over every game
      rated += table.at("games").get<std::int64_t>();
      if (contains(table.at("title").get<std::string>(), "players=3"))
        rated_multi += table.at("games").get<std::int64_t>();
    }
    const auto csv = rtest::lines_of(run({"export", "--format", "csv"}));
    CHECK(static_cast<std::int64_t>(csv.size()) - 1 == rated);
    CHECK(static_cast<std::int64_t>(rtest::lines_of(run({"export", "--format", "jsonl"})).size()) ==
          rated);
    const std::string plain = run({"export", "--format", "pgn", "--no-moves"});
    const std::string pairwise = run({"export", "--format", "pgn", "--no-moves", "--pairwise"});
    // A game of three players is three pairs, each marked; without --pairwise it is left out.
    CHECK(static_cast<std::int64_t>(count_of(plain, "[Event ")) == rated - rated_multi);
    CHECK(static_cast<std::int64_t>(count_of(pairwise, "[Event ")) == rated + 2 * rated_multi);
    CHECK(static_cast<std::int64_t>(count_of(pairwise, "[Pairwise \"yes\"]")) == 3 * rated_multi);
    const auto csv_pairs = rtest::lines_of(run({"export", "--format", "csv", "--pairwise"}));
    CHECK(static_cast<std::int64_t>(csv_pairs.size()) - 1 == rated + 2 * rated_multi);
  }
}

TEST_CASE("export cli: --min-games keeps the games of the engines each game's rating table keeps") {
  // awale: A-B four times, A-C once (C has 1 pairwise game there); oware with three players: A, B
  // and C twice (4 pairwise games each). An unfinished awale game of A and B, one of A and C.
  rtest::TempDir dir;
  const auto db = dir.file("m.db");
  {
    auto store = referee::storage::Store::open(db);
    REQUIRE(store.ok());
    auto put = [&](const std::string& game, std::vector<std::string> players,
                   std::vector<int> ranks) {
      referee::storage::GameRecord g;
      g.game = referee::games::make_game(game)->canonical();
      g.players = std::move(players);
      g.time_control = "10+0.1";
      auto id = store->begin_game(g);
      REQUIRE(id.ok());
      referee::storage::GameRecord result;
      result.status = ranks.empty() ? referee::storage::GameStatus::Unfinished
                                    : referee::storage::GameStatus::Finished;
      result.ranks = std::move(ranks);
      result.termination = result.ranks.empty() ? "interrupted" : "rules";
      result.finished_at = "2026-05-01T12:00:00Z";
      REQUIRE(store->finish_game(*id, result).ok());
    };
    for (int i = 0; i < 4; ++i) put("awale", {"A", "B"}, {1, 2});
    put("awale", {"C", "A"}, {1, 2});
    for (int i = 0; i < 2; ++i) put("oware:players=3", {"A", "B", "C"}, {1, 2, 3});
    put("awale", {"B", "A"}, {});
    put("awale", {"A", "C"}, {});
  }
  auto players_of = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "jsonl", "--db", db});
    args.insert(args.begin(), "export");
    auto r = referee_cmd(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::vector<std::string> out;
    for (const auto& line : rtest::lines_of(r.out)) {
      const auto record = nlohmann::json::parse(line);
      std::string seats;
      for (const auto& p : record.at("players")) seats += p.get<std::string>();
      out.push_back(seats);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(players_of({}) == V{"AB", "AB", "AB", "AB", "ABC", "ABC", "CA"});
  // C leaves awale's table (1 game < 2) with its game, not oware's (4 games there).
  CHECK(players_of({"--min-games", "2"}) == V{"AB", "AB", "AB", "AB", "ABC", "ABC"});
  CHECK(players_of({"--min-games", "2", "--unfinished"}) ==
        V{"AB", "AB", "AB", "AB", "ABC", "ABC", "BA"});
  // B has 4 < 5 in awale; then A and C have 1: nobody is left there, nor in oware (4 each).
  CHECK(players_of({"--min-games", "5"}).empty());
  // The same engines as the rating table of awale with the same option.
  auto ratings = referee_cmd(
      {"ratings", "--min-games", "2", "--game", "awale", "--format", "json", "--db", db});
  REQUIRE(ratings.status == 0);
  const auto report = nlohmann::json::parse(ratings.out);
  std::set<std::string> rated;
  for (const auto& table : report.at("tables"))
    for (const auto& group : table.at("groups"))
      for (const auto& r : group.at("ratings")) rated.insert(r.at("name").get<std::string>());
  CHECK(rated == std::set<std::string>{"A", "B"});
}
