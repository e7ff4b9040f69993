// `referee verify` run as a program, on SQLite and PostgreSQL: a tampered move found in the one
// streamed pass (in a finished and in a running game), unfinished and running games replayed, a
// game with no players still counted, the part options (--tournament, --id, --game), stopping at
// --max-mismatches, the JSON summary, progress only when asked, --no-integrity, bad options as one
// error line with status 2, and an empty database.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/game_maker.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using referee::storage::Store;
using rtest::contains;

namespace {

rtest::RunResult verify_cmd(std::vector<std::string> args, const std::string& db) {
  rtest::TempDir scratch;
  args.insert(args.begin(), {"verify", "--db", db});
  return rtest::run_program(REFEREE_BIN, args, scratch);
}

void one_error_line(const rtest::RunResult& r, const std::string& piece) {
  INFO("stderr: " << r.err);
  REQUIRE(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, piece));
  CHECK(r.out.empty());
  CHECK(r.status == 2);
}

long count_of(const std::string& text, const std::string& piece) {
  long n = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}

struct Archive {
  std::int64_t finished = 0;  // a finished game of "rr"
  std::int64_t running = 0;   // a running game (moves, no result)
  std::int64_t unfinished = 0;
  std::int64_t lonely = 0;  // its player rows deleted at the end
  long games = 0;
};

// Nine games: "rr" 4 finished awale games, "other" 2 kalaha games, then outside any event a
// running, an unfinished and a finished awale game.
Archive write_archive(Store& store) {
  Archive a;
  auto rr = referee::storage::work_queue::open_tournament(store, "rr", "{}");
  auto other = referee::storage::work_queue::open_tournament(store, "other", "{}");
  REQUIRE(rr.ok());
  REQUIRE(other.ok());
  auto put = [&](const std::string& game, std::optional<std::int64_t> tournament, std::int64_t slot,
                 const std::string& status, std::uint64_t seed) {
    auto made = storage_test::random_game(game, {"A", "B"}, seed, 2);
    made.record.event_id = tournament;
    made.record.slot = slot;
    auto id = store.begin_game(made.record);
    REQUIRE(id.ok());
    std::size_t keep = made.moves.size();
    if (status != "finished") keep = std::min<std::size_t>(keep - 1, 9);
    for (std::size_t i = 0; i < keep; ++i) REQUIRE(store.add_move(*id, made.moves[i]).ok());
    ++a.games;
    if (status == "running") return *id;
    if (status == "unfinished") {
      made.record.status = referee::storage::GameStatus::Unfinished;
      made.record.ranks.clear();
      made.record.scores.clear();
      made.record.termination = "interrupted";
      made.record.plies = static_cast<std::int64_t>(keep);
    }
    REQUIRE(store.finish_game(*id, made.record).ok());
    return *id;
  };
  for (int slot = 0; slot < 4; ++slot)
    a.finished = put("awale", *rr, slot, "finished", 10 + static_cast<std::uint64_t>(slot));
  put("kalaha", *other, 0, "finished", 20);
  put("kalaha", *other, 1, "finished", 21);
  a.running = put("awale", std::nullopt, -1, "running", 30);
  a.unfinished = put("awale", std::nullopt, -1, "unfinished", 31);
  a.lonely = put("awale", std::nullopt, -1, "finished", 32);
  return a;
}

// Replaces ply 3 of a game with a move that no rule allows.
void tamper(Store& store, std::int64_t game) {
  store.connection().exec("UPDATE moves SET move = '99' WHERE game_id = " + std::to_string(game) +
                          " AND ply = 3");
}

std::string integrity_line(const std::string& backend) {
  return backend == "sqlite" ? "integrity: ok\n"
                             : "integrity: skipped (a server database checks its own pages)\n";
}

}  // namespace

