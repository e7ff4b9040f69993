// referee/match: play_match between mock engines for every way a game ends — the rules' end,
// time forfeit, illegal and unparseable moves, crash (exit status and stderr kept), stall,
// protocol violations (long line, output flood), resignation, interruption — and what the referee
// sends: exact lines, one position+go round trip per ply, clocks in go lines that run down as time
// is used, forced moves never asked of an engine, openings played by the referee.
#include <catch2/catch.hpp>
#include <random>
#include <regex>
#include <thread>

#include "games/game.h"
#include "referee/match/match.h"
#include "referee/match/replay.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;
using rtest::contains;

namespace {

games::Game game_of(const std::string& spec) {
  auto g = games::make_game(spec);
  INFO(spec << ": " << (g ? std::string() : g.error()));
  REQUIRE(g.ok());
  return *g;
}

TimeControl tc_of(const std::string& text) {
  auto tc = parse_time_control(text);
  REQUIRE(tc.ok());
  return *tc;
}

struct Played {
  MatchResult result;
  std::vector<EngineSession> engines;
  std::vector<std::vector<storage::LogLine>> logs;  // by seat, taken after the game
};

struct Options {
  std::string start;
  std::vector<std::string> opening;
  SessionSettings settings;
  const std::atomic<bool>* stop = nullptr;
};

// One game of `spec` between mock engines with the given flags, seat by seat; the engine of seat
// k is named "e<k>".
Played play(const std::string& spec, const std::vector<std::vector<std::string>>& flags,
            const std::string& tc, const Options& options = {}) {
  auto game = game_of(spec);
  Played p;
  for (const auto& f : flags) {
    SessionSettings settings = options.settings;
    settings.name = "e" + std::to_string(p.engines.size() + 1);
    p.engines.push_back(rtest::start_mock(f, settings));
  }
  MatchSetup setup{game, options.start, options.opening, {}, {}, options.stop, {}, {}, {}};
  for (auto& e : p.engines) {
    std::string detail;
    const Fault prepared = e.prepare(game, detail);
    INFO(detail);
    REQUIRE(prepared == Fault::None);
    setup.seats.push_back(&e);
    setup.time_controls.push_back(tc_of(tc));
  }
  std::vector<storage::MoveRecord> streamed;
  setup.on_move = [&](const storage::MoveRecord& m) { streamed.push_back(m); };
  p.result = play_match(setup);
  // Every move reaches on_move as it is played, in order.
  REQUIRE(streamed.size() == p.result.moves.size());
  for (std::size_t i = 0; i < streamed.size(); ++i)
    CHECK(streamed[i].move == p.result.moves[i].move);
  for (auto& e : p.engines) {
    e.quit();
    p.logs.push_back(e.take_log());
  }
  return p;
}

// The game as the store would hold it, checked by the replay that `referee verify` runs.
Status replay(const std::string& spec, const MatchResult& r, const std::string& start = "") {
  storage::GameRecord rec;
  rec.game = game_of(spec).canonical();
  rec.start_position = start;
  rec.status = r.finished ? referee::storage::GameStatus::Finished
                          : referee::storage::GameStatus::Unfinished;
  rec.termination = r.termination;
  rec.ranks = r.ranks;
  return replay_check(rec, r.moves);
}

std::vector<std::string> from_engine(const std::vector<storage::LogLine>& log) {
  std::vector<std::string> out;
  for (const auto& l : log)
    if (l.direction == '<') out.push_back(l.text);
  return out;
}

// "go player 1 p1time 9800 p2time 10000 ..." -> the value after `key`.
long go_value(const std::string& line, const std::string& key) {
  std::smatch m;
  REQUIRE(std::regex_search(line, m, std::regex(" " + key + " (-?[0-9]+)")));
  return std::stol(m[1]);
}

std::vector<std::string> starting_with(const std::vector<std::string>& lines,
                                       const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) out.push_back(l);
  return out;
}

long ms_since(std::chrono::steady_clock::time_point t) {
  return static_cast<long>(
      std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - t).count());
}

}  // namespace

