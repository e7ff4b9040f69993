// mock_engine: a scriptable test engine. It speaks the protocol (design.md §3) by hand, without the
// SDK, and plays the first legal move (or the game's sample setup move) of the position it was
// given. Command-line flags make it misbehave in one precise way each, so tests can drive every
// failure path of the process layer and the referee:
//
//   --no-handshake         never says ugiok (ugi gets no answer at all)
//   --exit-on-start        exits at once with status 1
//   --illegal              bestmove of a move that is not legal here (or "illegal")
//   --garbage              "bestmove" without a move (does not parse)
//   --crash-on-go[=N]      exits with status 3 on the Nth go (default 1)
//   --stall-after-go[=N]   from the Nth go (default 1) answers nothing ever again, quit included
//                          (it still exits at end of input)
//   --slow-ms=N            sleeps N ms before each bestmove
//   --spam-info=N          N info lines before each bestmove
//   --long-line            a 100 KiB info line before each bestmove
//   --no-readyok           never answers isready
//   --ignore-quit          ignores quit, end of input, SIGTERM, SIGINT and SIGHUP (must be killed)
//   --resign-on-go=N       bestmove resign on the Nth go
//   --always-resign        bestmove resign on every go (a much weaker engine, for the SPRT)
//   --resign-at-ply=N      bestmove resign when the position has N plies or more: in every game
//                          alike, so that of two such engines the one with the larger N wins
//                          every game (by at least 2: each moves every other ply) - a field of
//                          known strengths, for knockouts and Swiss events
//   --stderr=N             N lines on stderr per go
//   --fork-child           forks a sleeping grandchild at start; says "info string child <pid>"
//   --alloc-mb=N           allocates N MiB on each go (to trip memory limits)
//   --log=FILE             appends every line received to FILE
//   --flood=WHEN[,stderr][,raw]
//                          on the command WHEN (ugi: before ugiok; isready: instead of readyok;
//                          gameover: between games; go: instead of bestmove; quit: instead of
//                          exiting) writes without end: lines of "flood", or with `raw` bytes
//                          without a newline; on stdout, or on stderr with `stderr`
//   --fork-exit-on-go[=N]  on the Nth go (default 1): starts `sleep 300`, which keeps stdout and
//                          stderr open, and exits with status 5
//   --setsid-child         at start, forks a grandchild that leaves the process group (fork,
//                          setsid, fork), ignores every signal it can, keeps stdin/stdout/stderr
//                          open and sleeps for ever
//   --pid-file=FILE        appends its pid to FILE, and the --setsid-child grandchild's
//   --double-bestmove      answers every go with two bestmove lines (in one write)
//   --bare-readyok         answers isready with a bare readyok (no token)
//   --wrong-turn-order     with 3 or more players (oware), answers as if turns went 1, k, k-1,
//                          ..., 2, 1 (a move of the wrong band where that is not the player to
//                          move): an engine with its own idea of the turn order
//   --games=DECL[;DECL]    declares these game lines ("oware players=2") instead of every game
//   --refuse-setgame       answers every setgame with "error unsupported-game"
//   --ignore-eof           at end of input, sleeps for ever (quit still ends it)
//   --ignore-stop          go infinite is never answered, stop or not
//   --instant-infinite     go infinite is answered at once, as any go (before any stop)
//   --ignore-params        plays each game with its default parameters, whatever setgame says
//   --scores=S1,S2,...     its score on the 1st, 2nd, ... go, the last one for every later go:
//                          N is `info depth 1 score cp N`, mN is `score mate N`, `-` no score
//                          line; each scored line is followed by `info nodes 10` (no score), so
//                          the scored line is not the move's last info line
//
// `go infinite` is answered at `stop`, as the protocol asks.
// Every answer is flushed at once. Unknown commands get "error unknown <line>".
#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "games/game.h"
#include "games/registry.h"

using referee::games::Game;
using referee::games::State;

