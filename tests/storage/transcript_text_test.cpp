// The stored text of transcripts (storage/transcript_text.h): position lines stored as what they
// add, read back exactly; rows of the old format; '+' lines that are damaged; both backends.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "storage/backends.h"
#include "storage/transcript_text.h"

using namespace referee::storage;

namespace {

std::string encode(const std::vector<LogLine>& lines) {
  std::vector<const LogLine*> ptrs;
  for (const auto& l : lines) ptrs.push_back(&l);
  std::string out;
  encode_transcript(ptrs, out);
  return out;
}

std::vector<LogLine> decode_ok(const std::string& text, int seat = 1) {
  std::vector<LogLine> out;
  auto st = decode_transcript(text, seat, out);
  INFO((st ? std::string() : st.error()));
  REQUIRE(st.ok());
  return out;
}

void check_same(const std::vector<LogLine>& got, const std::vector<LogLine>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("line " << i);
    CHECK(got[i].seat == want[i].seat);
    CHECK(got[i].direction == want[i].direction);
    CHECK(got[i].text == want[i].text);
    CHECK(got[i].at_ms == want[i].at_ms);
    CHECK(got[i].at_us == want[i].at_us);
  }
}

// One seat's lines of a game of `plies` moves, as the referee exchanges them.
std::vector<LogLine> game_lines(int plies, int seat = 1) {
  std::vector<LogLine> lines{{seat, '>', "ugi", 0, 0}, {seat, '<', "ugiok", 0, 0}};
  std::string position = "position startpos moves";
  long ms = 1;
  for (int p = 0; p < plies; ++p) {
    lines.push_back({seat, '>', position, ms, p % 1000});
    lines.push_back({seat, '>', "go player 1 p1time 9000 p2time 9000", ms, 1});
    lines.push_back({seat, '<', "info depth 1", ms + 1, 2});
    lines.push_back({seat, '<', "bestmove " + std::to_string(p % 12), ms + 1, 999});
    position += " " + std::to_string(p % 12);
    ms += 2;
  }
  return lines;
}

}  // namespace

TEST_CASE(
    "transcript text: a game's position lines are stored as what they add, read back the same") {
  const auto lines = game_lines(300);
  const std::string text = encode(lines);
  check_same(decode_ok(text), lines);
  std::size_t whole = 0;
  for (const auto& l : lines) whole += l.text.size();
  CHECK(text.size() < whole / 3);  // was quadratic in the game's length
  // Every position line after the first refers to the one four lines above it.
  CHECK(text.find("1.000 > position startpos moves\n") != std::string::npos);
  CHECK(text.find("3.001 + 4 23  0\n") != std::string::npos);
  CHECK(text.find("5.002 + 4 25  1\n") != std::string::npos);
  // Linear: twice the plies, about twice the text.
  CHECK(encode(game_lines(600)).size() < 2 * text.size() + 2000);
}

TEST_CASE("transcript text: lines that are not a simple extension round-trip") {
  const std::vector<LogLine> lines = {
      {1, '>', "position startpos moves 1 2 3 4 5 6 7 8", 0, 0},
      {1, '>', "position startpos", 1, 0},                  // a new game: shorter, a prefix
      {1, '>', "position startpos moves 1 2 3 4 9", 2, 0},  // diverges from an older line
      {1, '>', "position startpos moves 1 2 3 4 9 10", 3, 0},
      {1, '>', "position fen 4-4-4-4/4-4-4-4 moves 2", 4, 0},  // another start: 9 bytes shared
      {1, '>', "position fen 4-4-4-4/4-4-4-4 moves 2 \\ and\nnewline", 5, 0},
      {1, '>', "position fen 4-4-4-4/4-4-4-4 moves 2 \\ and\nnewline 3", 6, 0},
      {1, '<', "position startpos moves 1 2 3 4 9 10 11", 7, 0},  // the engine's: kept whole
      {1, '!', "position startpos moves 1 2 3 4 9 10 11 12", 8, 0},
      {1, '>', "go", 9, 0},
      {1, '>', "position startpos moves 1 2 3 4 9 10 11", 10, 0},  // shares 9 bytes: whole
      {1, '>', "position startpos moves 1 2 3 4 9 10 11", 11, 0},  // the same line again
      {1, '>', "position ", 12, 0},
      {1, '>', "", 13, 0},
  };
  const std::string text = encode(lines);
  INFO(text);
  check_same(decode_ok(text), lines);
  CHECK(text.find("1.000 + 1 17 \n") != std::string::npos);       // "position startpos"
  CHECK(text.find("4.000 > position fen") != std::string::npos);  // shares too little
  CHECK(text.find("5.000 + 1 36  \\\\ and\\nnewline\n") != std::string::npos);
  CHECK(text.find("6.000 + 1 50  3\n") != std::string::npos);  // escapes counted unescaped
  CHECK(text.find("7.000 < position") != std::string::npos);
  CHECK(text.find("10.000 > position startpos moves 1 2 3 4 9 10 11\n") != std::string::npos);
  CHECK(text.find("11.000 + 1 39 \n") != std::string::npos);
  CHECK(text.find("13.000 > \n") != std::string::npos);
  // The reader takes any earlier '>' line of the row, not only the last position line.
  const auto far = decode_ok(
      "0 > position startpos moves 1 2 3 4 5\n1 > go\n2 < bestmove 6\n"
      "3 ! position\n4.000 + 4 30 7 \\n\n");
  REQUIRE(far.size() == 5);
  CHECK(far[4].direction == '>');
  CHECK(far[4].text == "position startpos moves 1 2 3 7 \n");
}

