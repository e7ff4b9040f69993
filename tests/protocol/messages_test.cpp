// protocol/messages: every message type parsed and formatted both ways, canonical lines round
// trip, malformed lines are errors (never aborts), unknown lines are tolerated.
#include <catch2/catch.hpp>

#include "protocol/messages.h"

using namespace referee::protocol;

namespace {

template <class T, class V>
const T& as(const V& v) {
  REQUIRE(std::holds_alternative<T>(v));
  return std::get<T>(v);
}

}  // namespace

TEST_CASE("messages: canonical referee lines round trip") {
  const char* lines[] = {
      "ugi",
      "protocol 1",
      "setoption name Hash value 256",
      "setoption name Clear",
      "setgame awale",
      "setgame oware players=3 first=1 nocapture=100 maxplies=2000",
      "isready 7",
      "isready",
      "uginewgame",
      "position startpos",
      "position startpos moves 5 9",
      "position fen 4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0",
      "position fen 4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0 moves 3 9 12",
      "go player 1 p1time 1000 p2time 2000 p1inc 10 p2inc 20",
      "go player 3 p1time 41200 p2time 39850 p3time 44010 p1inc 500 p2inc 500 p3inc 500",
      "go movetime 500",
      "go depth 6",
      "go nodes 100000",
      "go p1time 1 p2time 2 movestogo 40",
      "go infinite",
      "go",
      "stop",
      "gameover p1win rules",
      "gameover p2win time",
      "gameover draw maxplies",
      "gameover ranks 1,3,2 rules",
      "gameover draw",
      "quit",
  };
  for (const char* line : lines) {
    INFO(line);
    auto parsed = parse_referee_line(line);
    INFO((parsed ? std::string() : parsed.error()));
    REQUIRE(parsed.ok());
    CHECK_FALSE(std::holds_alternative<UnknownCommand>(*parsed));
    CHECK(format(*parsed) == line);
  }
}

TEST_CASE("messages: format_position_into writes over a used buffer, as format_position does") {
  std::string out = "position startpos moves 1 2 3 4 5 6 7 8 9 10 11 12 (a longer earlier line)";
  format_position_into(out, "", {"5", "9"});
  CHECK(out == "position startpos moves 5 9");
  CHECK(out == format_position("", {"5", "9"}));
  format_position_into(out, "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0", {});
  CHECK(out == "position fen 4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0");
  format_position_into(out, "", {});
  CHECK(out == "position startpos");
}

TEST_CASE("messages: canonical engine lines round trip") {
  const char* lines[] = {
      "id name Sowbot 1.0",
      "id author A. Person",
      "id protocol 1",
      "game awale",
      "game oware players=2|3|4|6 first=1..6",
      "option name Seed type spin default 0 min 0 max 999999999",
      "option name Fast type check default true",
      "option name Style type combo default Solid var Solid var Risky",
      "option name Book type string default <empty>",
      "option name Clear type button",
      "ugiok",
      "readyok 7",
      "readyok",
      "bestmove 5",
      "bestmove 13.cw",
      "bestmove =4,4,4,4,4,4",
      "bestmove resign",
      "info depth 9 score cp 120 nodes 5012 pv 3 11",
      "info string hello world",
      "error unsupported-game kalah",
      "error internal",
  };
  for (const char* line : lines) {
    INFO(line);
    auto parsed = parse_engine_line(line);
    INFO((parsed ? std::string() : parsed.error()));
    REQUIRE(parsed.ok());
    CHECK_FALSE(std::holds_alternative<UnknownLine>(*parsed));
    CHECK(format(*parsed) == line);
  }
}

