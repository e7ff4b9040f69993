// The engine SDK's protocol loop, fed scripts of referee lines: handshake, game selection,
// positions, go → search → bestmove, error replies, quit/EOF, and (over real pipes) isready and
// stop while a search runs.
#include <ext/stdio_filebuf.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <thread>

#include "games/registry.h"
#include "protocol/pipes.h"
#include "protocol/sdk/engine.h"

using namespace referee;
using referee::games::State;
using referee::sdk::Limits;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// An SDK engine (sdk::run of `search`) on a thread of its own, talked to over two pipes as the
// referee would while it searches: `say` writes lines, `next` reads one answer with a timeout. It
// ends with `quit`: said by the test (then `join`), or by the destructor.
class PipedSdk {
 public:
  explicit PipedSdk(sdk::SearchFn search) {
    REQUIRE(::pipe(to_) == 0);
    REQUIRE(::pipe(from_) == 0);
    reader_.emplace(from_[0]);
    thread_ = std::thread([this, search = std::move(search)] {
      __gnu_cxx::stdio_filebuf<char> inbuf(to_[0], std::ios::in);
      __gnu_cxx::stdio_filebuf<char> outbuf(from_[1], std::ios::out);
      std::istream in(&inbuf);
      std::ostream out(&outbuf);
      sdk::run({"T", "T"}, search, in, out);
    });
  }
  PipedSdk(const PipedSdk&) = delete;
  PipedSdk& operator=(const PipedSdk&) = delete;
  ~PipedSdk() {
    if (thread_.joinable()) {
      say("quit\n");
      thread_.join();
    }
    ::close(to_[1]);
    ::close(from_[0]);
  }

  void say(const std::string& lines) { testing::write_all(to_[1], lines); }
  std::optional<std::string> next(int timeout_ms = 5000) { return reader_->next(timeout_ms); }
  void join() { thread_.join(); }

 private:
  int to_[2] = {-1, -1}, from_[2] = {-1, -1};
  std::optional<testing::LineReader> reader_;
  std::thread thread_;
};

// What the search function saw, per call.
struct Call {
  std::string position;
  Limits limits;
};

std::vector<std::string> run_script(const std::string& script, std::vector<Call>* calls = nullptr,
                                    sdk::EngineInfo info = {"Test", "Tester"}) {
  std::istringstream in(script);
  std::ostringstream out;
  sdk::run(
      info,
      [calls](const State& s, const Limits& lim) -> std::string {
        if (calls) calls->push_back({s.to_string(), lim});
        return s.legal_moves().front();
      },
      in, out);
  return lines_of(out.str());
}

}  // namespace

TEST_CASE("sdk: handshake declares identity, protocol 1, every registered game, then ugiok") {
  auto out = run_script("ugi\n");
  REQUIRE(out.size() >= 5);
  CHECK(out[0] == "id name Test");
  CHECK(out[1] == "id author Tester");
  CHECK(out[2] == "id protocol 1");
  CHECK(out.back() == "ugiok");
  std::vector<std::string> games;
  for (const auto& line : out)
    if (line.rfind("game ", 0) == 0) games.push_back(line.substr(5, line.find(' ', 5) - 5));
  REQUIRE(games.size() == games::registry().size());
  for (std::size_t i = 0; i < games.size(); ++i) CHECK(games[i] == games::registry()[i].name);
  CHECK(std::find(out.begin(), out.end(),
                  "game awale grandslam=nocapture|illegal first=1..2 nocapture=0..100000 "
                  "maxplies=1..1000000") != out.end());
  CHECK(std::find(out.begin(), out.end(),
                  "option name Seed type spin default 0 min 0 max 999999999") != out.end());
}

