// Clean-up that happens even when a test program dies by a signal (SIGKILL, abort, a ctest
// timeout), for what outlives a process: a PostgreSQL server (pg_server.h), network namespaces
// (tests/service/netns.h).
//
// A Watchdog is a shell detached from the test (double fork, its own session, so a kill of the
// test's process tree misses it) whose standard input is the read end of a pipe the test process
// alone holds the write end of (close-on-exec, so no engine, worker or server started later
// inherits it). When that end closes, however the test ended, the shell runs its clean-up
// script. The owner cleans up itself first on a normal end, then closes the pipe: the script must
// be harmless when there is nothing left to clean.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace storage_test {

class Watchdog {
 public:
  Watchdog() = default;
  // Starts the shell; started() is false when it could not be (pipe or fork failed).
  explicit Watchdog(const std::string& script) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    const std::string text = "cat >/dev/null; " + script;  // built before fork: no allocation after
    const pid_t middle = ::fork();
    if (middle < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      return;
    }
    if (middle == 0) {  // only async-signal-safe calls from here to exec
      ::setsid();
      if (::fork() != 0) ::_exit(0);  // orphaned: no longer in the test's process tree
      ::dup2(fds[0], 0);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::dup2(null, 2);
      for (int fd = 3; fd < 1024; ++fd) ::close(fd);
      ::execl("/bin/sh", "sh", "-c", text.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(middle, &status, 0);
    write_end_ = fds[1];
  }
  ~Watchdog() { release(); }
  Watchdog(Watchdog&& other) noexcept : write_end_(other.write_end_) { other.write_end_ = -1; }
  Watchdog& operator=(Watchdog&& other) noexcept {
    if (this != &other) {
      release();
      write_end_ = other.write_end_;
      other.write_end_ = -1;
    }
    return *this;
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  bool started() const { return write_end_ >= 0; }
  // Runs the script now (in the background): call it once the owner has cleaned up.
  void release() {
    if (write_end_ >= 0) ::close(write_end_);
    write_end_ = -1;
  }

 private:
  int write_end_ = -1;
};

}  // namespace storage_test
