// An engine process: the only place in referee that knows POSIX (design.md §4). Engines are
// untrusted: nothing an engine does may block, grow or crash the referee, and no process of an
// engine may outlive it.
//
// Each engine runs under a keeper: a small process the referee forks (no exec) that forks and
// execs the engine in its own process group, with stdin/stdout/stderr on pipes straight to the
// referee (no copy per ply). The keeper is a child subreaper: descendants that escape the group
// (setsid, double fork) are re-parented to it. It reports the engine's exit at once on a status
// pipe the referee polls beside stdout and stderr, then kills and reaps the whole tree; it does
// the same when its control pipe from the referee reaches end of file, which happens when the
// referee asks or dies, even by SIGKILL. The engine also gets PR_SET_PDEATHSIG against the keeper.
//
// Every read is bounded: a stdout line by max_line_bytes, a phase (handshake, one move, a wait for
// readyok, ...) by a ReadBudget of lines and bytes that the caller sets when the phase begins, and
// what is kept of stderr by fixed-size buffers.
//
// A SpawnSpec with a sandbox runs the engine under bubblewrap, as an unprivileged user, with
// nothing of the host but what sandbox.h lists; nothing else changes for the caller, except:
// pid() is bwrap's; a signal that ends the engine is reported as bwrap's exit 128 + N (bwrap
// cannot pass the signal on); SIGTERM ends bwrap, which takes the engine with it at once (SIGKILL).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "engines/sandbox.h"

namespace referee::engines {

using Clock = std::chrono::steady_clock;

// Optional resource limits for the engine; 0 = none. Set in the engine's process right before
// exec, so they hold from its first instruction. RLIMIT_NPROC counts every process of the user
// and is not enforced for root; a sandboxed engine's user is the sandbox's, shared by every
// sandboxed engine, and bwrap takes 3 processes of it.
struct ResourceLimits {
  long memory_mb = 0;    // RLIMIT_AS; 0 for a sandboxed engine: kSandboxMemoryMb (sandbox.h), and
                         // a sandboxed engine's is its memory cgroup's limit where there is one
  long cpu_seconds = 0;  // RLIMIT_CPU
  long processes = 0;    // RLIMIT_NPROC
};

// How much an engine may write in one phase of the protocol: stdout lines, and stdout and stderr
// bytes together. Past it, reads return Flood until the next set_budget().
struct ReadBudget {
  std::size_t lines = 100000;
  std::size_t bytes = 8u << 20;
};

struct SpawnSpec {
  std::string command;  // a path (relative ones from working_dir), or a name looked up in PATH
  std::vector<std::string> args;           // not including argv[0]
  std::string working_dir;                 // empty = the referee's
  std::map<std::string, std::string> env;  // added to the referee's environment
  // Set: the engine runs in this sandbox (sandbox.h). `command` is then found inside it (a path
  // relative to /engine, or a name in its PATH), working_dir is not used (it runs in /engine),
  // and `env` is added to the sandbox's fixed environment, not to the referee's.
  std::optional<Sandbox> sandbox;
  ResourceLimits limits;
  std::size_t max_line_bytes = 65536;    // longer stdout lines are an error (TooLong)
  std::size_t stderr_tail_bytes = 4096;  // how much of stderr to keep for stderr_tail()
  ReadBudget budget;                     // until the first set_budget()
};

enum class ReadStatus {
  Line,     // `line` holds one complete stdout line, '\n' and a trailing '\r' removed
  Timeout,  // the deadline passed first (poll_line: nothing is there now)
  Eof,      // stdout closed, or the engine exited and what it wrote has been read
  TooLong,  // a line exceeded max_line_bytes (the bytes are discarded)
  BadByte,  // a line held a NUL or another control byte (other than tab)
  Flood,    // the phase's ReadBudget is spent
};

struct ReadResult {
  ReadStatus status;
  std::string line;
};

// Receives each stderr line as it is read: at most kStderrLineBytes (longer lines come in
// pieces), without its '\n', control bytes escaped as \xNN.
using StderrSink = std::function<void(std::string_view line)>;
inline constexpr std::size_t kStderrLineBytes = 4096;

// Why a write to the engine failed (write_line, write_lines): the value a caller switches on.
enum class WriteFault {
  InputClosed,  // its input was closed already (shut_down)
  BrokenPipe,   // EPIPE: the engine closed its input or exited
  TimedOut,     // the pipe stayed full until the deadline: the engine is not reading its input
  System,       // another error of write(): os_error
};
struct WriteFailure {
  WriteFault fault = WriteFault::System;
  int os_error = 0;  // the errno, with System
};
// "broken pipe (the engine closed its input or exited)", "timed out (the engine is not reading
// its input)", "its input is closed", or the OS error's text: what the write's Error ends with.
std::string describe(const WriteFailure& failure);

// The OS's words for a signal ("Segmentation fault"), "unknown" for a number it does not know.
std::string signal_description(int signal);

// The kind of a spawn failure, from the OS error behind it: NotFound for a program or working
// directory that is not there (ENOENT, ENOTDIR), Unavailable for a resource that is short now
// (EMFILE, ENFILE, EAGAIN, ENOMEM: try again later), Invalid otherwise (not executable, a
// directory, a bad interpreter, a limit refused: fix the engine's configuration).
ErrorKind spawn_error_kind(int os_error);

class Process {
 public:
  // Starts the engine; returns once it has exec'd (a sandboxed one: once bwrap has exec'd and
  // created its namespaces). Errors (missing binary, not executable, bad working dir) name the
  // culprit: "cannot start engine 'foo': No such file or directory", and carry the kind of the
  // OS error behind them (spawn_error_kind); an engine that does not exec within 30 s, or whose
  // keeper dies, is Unavailable. So is a sandbox that cannot be had: no bwrap, no sandbox user,
  // namespaces refused ("... bubblewrap cannot create the sandbox: bwrap: <its reason>").
  static Expected<Process> spawn(const SpawnSpec& spec);

