// Exports: exact PGN, JSON Lines and CSV text for a small fixture, and a store-to-PGN pass.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "storage/store.h"
#include "storage/temp_dir.h"

using namespace referee::storage;

namespace {

const char* const kAwale = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

MoveRecord mv(int ply, int player, std::string move, long time_ms, long clock_ms,
              std::string source = "engine") {
  return MoveRecord{ply, player, std::move(move), time_ms, clock_ms, "", std::move(source), ""};
}

GameRecord decisive() {
  GameRecord g;
  g.id = 1;
  g.tournament_id = 3;
  g.tournament = "rr";
  g.slot = 0;
  g.game = kAwale;
  g.opening = {"3"};
  g.players = {"alpha", "beta"};
  g.time_control = "10+0.1";
  g.status = "finished";
  g.ranks = {1, 2};
  g.scores = {30, 18};
  g.termination = "rules";
  g.reason = "p1 has 25 seeds";
  g.started_at = "2024-05-01T10:00:00Z";
  g.finished_at = "2024-05-01T10:01:00Z";
  g.plies = 3;
  return g;
}

std::vector<MoveRecord> decisive_moves() {
  return {mv(2, 2, "9", 120, 9880), mv(3, 1, "1", 1500, 8600)};
}

GameRecord drawn() {
  GameRecord g;
  g.id = 2;
  g.game = kAwale;
  g.start_position = "5,4,0,5,5,5/5,4,0,5,5,5:0,0:1:2:2";
  g.players = {"say \"hi\"", "back\\slash"};
  g.status = "finished";
  g.ranks = {1, 1};
  g.scores = {24, 24};
  g.termination = "nocapture";
  return g;
}

GameRecord three_players() {
  GameRecord g;
  g.id = 3;
  g.tournament = "multi";
  g.slot = 4;
  g.game = "oware:players=3";
  g.players = {"a", "b", "c"};
  g.status = "finished";
  g.ranks = {2, 1, 2};
  g.termination = "rules";
  g.started_at = "2024-06-02T00:00:00Z";
  g.plies = 10;
  return g;
}

}  // namespace

TEST_CASE("export: PGN with the seven-tag roster, variant tags, clocks and results") {
  GameRecord standard_start = drawn();
  standard_start.id = 4;
  standard_start.start_position = "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0";  // awale's own start
  GameRecord unfinished = decisive();
  unfinished.id = 5;
  unfinished.ranks.clear();
  unfinished.status = "unfinished";
  unfinished.reason = "";
  std::string pgn =
      export_pgn({decisive(), drawn(), standard_start, unfinished}, {decisive_moves(), {}, {}, {}});
  CHECK(pgn ==
        "[Event \"rr\"]\n"
        "[Site \"?\"]\n"
        "[Date \"2024.05.01\"]\n"
        "[Round \"1\"]\n"
        "[White \"alpha\"]\n"
        "[Black \"beta\"]\n"
        "[Result \"1-0\"]\n"
        "[Variant \"awale\"]\n"
        "[GameString \"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\"]\n"
        "[TimeControl \"10+0.1\"]\n"
        "[Termination \"rules\"]\n"
        "[PlyCount \"3\"]\n"
        "\n"
        "1. 3 {book} 9 {[%emt 0:00:00.120] [%clk 0:00:09.880]} 2. 1\n"
        "{[%emt 0:00:01.500] [%clk 0:00:08.600]} {p1 has 25 seeds} 1-0\n"
        "\n"
        "[Event \"?\"]\n"
        "[Site \"?\"]\n"
        "[Date \"????.??.??\"]\n"
        "[Round \"-\"]\n"
        "[White \"say \\\"hi\\\"\"]\n"
        "[Black \"back\\\\slash\"]\n"
        "[Result \"1/2-1/2\"]\n"
        "[Variant \"awale\"]\n"
        "[GameString \"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\"]\n"
        "[SetUp \"1\"]\n"
        "[FEN \"5,4,0,5,5,5/5,4,0,5,5,5:0,0:1:2:2\"]\n"
        "[Termination \"nocapture\"]\n"
        "[PlyCount \"0\"]\n"
        "\n"
        "1/2-1/2\n"
        "\n"
        "[Event \"?\"]\n"
        "[Site \"?\"]\n"
        "[Date \"????.??.??\"]\n"
        "[Round \"-\"]\n"
        "[White \"say \\\"hi\\\"\"]\n"
        "[Black \"back\\\\slash\"]\n"
        "[Result \"1/2-1/2\"]\n"
        "[Variant \"awale\"]\n"
        "[GameString \"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\"]\n"
        "[Termination \"nocapture\"]\n"
        "[PlyCount \"0\"]\n"
        "\n"
        "1/2-1/2\n"
        "\n"
        "[Event \"rr\"]\n"
        "[Site \"?\"]\n"
        "[Date \"2024.05.01\"]\n"
        "[Round \"1\"]\n"
        "[White \"alpha\"]\n"
        "[Black \"beta\"]\n"
        "[Result \"*\"]\n"
        "[Variant \"awale\"]\n"
        "[GameString \"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\"]\n"
        "[TimeControl \"10+0.1\"]\n"
        "[Termination \"rules\"]\n"
        "[PlyCount \"3\"]\n"
        "\n"
        "1. 3 {book} *\n"
        "\n");
}

