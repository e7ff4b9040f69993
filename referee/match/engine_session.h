// One engine seen through the protocol (design.md §3): the only place that speaks it on the
// referee side. Handshake, game preparation, move requests with absolute deadlines, and the
// classification of every way an engine can fail. Built on engines::Process (POSIX) and
// protocol/messages.h (pure parsing).
//
// Decisions:
// - Every phase has its output budget (engines::ReadBudget), set when the phase begins: the
//   handshake, each wait for readyok, what an engine writes between two requests and at quit get
//   max_lines/bytes_per_phase, a move max_lines/bytes_per_move. A flood ends the phase as a
//   protocol violation (nostart during the handshake) as soon as the budget is spent.
// - Requests stay in step: before position/go, and before a new game, what the engine wrote
//   since its last answer is read without waiting and logged; a bestmove there is a protocol
//   violation ("second bestmove to one go"), never the answer to the next go.
// - A protocol 1 engine's readyok must carry the token of the isready it answers: a bare readyok
//   fails at once; an older token (a stale reply) is skipped.
// - The lines of each game, stderr included as it arrives, go to a capped Transcript, and with
//   --debug to a DebugLog as they happen; the last stderr lines of the game are also kept apart,
//   for the reason of a crash.
// - Failure details are written for the engine's author: a crash names the exit and the last
//   non-empty stderr line of this game (a Python traceback's last line is the exception); a time
//   loss or stall with nothing at all read from stdout since the request says so (an unflushed
//   stdout looks exactly like that).
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
#include "match/debug_log.h"
#include "match/time_control.h"
#include "match/transcript.h"
#include "protocol/messages.h"
#include "storage/store.h"

namespace referee::match {

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
  std::size_t max_lines_per_move = 100000;    // stdout lines from go to bestmove
  std::size_t max_bytes_per_move = 8u << 20;  // stdout and stderr bytes from go to bestmove
  // Every other phase: the handshake, a wait for readyok, between requests, quit.
  std::size_t max_lines_per_phase = 10000;
  std::size_t max_bytes_per_phase = 1u << 20;
  bool protocol0 = false;                      // plain UGI: isready without token
  std::map<std::string, std::string> options;  // setoption name value, after the handshake
  bool keep_log = true;       // keep the lines exchanged (storage's engine_transcripts table)
  TranscriptCaps log_caps;    // how much of the engine's own output a game keeps
  std::string name;           // the engine in messages and --debug; empty: its command's base name
  DebugLog* debug = nullptr;  // --debug: every line exchanged, as it happens
};

struct MoveReply {
  Fault fault = Fault::None;
  std::string move;    // canonical text as sent (raw text when illegal)
  Millis elapsed{0};   // from the write of `go` to the read of `bestmove`
  std::string info;    // the last info line, verbatim
  std::string detail;  // what went wrong, for the game's reason
  // The score of the last info line that carried one (it need not be the last info line):
  // what adjudication reads (match/adjudication.h).
  std::optional<long> score_cp;
  std::optional<long> score_mate;
};

// How far a failed start got, for callers that advise (check-engine): values, not the message.
struct StartReport {
  bool spawned = false;       // the process ran: the handshake failed, not the command
  bool nothing_read = false;  // not one byte came from its stdout
};

class EngineSession {
 public:
  // Spawns the engine and completes the handshake. A failure is Fault::NoStart with a detail;
  // `report`, when given, says how far it got.
  static Expected<EngineSession> start(const engines::SpawnSpec& spec,
                                       const SessionSettings& settings,
                                       StartReport* report = nullptr);

  const EngineIdentity& identity() const { return identity_; }
  // The engine's name for people: SessionSettings::name, else its command's base name.
  const std::string& name() const;
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
  // The same, then `stop` when `stop_after` has passed without a bestmove (for `go infinite`):
  // the bestmove is then due within `budget` of the stop.
  MoveReply request_and_stop(const std::string& start_position,
                             const std::vector<std::string>& moves, const protocol::Go& go,
                             Millis stop_after, Millis budget);
  void send(const std::string& line);  // informational lines (gameover); failures ignored
  void quit();                         // quit, then grace, SIGTERM, SIGKILL
  // End of input without quit: stdin closed, then the same grace, SIGTERM, SIGKILL.
  void close_input();
  bool alive();
  // Request/reply exchanges so far (handshake, isready, go): the benchmark's round trips.
  long round_trips() const { return round_trips_; }
  std::string exit_description();
  // Whether the engine has exited by itself with a status (not killed by a signal).
  bool exited_normally() const;
  // Whether not one byte came from its stdout yet (an engine that does not flush).
  bool nothing_read() const;
  std::string stderr_tail();

  // Lines exchanged since the last take_log() ('>' to the engine, '<' from it, '!' its stderr, as
  // they arrived), stamped relative to `since` (lines from before it at 0), capped per game.
  void start_log(std::chrono::steady_clock::time_point since, int seat);
  std::vector<storage::LogLine> take_log();
  // The last non-empty lines of stderr since the last take_log() (at most kRecentStderrLines,
  // oldest first), each cut to kRecentStderrBytes.
  std::vector<std::string> recent_stderr() const;
  static constexpr std::size_t kRecentStderrLines = 12;
  static constexpr std::size_t kRecentStderrBytes = 300;

  EngineSession(EngineSession&&) noexcept;
  EngineSession& operator=(EngineSession&&) noexcept;
  ~EngineSession();

 private:
  // Whether the last go was answered: what a bestmove outside a request means.
  enum class LastGo { None, Answered, Unanswered };

  EngineSession(engines::Process process, SessionSettings settings);
  MoveReply request_impl(const std::string& start_position, const std::vector<std::string>& moves,
                         const protocol::Go& go, Millis budget, const std::atomic<bool>* stop,
                         std::optional<Millis> stop_after);
  Status write(const std::vector<std::string>& lines, Millis timeout);
  // The clock is read once per request: the lines are logged at `now`, due by `deadline`.
  Status write(const std::vector<std::string>& lines, std::chrono::steady_clock::time_point now,
               std::chrono::steady_clock::time_point deadline);
  Fault await_ready(Millis timeout, std::string& detail);
  // Reads what the engine wrote since its last answer, without waiting.
  Fault between_requests(std::string& detail);
  std::string stray_bestmove(const std::string& line) const;
  void log(char direction, const std::string& text);
  void log(char direction, const std::string& text, std::chrono::steady_clock::time_point at);
  Fault read_failure(engines::ReadStatus status, std::string& detail);
  Fault write_failure(const Status& status, std::string& detail);
  // "(exit 1): <the stderr line naming the error>" (error_line.h), after the engine's end was
  // waited for (briefly).
  std::string crash_detail(const std::string& how);
  // " (nothing at all was read from its stdout since ...)" when nothing was, else "".
  std::string silence_hint(const char* since) const;
  engines::ReadBudget phase_budget() const;
  std::string flood_detail(const std::string& when, std::size_t lines, std::size_t bytes) const;

  struct Tap;                 // where every line goes: transcript, --debug, recent stderr
  std::unique_ptr<Tap> tap_;  // before process_: the stderr sink writes into it
  std::unique_ptr<engines::Process> process_;
  SessionSettings settings_;
  EngineIdentity identity_;
  std::string current_game_;
  long ready_token_ = 0;
  LastGo last_go_ = LastGo::None;
  std::string last_bestmove_;
  long round_trips_ = 0;
  std::vector<std::string> request_lines_;  // position and go, reused by every request
};

}  // namespace referee::match
