// Exports: exact PGN, JSON Lines and CSV text for small fixtures; movers never implied by
// alternation (kalaha's extra turns); PGN's own [Termination] values with the engine named; every
// exported game parses back (tags and result) as Ordo and BayesElo read them; options; a failing
// stream is an error.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "games/registry.h"
#include "storage/export.h"
#include "storage/game_maker.h"
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
  g.event_id = 3;
  g.event = "rr";
  g.slot = 0;
  g.game = kAwale;
  g.opening = {"3"};
  g.players = {"alpha", "beta"};
  g.time_control = "10+0.1";
  g.status = referee::storage::GameStatus::Finished;
  g.ranks = {1, 2};
  g.scores = {30, 18};
  g.termination = "rules";
  g.reason = "p1 has 25 seeds";
  g.started_at = "2024-05-01T10:00:00Z";
  g.finished_at = "2024-05-01T10:01:00Z";
  g.plies = 3;
  return g;
}

// The opening recorded as a move, as the runner records it.
std::vector<MoveRecord> decisive_moves() {
  return {mv(1, 1, "3", -1, -1, "opening"), mv(2, 2, "9", 120, 9880), mv(3, 1, "1", 1500, 8600)};
}

GameRecord drawn() {
  GameRecord g;
  g.id = 2;
  g.game = kAwale;
  g.start_position = "5,4,0,5,5,5/5,4,0,5,5,5:0,0:1:2:2";
  g.players = {"say \"hi\"", "back\\slash"};
  g.status = referee::storage::GameStatus::Finished;
  g.ranks = {1, 1};
  g.scores = {24, 24};
  g.termination = "repetition";
  return g;
}

GameRecord three_players() {
  GameRecord g;
  g.id = 3;
  g.event = "multi";
  g.slot = 4;
  g.game = "oware:players=3";
  g.players = {"a", "b", "c"};
  g.status = referee::storage::GameStatus::Finished;
  g.ranks = {2, 1, 2};
  g.termination = "rules";
  g.started_at = "2024-06-02T00:00:00Z";
  g.plies = 10;
  return g;
}

std::string pgn(const std::vector<GameRecord>& games,
                const std::vector<std::vector<MoveRecord>>& moves, ExportOptions options = {}) {
  return export_text(ExportFormat::kPgn, options, games, moves);
}

// What Ordo and BayesElo take from a PGN: per game, its tag pairs and the result token that ends
// the movetext (comments skipped). Fails the test on anything else.
struct ParsedGame {
  std::vector<std::pair<std::string, std::string>> tags;
  std::string result;
};

std::vector<ParsedGame> parse_pgn(const std::string& text) {
  std::vector<ParsedGame> out;
  std::istringstream in(text);
  std::string line;
  const std::regex tag(R"re(^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$)re");
  ParsedGame game;
  bool in_tags = false;
  std::string movetext;
  auto end_game = [&] {
    // Strip comments, then the last token must be the result and equal [Result].
    std::string plain;
    bool in_comment = false;  // PGN comments do not nest: the first '}' ends one
    for (char c : movetext) {
      if (!in_comment && c == '{') in_comment = true;
      if (!in_comment) plain += c;
      if (in_comment && c == '}') in_comment = false;
    }
    REQUIRE_FALSE(in_comment);
    std::istringstream tokens(plain);
    std::string token, last;
    while (tokens >> token) last = token;
    game.result = last;
    out.push_back(game);
    game = ParsedGame{};
    movetext.clear();
  };
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, tag)) {
      REQUIRE(movetext.empty());
      game.tags.emplace_back(m[1], m[2]);
      in_tags = true;
    } else if (line.empty()) {
      if (in_tags) {
        in_tags = false;
      } else if (!movetext.empty()) {
        end_game();
      }
    } else {
      REQUIRE_FALSE(in_tags);
      REQUIRE(line.size() <= 79);
      movetext += line + " ";
    }
  }
  REQUIRE(movetext.empty());
  return out;
}