TEST_CASE("export: a multi-player game becomes one PGN game per pair of seats, by rank") {
  std::string pgn = export_pgn({three_players()}, {{}});
  const std::string common_head =
      "[Event \"multi\"]\n[Site \"?\"]\n[Date \"2024.06.02\"]\n[Round \"5\"]\n";
  const std::string common_tail =
      "[Variant \"oware\"]\n[GameString \"oware:players=3\"]\n[Termination \"rules\"]\n"
      "[PlyCount \"10\"]\n[Pairwise \"yes\"]\n\n";
  CHECK(pgn == common_head + "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n" + common_tail +
                   "{seats 1 and 2 of a 3-player game} 0-1\n\n" + common_head +
                   "[White \"a\"]\n[Black \"c\"]\n[Result \"1/2-1/2\"]\n" + common_tail +
                   "{seats 1 and 3 of a 3-player game} 1/2-1/2\n\n" + common_head +
                   "[White \"b\"]\n[Black \"c\"]\n[Result \"1-0\"]\n" + common_tail +
                   "{seats 2 and 3 of a 3-player game} 1-0\n\n");
}

TEST_CASE("export: long movetext wraps at 79 columns, one line per game line for Ordo") {
  GameRecord g = decisive();
  g.opening.clear();
  std::vector<MoveRecord> moves;
  for (int i = 1; i <= 60; ++i)
    moves.push_back(mv(i, 2 - i % 2, std::to_string(i % 12 + 1), -1, -1));
  std::string pgn = export_pgn({g}, {moves});
  std::size_t start = pgn.find("\n\n") + 2, longest = 0, lines = 0;
  while (start < pgn.size()) {
    std::size_t end = pgn.find('\n', start);
    longest = std::max(longest, end - start);
    if (end > start) ++lines;
    start = end + 1;
  }
  CHECK(longest <= 79);
  CHECK(lines >= 3);
  std::string flat = pgn;
  for (char& c : flat)
    if (c == '\n') c = ' ';
  // Ply 59 is move number 30; moves are i % 12 + 1.
  CHECK(flat.find(" 30. 12 1 {p1 has 25 seeds} 1-0  ") != std::string::npos);
  CHECK(pgn.substr(pgn.size() - 2) == "\n\n");
}

