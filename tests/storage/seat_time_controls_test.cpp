// Schema v11: each seat's time control stored with the game (games.time_controls, a JSON array by
// seat), read back by every reader, on both backends; the migration from v10 keeps the games
// stored before readable, with an empty list (every seat had time_control), read-only opens of a
// v10 file too; the exports carry the per-seat controls only when a seat's differs from
// time_control (JSON Lines: a `time_controls` array; PGN: [WhiteTimeControl]/[BlackTimeControl]
// in place of [TimeControl], as cutechess writes them, per pair of seats; CSV: the `time_control`
// field holds one control per seat of the row), so the exports of other games are as before.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/export.h"
#include "storage/game_stream.h"
#include "storage/schema.h"
#include "storage/store.h"
#include "storage/temp_dir.h"
#include "tests/storage/old_schema.h"

using namespace referee::storage;

namespace seat_tcs {

const char* const kTcsAwale = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

GameRecord two_seats(std::vector<std::string> controls) {
  GameRecord g;
  g.id = 7;
  g.game = kTcsAwale;
  g.players = {"fast", "slow"};
  g.time_control = controls.empty() ? "10+0.1" : controls.front();
  g.time_controls = std::move(controls);
  g.status = storage::GameStatus::Finished;
  g.ranks = {1, 2};
  g.scores = {26, 22};
  g.termination = "rules";
  g.started_at = "2024-05-01T10:00:00Z";
  g.finished_at = "2024-05-01T10:01:00Z";
  return g;
}

GameRecord three_seats(std::vector<std::string> controls) {
  GameRecord g = two_seats(std::move(controls));
  g.id = 8;
  g.game = "oware:players=3";
  g.players = {"a", "b", "c"};
  g.ranks = {2, 1, 3};
  g.scores = {10, 20, 5};
  return g;
}

std::string exported(ExportFormat format, const GameRecord& g, bool pairwise = false) {
  ExportOptions options;
  options.moves = false;
  options.pairwise = pairwise;
  return export_text(format, options, {g}, {});
}

std::vector<std::string> streamed_controls(Store& store) {
  std::vector<std::string> out;
  GameQuery all;
  StreamOptions options;
  options.by_id = true;
  options.moves = false;
  all.finished_only = false;
  Status st = for_each_game(store, all, options,
                            [&](const GameRecord& g, const std::vector<MoveRecord>&) -> Status {
                              out.push_back(time_controls_json(g.time_controls));
                              return Ok{};
                            });
  REQUIRE(st.ok());
  return out;
}

}  // namespace seat_tcs

TEST_CASE("seat time controls: stored by seat with the game, read back by every reader") {
  using namespace seat_tcs;
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = storage_test::open_ok(db.url());
      GameRecord g = two_seats({"10+0.1", "40/60+0.5"});
      g.status = storage::GameStatus::Running;
      auto id = store.begin_game(g);
      REQUIRE(id.ok());
      auto plain = store.begin_game(two_seats({}));
      REQUIRE(plain.ok());
      auto back = store.game(*id);
      REQUIRE(back.ok());
      CHECK(back->time_control == "10+0.1");
      CHECK(back->time_controls == std::vector<std::string>{"10+0.1", "40/60+0.5"});
      CHECK(store.game(*plain)->time_controls.empty());
      GameFilter all;
      all.finished_only = false;
      auto list = store.games(all);
      REQUIRE(list.ok());
      REQUIRE(list->size() == 2);
      CHECK((*list)[0].time_controls == g.time_controls);
      CHECK(streamed_controls(store) ==
            std::vector<std::string>{R"(["10+0.1","40/60+0.5"])", "[]"});
    }
  CHECK(time_controls_json({}) == "[]");
  CHECK(time_controls_from_json("not json").empty());
  CHECK(time_controls_from_json(R"(["1+0",2])") == std::vector<std::string>{"1+0"});
}