TEST_CASE("messages: fields of parsed referee lines") {
  auto go = parse_referee_line(
      "go player 2 p1time 41200 p2time 39850 p1inc 500 p2inc 250 "
      "movestogo 3 movetime 70 depth 4 nodes 9000000000");
  REQUIRE(go.ok());
  const Go& g = as<Go>(*go);
  CHECK(g.player == 2);
  CHECK(g.time_ms == std::vector<long>{41200, 39850});
  CHECK(g.inc_ms == std::vector<long>{500, 250});
  CHECK(g.movestogo == 3);
  CHECK(g.movetime == 70L);
  CHECK(g.depth == 4);
  CHECK(g.nodes == 9000000000LL);
  CHECK_FALSE(g.infinite);

  auto pos = parse_referee_line("position fen 1,2/3,4:0,0:2:0:5 moves 3 9");
  REQUIRE(pos.ok());
  CHECK(as<Position>(*pos).fen == std::optional<std::string>("1,2/3,4:0,0:2:0:5"));
  CHECK(as<Position>(*pos).moves == std::vector<std::string>{"3", "9"});

  auto start = parse_referee_line("position startpos moves");
  REQUIRE(start.ok());
  CHECK_FALSE(as<Position>(*start).fen.has_value());
  CHECK(as<Position>(*start).moves.empty());

  auto sg = parse_referee_line("setgame oware players=3");
  REQUIRE(sg.ok());
  CHECK(as<SetGame>(*sg).name == "oware");
  CHECK(as<SetGame>(*sg).params ==
        std::vector<std::pair<std::string, std::string>>{{"players", "3"}});

  auto so = parse_referee_line("setoption name Book File value /tmp/my book.bin");
  REQUIRE(so.ok());
  CHECK(as<SetOption>(*so).name == "Book File");
  CHECK(as<SetOption>(*so).value == "/tmp/my book.bin");

  auto over = parse_referee_line("gameover ranks 2,1,3 time");
  REQUIRE(over.ok());
  CHECK(as<GameOver>(*over).outcome == "ranks 2,1,3");
  CHECK(as<GameOver>(*over).reason == "time");

  auto pv = parse_referee_line("protocol 3");
  REQUIRE(pv.ok());
  CHECK(as<ProtocolVersion>(*pv).version == 3);
}

TEST_CASE("messages: fields of parsed engine lines") {
  auto info = parse_engine_line("info depth 9 seldepth 12 score cp -120 nodes 5012 pv 3 11 time 5");
  REQUIRE(info.ok());
  const Info& i = as<Info>(*info);
  CHECK(i.depth == 9);
  CHECK(i.score_cp == -120L);
  CHECK_FALSE(i.score_mate.has_value());
  CHECK(i.nodes == 5012LL);
  CHECK(i.pv == std::vector<std::string>{"3", "11"});
  CHECK(i.text == "depth 9 seldepth 12 score cp -120 nodes 5012 pv 3 11 time 5");

  auto mate = parse_engine_line("info score mate -7 depth x");  // junk values are just not kept
  REQUIRE(mate.ok());
  CHECK(as<Info>(*mate).score_mate == -7L);
  CHECK_FALSE(as<Info>(*mate).depth.has_value());

  auto opt = parse_engine_line("option name Move Overhead type spin default 30 min 0 max 5000");
  REQUIRE(opt.ok());
  const OptionDecl& o = as<OptionDecl>(*opt);
  CHECK(o.name == "Move Overhead");
  CHECK(o.type == "spin");
  CHECK(o.default_value == "30");
  CHECK(o.min == 0L);
  CHECK(o.max == 5000L);

  auto game = parse_engine_line("game oware players=2|3|4|6");
  REQUIRE(game.ok());
  CHECK(as<GameDecl>(*game).name == "oware");
  CHECK(as<GameDecl>(*game).params ==
        std::vector<std::pair<std::string, std::string>>{{"players", "2|3|4|6"}});

  auto id = parse_engine_line("id   name   Sow  Bot  ");
  REQUIRE(id.ok());
  CHECK(as<IdLine>(*id).key == "name");
  CHECK(as<IdLine>(*id).value == "Sow  Bot");

  auto err = parse_engine_line("error illegal-move 13 not legal here");
  REQUIRE(err.ok());
  CHECK(as<EngineError>(*err).kind == "illegal-move");
  CHECK(as<EngineError>(*err).text == "13 not legal here");

  auto ponder = parse_engine_line("bestmove 5 ponder 9");  // UCI habit: ponder move dropped
  REQUIRE(ponder.ok());
  CHECK(as<BestMove>(*ponder).move == "5");
}

