// An engine process: the only place in referee that knows POSIX (design.md §4). posix_spawn into
// its own process group, close-on-exec non-blocking pipes, poll with absolute deadlines, capped
// line length, SIGPIPE ignored, quit → grace → SIGTERM → SIGKILL to the whole group, exit status
// kept. Engines are untrusted: nothing an engine does may block or crash the referee.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/expected.h"

namespace referee::engines {

using Clock = std::chrono::steady_clock;

// Optional resource limits for the engine; 0 = none. posix_spawn cannot call setrlimit in the
// child, so they are applied with prlimit(pid, ...) right after the spawn returns (Linux). glibc's
// posix_spawn returns only once the child has exec'd, so the window without limits is the
// engine's dynamic loading: CPU time counts from the start anyway, and every later allocation is
// checked. RLIMIT_NPROC counts every process of the user and is not enforced for root.
struct ResourceLimits {
  long memory_mb = 0;    // RLIMIT_AS
  long cpu_seconds = 0;  // RLIMIT_CPU
  long processes = 0;    // RLIMIT_NPROC
};

struct SpawnSpec {
  std::string command;  // a path (relative ones from working_dir), or a name looked up in PATH
  std::vector<std::string> args;           // not including argv[0]
  std::string working_dir;                 // empty = the referee's
  std::map<std::string, std::string> env;  // added to the referee's environment
  ResourceLimits limits;
  std::size_t max_line_bytes = 65536;    // longer stdout lines are an error (TooLong)
  std::size_t stderr_tail_bytes = 4096;  // how much of stderr to keep
};

enum class ReadStatus {
  Line,     // `line` holds one complete stdout line, '\n' and a trailing '\r' removed
  Timeout,  // the deadline passed first
  Eof,      // stdout closed (the engine exited or closed it)
  TooLong,  // a line exceeded max_line_bytes (the bytes are discarded)
  BadByte,  // a line held a NUL or another control byte (other than tab)
};

struct ReadResult {
  ReadStatus status;
  std::string line;
};

class Process {
 public:
  // Starts the engine. Errors (missing binary, not executable, bad working dir) name the culprit:
  // "cannot start engine 'foo': No such file or directory".
  static Expected<Process> spawn(const SpawnSpec& spec);

  Process(Process&&) noexcept;
  Process& operator=(Process&&) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();  // kills the group (SIGKILL) and reaps if still running

  // Writes the lines, each followed by '\n', in as few write() calls as possible. A closed pipe
  // (EPIPE) or a write that cannot complete by `deadline` is an error.
  Status write_lines(const std::vector<std::string>& lines, Clock::time_point deadline);
  Status write_line(std::string_view line, Clock::time_point deadline);

  // Returns the next stdout line, waiting at most until the absolute `deadline`. stderr is drained
  // meanwhile into the tail buffer. Lines already buffered are returned without a syscall.
  ReadResult read_line(Clock::time_point deadline);

  // Already-buffered complete lines are returned even once the deadline has passed (at most one
  // read's worth, so a flood cannot extend the wait); no new bytes are read after the deadline.
  // A BadByte line comes back with its control bytes escaped as \xNN, for the log. A last line
  // without its '\n' is returned at end of file, before Eof.

  // Bytes of stdout read since the last call to reset_output_count() (for per-move output caps).
  std::size_t output_count() const;
  void reset_output_count();

  // The last stderr_tail_bytes of stderr (drained during reads and at shutdown).
  std::string stderr_tail();

  // True while the child has not exited (checks with waitid WNOHANG). Once it has exited, the rest
  // of its process group is killed and the child reaped, so the exit status becomes available.
  bool running();
  // "exit 0", "exit 3", "signal 9 (Killed)"; empty while running.
  std::string exit_description() const;
  // The exit code when the child exited normally, the signal when a signal ended it.
  std::optional<int> exit_code() const;
  std::optional<int> exit_signal() const;

  // Closes the engine's stdin (end of input also means quit), waits up to `grace` for the child
  // to exit by itself (after the caller sent `quit`), then SIGTERM to the group, up to
  // `term_grace` more, then SIGKILL; once the leader has exited, whatever is left of its group
  // gets SIGKILL, then the leader is reaped. stdout written meanwhile is discarded, stderr kept
  // in the tail. Idempotent.
  void shut_down(std::chrono::milliseconds grace, std::chrono::milliseconds term_grace);

  pid_t pid() const;

 private:
  struct Impl;
  explicit Process(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::engines