TEST_CASE("verify: a whole archive, a tampered move in a streamed pass, the parts") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb tdb(backend);
      const std::string db = tdb.url();
      Archive a;
      {
        auto store = Store::open(db);
        REQUIRE(store.ok());
        a = write_archive(*store);
      }
      const std::string head = integrity_line(backend);
      auto clean = verify_cmd({}, db);
      INFO(clean.err);
      CHECK(clean.status == 0);
      CHECK(clean.out == head + "9 games replayed, 0 mismatches\n");
      CHECK(clean.err.empty());  // no progress when stderr is not a terminal

      {
        auto store = Store::open(db);
        REQUIRE(store.ok());
        tamper(*store, a.finished);
        tamper(*store, a.running);
      }
      auto found = verify_cmd({}, db);
      CHECK(found.status == 1);
      CHECK(rtest::lines_of(found.out).size() == 4);
      CHECK(contains(found.out, head));
      CHECK(contains(found.out, "MISMATCH game " + std::to_string(a.finished) + " ply 3: "));
      CHECK(contains(found.out, "MISMATCH game " + std::to_string(a.running) + " ply 3: "));
      CHECK(contains(found.out, "\n9 games replayed, 2 mismatches\n"));
      CHECK(found.err.empty());

      // Parts: an event, single games, a game string.
      auto other = verify_cmd({"--tournament", "other"}, db);
      CHECK(other.status == 0);
      CHECK(other.out == head + "2 games replayed, 0 mismatches\n");
      auto rr = verify_cmd({"--tournament", "rr"}, db);
      CHECK(rr.status == 1);
      CHECK(rtest::lines_of(rr.out).size() == 3);
      CHECK(rr.out.rfind(head + "MISMATCH game " + std::to_string(a.finished) + " ply 3: ", 0) ==
            0);
      CHECK(contains(rr.out, "\n4 games replayed, 1 mismatches\n"));
      auto one = verify_cmd({"--id", std::to_string(a.unfinished)}, db);
      CHECK(one.status == 0);
      CHECK(one.out == head + "1 games replayed, 0 mismatches\n");
      auto two =
          verify_cmd({"--id", std::to_string(a.unfinished), "--id", std::to_string(a.running)}, db);
      CHECK(two.status == 1);
      CHECK(contains(two.out, "\n2 games replayed, 1 mismatches\n"));
      auto kalaha = verify_cmd({"--game", "kalaha"}, db);
      CHECK(kalaha.status == 0);
      CHECK(contains(kalaha.out, "2 games replayed, 0 mismatches"));

      // Stop early: one mismatch line, then the summary says so.
      auto first = verify_cmd({"--max-mismatches", "1"}, db);
      CHECK(first.status == 1);
      CHECK(count_of(first.out, "MISMATCH ") == 1);
      CHECK(contains(first.out, " games replayed, 1 mismatches (stopped at --max-mismatches 1)\n"));

      // --no-integrity, and --progress: the totals on stderr at the end.
      auto quick = verify_cmd({"--no-integrity", "--progress", "--tournament", "other"}, db);
      CHECK(quick.status == 0);
      CHECK(quick.out ==
            "integrity: not checked (--no-integrity)\n2 games replayed, 0 mismatches\n");
      CHECK(rtest::lines_of(quick.err).size() == 1);
      CHECK(contains(quick.err, "verify: done, 2 games, 0 mismatches in "));

      // JSON: one object, the same facts.
      auto json = verify_cmd({"--format", "json"}, db);
      CHECK(json.status == 1);
      auto j = nlohmann::json::parse(json.out, nullptr, false);
      REQUIRE_FALSE(j.is_discarded());
      CHECK(j["integrity"] == (backend == "sqlite" ? "ok" : head.substr(11, head.size() - 12)));
      CHECK(j["damaged"].empty());
      CHECK(j["games"] == 9);
      CHECK(j["mismatch_count"] == 2);
      CHECK(j["complete"] == true);
      CHECK_FALSE(j.contains("error"));
      REQUIRE(j["mismatches"].size() == 2);
      std::set<std::int64_t> bad;
      for (const auto& m : j["mismatches"]) {
        bad.insert(m["game"].get<std::int64_t>());
        CHECK(contains(m["error"].get<std::string>(), " ply 3: "));
      }
      CHECK(bad == std::set<std::int64_t>{a.finished, a.running});
      auto stopped = verify_cmd({"--format", "json", "--max-mismatches", "1"}, db);
      CHECK(stopped.status == 1);
      auto s = nlohmann::json::parse(stopped.out, nullptr, false);
      REQUIRE_FALSE(s.is_discarded());
      CHECK(s["complete"] == false);
      CHECK(s["mismatches"].size() == 1);
      CHECK(s["error"] == "stopped at --max-mismatches");
      auto none = verify_cmd({"--format", "json", "--tournament", "other"}, db);
      CHECK(none.status == 0);
      auto n = nlohmann::json::parse(none.out, nullptr, false);
      REQUIRE_FALSE(n.is_discarded());
      CHECK(n["mismatches"].empty());
      CHECK(n["games"] == 2);
      CHECK(n["complete"] == true);

      // A damaged record whose player rows are gone is still read (and counted): its recorded
      // result is gone with them.
      {
        auto store = Store::open(db);
        REQUIRE(store.ok());
        store->connection().exec("DELETE FROM game_players WHERE game_id = " +
                                 std::to_string(a.lonely));
      }
      auto lonely = verify_cmd({}, db);
      CHECK(lonely.status == 1);
      CHECK(contains(lonely.out, "MISMATCH game " + std::to_string(a.lonely) +
                                     ": ranks differ from the recorded result\n"));
      CHECK(contains(lonely.out, "\n9 games replayed, 3 mismatches\n"));

      // Bad options: one line naming the culprit, status 2, nothing on stdout.
      one_error_line(verify_cmd({"--tournament", "nosuch"}, db), "nosuch");
      one_error_line(verify_cmd({"--id", "999999"}, db), "--id 999999: no such game");
      one_error_line(verify_cmd({"--id", "0"}, db), "--id 0");
      one_error_line(verify_cmd({"--id", "x"}, db), "--id");
      one_error_line(verify_cmd({"--max-mismatches", "0"}, db), "--max-mismatches");
      one_error_line(verify_cmd({"--format", "xml"}, db), "--format must be text or json");
      one_error_line(verify_cmd({"--min-games", "3"}, db), "--min-games");
      one_error_line(verify_cmd({"--engine", "nobody"}, db), "nobody");
    }
}

TEST_CASE("verify: an empty database, and a missing one") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb tdb(backend);
      REQUIRE(Store::open(tdb.url()).ok());
      auto empty = verify_cmd({}, tdb.url());
      CHECK(empty.status == 0);
      CHECK(empty.out == integrity_line(backend) + "0 games replayed, 0 mismatches\n");
      auto json = verify_cmd({"--format", "json"}, tdb.url());
      CHECK(json.status == 0);
      auto j = nlohmann::json::parse(json.out, nullptr, false);
      REQUIRE_FALSE(j.is_discarded());
      CHECK(j["games"] == 0);
      CHECK(j["complete"] == true);
    }
  rtest::TempDir dir;
  auto missing = verify_cmd({}, dir.file("none.db"));
  CHECK(missing.status == 1);
  CHECK(rtest::lines_of(missing.err).size() == 1);
  CHECK(contains(missing.err, "none.db"));
}