TEST_CASE("messages: whitespace, tabs and a trailing CR are tolerated") {
  struct Case {
    const char* line;
    const char* canonical;
  };
  const Case cases[] = {
      {"  go\tplayer 1  p1time 5\t p2time 6 \r", "go player 1 p1time 5 p2time 6"},
      {"position\tstartpos   moves\t3  9\r", "position startpos moves 3 9"},
      {"isready 4\r", "isready 4"},
      {"\tquit", "quit"},
      {"setgame  awale\tgrandslam=illegal ", "setgame awale grandslam=illegal"},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    auto parsed = parse_referee_line(c.line);
    REQUIRE(parsed.ok());
    CHECK(format(*parsed) == c.canonical);
  }
  auto best = parse_engine_line("bestmove\t 5 \r");
  REQUIRE(best.ok());
  CHECK(as<BestMove>(*best).move == "5");
  auto ready = parse_engine_line("readyok 12\r");
  REQUIRE(ready.ok());
  CHECK(as<ReadyOk>(*ready).token == "12");
}

TEST_CASE("messages: malformed referee lines are errors") {
  const char* lines[] = {
      "go p1time abc",
      "go p1time -5",
      "go p1time 5 p2time -1",
      "go p1time 1.5",
      "go p2time 100",  // p1time missing
      "go p1time 1 p1time 2",
      "go p1time 1 p2time 2 p2inc 3",  // p1inc missing
      "go player 0",
      "go player x",
      "go depth",
      "go movetime 99999999999999999999999",
      "go wtime 100",
      "go p0time 5",
      "position",
      "position moves 3",
      "position fen",
      "position fen moves 3",
      "position startpos 3 9",
      "position fen a:b c moves 3",
      "position kalah",
      "setgame",
      "setgame players=3",
      "setgame oware players",
      "setgame oware =3",
      "setoption",
      "setoption Hash value 3",
      "setoption name value 3",
      "isready 1 2",
      "ugi now",
      "quit please",
      "stop 1",
      "uginewgame x",
      "protocol",
      "protocol one",
      "gameover",
      "gameover p1wins rules",
      "gameover p0win rules",
      "gameover ranks rules",
      "gameover ranks 1,,2 rules",
      "gameover draw rules extra",
  };
  for (const char* line : lines) {
    INFO(line);
    auto parsed = parse_referee_line(line);
    CHECK_FALSE(parsed.ok());
    if (!parsed.ok()) CHECK(parsed.error().find("in '") != std::string::npos);
  }
}

TEST_CASE("messages: malformed engine lines are errors") {
  const char* lines[] = {
      "bestmove",
      "bestmove   \r",
      "bestmove 3 9",
      "bestmove 3 ponder",
      "readyok 1 2",
      "ugiok now",
      "option",
      "option name",
      "option name Hash",
      "option name Hash type",
      "option name Hash type float",
      "option name Hash type spin min x",
      "option name Hash type spin bogus 3",
      "option type spin",
      "game",
      "game oware players",
      "id",
      "error",
  };
  for (const char* line : lines) {
    INFO(line);
    CHECK_FALSE(parse_engine_line(line).ok());
  }
}