std::string tag_of(const ParsedGame& g, const std::string& name) {
  for (const auto& [k, v] : g.tags)
    if (k == name) return v;
  return "(none)";
}

}  // namespace

TEST_CASE("export: PGN with the seven-tag roster, variant tags, movers, clocks and results") {
  GameRecord standard_start = drawn();
  standard_start.id = 4;
  standard_start.start_position = "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0";  // awale's own start
  GameRecord unfinished = decisive();
  unfinished.id = 5;
  unfinished.ranks.clear();
  unfinished.status = referee::storage::GameStatus::Unfinished;
  unfinished.termination = "interrupted";
  unfinished.reason = "";
  unfinished.plies = 1;
  const std::string text = pgn({decisive(), drawn(), standard_start, unfinished},
                               {decisive_moves(), {}, {}, {decisive_moves()[0]}});
  CHECK(text ==
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
        "[Termination \"normal\"]\n"
        "[TerminationDetails \"alpha has 25 seeds\"]\n"
        "[PlyCount \"3\"]\n"
        "\n"
        "1. 3 {p1 book} 9 {p2 [%emt 0:00:00.120] [%clk 0:00:09.880]} 2. 1\n"
        "{p1 [%emt 0:00:01.500] [%clk 0:00:08.600]} {alpha has 25 seeds} 1-0\n"
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
        "[Termination \"normal\"]\n"
        "[TerminationDetails \"repetition\"]\n"
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
        "[Termination \"normal\"]\n"
        "[TerminationDetails \"repetition\"]\n"
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
        "[Termination \"unterminated\"]\n"
        "[TerminationDetails \"interrupted\"]\n"
        "[PlyCount \"1\"]\n"
        "\n"
        "1. 3 {p1 book} *\n"
        "\n");
}

TEST_CASE(
    "export: an opening kept only as the game's opening list gets its movers from the rules") {
  GameRecord g = decisive();
  g.game = "kalaha";
  g.opening = {"1", "2"};  // kalaha: 1 ends in p1's store, an extra turn; then 2
  g.plies = 3;
  const std::string text = pgn({g}, {{mv(3, 2, "11", 50, -1)}});
  CHECK(text.find("1. 1 {p1 book} 2 {p1 book} 11 {p2 [%emt 0:00:00.050]}") != std::string::npos);
}

TEST_CASE("export: kalaha's extra turns are not shown as alternation") {
  // 1 ends in player 1's store (an extra turn), then 2; then player 2's 11, then player 1's 6.
  GameRecord g = decisive();
  g.game = "kalaha:first=1,nocapture=100,maxplies=2000";
  g.opening = {"1", "2"};
  g.plies = 4;
  g.termination = "resign";
  g.reason = "p2 resigned";
  const std::vector<MoveRecord> moves = {mv(1, 1, "1", -1, -1, "opening"),
                                         mv(2, 1, "2", -1, -1, "opening"), mv(3, 2, "11", 40, 9000),
                                         mv(4, 1, "6", 30, 8000)};
  REQUIRE(verify_game(g, moves).ok());  // the movers are the rules' own
  ExportOptions no_clock;
  no_clock.clocks = false;
  const std::string text = pgn({g}, {moves}, no_clock);
  CHECK(text.find("\n1. 1 {p1 book} 2 {p1 book} 11 {p2} 2. 6 {p1} {beta resigned} 1-0\n") !=
        std::string::npos);
  // A longer random kalaha game: every move's comment names the mover the record has, and a
  // move number starts exactly the turns of player 1.
  const auto made = storage_test::random_game("kalaha", {"x", "y"}, 7);
  int extra_turns = 0;
  for (std::size_t k = 1; k < made.moves.size(); ++k)
    extra_turns += made.moves[k].player == made.moves[k - 1].player;
  REQUIRE(extra_turns > 0);
  const std::string long_text = pgn({made.record}, {made.moves}, no_clock);
  std::string movetext = long_text.substr(long_text.find("\n\n") + 2);
  for (char& c : movetext)
    if (c == '\n') c = ' ';
  std::istringstream tokens(movetext);
  std::string token;
  std::size_t ply = 0;
  int numbers = 0, turns_of_p1 = 0;
  for (std::size_t k = 0; k < made.moves.size(); ++k)
    turns_of_p1 += made.moves[k].player == 1 && (k == 0 || made.moves[k - 1].player != 1);
  while (tokens >> token && ply < made.moves.size()) {
    if (token.back() == '.') {
      ++numbers;
      continue;
    }
    CHECK(token == made.moves[ply].move);
    std::string comment, word;
    while (tokens >> word) {
      comment += (comment.empty() ? "" : " ") + word;
      if (word.back() == '}') break;
    }
    const std::string mover = "{p" + std::to_string(made.moves[ply].player);
    CHECK((comment == mover + "}" || comment == mover + " forced}"));
    ++ply;
  }
  CHECK(ply == made.moves.size());
  CHECK(numbers == turns_of_p1);
}

