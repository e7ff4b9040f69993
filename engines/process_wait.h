// An engine's pipes at the descriptor level: waiting on its three output pipes (stdout, stderr,
// the keeper's status pipe) until one is ready or a deadline passes, reading what a ready pipe
// holds without waiting, and writing to its input up to a deadline.
//
// Contract: WaitSet::wait() returns which pipes are ready; it reads nothing, the caller serves
// them. A pipe given as -1 is not waited on; a stdout marked ended is not either (an ended pipe
// would wake every wait). Pipes in the set must be closed through close(), never directly.
// read_ready() reads at most kMaxReadsPerWake chunks and says whether the pipe has ended.
//
// Decisions:
// - The wait is an epoll set made once per engine: a ppoll of the three pipes registered and
//   unregistered three wait queues at every wait, about a tenth of the referee's CPU per ply.
//   Without epoll (epoll_pwait2 needs Linux 5.11, or epoll_create1 failed) it falls back to
//   ppoll, for good: the two give the same answers.
// - A pipe leaves the set before it is closed: the set follows the open file, which another
//   process may still hold for a moment (a keeper between its fork and its closing of the rest).
// - Deadlines are absolute (steady clock) and a timeout or EINTR is no error: the caller re-checks
//   its deadline and waits again.
// - A full pipe while writing is the engine not reading: write_all() waits for room with ppoll,
//   up to the deadline (writes are rare, one per request: no epoll set for stdin).
// - read_ready() is bounded so that a flood on one pipe cannot starve the deadline.
#pragma once

#include <time.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "engines/process.h"

namespace referee::engines {

inline constexpr int kMaxReadsPerWake = 4;

// Closes `fd` if it is open and sets it to -1.
void close_fd(int& fd);
// O_NONBLOCK on `fd`; false if fcntl failed (errno says why).
bool set_nonblocking(int fd);
// A duration for ppoll/epoll_pwait2: negative ones are zero.
timespec to_timespec(Clock::duration d);

// Pipes made close-on-exec, closed on every path out of spawn() that does not take them.
struct PipePair {
  int fd[2] = {-1, -1};
  bool open();
  ~PipePair() {
    close_fd(fd[0]);
    close_fd(fd[1]);
  }
  int take(int end) {
    int f = fd[end];
    fd[end] = -1;
    return f;
  }
};

struct WaitPipes {
  int out = -1, err = -1, status = -1;
  bool out_ended = false;  // stdout reached its end: not waited on any more
};
struct Ready {
  bool out = false, err = false, status = false;
};

class WaitSet {
 public:
  WaitSet() = default;
  WaitSet(const WaitSet&) = delete;
  WaitSet& operator=(const WaitSet&) = delete;
  ~WaitSet();

  // Makes the epoll set of the pipes (ppoll if that fails).
  void watch(const WaitPipes& pipes);
  // Takes `fd` out of the set, then closes it (-1 afterwards).
  void close(int& fd);
  // Waits until a pipe is ready or `deadline`; `now` is the caller's latest clock reading.
  Ready wait(const WaitPipes& pipes, Clock::time_point deadline, Clock::time_point now);

 private:
  Ready wait_ppoll(const WaitPipes& pipes, Clock::time_point deadline, Clock::time_point now);

  int ep_fd_ = -1;            // -1: ppoll
  bool out_watched_ = false;  // stdout is in the set
};

// Writes all of `bytes` to `fd` (non-blocking) in as few write() calls as the pipe allows, waiting
// for room up to `deadline`; the failure, or nothing.
std::optional<WriteFailure> write_all(int fd, std::string_view bytes, Clock::time_point deadline);

// Reads what `fd` holds now, handing each chunk to `take`. Returns true when the pipe has ended
// (end of file, or an error after which nothing more will come).
bool read_ready(int fd, const std::function<void(const char*, std::size_t)>& take);

}  // namespace referee::engines