TEST_CASE("messages: unknown commands and empty lines are tolerated") {
  auto unknown = parse_referee_line("debug on");
  REQUIRE(unknown.ok());
  CHECK(as<UnknownCommand>(*unknown).line == "debug on");
  auto cap = parse_referee_line("GO depth 3");  // keywords are case-sensitive
  REQUIRE(cap.ok());
  CHECK(std::holds_alternative<UnknownCommand>(*cap));
  for (const char* empty : {"", "   ", "\t\r", "\r"}) {
    INFO('"' << empty << '"');
    auto r = parse_referee_line(empty);
    REQUIRE(r.ok());
    CHECK(as<UnknownCommand>(*r).line.empty());
    auto e = parse_engine_line(empty);
    REQUIRE(e.ok());
    CHECK(as<UnknownLine>(*e).line.empty());
  }
  auto banner = parse_engine_line("Sowbot 1.0 by A. Person\r");
  REQUIRE(banner.ok());
  CHECK(as<UnknownLine>(*banner).line == "Sowbot 1.0 by A. Person");
  CHECK(format(*banner) == "Sowbot 1.0 by A. Person");
}

TEST_CASE("messages: over-long lines and control bytes are protocol violations") {
  std::string longest = "info string " + std::string(kMaxLineBytes - 12, 'x');
  REQUIRE(longest.size() == kMaxLineBytes);
  CHECK(parse_engine_line(longest).ok());
  CHECK_FALSE(line_violation(longest).has_value());

  const std::string too_long = longest + "x";
  auto e = parse_engine_line(too_long);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().find("protocol violation") == 0);
  auto r = parse_referee_line("position startpos moves" + std::string(kMaxLineBytes, ' '));
  CHECK_FALSE(r.ok());

  // A long but legal move list parses in full.
  std::string moves = "position startpos moves";
  for (int i = 0; i < 5000; ++i) moves += " 12";
  auto many = parse_referee_line(moves);
  REQUIRE(many.ok());
  CHECK(as<Position>(*many).moves.size() == 5000);

  for (const std::string& bad :
       {std::string("bestmove 5\x01"), std::string("readyok\x1b[0m 7"),
        std::string("bestmove 5\0", 11), std::string("bestmove 5\r\r"), std::string("info \x7f")}) {
    auto v = line_violation(bad);
    CHECK(v.has_value());
    CHECK_FALSE(parse_engine_line(bad).ok());
  }
  CHECK(line_violation("bestmove 5\r") == std::nullopt);
  CHECK(line_violation("id author Zoë\tÅ") == std::nullopt);  // tabs and UTF-8 are fine
}

TEST_CASE("messages: tokenize splits on spaces and tabs") {
  CHECK(tokenize(" a\tb  c \r") == std::vector<std::string_view>{"a", "b", "c"});
  CHECK(tokenize("").empty());
  CHECK(tokenize("\t \r").empty());
}

TEST_CASE("messages: game specs and setgame lines convert both ways") {
  struct Case {
    const char* spec;
    const char* line;
  };
  const Case cases[] = {
      {"awale", "setgame awale"},
      {"oware:players=3,first=1", "setgame oware players=3 first=1"},
      {"awale:grandslam=illegal,first=2,nocapture=100,maxplies=2000",
       "setgame awale grandslam=illegal first=2 nocapture=100 maxplies=2000"},
  };
  for (const auto& c : cases) {
    INFO(c.spec);
    SetGame g = setgame_from_spec(c.spec);
    CHECK(format(RefereeMessage{g}) == c.line);
    CHECK(spec_from_setgame(g) == c.spec);
    auto parsed = parse_referee_line(c.line);
    REQUIRE(parsed.ok());
    CHECK(spec_from_setgame(as<SetGame>(*parsed)) == c.spec);
  }
}

TEST_CASE("messages: outcome words") {
  CHECK(outcome_word({1, 2}) == "p1win");
  CHECK(outcome_word({2, 1}) == "p2win");
  CHECK(outcome_word({1, 1}) == "draw");
  CHECK(outcome_word({1, 3, 2}) == "ranks 1,3,2");
  CHECK(outcome_word({1, 1, 1, 1}) == "draw");
  CHECK(outcome_word({2, 1, 2}) == "ranks 2,1,2");
  for (const auto& ranks : std::vector<std::vector<int>>{{1, 2}, {2, 1}, {1, 1}, {1, 3, 2}}) {
    auto line = parse_referee_line("gameover " + outcome_word(ranks) + " rules");
    CHECK(line.ok());
  }
}