TEST_CASE("export: [Termination] in PGN's words, the details naming the engine") {
  struct Case {
    std::string status, termination, reason, pgn, details;
  };
  const std::vector<Case> cases = {
      {"finished", "normal", "game over by the rules (rules)", "normal",
       "game over by the rules (rules)"},
      {"finished", "maxplies", "game over by the rules (maxplies)", "normal",
       "game over by the rules (maxplies)"},
      {"finished", "resign", "p2 resigned", "normal", "beta resigned"},
      {"finished", "time", "p2 lost on time: 1203 ms used, 1100 ms allowed", "time forfeit",
       "beta lost on time: 1203 ms used, 1100 ms allowed"},
      {"finished", "illegal", "p1 played an illegal move: '9' in 4,4", "rules infraction",
       "alpha played an illegal move: '9' in 4,4"},
      {"finished", "protocol", "p2 violated the protocol: line too long", "rules infraction",
       "beta violated the protocol: line too long"},
      {"finished", "crash", "p1 crashed: exit 3", "abandoned", "alpha crashed: exit 3"},
      {"finished", "stall", "p2 stalled: no readyok", "abandoned", "beta stalled: no readyok"},
      {"finished", "adjudication", "", "adjudication", "adjudication"},
      {"finished", "time", "p1 (alpha) time: 3 s over", "time forfeit", "alpha time: 3 s over"},
      {"finished", "time", "p3 lost on time", "time forfeit", "p3 lost on time"},  // no seat 3
      {"finished", "time", "p22 is not a seat prefix", "time forfeit", "p22 is not a seat prefix"},
      {"unfinished", "interrupted", "the run stopped before the game ended", "unterminated",
       "the run stopped before the game ended"},
      {"unfinished", "lost-claim", "the claim expired", "unterminated", "the claim expired"},
  };
  for (const auto& c : cases) {
    GameRecord g = decisive();
    g.status = *game_status_from_text(c.status);
    if (g.status != GameStatus::Finished) g.ranks.clear();
    g.termination = c.termination;
    g.reason = c.reason;
    INFO(c.termination << ": " << c.reason);
    CHECK(pgn_termination(g) == c.pgn);
    const auto games = parse_pgn(pgn({g}, {decisive_moves()}));
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Termination") == c.pgn);
    CHECK(tag_of(games[0], "TerminationDetails") == c.details);
  }
}