TEST_CASE("match: mock against mock plays to the rules' end, every move recorded") {
  auto p = play("awale", {{}, {}}, "10+0.1");
  const auto& r = p.result;
  INFO(r.reason);
  REQUIRE(r.finished);
  CHECK((r.termination == "rules" || r.termination == "repetition" ||
         r.termination == "nocapture" || r.termination == "maxplies"));
  CHECK(r.faulty_seat == 0);
  CHECK(r.fault == Fault::None);
  REQUIRE(r.ranks.size() == 2);
  CHECK(r.scores.size() == 2);
  CHECK(r.moves.size() > 10);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const auto& m = r.moves[i];
    CHECK(m.ply == static_cast<int>(i + 1));
    CHECK(m.source == "engine");
    CHECK(m.time_ms >= 0);
    CHECK(m.clock_ms >= 0);
    CHECK(m.clock_ms <= 10000 + 100 * static_cast<long>(i + 1));
  }
  auto st = replay("awale", r);
  INFO((st ? std::string() : st.error()));
  CHECK(st.ok());
  auto end = games::state_after(game_of("awale"), "", storage::move_sequence({}, r.moves));
  REQUIRE(end.ok());
  CHECK(end->to_string() == r.final_position);
  CHECK(end->outcome().ranks == r.ranks);
}

TEST_CASE("match: exactly the lines the referee sends, one round trip per ply") {
  rtest::TempDir dir;
  const std::string spec = "awale:maxplies=6";
  auto p = play(spec, {{"--log=" + dir.file("p1")}, {"--log=" + dir.file("p2")}}, "10+0.1");
  const auto& r = p.result;
  REQUIRE(r.finished);
  CHECK(r.termination == "maxplies");
  REQUIRE(r.moves.size() == 6);
  const std::string setgame = protocol::format(
      protocol::RefereeMessage{protocol::setgame_from_spec(game_of(spec).canonical())});
  for (int seat = 1; seat <= 2; ++seat) {
    INFO("seat " << seat);
    auto lines = rtest::read_lines(dir.file("p" + std::to_string(seat)));
    // Handshake and preparation, then position+go per move of this seat, then gameover, quit.
    REQUIRE(lines.size() == 5 + 2 * 3 + 2);
    CHECK(lines[0] == "ugi");
    CHECK(lines[1] == "protocol 1");
    CHECK(lines[2] == setgame);
    CHECK(lines[3] == "uginewgame");
    CHECK(lines[4] == "isready 1");
    for (int k = 0; k < 3; ++k) {
      const std::size_t ply = static_cast<std::size_t>(2 * k + seat - 1);  // plies before this go
      std::string position = "position startpos";
      if (ply) position += " moves";
      for (std::size_t i = 0; i < ply; ++i) position += " " + r.moves[i].move;
      CHECK(lines[static_cast<std::size_t>(5 + 2 * k)] == position);
      const std::string& go = lines[static_cast<std::size_t>(6 + 2 * k)];
      CHECK(std::regex_match(go, std::regex("go player " + std::to_string(seat) +
                                            " p1time [0-9]+ p2time [0-9]+ p1inc 100 p2inc 100")));
    }
    CHECK(lines[11].rfind("gameover ", 0) == 0);
    CHECK(lines[11] == protocol::format(protocol::RefereeMessage{
                           protocol::GameOver{protocol::outcome_word(r.ranks), "maxplies"}}));
    CHECK(lines[12] == "quit");
    CHECK(starting_with(lines, "isready").size() == 1);  // no isready between moves
    // Round trips: handshake, isready, then one per move.
    CHECK(p.engines[static_cast<std::size_t>(seat - 1)].round_trips() == 2 + 3);
  }
  // The first go of each seat: both clocks full.
  auto p1 = rtest::read_lines(dir.file("p1"));
  CHECK(p1[6] == "go player 1 p1time 10000 p2time 10000 p1inc 100 p2inc 100");
}

TEST_CASE("match: clocks in go lines run down as time is used, clocks recorded") {
  rtest::TempDir dir;
  auto p = play("awale:maxplies=10", {{"--slow-ms=25", "--log=" + dir.file("p1")}, {}}, "5+0");
  const auto& r = p.result;
  REQUIRE(r.finished);
  REQUIRE(r.moves.size() == 10);
  auto gos = starting_with(rtest::read_lines(dir.file("p1")), "go ");
  REQUIRE(gos.size() == 5);
  long previous = 5000;
  CHECK(go_value(gos[0], "p1time") == 5000);
  for (std::size_t k = 0; k < 5; ++k) {
    const auto& mine = r.moves[2 * k];  // p1's moves: plies 1, 3, 5, ...
    CHECK(mine.player == 1);
    CHECK(mine.time_ms >= 25);
    CHECK(mine.clock_ms <= previous - 25);
    CHECK(mine.clock_ms == previous - mine.time_ms);
    previous = mine.clock_ms;
    if (k + 1 < 5) {
      CHECK(go_value(gos[k + 1], "p1time") == mine.clock_ms);
      CHECK(go_value(gos[k + 1], "p2time") == r.moves[2 * k + 1].clock_ms);
    }
  }
}