TEST_CASE("transcript text: rows of the old formats read as before") {
  const auto lines = decode_ok(
      "17 < bestmove 9\n5.5 > position startpos moves 1 2 3 4 5 6\n"
      "no-direction\n7.001 >\n8.002 > \n",
      3);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].seat == 3);
  CHECK(lines[0].at_ms == 17);
  CHECK(lines[0].at_us == 0);
  CHECK(lines[0].text == "bestmove 9");
  CHECK(lines[1].at_ms == 5);
  CHECK(lines[1].at_us == 500);
  CHECK(lines[1].text == "position startpos moves 1 2 3 4 5 6");
  // "no-direction" is skipped as before; "7.001 >" and "8.002 > " are empty lines.
  CHECK(lines[2].direction == '>');
  CHECK(lines[2].at_ms == 7);
  CHECK(lines[2].text.empty());
  CHECK(lines[3].text.empty());
}

TEST_CASE("transcript text: a damaged '+' line is an error naming the line") {
  const std::string first = "1.000 > position startpos moves 1 2 3 4\n";
  struct Case {
    std::string line, error;
  };
  const Case cases[] = {
      {"2.000 + 1\n", "line 2: a '+' line without its two numbers"},
      {"2.000 + x 3 a\n", "line 2: a '+' line without its two numbers"},
      {"2.000 + 0 3 a\n", "line 2: refers to line 0 above it, not in the row"},
      {"2.000 + 2 3 a\n", "line 2: refers to line 2 above it, not in the row"},
      {"2.000 + 1 40 a\n", "line 2: takes 40 bytes of a line of 31"},
  };
  for (const auto& c : cases) {
    std::vector<LogLine> out;
    auto st = decode_transcript(first + c.line, 2, out);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error() == "transcript of seat 2, " + c.error);
  }
  std::vector<LogLine> out;
  auto st = decode_transcript("1.000 < position startpos moves 1 2 3 4\n2.000 + 1 3 a\n", 1, out);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error() == "transcript of seat 1, line 2: refers to a line that is not the referee's");
  // A reference never reaches into the row before.
  std::vector<LogLine> two_rows;
  REQUIRE(decode_transcript(first, 1, two_rows).ok());
  REQUIRE_FALSE(decode_transcript("2.000 + 1 3 a\n", 2, two_rows).ok());
}

TEST_CASE("transcript text: stored and read back through the Store on every backend") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      auto store = Store::open(db.url());
      INFO((store ? std::string() : store.error()));
      REQUIRE(store.ok());
      GameRecord g;
      g.game = "awale";
      g.players = {"a", "b"};
      auto id = store->begin_game(g);
      REQUIRE(id.ok());
      auto one = game_lines(60, 1), two = game_lines(61, 2);
      std::vector<LogLine> both;
      for (std::size_t i = 0; i < std::max(one.size(), two.size()); ++i) {  // interleaved
        if (i < one.size()) both.push_back(one[i]);
        if (i < two.size()) both.push_back(two[i]);
      }
      REQUIRE(store->add_logs(*id, both).ok());
      auto back = store->logs(*id);
      INFO((back ? std::string() : back.error()));
      REQUIRE(back.ok());
      std::vector<LogLine> want = one;  // one row per seat, seat 1 first
      want.insert(want.end(), two.begin(), two.end());
      check_same(*back, want);
    }
}

TEST_CASE("transcript text: a v8 database is migrated to v9, its rows read the same") {
  storage_test::TempDir dir;
  const auto path = dir.file("v8.db");
  std::int64_t id = 0;
  {
    auto store = Store::open(path);
    REQUIRE(store.ok());
    GameRecord g;
    g.game = "awale";
    g.players = {"a", "b"};
    auto game = store->begin_game(g);
    REQUIRE(game.ok());
    id = *game;
  }
  {
    // What a v8 referee wrote: position lines whole.
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec("UPDATE schema_version SET version = 8");
    raw.exec("ALTER TABLE games DROP COLUMN time_controls");  // v10's, not there in v8
    raw.exec("INSERT INTO engine_transcripts (game_id, seat, text) VALUES (" + std::to_string(id) +
             ", 1, '0.000 > position startpos moves 1 2 3 4 5 6' || char(10) ||"
             " '1.000 > position startpos moves 1 2 3 4 5 6 7' || char(10))");
  }
  auto store = Store::open(path);
  REQUIRE(store.ok());
  auto logs = store->logs(id);
  REQUIRE(logs.ok());
  REQUIRE(logs->size() == 2);
  CHECK((*logs)[1].text == "position startpos moves 1 2 3 4 5 6 7");
  SQLite::Database raw(path);
  CHECK(raw.execAndGet("SELECT version FROM schema_version").getInt() == kSchemaVersion);
}
