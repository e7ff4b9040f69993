// One engine seen through the protocol (design.md §3): the only place that speaks it on the
// referee side. Handshake, game preparation, move requests with absolute deadlines, and the
// classification of every way an engine can fail. Built on engines::Process (POSIX) and
// protocol/messages.h (pure parsing).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/process.h"
#include "games/game.h"
#include "match/time_control.h"
#include "protocol/messages.h"
#include "storage/store.h"

namespace referee {

struct EngineIdentity {
  std::string name;
  std::string author;
  int protocol = 0;  // 0 = plain UGI
  std::vector<protocol::GameDecl> games;
  std::vector<protocol::OptionDecl> options;
};

// How a request to an engine ended. Each failure is a distinct termination (design.md §3).
enum class Fault {
  None,
  NoStart,   // no ugiok in time: the engine failed to start (games not scored)
  Timeout,   // no bestmove by clock expiry + margin
  Crash,     // exit, EOF on stdout, broken pipe
  Stall,     // no readyok in time
  Protocol,  // line too long, control bytes, output flood, error reply
  Illegal,   // unparseable or illegal move (raw text kept)
  Resign,
  Unsupported,  // error unsupported-game: the engine is excluded from that game (not scored)
};
std::string fault_name(Fault fault);  // "time", "crash", ...

struct SessionSettings {
  Millis start_timeout{10000};    // ugi → ugiok
  Millis ready_timeout{5000};     // isready → readyok
  Millis setgame_timeout{30000};  // isready after setgame
  Millis quit_grace{1000};
  Millis term_grace{500};
  std::size_t max_lines_per_move = 100000;
  std::size_t max_bytes_per_move = 8u << 20;
  bool protocol0 = false;                      // plain UGI: isready without token
  std::map<std::string, std::string> options;  // setoption name value, after the handshake
  bool keep_log = true;  // keep every line exchanged for the engine_logs table
};

struct MoveReply {
  Fault fault = Fault::None;
  std::string move;    // canonical text as sent (raw text when illegal)
  Millis elapsed{0};   // from the write of `go` to the read of `bestmove`
  std::string info;    // the last info line, verbatim
  std::string detail;  // what went wrong, for the game's reason
};

class EngineSession {
 public:
  // Spawns the engine and completes the handshake. A failure is Fault::NoStart with a detail.
  static Expected<EngineSession> start(const engines::SpawnSpec& spec,
                                       const SessionSettings& settings);

  const EngineIdentity& identity() const { return identity_; }
  // Whether the engine declared this game (protocol 0 engines are trusted to play the game they
  // are configured for).
  bool declares(const std::string& game_name) const;

  // Before each game: setgame (when the game changed), uginewgame, isready → readyok.
  Fault prepare(const games::Game& game, std::string& detail);
  // Sends `position` and `go` in one write and waits for bestmove until `budget` has passed since
  // the write. `stop` (optional) is polled every 100 ms: the reply is then Fault::None with an
  // empty move.
  MoveReply request(const std::string& start_position, const std::vector<std::string>& moves,
                    const protocol::Go& go, Millis budget, const std::atomic<bool>* stop);
  void send(const std::string& line);  // informational lines (gameover); failures ignored
  void quit();                         // quit, then grace, SIGTERM, SIGKILL
  bool alive();
  // Request/reply exchanges so far (handshake, isready, go): the benchmark's round trips.
  long round_trips() const { return round_trips_; }
  std::string exit_description();
  std::string stderr_tail();

  // Lines exchanged since the last call ('>' to the engine, '<' from it, '!' stderr), stamped
  // relative to `since`.
  void start_log(std::chrono::steady_clock::time_point since, int seat);
  std::vector<storage::LogLine> take_log();

  EngineSession(EngineSession&&) noexcept;
  EngineSession& operator=(EngineSession&&) noexcept;
  ~EngineSession();

 private:
  EngineSession(engines::Process process, SessionSettings settings);
  Status write(const std::vector<std::string>& lines, Millis timeout);
  Fault await_ready(Millis timeout, std::string& detail);
  void log(char direction, const std::string& text);
  Fault read_failure(engines::ReadStatus status, std::string& detail);

  std::unique_ptr<engines::Process> process_;
  SessionSettings settings_;
  EngineIdentity identity_;
  std::string current_game_;
  long ready_token_ = 0;
  std::vector<storage::LogLine> log_;
  std::chrono::steady_clock::time_point log_since_ = std::chrono::steady_clock::now();
  int seat_ = 0;
  long round_trips_ = 0;
};

}  // namespace referee