TEST_CASE("export: every PGN game parses: seven-tag roster first, result tag = result token") {
  std::vector<GameRecord> games;
  std::vector<std::vector<MoveRecord>> moves;
  const char* names[] = {"awale", "kalaha", "oware", "wali", "felli", "permainan", "pallankuli"};
  std::uint64_t seed = 1;
  for (const char* name : names)
    for (int k = 0; k < 3; ++k) {
      auto made = storage_test::random_game(name, {"eng-a", "eng \"b\""}, seed++, k);
      made.record.id = static_cast<std::int64_t>(games.size() + 1);
      made.record.event = "sweep";
      made.record.slot = static_cast<std::int64_t>(games.size());
      games.push_back(made.record);
      moves.push_back(made.moves);
    }
  GameRecord forfeit = games.front();
  forfeit.ranks = {2, 1};
  forfeit.termination = "crash";
  forfeit.reason = "p1 crashed: signal 11 (Segmentation fault)}{";
  games.push_back(forfeit);
  moves.push_back(moves.front());
  const std::string text = pgn(games, moves);
  const auto parsed = parse_pgn(text);
  REQUIRE(parsed.size() == games.size());
  const char* roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    INFO("game " << i);
    REQUIRE(parsed[i].tags.size() >= 7);
    for (std::size_t t = 0; t < 7; ++t) CHECK(parsed[i].tags[t].first == roster[t]);
    CHECK(tag_of(parsed[i], "Result") == parsed[i].result);
    const auto& r = games[i].ranks;
    CHECK(parsed[i].result == (r[0] < r[1] ? "1-0" : r[0] > r[1] ? "0-1" : "1/2-1/2"));
    CHECK(tag_of(parsed[i], "PlyCount") == std::to_string(games[i].plies));
  }
}

TEST_CASE("export: --no-clock and --no-moves") {
  ExportOptions no_clock;
  no_clock.clocks = false;
  CHECK(pgn({decisive()}, {decisive_moves()}, no_clock)
            .find("1. 3 {p1 book} 9 {p2} 2. 1 {p1} {alpha has 25 seeds} 1-0\n") !=
        std::string::npos);
  ExportOptions results_only;
  results_only.moves = false;
  const std::string text = pgn({decisive()}, {decisive_moves()}, results_only);
  CHECK(text.substr(text.find("\n\n")) == "\n\n1-0\n\n");
  CHECK(text.find("[TerminationDetails \"alpha has 25 seeds\"]") != std::string::npos);
}

TEST_CASE("export: a game of more than two players is left out of a PGN unless pairwise") {
  std::ostringstream out;
  ExportWriter writer(out, ExportFormat::kPgn, {});
  REQUIRE(writer.write(three_players(), {}).ok());
  REQUIRE(writer.write(decisive(), decisive_moves()).ok());
  REQUIRE(writer.finish().ok());
  CHECK(writer.skipped() == 1);
  CHECK(writer.written() == 1);
  CHECK(parse_pgn(out.str()).size() == 1);

  ExportOptions pairwise;
  pairwise.pairwise = true;
  const std::string text = pgn({three_players()}, {{}}, pairwise);
  const std::string common_head =
      "[Event \"multi\"]\n[Site \"?\"]\n[Date \"2024.06.02\"]\n[Round \"5\"]\n";
  const std::string common_tail =
      "[Variant \"oware\"]\n[GameString \"oware:players=3\"]\n[Termination \"normal\"]\n"
      "[TerminationDetails \"rules\"]\n[PlyCount \"10\"]\n[Pairwise \"yes\"]\n\n";
  CHECK(text == common_head + "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n" + common_tail +
                    "{seats 1 and 2 of a 3-player game} 0-1\n\n" + common_head +
                    "[White \"a\"]\n[Black \"c\"]\n[Result \"1/2-1/2\"]\n" + common_tail +
                    "{seats 1 and 3 of a 3-player game} 1/2-1/2\n\n" + common_head +
                    "[White \"b\"]\n[Black \"c\"]\n[Result \"1-0\"]\n" + common_tail +
                    "{seats 2 and 3 of a 3-player game} 1-0\n\n");
}

TEST_CASE("export: long movetext wraps at 79 columns") {
  GameRecord g = decisive();
  g.opening.clear();
  std::vector<MoveRecord> moves;
  for (int i = 1; i <= 60; ++i)
    moves.push_back(mv(i, 2 - i % 2, std::to_string(i % 12 + 1), -1, -1));
  std::string text = pgn({g}, {moves});
  std::size_t start = text.find("\n\n") + 2, longest = 0, lines = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    longest = std::max(longest, end - start);
    if (end > start) ++lines;
    start = end + 1;
  }
  CHECK(longest <= 79);
  CHECK(lines >= 3);
  std::string flat = text;
  for (char& c : flat)
    if (c == '\n') c = ' ';
  // Ply 59 is player 1's 30th turn; moves are i % 12 + 1.
  CHECK(flat.find(" 30. 12 {p1} 1 {p2} {alpha has 25 seeds} 1-0  ") != std::string::npos);
  CHECK(text.substr(text.size() - 2) == "\n\n");
}