TEST_CASE(
    "seat time controls: the v11 migration keeps a v10 database's games, with an empty list") {
  using namespace seat_tcs;
  storage_test::TempDir dir;
  const auto path = dir.file("v10.db");
  {
    // A version-10 database, as a referee of v10 wrote it: one finished game.
    auto db = storage_test::database_at(path, 10);
    db->exec("INSERT INTO engines (name) VALUES ('a'), ('b')");
    db->exec(std::string("INSERT INTO games (id, game, time_control, status, termination, "
                         "started_at) VALUES (1, '") +
             kTcsAwale + "', '10+0.1', 'finished', 'rules', '2024-05-01T10:00:00Z')");
    db->exec("INSERT INTO game_players VALUES (1, 1, 'a', 1, 0), (1, 2, 'b', 2, 0)");
  }
  {
    OpenOptions read_only;
    read_only.read_only = true;
    auto store = Store::open(path, read_only);
    REQUIRE(store.ok());
    auto g = store->game(1);
    REQUIRE(g.ok());
    CHECK(g->time_control == "10+0.1");
    CHECK(g->time_controls.empty());
    CHECK(streamed_controls(*store) == std::vector<std::string>{"[]"});
  }
  auto store = Store::open(path);  // migrates
  REQUIRE(store.ok());
  {
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
    CHECK(raw.execAndGet("SELECT time_controls FROM games WHERE id = 1").getString() == "[]");
  }
  auto old = store->game(1);
  REQUIRE(old.ok());
  CHECK(old->time_control == "10+0.1");
  CHECK(old->time_controls.empty());
  CHECK(old->players == std::vector<std::string>{"a", "b"});
  CHECK(old->ranks == std::vector<int>{1, 2});
  // Exported as before: one [TimeControl], no per-seat key.
  CHECK(exported(ExportFormat::kJsonl, *old).find("time_controls") == std::string::npos);
  CHECK(exported(ExportFormat::kPgn, *old).find("[TimeControl \"10+0.1\"]") != std::string::npos);
  // A new game keeps its seats' controls.
  auto id = store->begin_game(two_seats({"10+0.1", "5+0.05"}));
  REQUIRE(id.ok());
  CHECK(store->game(*id)->time_controls == std::vector<std::string>{"10+0.1", "5+0.05"});
}

TEST_CASE("seat time controls: exports carry them only when a seat's differs from time_control") {
  using namespace seat_tcs;
  // Every seat with time_control, recorded (a tournament without per-engine tc) or not (a game
  // stored before v11): the exports are the same bytes, without per-seat data.
  const GameRecord before = two_seats({});
  const GameRecord same = two_seats({"10+0.1", "10+0.1"});
  for (auto format : {ExportFormat::kPgn, ExportFormat::kJsonl, ExportFormat::kCsv})
    CHECK(exported(format, same) == exported(format, before));
  CHECK(exported(ExportFormat::kJsonl, before).find("time_controls") == std::string::npos);
  const std::string before_pgn = exported(ExportFormat::kPgn, before);
  CHECK(before_pgn.find("[TimeControl \"10+0.1\"]\n") != std::string::npos);
  CHECK(before_pgn.find("WhiteTimeControl") == std::string::npos);
  CHECK(exported(ExportFormat::kCsv, before) ==
        "id,tournament,slot,game,start_position,opening,players,time_control,status,ranks,scores,"
        "termination,reason,started_at,finished_at,plies\r\n"
        "7,,-1,\"" +
            std::string(kTcsAwale) +
            "\",,,fast;slow,10+0.1,finished,1;2,26;22,rules,,2024-05-01T10:00:00Z,"
            "2024-05-01T10:01:00Z,0\r\n");

  const GameRecord differ = two_seats({"10+0.1", "40/60+0.5,margin=100"});
  CHECK(exported(ExportFormat::kPgn, differ) ==
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"2024.05.01\"]\n[Round \"-\"]\n[White \"fast\"]\n"
        "[Black \"slow\"]\n[Result \"1-0\"]\n[Variant \"awale\"]\n[GameString \"" +
            std::string(kTcsAwale) +
            "\"]\n[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"40/60+0.5,margin=100\"]\n"
            "[Termination \"normal\"]\n[TerminationDetails \"rules\"]\n[PlyCount \"0\"]\n\n"
            "1-0\n\n");
  const std::string jsonl = exported(ExportFormat::kJsonl, differ);
  CHECK(jsonl.find(R"("time_control":"10+0.1","time_controls":["10+0.1","40/60+0.5,margin=100"],)"
                   R"("status":)") != std::string::npos);
  CHECK(exported(ExportFormat::kCsv, differ)
            .find(",fast;slow,\"10+0.1;40/60+0.5,margin=100\",finished,") != std::string::npos);

  // Three seats, seat 1 alone with its control: PGN pairs tell each pair's seats; CSV rows too.
  const GameRecord three = three_seats({"10+0.1", "5+0.05", "5+0.05"});
  const std::string pairs = exported(ExportFormat::kPgn, three, true);
  CHECK(pairs.find("[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"oware\"]\n"
                   "[GameString \"oware:players=3\"]\n[WhiteTimeControl \"10+0.1\"]\n"
                   "[BlackTimeControl \"5+0.05\"]\n") != std::string::npos);
  CHECK(pairs.find("[White \"b\"]\n[Black \"c\"]\n[Result \"1-0\"]\n[Variant \"oware\"]\n"
                   "[GameString \"oware:players=3\"]\n[TimeControl \"5+0.05\"]\n") !=
        std::string::npos);
  CHECK(exported(ExportFormat::kCsv, three).find(",a;b;c,10+0.1;5+0.05;5+0.05,finished,") !=
        std::string::npos);
  const std::string rows = exported(ExportFormat::kCsv, three, true);
  CHECK(rows.find(",b;c,5+0.05,finished,") != std::string::npos);
  CHECK(rows.find(",a;c,10+0.1;5+0.05,finished,") != std::string::npos);
}