TEST_CASE("sdk: a game is selected, positions are rebuilt and go calls the search") {
  std::vector<Call> calls;
  auto out = run_script(
      "ugi\nprotocol 1\nsetgame awale\nisready 7\nuginewgame\n"
      "position startpos moves 3 9\n"
      "go player 1 p1time 1000 p2time 2000 p1inc 10 p2inc 20\n"
      "position fen 4,4,7,4,4,4/0,1,2,1,2,1:7,7:1:0:0\ngo movetime 50 depth 3 nodes 99\n"
      "gameover p1win rules\nquit\n",
      &calls);
  auto ugiok = std::find(out.begin(), out.end(), "ugiok");
  REQUIRE(ugiok != out.end());
  std::vector<std::string> rest(ugiok + 1, out.end());
  CHECK(rest == std::vector<std::string>{"readyok 7", "bestmove 1", "bestmove 1"});
  REQUIRE(calls.size() == 2);
  // 3 sows its 4 seeds into 4..7; then 9 sows its 4 into 10, 11, 12, 1. No capture: 2 quiet plies.
  CHECK(calls[0].position == "5,4,0,5,5,5/5,4,0,5,5,5:0,0:1:2:2");
  CHECK(calls[0].limits.player == 1);
  CHECK(calls[0].limits.time_ms == std::vector<long>{1000, 2000});
  CHECK(calls[0].limits.inc_ms == std::vector<long>{10, 20});
  CHECK(calls[1].position == "4,4,7,4,4,4/0,1,2,1,2,1:7,7:1:0:0");
  CHECK(calls[1].limits.movetime == 50L);
  CHECK(calls[1].limits.depth == 3);
  CHECK(calls[1].limits.nodes == 99LL);
}

TEST_CASE("sdk: game parameters reach the rules library") {
  // With grandslam=illegal only hole 5 is legal here (hole 6 would take the whole row); by
  // default 6 is a grand slam that captures nothing, after which North's first hole is 7.
  auto out = run_script(
      "setgame awale grandslam=illegal\nposition fen 0,0,0,0,1,2/1,1,0,0,0,0:21,22:1:0:0\n"
      "go depth 1\nsetgame awale\nposition fen 0,0,0,0,1,2/1,1,0,0,0,0:21,22:1:0:0 moves 6\n"
      "go\n");
  CHECK(out == std::vector<std::string>{"bestmove 5", "bestmove 7"});
}

TEST_CASE("sdk: every failure gets an error reply of the right kind") {
  struct Case {
    const char* script;
    const char* reply_prefix;
  };
  const Case cases[] = {
      {"setgame kalah-9\n", "error unsupported-game kalah-9 "},
      {"setgame awale colour=red\n", "error unsupported-game awale "},
      {"setgame awale first=3\n", "error unsupported-game awale "},
      {"position startpos\n", "error illegal-position no game selected"},
      {"setgame awale\nposition fen 1,2,3\n", "error illegal-position "},
      {"setgame awale\nposition startpos moves 3 3\n", "error illegal-move 3 "},
      {"setgame awale\nposition startpos moves 7\n", "error illegal-move 7 "},
      {"setgame awale\ngo\n", "error illegal-position no valid position"},
      {"setgame awale\nposition startpos moves 9\ngo\n", "error illegal-position no valid"},
      {"setgame awale\nposition startpos\ngo player 2\n", "error illegal-position go player 2"},
      {"setgame awale\nposition fen 0,0,0,0,0,0/0,0,0,0,0,0:24,24:1:0:0\ngo\n",
       "error illegal-position the game is over"},
      {"go p1time abc\n", "error syntax "},
      {"go p1time -5\n", "error syntax "},
      {"position\n", "error syntax "},
      {"bestmove 5\n", "error unknown-command bestmove"},
      {"setoption name Hash value 3\n", "error unsupported-option Hash"},
      {"setoption name Seed value x\n", "error syntax Seed"},
  };
  for (const auto& c : cases) {
    INFO(c.script);
    auto out = run_script(c.script);
    REQUIRE(!out.empty());
    CHECK(out.back().rfind(c.reply_prefix, 0) == 0);
    for (const auto& line : out) CHECK(line.rfind("error ", 0) == 0);
  }
}

TEST_CASE("sdk: empty lines, stop and gameover when idle produce nothing") {
  auto out = run_script("\n   \n\t\r\nstop\ngameover draw rules\nisready 1\n");
  CHECK(out == std::vector<std::string>{"readyok 1"});
}

TEST_CASE("sdk: quit ends the loop, nothing after it is read") {
  auto out = run_script("isready 1\nquit\nisready 2\n");
  CHECK(out == std::vector<std::string>{"readyok 1"});
  auto eof = run_script("isready 3");  // end of input without a newline or quit
  CHECK(eof == std::vector<std::string>{"readyok 3"});
}