TEST_CASE("match: moves-to-go, movetime, depth and nodes reach the go line") {
  rtest::TempDir dir;
  SECTION("moves to go") {
    auto p = play("awale:maxplies=4", {{"--log=" + dir.file("p1")}, {}}, "2/10+0");
    REQUIRE(p.result.finished);
    auto gos = starting_with(rtest::read_lines(dir.file("p1")), "go ");
    REQUIRE(gos.size() == 2);
    CHECK(go_value(gos[0], "movestogo") == 2);
    CHECK(go_value(gos[1], "movestogo") == 1);
  }
  SECTION("movetime, depth, nodes") {
    auto p = play("awale:maxplies=2", {{"--log=" + dir.file("p1")}, {}},
                  "movetime=300,depth=7,nodes=900");
    REQUIRE(p.result.finished);
    auto gos = starting_with(rtest::read_lines(dir.file("p1")), "go ");
    REQUIRE(gos.size() == 1);
    CHECK(go_value(gos[0], "movetime") == 300);
    CHECK(go_value(gos[0], "depth") == 7);
    CHECK(go_value(gos[0], "nodes") == 900);
    CHECK_FALSE(contains(gos[0], "p1time"));
    CHECK(p.result.moves[0].clock_ms == -1);  // no clock to record
  }
}

TEST_CASE("match: a move beyond clock plus margin loses on time") {
  const auto t0 = std::chrono::steady_clock::now();
  auto p = play("awale", {{}, {"--slow-ms=400"}}, "0.1+0");
  const auto& r = p.result;
  INFO(r.reason);
  REQUIRE(r.finished);
  CHECK(r.termination == "time");
  CHECK(r.fault == Fault::Timeout);
  CHECK(r.faulty_seat == 2);
  CHECK(r.ranks == std::vector<int>{1, 2});
  CHECK(contains(r.reason, "e2 lost on time"));
  CHECK(contains(r.reason, "150 ms"));  // 100 ms clock + 50 ms margin
  CHECK(r.moves.size() == 1);           // p1's move only
  CHECK(ms_since(t0) < 1500);
}

TEST_CASE("match: a move inside the margin stops the clock at 0 and the game goes on") {
  auto p = play("awale:maxplies=3", {{"--slow-ms=150"}, {}}, "0.1+0,margin=400");
  const auto& r = p.result;
  INFO(r.reason);
  REQUIRE(r.finished);
  CHECK(r.termination == "maxplies");
  REQUIRE(r.moves.size() == 3);
  CHECK(r.moves[0].time_ms >= 150);
  CHECK(r.moves[0].clock_ms == 0);
  CHECK(r.moves[2].clock_ms == 0);
}

TEST_CASE("match: an illegal move forfeits, its raw text kept") {
  auto p = play("awale", {{"--illegal"}, {}}, "10+0");
  const auto& r = p.result;
  REQUIRE(r.finished);
  CHECK(r.termination == "illegal");
  CHECK(r.faulty_seat == 1);
  CHECK(r.ranks == std::vector<int>{2, 1});
  CHECK(r.moves.empty());
  auto replies = starting_with(from_engine(p.logs[0]), "bestmove ");
  REQUIRE(replies.size() == 1);
  const std::string raw = replies[0].substr(9);
  INFO(r.reason);
  CHECK(contains(r.reason, "e1 played an illegal move"));
  CHECK(contains(r.reason, "'" + raw + "'"));
  CHECK(replay("awale", r).ok());
}

TEST_CASE("match: an unparseable bestmove is an illegal move, the line kept") {
  auto p = play("awale", {{}, {"--garbage"}}, "10+0");
  const auto& r = p.result;
  REQUIRE(r.finished);
  CHECK(r.termination == "illegal");
  CHECK(r.faulty_seat == 2);
  INFO(r.reason);
  CHECK(contains(r.reason, "raw: 'bestmove'"));
}