namespace {

struct Flags {
  bool no_handshake = false, exit_on_start = false, illegal = false, garbage = false;
  int crash_on_go = 0, stall_after_go = 0, resign_on_go = 0, fork_exit_on_go = 0;
  int resign_at_ply = 0;
  int slow_ms = 0, spam_info = 0, stderr_lines = 0, alloc_mb = 0;
  bool long_line = false, no_readyok = false, ignore_quit = false, fork_child = false;
  bool setsid_child = false, double_bestmove = false, bare_readyok = false;
  bool wrong_turn_order = false, refuse_setgame = false, ignore_eof = false, ignore_stop = false;
  bool always_resign = false, instant_infinite = false, ignore_params = false;
  std::vector<std::string> games;   // declared game lines; empty: every game
  std::vector<std::string> scores;  // --scores, one per go (the last one repeated)
  std::string log, pid_file;
  std::string flood_on;  // the command that starts a flood; empty: none
  bool flood_stderr = false, flood_raw = false;
};

// The flags, as tables: a switch sets a bool; a numeric flag takes "=N" or its default.
struct Switch {
  const char* name;
  bool Flags::*field;
};
struct Numeric {
  const char* name;
  int Flags::*field;
  int fallback;
};
constexpr Switch kSwitches[] = {
    {"--no-handshake", &Flags::no_handshake},
    {"--exit-on-start", &Flags::exit_on_start},
    {"--illegal", &Flags::illegal},
    {"--garbage", &Flags::garbage},
    {"--long-line", &Flags::long_line},
    {"--no-readyok", &Flags::no_readyok},
    {"--ignore-quit", &Flags::ignore_quit},
    {"--fork-child", &Flags::fork_child},
    {"--setsid-child", &Flags::setsid_child},
    {"--double-bestmove", &Flags::double_bestmove},
    {"--bare-readyok", &Flags::bare_readyok},
    {"--wrong-turn-order", &Flags::wrong_turn_order},
    {"--refuse-setgame", &Flags::refuse_setgame},
    {"--ignore-eof", &Flags::ignore_eof},
    {"--ignore-stop", &Flags::ignore_stop},
    {"--always-resign", &Flags::always_resign},
    {"--instant-infinite", &Flags::instant_infinite},
    {"--ignore-params", &Flags::ignore_params},
};
constexpr Numeric kNumerics[] = {
    {"--crash-on-go", &Flags::crash_on_go, 1},
    {"--stall-after-go", &Flags::stall_after_go, 1},
    {"--resign-on-go", &Flags::resign_on_go, 1},
    {"--slow-ms", &Flags::slow_ms, 0},
    {"--resign-at-ply", &Flags::resign_at_ply, 0},
    {"--spam-info", &Flags::spam_info, 0},
    {"--stderr", &Flags::stderr_lines, 0},
    {"--alloc-mb", &Flags::alloc_mb, 0},
    {"--fork-exit-on-go", &Flags::fork_exit_on_go, 1},
};

// --flood=WHEN[,stderr][,raw]
bool parse_flood(const std::string& value, Flags& f) {
  std::istringstream in(value);
  std::string part;
  std::getline(in, f.flood_on, ',');
  if (f.flood_on != "ugi" && f.flood_on != "isready" && f.flood_on != "gameover" &&
      f.flood_on != "go" && f.flood_on != "quit")
    return false;
  while (std::getline(in, part, ',')) {
    if (part == "stderr")
      f.flood_stderr = true;
    else if (part == "raw")
      f.flood_raw = true;
    else
      return false;
  }
  return true;
}

bool parse_flag(const std::string& arg, Flags& f) {
  if (arg.rfind("--log=", 0) == 0) {
    f.log = arg.substr(6);
    return true;
  }
  if (arg.rfind("--pid-file=", 0) == 0) {
    f.pid_file = arg.substr(11);
    return true;
  }
  if (arg.rfind("--flood=", 0) == 0) return parse_flood(arg.substr(8), f);
  if (arg.rfind("--scores=", 0) == 0) {
    std::istringstream in(arg.substr(9));
    for (std::string score; std::getline(in, score, ',');) f.scores.push_back(score);
    return !f.scores.empty();
  }
  if (arg.rfind("--games=", 0) == 0) {
    std::istringstream in(arg.substr(8));
    for (std::string decl; std::getline(in, decl, ';');) f.games.push_back(decl);
    return true;
  }
  for (const auto& s : kSwitches) {
    if (arg == s.name) {
      f.*s.field = true;
      return true;
    }
  }
  for (const auto& n : kNumerics) {
    std::string name = n.name;
    if (arg == name) {
      f.*n.field = n.fallback;
      return true;
    }
    if (arg.rfind(name + "=", 0) == 0) {
      f.*n.field = std::atoi(arg.c_str() + name.size() + 1);
      return true;
    }
  }
  return false;
}

Flags parse_flags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    if (!parse_flag(argv[i], f)) {
      std::fprintf(stderr, "mock_engine: unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return f;
}

void say(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

[[noreturn]] void sleep_forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

void append_pid(const std::string& file, pid_t pid) {
  if (file.empty()) return;
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::string line = std::to_string(pid) + "\n";
  (void)!::write(fd, line.data(), line.size());
  ::close(fd);
}

// Writes for ever, in 64 KiB writes; ends only when killed (or the pipe breaks).
[[noreturn]] void flood(bool to_stderr, bool raw) {
  static char chunk[65536];
  const char* word = "flood flood flood flood flood flood flood flood flood flood flood\n";
  for (std::size_t i = 0; i < sizeof chunk; ++i) chunk[i] = raw ? 'x' : word[i % std::strlen(word)];
  const int fd = to_stderr ? 2 : 1;
  for (;;) {
    if (::write(fd, chunk, sizeof chunk) < 0 && errno != EINTR) ::_exit(0);
  }
}

// fork, setsid, fork: the grandchild is in no group of the engine's and has no parent alive.
void start_setsid_grandchild(const std::string& pid_file) {
  pid_t child = ::fork();
  if (child != 0) {
    if (child > 0) ::waitpid(child, nullptr, 0);
    return;
  }
  ::setsid();
  if (::fork() != 0) ::_exit(0);
  for (int sig = 1; sig < 32; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_IGN);
  append_pid(pid_file, ::getpid());
  for (;;) ::pause();
}

// A move that parses in this game but is not legal here: a legal move of a later position.
std::string illegal_move(const State& state) {
  auto legal = state.legal_moves();
  for (const auto& m : legal) {
    State next = state;
    if (!next.apply(m).ok()) continue;
    for (const auto& x : next.legal_moves())
      if (std::find(legal.begin(), legal.end(), x) == legal.end()) return x;
  }
  return "illegal";
}

class Mock {
 public:
  explicit Mock(Flags flags) : f_(std::move(flags)) {}

  // Handles one line; false when the engine should exit.
  bool handle(const std::string& line) {
    auto w = words(line);
    if (w.empty()) return true;
    const std::string& cmd = w[0];
    if (cmd == f_.flood_on) flood(f_.flood_stderr, f_.flood_raw);
    if (cmd == "ugi" || cmd == "uci") {
      if (f_.no_handshake) return true;
      say("id name mock");
      say("id author test");
      say("id protocol 1");
      if (f_.games.empty())
        for (const auto& entry : referee::games::registry()) say("game " + entry.name);
      for (const auto& decl : f_.games) say("game " + decl);
      say("ugiok");
    } else if (cmd == "isready") {
      if (f_.no_readyok) return true;
      say(w.size() > 1 && !f_.bare_readyok ? "readyok " + w[1] : "readyok");
    } else if (cmd == "setgame") {
      if (f_.refuse_setgame)
        say("error unsupported-game " + (w.size() > 1 ? w[1] : std::string("?")));
      else
        set_game(w);
    } else if (cmd == "stop") {
      if (infinite_ && !f_.ignore_stop) answer();
      infinite_ = false;
    } else if (cmd == "uginewgame" || cmd == "ucinewgame" || cmd == "setoption" ||
               cmd == "gameover" || cmd == "protocol") {
    } else if (cmd == "position") {
      set_position(w);
    } else if (cmd == "go") {
      if (!f_.instant_infinite && std::find(w.begin(), w.end(), "infinite") != w.end()) {
        ++gos_;
        infinite_ = true;  // answered at stop
        return true;
      }
      go();
    } else if (cmd == "quit") {
      return f_.ignore_quit;
    } else {
      say("error unknown " + line);
    }
    return true;
  }

  bool stalled() const { return stalled_; }

 private:
  void set_game(const std::vector<std::string>& w) {
    if (w.size() < 2) return say("error setgame missing game name");
    std::string spec = w[1];
    if (!f_.ignore_params)
      for (std::size_t i = 2; i < w.size(); ++i) spec += (i == 2 ? ":" : ",") + w[i];
    auto game = referee::games::make_game(spec);
    if (!game) return say("error setgame " + game.error());
    game_ = *game;
    state_ = game_->initial_state();
  }

  void set_position(const std::vector<std::string>& w) {
    if (!game_) {
      auto game = referee::games::make_game("awale");
      if (!game) return say("error position " + game.error());
      game_ = *game;
    }
    std::size_t i = 1;
    std::string fen;
    if (i < w.size() && w[i] == "startpos") {
      ++i;
    } else if (i + 1 < w.size() && w[i] == "fen") {
      fen = w[i + 1];
      i += 2;
    } else {
      return say("error position expected startpos or fen");
    }
    std::vector<std::string> moves;
    if (i < w.size() && w[i] == "moves")
      moves.assign(w.begin() + static_cast<long>(i) + 1, w.end());
    auto state = referee::games::state_after(*game_, fen, moves);
    if (!state) return say("error position " + state.error());
    state_ = *state;
  }

  void go() {
    ++gos_;
    if (f_.crash_on_go == gos_) std::exit(3);
    if (f_.fork_exit_on_go == gos_) {
      if (::fork() == 0) {
        ::execlp("sleep", "sleep", "300", static_cast<char*>(nullptr));
        ::_exit(127);
      }
      std::exit(5);
    }
    if (f_.stall_after_go && gos_ >= f_.stall_after_go) {
      stalled_ = true;
      return;
    }
    for (int i = 0; i < f_.stderr_lines; ++i) std::fprintf(stderr, "mock stderr %d.%d\n", gos_, i);
    std::fflush(stderr);
    if (f_.alloc_mb > 0) {
      std::size_t bytes = static_cast<std::size_t>(f_.alloc_mb) << 20;
      char* block = new char[bytes];  // throws std::bad_alloc past RLIMIT_AS: the engine dies
      volatile char* touch = block;   // RLIMIT_AS counts reserved memory: no need to fill it
      touch[0] = 1;
      touch[bytes - 1] = 1;
      say("info string allocated " + std::to_string(f_.alloc_mb) + " MiB");
      delete[] block;
    }
    for (int i = 0; i < f_.spam_info; ++i) say("info depth " + std::to_string(i + 1) + " nodes 1");
    if (f_.long_line) say("info string " + std::string(100 * 1024, 'x'));
    if (!f_.scores.empty()) {
      const std::string& s = f_.scores[std::min<std::size_t>(gos_, f_.scores.size()) - 1];
      if (s != "-") {
        say(s[0] == 'm' ? "info depth 1 score mate " + s.substr(1) : "info depth 1 score cp " + s);
        say("info nodes 10");
      }
    }
    if (f_.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(f_.slow_ms));
    answer();
  }

  void answer() {
    std::string move = choose();
    std::string answer = move.empty() ? "bestmove" : "bestmove " + move;
    say(f_.double_bestmove ? answer + "\n" + answer : answer);
  }

  std::string choose() {
    if (f_.resign_on_go == gos_ || f_.always_resign) return "resign";
    if (f_.garbage) return "";  // "bestmove" alone: no move
    if (!state_) {
      auto game = referee::games::make_game("awale");
      if (!game) return "resign";
      game_ = *game;
      state_ = game_->initial_state();
    }
    if (f_.resign_at_ply > 0 && state_->ply() >= f_.resign_at_ply) return "resign";
    if (f_.illegal) return illegal_move(*state_);
    if (!state_->setup_form().empty()) return state_->sample_setup(0);
    auto legal = (f_.wrong_turn_order ? wrong_player_state() : *state_).legal_moves();
    return legal.empty() ? "resign" : legal.front();
  }

  // The position with the next player to move instead (position strings whose third field is
  // the player to move, as oware's); the position itself when that cannot be done.
  State wrong_player_state() const {
    const int players = game_->num_players();
    if (players < 3) return *state_;
    std::vector<std::string> fields;
    std::istringstream in(state_->to_string());
    for (std::string field; std::getline(in, field, ':');) fields.push_back(field);
    if (fields.size() < 3 || fields[2] != std::to_string(state_->current_player())) return *state_;
    // Turns in the reverse order, 1, k, k-1, ..., from the ply count (the last field).
    const int ply = std::atoi(fields.back().c_str());
    fields[2] = std::to_string(((-ply) % players + players) % players + 1);
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i) text += (i ? ":" : "") + fields[i];
    auto other = game_->parse_state(text);
    return other ? *other : *state_;
  }

  Flags f_;
  bool infinite_ = false;
  std::optional<Game> game_;
  std::optional<State> state_;
  int gos_ = 0;
  bool stalled_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags = parse_flags(argc, argv);
  append_pid(flags.pid_file, ::getpid());
  if (flags.exit_on_start) return 1;
  if (flags.ignore_quit)
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, SIG_IGN);
  if (flags.setsid_child) start_setsid_grandchild(flags.pid_file);
  if (flags.fork_child) {
    pid_t child = ::fork();
    if (child == 0) {
      ::execlp("sleep", "sleep", "1000", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    say("info string child " + std::to_string(child));
  }
  std::FILE* log = flags.log.empty() ? nullptr : std::fopen(flags.log.c_str(), "a");
  Mock mock(flags);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (log) {
      std::fprintf(log, "%s\n", line.c_str());
      std::fflush(log);
    }
    if (mock.stalled()) continue;  // reads on, answers nothing
    if (!mock.handle(line)) return 0;
  }
  if (flags.ignore_quit || flags.ignore_eof) sleep_forever();
  return 0;
}