TEST_CASE("sdk: the Seed option and declared options reach the search") {
  std::vector<Call> a, b, c;
  sdk::EngineInfo info{"Test", "Tester"};
  info.options.push_back(
      {"Style", "combo", "Solid", std::nullopt, std::nullopt, {"Solid", "Risky"}});
  const std::string tail = "setgame awale\nposition startpos\ngo\n";
  run_script("setoption name Seed value 1\nsetoption name Style value Risky\n" + tail, &a, info);
  run_script("setoption name Seed value 1\n" + tail, &b, info);
  run_script("setoption name Seed value 2\n" + tail, &c, info);
  REQUIRE((a.size() == 1 && b.size() == 1 && c.size() == 1));
  CHECK(a[0].limits.options.at("Style") == "Risky");
  CHECK(b[0].limits.options.count("Style") == 0);
  CHECK(a[0].limits.seed == b[0].limits.seed);
  CHECK(a[0].limits.seed != c[0].limits.seed);
  auto handshake = run_script("ugi\n", nullptr, info);
  CHECK(std::find(handshake.begin(), handshake.end(),
                  "option name Style type combo default Solid var Solid var Risky") !=
        handshake.end());
}

TEST_CASE("sdk: a throwing or empty search is reported, and the engine resigns") {
  std::istringstream in("setgame awale\nposition startpos\ngo\n");
  std::ostringstream out;
  sdk::run(
      {"T", "T"},
      [](const State&, const Limits&) -> std::string { throw std::runtime_error("boom"); }, in,
      out);
  CHECK(lines_of(out.str()) ==
        std::vector<std::string>{"error internal search failed: boom",
                                 "error internal the search returned no move", "bestmove resign"});
}

TEST_CASE("sdk: setup phases are answered with a sample setup, without searching") {
  int checked = 0;
  for (const auto& entry : games::registry()) {
    auto game = games::make_game(entry.name);
    REQUIRE(game.ok());
    const State start = game->initial_state();
    if (start.setup_form().empty()) continue;
    std::vector<Call> calls;
    auto out = run_script("setgame " + entry.name + "\nposition startpos\ngo\n", &calls);
    INFO(entry.name);
    REQUIRE(out.size() == 1);
    REQUIRE(out[0].rfind("bestmove ", 0) == 0);
    State after = start;
    CHECK(after.apply(out[0].substr(9)).ok());
    CHECK(calls.empty());
    ++checked;
  }
  if (checked == 0) WARN("no registered game has a setup phase yet");
}

TEST_CASE("sdk: budget_ms follows movetime, clock share, increment and movestogo") {
  Limits lim;
  CHECK_FALSE(lim.budget_ms().has_value());
  lim.movetime = 200;
  CHECK(lim.budget_ms() == 185L);
  lim.movetime.reset();
  lim.player = 2;
  lim.time_ms = {100000, 50000};
  lim.inc_ms = {0, 1000};
  CHECK(lim.budget_ms() == 50000 / 25 + 750 - 15);
  lim.movestogo = 9;
  CHECK(lim.budget_ms() == 5000 + 750 - 15);
  lim.time_ms = {100000, 30};  // never more than a third of the clock
  CHECK(lim.budget_ms() == 1L);
}

TEST_CASE("sdk: seed_from_args") {
  char a0[] = "engine", a1[] = "--seed", a2[] = "42", a3[] = "--seed=7", a4[] = "--seed=x";
  char* argv1[] = {a0, a1, a2};
  char* argv2[] = {a0, a3};
  char* argv3[] = {a0, a4};
  CHECK(sdk::seed_from_args(3, argv1) == 42u);
  CHECK(sdk::seed_from_args(2, argv2) == 7u);
  CHECK(sdk::seed_from_args(2, argv3, 5) == 5u);
  CHECK(sdk::seed_from_args(1, argv1, 9) == 9u);
}