TEST_CASE("match: a crash forfeits with the exit status and stderr tail in the reason") {
  auto p = play("awale", {{}, {"--crash-on-go=2", "--stderr=1"}}, "10+0");
  const auto& r = p.result;
  REQUIRE(r.finished);
  INFO(r.reason);
  CHECK(r.termination == "crash");
  CHECK(r.fault == Fault::Crash);
  CHECK(r.faulty_seat == 2);
  CHECK(r.ranks == std::vector<int>{1, 2});
  CHECK(r.reason == "e2 crashed (exit 3): mock stderr 1.0");
  CHECK(r.moves.size() == 3);  // p1, p2, p1; p2's second go crashed
}

namespace {

// A game of awale against the mock in which `name`, a shell engine that answers `ugi` and
// `isready` and runs `on_go` at its first go, plays second; the game's result.
MatchResult crash_on_go(const std::string& name, const std::string& on_go) {
  auto bot = rtest::script_spec(
      "while read -r cmd rest; do case \"$cmd\" in\n"
      "ugi) echo 'id name sh'; echo 'id protocol 1'; echo 'game awale'; echo ugiok;;\n"
      "isready) echo \"readyok $rest\";;\n"
      "go) " +
      on_go +
      ";;\n"
      "esac; done\n");
  SessionSettings named;
  named.name = name;
  auto game = game_of("awale");
  auto other = rtest::start_mock({});
  auto engine = rtest::start_session(bot, named);
  std::string detail;
  REQUIRE(other.prepare(game, detail) == Fault::None);
  REQUIRE(engine.prepare(game, detail) == Fault::None);
  MatchSetup setup{game, "", {}, {&other, &engine}, {tc_of("10+0"), tc_of("10+0")}, nullptr,
                   {},   {}, {}};
  return play_match(setup);
}

}  // namespace

TEST_CASE("match: a crash's reason names the engine, the exit and its traceback's last line") {
  // A Python-like engine that writes a traceback and exits 1 on its first go.
  auto r = crash_on_go("mybot",
                       "printf 'Traceback (most recent call last):\\n  File \"bot.py\", line 3, in "
                       "<module>\\n    main()\\nValueError: bad move\\n\\n' >&2; exit 1");
  INFO(r.reason);
  CHECK(r.termination == "crash");
  CHECK(r.reason ==
        "mybot crashed (exit 1): ValueError: bad move\n"
        "its stderr, last lines in this game:\n"
        "  Traceback (most recent call last):\n"
        "    File \"bot.py\", line 3, in <module>\n"
        "      main()\n"
        "  ValueError: bad move");
  CHECK(reason_headline(r.reason) == "mybot crashed (exit 1): ValueError: bad move");
  CHECK(reason_headline("one line") == "one line");
}

TEST_CASE("match: a crash's reason names the error above a runtime's closing banner") {
  // Node.js writes the source line, the exception, its stack, a blank line and its version.
  auto r = crash_on_go(
      "jsbot",
      "printf '/home/me/bot.js:12\\n    throw new TypeError(\"no move for pit 7\");\\n' >&2; "
      "printf '    ^\\n\\nTypeError: no move for pit 7\\n    at pick (/home/me/bot.js:12:11)\\n"
      "    at Interface.<anonymous> (/home/me/bot.js:30:5)\\n\\nNode.js v20.20.2\\n' >&2; exit 1");
  INFO(r.reason);
  CHECK(r.termination == "crash");
  CHECK(reason_headline(r.reason) == "jsbot crashed (exit 1): TypeError: no move for pit 7");
  // The whole tail is kept with the game, the banner included.
  CHECK(contains(r.reason, "its stderr, last lines in this game:\n  /home/me/bot.js:12\n"));
  CHECK(contains(r.reason, "\n  TypeError: no move for pit 7\n"));
  CHECK(contains(r.reason, "\n  Node.js v20.20.2"));
}

TEST_CASE("match: a crash quotes only the stderr of its own game") {
  auto game1 = game_of("awale:maxplies=4");  // each engine moves twice
  std::vector<EngineSession> e;
  for (const auto& flags : {std::vector<std::string>{}, {"--stderr=1", "--crash-on-go=3"}}) {
    SessionSettings s;
    s.name = "e" + std::to_string(e.size() + 1);
    e.push_back(rtest::start_mock(flags, s));
  }
  std::string detail;
  for (auto& x : e) REQUIRE(x.prepare(game1, detail) == Fault::None);
  MatchSetup first{game1, "", {}, {&e[0], &e[1]}, {tc_of("10+0"), tc_of("10+0")}, nullptr,
                   {},    {}, {}};
  auto r1 = play_match(first);
  REQUIRE(r1.termination == "maxplies");
  for (auto& x : e) CHECK_FALSE(x.take_log().empty());  // the end of game 1's transcript
  CHECK(e[1].recent_stderr().empty());
  // Game 2: e2's first go is its third: it exits at once, writing nothing this game.
  for (auto& x : e) REQUIRE(x.prepare(game1, detail) == Fault::None);
  MatchSetup second = first;
  auto r2 = play_match(second);
  INFO(r2.reason);
  CHECK(r2.termination == "crash");
  CHECK(r2.reason == "e2 crashed (exit 3)");
  auto log = e[1].take_log();
  for (const auto& l : log) CHECK(l.direction != '!');
}