TEST_CASE("export: JSON Lines, one object per game with every field and its moves") {
  std::string jsonl =
      export_text(ExportFormat::kJsonl, {}, {decisive(), drawn()}, {decisive_moves(), {}});
  CHECK(
      jsonl ==
      "{\"id\":1,\"tournament_id\":3,\"tournament\":\"rr\",\"slot\":0,\"game\":\"awale:grandslam="
      "nocapture,first=1,nocapture=100,maxplies=2000\",\"start_position\":\"\",\"opening\":[\"3\"],"
      "\"players\":[\"alpha\",\"beta\"],\"time_control\":\"10+0.1\",\"status\":\"finished\","
      "\"ranks\":[1,2],\"scores\":[30.0,18.0],\"termination\":\"rules\",\"reason\":\"p1 has 25 "
      "seeds\",\"started_at\":\"2024-05-01T10:00:00Z\",\"finished_at\":\"2024-05-01T10:01:00Z\","
      "\"plies\":3,\"moves\":[{\"ply\":1,\"player\":1,\"move\":\"3\",\"time_ms\":null,"
      "\"clock_ms\":null,\"info\":\"\",\"source\":\"opening\"},{\"ply\":2,\"player\":2,\"move\":"
      "\"9\",\"time_ms\":"
      "120,"
      "\"clock_ms\":9880,\"info\":\"\",\"source\":\"engine\"},{\"ply\":3,\"player\":1,\"move\":"
      "\"1\",\"time_ms\":1500,\"clock_ms\":8600,\"info\":\"\",\"source\":\"engine\"}]}\n"
      "{\"id\":2,\"tournament_id\":null,\"tournament\":\"\",\"slot\":-1,\"game\":\"awale:grandslam="
      "nocapture,first=1,nocapture=100,maxplies=2000\",\"start_position\":\"5,4,0,5,5,5/"
      "5,4,0,5,5,5:"
      "0,0:1:2:2\",\"opening\":[],\"players\":[\"say \\\"hi\\\"\",\"back\\\\slash\"],"
      "\"time_control\":\"\",\"status\":\"finished\",\"ranks\":[1,1],\"scores\":[24.0,24.0],"
      "\"termination\":\"repetition\",\"reason\":\"\",\"started_at\":\"\",\"finished_at\":\"\","
      "\"plies\":0,\"moves\":[]}\n");
  // Engine text that is not UTF-8 does not break the export.
  auto moves = decisive_moves();
  moves[1].info = std::string("score \xff\xfe");
  std::string line = export_text(ExportFormat::kJsonl, {}, {decisive()}, {moves});
  auto parsed = nlohmann::json::parse(line);
  CHECK(parsed["moves"][1]["info"] == "score \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("export: CSV, one row per game, RFC 4180 quoting, pairwise rows on request") {
  GameRecord g = decisive();
  g.reason = "said \"resign\", then left\nearly";
  const std::string header =
      "id,tournament,slot,game,start_position,opening,players,time_control,status,ranks,scores,"
      "termination,reason,started_at,finished_at,plies";
  std::string csv = export_text(ExportFormat::kCsv, {}, {g, three_players()}, {});
  CHECK(csv ==
        header +
            "\r\n"
            "1,rr,0,\"awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000\",,3,alpha;"
            "beta,10+0.1,finished,1;2,30;18,rules,\"said \"\"resign\"\", then left\nearly\","
            "2024-05-01T10:00:00Z,2024-05-01T10:01:00Z,3\r\n"
            "3,multi,4,oware:players=3,,,a;b;c,,finished,2;1;2,,rules,,2024-06-02T00:00:00Z,,"
            "10\r\n");
  ExportOptions pairwise;
  pairwise.pairwise = true;
  csv = export_text(ExportFormat::kCsv, pairwise, {three_players()}, {});
  CHECK(csv == header +
                   ",seats\r\n"
                   "3,multi,4,oware:players=3,,,a;b,,finished,2;1,,rules,,2024-06-02T00:00:00Z,,"
                   "10,1;2\r\n"
                   "3,multi,4,oware:players=3,,,a;c,,finished,2;2,,rules,,2024-06-02T00:00:00Z,,"
                   "10,1;3\r\n"
                   "3,multi,4,oware:players=3,,,b;c,,finished,1;2,,rules,,2024-06-02T00:00:00Z,,"
                   "10,2;3\r\n");
  CHECK(export_text(ExportFormat::kCsv, {}, {}, {}) == header + "\r\n");
}

TEST_CASE("export: text reaches the stream in blocks and a stream that fails is an error") {
  std::ostringstream out;
  ExportWriter writer(out, ExportFormat::kPgn, {});
  REQUIRE(writer.write(decisive(), decisive_moves()).ok());
  CHECK(out.str().empty());  // buffered
  for (int i = 0; i < 400; ++i) REQUIRE(writer.write(decisive(), decisive_moves()).ok());
  CHECK(!out.str().empty());  // 64 KiB blocks went out
  REQUIRE(writer.finish().ok());
  CHECK(parse_pgn(out.str()).size() == 401);

  std::ostringstream broken;
  broken.setstate(std::ios::badbit);
  ExportWriter failing(broken, ExportFormat::kJsonl, {});
  referee::Status st = referee::Ok{};
  for (int i = 0; i < 1000 && st; ++i) st = failing.write(decisive(), decisive_moves());
  CHECK_FALSE(st.ok());
  CHECK_FALSE(failing.finish().ok());
}

TEST_CASE("export: pairwise PGN marks each pair, and a CSV without games is its header") {
  ExportOptions pairwise;
  pairwise.pairwise = true;
  const std::vector<GameRecord> games = {decisive(), three_players()};
  const std::vector<std::vector<MoveRecord>> moves = {decisive_moves(), {}};
  const std::string text = export_text(ExportFormat::kPgn, pairwise, games, moves);
  std::size_t marks = 0;
  for (auto at = text.find("[Pairwise"); at != std::string::npos;
       at = text.find("[Pairwise", at + 1))
    ++marks;
  CHECK(marks == 3);
  CHECK(export_text(ExportFormat::kCsv, {}, {}, {}).find("id,tournament,") == 0);
}

TEST_CASE("export: every game's movetext is plain PGN tokens a reader cannot misread") {
  // A PGN lexer treats ; ( ) $ % [ ] { } " and a result token specially: no move may contain or be
  // one, whatever the game's notation (setups, captures, multi-hop moves included).
  for (const auto& entry : referee::games::registry()) {
    INFO(entry.name);
    const auto made = storage_test::random_game(entry.name, {"p", "q"}, 11);
    GameRecord g = made.record;
    g.id = 1;
    ExportOptions no_clock;
    no_clock.clocks = false;
    const std::string text = pgn({g}, {made.moves}, no_clock);
    const auto parsed = parse_pgn(text);
    REQUIRE(parsed.size() == 1);
    CHECK(tag_of(parsed[0], "Result") == parsed[0].result);
    std::string flat = text;
    for (char& c : flat)
      if (c == '\n') c = ' ';
    for (const auto& m : made.moves) {
      INFO(m.move);
      CHECK(m.move.find_first_of(";()$%[]{}\" \t") == std::string::npos);
      for (const char* result : {"1-0", "0-1", "1/2-1/2", "*"}) CHECK(m.move != result);
      CHECK(m.move.back() != '.');  // a move number indication
      CHECK(flat.find(" " + m.move + " {p" + std::to_string(m.player)) != std::string::npos);
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) CHECK((line.empty() || line[0] != '%'));
  }
}