TEST_CASE("messages: formatting composes info from fields when there is no text") {
  Info info;
  info.depth = 3;
  info.score_cp = -40;
  info.nodes = 77;
  info.pv = {"5", "9"};
  CHECK(format(EngineMessage{info}) == "info depth 3 score cp -40 nodes 77 pv 5 9");
  Go go;
  go.player = 2;
  go.time_ms = {100, 200, 300};
  go.inc_ms = {1, 2, 3};
  CHECK(format(RefereeMessage{go}) ==
        "go player 2 p1time 100 p2time 200 p3time 300 p1inc 1 p2inc 2 p3inc 3");
  Position pos;
  pos.moves = {"1", "2"};
  CHECK(format(RefereeMessage{pos}) == "position startpos moves 1 2");
}

TEST_CASE("messages: a protocol-violation line is classified by its LineFault, not its text") {
  const std::string too_long = "info string " + std::string(kMaxLineBytes, 'x');
  const std::string control = std::string("bestmove a1") + '\x01';
  for (const std::string& line : {too_long, control}) {
    auto engine = parse_engine_line(line);
    REQUIRE_FALSE(engine.ok());
    CHECK(engine.fault() == LineFault::Violation);
    auto referee = parse_referee_line(line);
    REQUIRE_FALSE(referee.ok());
    CHECK(referee.fault() == LineFault::Violation);
  }
  // A malformed known command is not a violation, and a line that parses has no fault.
  auto malformed = parse_engine_line("bestmove a1 b2");
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.fault() == LineFault::Malformed);
  CHECK(parse_referee_line("go p1time x").fault() == LineFault::Malformed);
  CHECK(parse_engine_line("bestmove a1").fault() == LineFault::None);
}

TEST_CASE("messages: parse_go refuses every key given twice, naming it") {
  // Every key of go that takes a value, the per-player ones for several players.
  const char* keys[] = {"player", "movestogo", "movetime", "depth", "nodes",
                        "p1time", "p2time",    "p1inc",    "p3inc", "p12time"};
  for (const std::string key : keys) {
    const std::string line = "go " + key + " 1 " + key + " 2";
    auto go = parse_referee_line(line);
    INFO(line);
    REQUIRE_FALSE(go.ok());
    CHECK(go.error() == "'" + key + "' given twice in '" + line + "'");
    CHECK(go.fault() == LineFault::Malformed);
  }
  // A flag given twice is the same as once.
  auto twice = parse_referee_line("go infinite infinite");
  REQUIRE(twice.ok());
  CHECK(as<Go>(*twice).infinite);
  // A bad value is reported before the repetition.
  CHECK(parse_referee_line("go depth 3 depth x").error() ==
        "'depth' needs a non-negative integer, got 'x' in 'go depth 3 depth x'");
}

TEST_CASE("messages: parse_go names an unknown key, after its value") {
  // Not keys: another word, a player number out of 1..64 or with a leading zero, a per-player
  // suffix on a key that is not per player, a per-player key without its p<i>, another case.
  const char* keys[] = {"foo",      "p0time",     "p65time", "p01time", "p1depth",
                        "p1player", "p1infinite", "time",    "inc",     "Depth"};
  for (const std::string key : keys) {
    const std::string line = "go " + key + " 5";
    auto go = parse_referee_line(line);
    INFO(line);
    REQUIRE_FALSE(go.ok());
    CHECK(go.error() == "unknown go parameter '" + key + "' in '" + line + "'");
    // Without a value, the missing value is what is reported.
    CHECK(parse_referee_line("go " + key).error() ==
          "'" + key + "' without a value in 'go " + key + "'");
  }
  CHECK(parse_referee_line("go player 0").error() ==
        "'player' needs a non-negative integer from 1, got '0' in 'go player 0'");
  CHECK(parse_referee_line("go p2inc 5").error() == "missing p1inc in 'go p2inc 5'");
}