TEST_CASE("match: a time loss with nothing at all on stdout since go suggests flushing") {
  auto silent = play("awale", {{"--stall-after-go"}, {}}, "0.1+0");
  INFO(silent.result.reason);
  CHECK(silent.result.termination == "time");
  CHECK(silent.result.reason ==
        "e1 lost on time: no bestmove within 150 ms (nothing at all was read from its stdout "
        "since go: does it flush stdout after every line?)");
  auto talking = play("awale", {{"--spam-info=2", "--slow-ms=400"}, {}}, "0.1+0");
  INFO(talking.result.reason);
  CHECK(talking.result.termination == "time");
  CHECK(talking.result.reason == "e1 lost on time: no bestmove within 150 ms");
}

TEST_CASE("match: an engine that stops answering loses on time, then stalls at the next game") {
  SessionSettings settings;
  settings.ready_timeout = Millis(200);
  settings.setgame_timeout = Millis(200);
  auto game = game_of("awale");
  auto staller = rtest::start_mock({"--stall-after-go=2"}, settings);
  auto other = rtest::start_mock({}, settings);
  std::string detail;
  REQUIRE(staller.prepare(game, detail) == Fault::None);
  REQUIRE(other.prepare(game, detail) == Fault::None);
  MatchSetup setup{game, "", {}, {&staller, &other}, {tc_of("0.2+0"), tc_of("0.2+0")}, nullptr,
                   {},   {}, {}};
  auto r = play_match(setup);
  REQUIRE(r.finished);
  CHECK(r.termination == "time");
  CHECK(r.faulty_seat == 1);
  CHECK(r.moves.size() == 2);
  // The next game: the engine no longer answers isready.
  CHECK(staller.prepare(game, detail) == Fault::Stall);
  CHECK(contains(detail, "no readyok within 200 ms"));
}

TEST_CASE("match: protocol violations forfeit") {
  SECTION("a line longer than the limit") {
    auto p = play("awale", {{"--long-line"}, {}}, "10+0");
    REQUIRE(p.result.finished);
    CHECK(p.result.termination == "protocol");
    CHECK(p.result.faulty_seat == 1);
    CHECK(contains(p.result.reason, "line longer than the limit"));
  }
  SECTION("more info lines than allowed for one move") {
    Options o;
    o.settings.max_lines_per_move = 5;
    auto p = play("awale", {{}, {"--spam-info=20"}}, "10+0", o);
    REQUIRE(p.result.finished);
    CHECK(p.result.termination == "protocol");
    CHECK(p.result.faulty_seat == 2);
    CHECK(contains(p.result.reason, "output flood"));
  }
  SECTION("info lines within the limit are fine; the last one is recorded") {
    Options o;
    o.settings.max_lines_per_move = 5;
    auto p = play("awale:maxplies=2", {{"--spam-info=3"}, {}}, "10+0", o);
    REQUIRE(p.result.finished);
    CHECK(p.result.termination == "maxplies");
    CHECK(p.result.moves[0].info == "info depth 3 nodes 1");
    CHECK(p.result.moves[1].info.empty());
  }
}

TEST_CASE("match: resignation") {
  auto p = play("awale", {{}, {"--resign-on-go=2"}}, "10+0");
  const auto& r = p.result;
  REQUIRE(r.finished);
  CHECK(r.termination == "resign");
  CHECK(r.faulty_seat == 2);
  CHECK(r.ranks == std::vector<int>{1, 2});
  CHECK(r.reason == "e2 resigned");
  CHECK(r.moves.size() == 3);
}