TEST_CASE("export: JSON Lines, one object per game with every field and its moves") {
  std::string jsonl = export_jsonl({decisive(), drawn()}, {decisive_moves(), {}});
  CHECK(
      jsonl ==
      "{\"id\":1,\"tournament_id\":3,\"tournament\":\"rr\",\"slot\":0,\"game\":\"awale:grandslam="
      "nocapture,first=1,nocapture=100,maxplies=2000\",\"start_position\":\"\",\"opening\":[\"3\"],"
      "\"players\":[\"alpha\",\"beta\"],\"time_control\":\"10+0.1\",\"status\":\"finished\","
      "\"ranks\":[1,2],\"scores\":[30.0,18.0],\"termination\":\"rules\",\"reason\":\"p1 has 25 "
      "seeds\",\"started_at\":\"2024-05-01T10:00:00Z\",\"finished_at\":\"2024-05-01T10:01:00Z\","
      "\"plies\":3,\"moves\":[{\"ply\":2,\"player\":2,\"move\":\"9\",\"time_ms\":120,\"clock_ms\":"
      "9880,\"info\":\"\",\"source\":\"engine\"},{\"ply\":3,\"player\":1,\"move\":\"1\",\"time_"
      "ms\":"
      "1500,\"clock_ms\":8600,\"info\":\"\",\"source\":\"engine\"}]}\n"
      "{\"id\":2,\"tournament_id\":null,\"tournament\":\"\",\"slot\":-1,\"game\":\"awale:grandslam="
      "nocapture,first=1,nocapture=100,maxplies=2000\",\"start_position\":\"5,4,0,5,5,5/"
      "5,4,0,5,5,5:"
      "0,0:1:2:2\",\"opening\":[],\"players\":[\"say \\\"hi\\\"\",\"back\\\\slash\"],"
      "\"time_control\":\"\",\"status\":\"finished\",\"ranks\":[1,1],\"scores\":[24.0,24.0],"
      "\"termination\":\"nocapture\",\"reason\":\"\",\"started_at\":\"\",\"finished_at\":\"\","
      "\"plies\":0,\"moves\":[]}\n");
  // Engine text that is not UTF-8 does not break the export.
  auto moves = decisive_moves();
  moves[0].info = std::string("score \xff\xfe");
  std::string line = export_jsonl({decisive()}, {moves});
  auto parsed = nlohmann::json::parse(line);
  CHECK(parsed["moves"][0]["info"] == "score \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("export: CSV, one row per game, RFC 4180 quoting") {
  GameRecord g = decisive();
  g.reason = "said \"resign\", then left\nearly";
  std::string csv = export_csv({g, three_players()});
  CHECK(csv ==
        "id,tournament,slot,game,start_position,opening,players,time_control,status,ranks,scores,"
        "termination,reason,started_at,finished_at,plies\r\n"
        "1,rr,0,\"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\",,3,alpha;beta,"
        "10+0.1,finished,1;2,30;18,rules,\"said \"\"resign\"\", then left\nearly\","
        "2024-05-01T10:00:00Z,2024-05-01T10:01:00Z,3\r\n"
        "3,multi,4,oware:players=3,,,a;b;c,,finished,2;1;2,,rules,,2024-06-02T00:00:00Z,,10\r\n");
}

TEST_CASE("export: games read from a store export to the same PGN") {
  storage_test::TempDir dir;
  auto store = Store::open(dir.file("referee.db"));
  REQUIRE(store.ok());
  GameRecord g = decisive();
  g.tournament_id = 99;  // no such tournament: refused (foreign key)
  CHECK_FALSE(store->begin_game(g).ok());
  auto t = store->open_tournament("rr", "{}");
  REQUIRE(t.ok());
  g.tournament_id = *t;
  auto id = store->begin_game(g);
  REQUIRE(id.ok());
  for (const auto& m : decisive_moves()) REQUIRE(store->add_move(*id, m).ok());
  REQUIRE(store->finish_game(*id, g).ok());
  auto games = store->games({});
  REQUIRE(games.ok());
  auto moves = store->moves(*id);
  REQUIRE(moves.ok());
  std::string pgn = export_pgn(*games, {*moves});
  CHECK(pgn.find("[Result \"1-0\"]") != std::string::npos);
  CHECK(pgn.find("1. 3 {book} 9 {[%emt 0:00:00.120] [%clk 0:00:09.880]} 2. 1") !=
        std::string::npos);
}