TEST_CASE("sdk: while searching, isready is answered at once and stop ends the search") {
  PipedSdk engine([](const State& s, const Limits& lim) -> std::string {
    lim.info("string searching");
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!lim.stopped() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return lim.stopped() ? s.legal_moves().back() : "timeout";
  });
  engine.say("setgame awale\nposition startpos\ngo infinite\n");
  CHECK(engine.next() == std::optional<std::string>("info string searching"));
  engine.say("isready 9\n");
  CHECK(engine.next() == std::optional<std::string>("readyok 9"));
  engine.say("stop\n");
  CHECK(engine.next() == std::optional<std::string>("bestmove 6"));
  // Quit during a search stops it too, and the engine exits.
  engine.say("position startpos\ngo infinite\n");
  CHECK(engine.next() == std::optional<std::string>("info string searching"));
  engine.say("quit\n");
  CHECK(engine.next() == std::optional<std::string>("bestmove 6"));
  engine.join();
}

namespace {

// The search of the test below: waits for stop (at most 5 s, so that a lost stop fails the test
// instead of hanging it) and answers "lost" when the stop never came.
std::string wait_for_stop(const State& s, const Limits& lim) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!lim.stopped() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return lim.stopped() ? s.legal_moves().front() : "lost";
}

}  // namespace

TEST_CASE("sdk: a stop or quit that arrives before the search starts still ends it") {
  // The whole script is read at once, so stop and quit are queued behind `go infinite` before
  // its search starts: they belong to that search.
  const std::string setup = "setgame awale\nposition startpos moves 3 9 2 8 1 7\n";
  for (const std::string end : {"stop\nisready 5\n", "quit\n", ""}) {
    INFO("after go infinite: '" << end << "'");
    std::istringstream in(setup + "go infinite\n" + end);
    std::ostringstream out;
    sdk::run({"T", "T"}, wait_for_stop, in, out);
    auto lines = lines_of(out.str());
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.front() == "bestmove 2");
    if (end.rfind("stop", 0) == 0)
      CHECK(lines == std::vector<std::string>{"bestmove 2", "readyok 5"});
  }
  // A stop queued behind a later go is that go's, not the running search's.
  std::istringstream in(setup + "go movetime 20\nposition startpos\ngo infinite\nstop\n");
  std::ostringstream out;
  sdk::run(
      {"T", "T"},
      [](const State& s, const Limits& lim) -> std::string {
        if (lim.movetime) return lim.stopped() ? "early" : s.legal_moves().back();
        return wait_for_stop(s, lim);
      },
      in, out);
  CHECK(lines_of(out.str()) == std::vector<std::string>{"bestmove 6", "bestmove 1"});
}

TEST_CASE("sdk: an isready after stop is answered after the stopped search's bestmove") {
  // The search takes 50 ms to wind down after the stop; the isready that follows the stop must
  // not overtake the bestmove (CI once saw readyok first when the stop came during the search).
  PipedSdk engine([](const State& s, const Limits& lim) -> std::string {
    lim.info("string searching");
    const std::string move = wait_for_stop(s, lim);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return move;
  });
  engine.say("setgame awale\nposition startpos\ngo infinite\n");
  CHECK(engine.next() == std::optional<std::string>("info string searching"));
  engine.say("stop\nisready 5\n");
  CHECK(engine.next() == std::optional<std::string>("bestmove 1"));
  CHECK(engine.next() == std::optional<std::string>("readyok 5"));
  engine.say("quit\n");
  engine.join();
}

TEST_CASE("sdk: go infinite is answered after stop, however soon the search returns") {
  // PROTOCOL.md section 6: a search that returns at once still has its bestmove held until stop;
  // a stop while idle gets nothing. Setups (answered without a search) are held the same.
  PipedSdk engine(
      [](const State& s, const Limits&) -> std::string { return s.legal_moves().back(); });
  engine.say("setgame awale\nposition startpos\ngo infinite\n");
  CHECK(engine.next(300) == std::nullopt);  // held
  engine.say("stop\n");
  CHECK(engine.next() == std::optional<std::string>("bestmove 6"));
  engine.say("stop\nisready 4\n");  // idle: nothing but the readyok
  CHECK(engine.next() == std::optional<std::string>("readyok 4"));
  engine.say("setgame lontu-holo\nposition startpos\ngo infinite\n");
  CHECK(engine.next(300) == std::nullopt);
  engine.say("stop\n");
  auto setup = engine.next();
  REQUIRE(setup);
  CHECK(setup->rfind("bestmove =", 0) == 0);
  engine.say("quit\n");
  engine.join();
}