  Process(Process&&) noexcept;
  Process& operator=(Process&&) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();  // kills the engine's whole tree (through its keeper) and reaps the keeper

  // Writes the lines, each followed by '\n', in as few write() calls as possible. A closed pipe
  // (EPIPE) or a write that cannot complete by `deadline` is an error.
  // The error's kind: Conflict for InputClosed and BrokenPipe, Unavailable for TimedOut, Io for
  // System; write_failure() says which.
  Status write_lines(const std::vector<std::string>& lines, Clock::time_point deadline);
  Status write_line(std::string_view line, Clock::time_point deadline);
  // Why the last write failed; empty when it succeeded (or none was made).
  std::optional<WriteFailure> write_failure() const;

  // Returns the next stdout line, waiting at most until the absolute `deadline`. stderr is drained
  // meanwhile, and the engine's exit is watched: once it has exited, what it wrote is returned,
  // then Eof, even while a descendant still holds its stdout open.
  // Already-buffered complete lines are returned even once the deadline has passed (at most one
  // read's worth, so a flood cannot extend the wait); no new bytes are read after the deadline.
  // A BadByte line comes back with its control bytes escaped as \xNN, for the log. A last line
  // without its '\n' is returned at end of file, before Eof.
  ReadResult read_line(Clock::time_point deadline);
  // The next stdout line if one is there now (buffered or in the pipe); never waits: Timeout when
  // there is none. For what an engine wrote between two requests.
  ReadResult poll_line();

  // Starts a phase: from now on at most `budget` is read before reads return Flood.
  void set_budget(ReadBudget budget);
  // Bytes (stdout and stderr) read since the phase began.
  std::size_t output_count() const;
  // Bytes read from stdout alone since the phase began (0: the engine wrote nothing there, or did
  // not flush it).
  std::size_t stdout_count() const;

  // Where stderr lines go as they are read (none by default: only the tail is kept).
  void on_stderr(StderrSink sink);
  // Reads what stderr holds now and hands a last unfinished line to the sink.
  void flush_stderr();
  // The last stderr_tail_bytes of stderr (drained during reads and at shutdown).
  std::string stderr_tail();

  // True while the engine has not exited (one non-blocking read of the status pipe). Once it has,
  // the rest of its tree is killed and its keeper reaped, so the exit status is available.
  bool running();
  // "exit 0", "exit 3", "signal 9 (Killed)"; empty until the exit has been seen. A sandboxed
  // engine killed by a signal inside its sandbox: "signal 11 (Segmentation fault) in the sandbox"
  // (bwrap reports it as its exit 128 + N, which is read so; exit_signal() gives N). A sandboxed
  // engine whose sandbox failed once its namespaces existed (a mount refused, the engine's exec
  // failed inside): "exit 1 (the sandbox failed before the engine started)", bwrap's reason on
  // stderr.
  std::string exit_description() const;
  // True when the exit is the sandbox's own failure, before the engine ran (see above).
  bool sandbox_failed() const;
  // A sandboxed engine in a memory cgroup of its own (memory_cgroup.h): its directory while the
  // engine runs ("" otherwise, and once its tree is gone, when the cgroup is removed).
  std::string memory_cgroup() const;
  // Once its tree is gone: the kernel killed a process of it for its cgroup's memory limit.
  // exit_description() then adds "(out of memory: over its limit of N MB)".
  bool out_of_memory() const;
  // The exit code when the engine exited normally, the signal when a signal ended it.
  std::optional<int> exit_code() const;
  std::optional<int> exit_signal() const;

  // Closes the engine's stdin (end of input also means quit), waits up to `grace` for it to exit
  // by itself (after the caller sent `quit`), then SIGTERM to its group, up to `term_grace` more,
  // then SIGKILL; then whatever is left of its tree is killed, escaped descendants included, and
  // the keeper reaped. stdout written meanwhile is discarded, stderr kept; output beyond the
  // phase's budget ends the graces at once. Idempotent.
  void shut_down(std::chrono::milliseconds grace, std::chrono::milliseconds term_grace);

  pid_t pid() const;  // the engine's (not its keeper's)

 private:
  struct Impl;
  explicit Process(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::engines