// A position of `spec` reached by random play where the mock engine's move (the first legal
// one) leaves the opponent a forced move.
std::string before_forced(const std::string& spec) {
  auto game = game_of(spec);
  for (std::uint64_t seed = 1; seed < 500; ++seed) {
    std::mt19937_64 rng(seed);
    auto state = game.initial_state();
    while (!state.is_terminal()) {
      if (!state.is_forced() && state.setup_form().empty()) {
        auto next = state;
        if (next.apply(next.legal_moves().front()) && !next.is_terminal() && next.is_forced())
          return state.to_string();
      }
      auto legal = state.legal_moves();
      if (legal.empty()) break;
      if (!state.apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]))
        break;
    }
  }
  return "";
}

TEST_CASE("match: forced moves are played by the referee, never asked of an engine") {
  rtest::TempDir dir;
  Options o;
  o.start = before_forced("kakua");
  REQUIRE_FALSE(o.start.empty());
  auto p = play("kakua", {{"--log=" + dir.file("p1")}, {"--log=" + dir.file("p2")}}, "10+0", o);
  const auto& r = p.result;
  INFO(r.reason);
  REQUIRE(r.finished);
  int forced = 0;
  int engine_moves[3] = {0, 0, 0};
  for (const auto& m : r.moves) {
    if (m.source == "forced") {
      ++forced;
      CHECK(m.move == "pass");
      CHECK(m.time_ms == -1);
    } else {
      ++engine_moves[m.player];
    }
  }
  CHECK(forced >= 1);
  for (int seat = 1; seat <= 2; ++seat) {
    auto lines = rtest::read_lines(dir.file("p" + std::to_string(seat)));
    CHECK(static_cast<int>(starting_with(lines, "go ").size()) == engine_moves[seat]);
    CHECK(starting_with(lines, "position fen " + o.start).size() ==
          starting_with(lines, "go ").size());
  }
  CHECK(replay("kakua", r, o.start).ok());
}

TEST_CASE("match: the opening is played by the referee and recorded as such") {
  rtest::TempDir dir;
  Options o;
  o.opening = {"3", "9"};
  auto p = play("awale:maxplies=4", {{"--log=" + dir.file("p1")}, {}}, "10+0", o);
  const auto& r = p.result;
  REQUIRE(r.finished);
  REQUIRE(r.moves.size() == 4);
  CHECK(r.moves[0].move == "3");
  CHECK(r.moves[0].source == "opening");
  CHECK(r.moves[1].source == "opening");
  CHECK(r.moves[2].source == "engine");
  auto positions = starting_with(rtest::read_lines(dir.file("p1")), "position ");
  REQUIRE(positions.size() == 1);
  CHECK(positions[0] == "position startpos moves 3 9");
}

TEST_CASE("match: an illegal opening or start position is not a game") {
  Options o;
  o.opening = {"9"};  // North's hole, South to move
  auto p = play("awale", {{}, {}}, "10+0", o);
  CHECK_FALSE(p.result.finished);
  CHECK(contains(p.result.reason, "opening move '9' is illegal"));
  Options bad_start;
  bad_start.start = "not-a-position";
  auto q = play("awale", {{}, {}}, "10+0", bad_start);
  CHECK_FALSE(q.result.finished);
  CHECK(contains(q.result.reason, "bad start position"));
}

TEST_CASE("match: the stop flag interrupts a game, unfinished") {
  std::atomic<bool> stop{false};
  Options o;
  o.stop = &stop;
  std::thread setter([&] {
    std::this_thread::sleep_for(Millis(200));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto p = play("awale", {{"--slow-ms=60"}, {"--slow-ms=60"}}, "10+0", o);
  setter.join();
  CHECK_FALSE(p.result.finished);
  CHECK(p.result.termination == "interrupted");
  CHECK(p.result.ranks.empty());
  CHECK(ms_since(t0) < 2000);
}

TEST_CASE("match: three players, every clock in the go line") {
  rtest::TempDir dir;
  auto p = play("oware:players=3,maxplies=6", {{"--log=" + dir.file("p1")}, {}, {}}, "10+0.5");
  REQUIRE(p.result.finished);
  auto gos = starting_with(rtest::read_lines(dir.file("p1")), "go ");
  REQUIRE_FALSE(gos.empty());
  CHECK(gos[0] ==
        "go player 1 p1time 10000 p2time 10000 p3time 10000 p1inc 500 p2inc 500 "
        "p3inc 500");
  CHECK(replay("oware:players=3,maxplies=6", p.result).ok());
}

TEST_CASE("match: forfeit ranks put the culprit last, the others first") {
  CHECK(forfeit_ranks(2, 1) == std::vector<int>{2, 1});
  CHECK(forfeit_ranks(3, 2) == std::vector<int>{1, 2, 1});
}
