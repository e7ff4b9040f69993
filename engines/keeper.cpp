// The keeper (keeper.h). Only system calls from here on: this runs in the child of a fork() taken
// in a multi-threaded process, where another thread may have held the allocator's lock.
#include "engines/keeper.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

namespace referee::engines::keeper {

namespace {

// The keeper's descriptors after it has tidied up: 0-2 are the engine's until it has exec'd.
constexpr int kControlFd = 3, kStatusFd = 4;

void send(int fd, std::int32_t kind, std::int32_t value, std::int32_t stage = kNoStage) {
  Message m;
  m.kind = kind;
  m.value = value;
  m.stage = stage;
  while (::write(fd, &m, sizeof m) < 0 && errno == EINTR) {
  }
}

void pause_ms(long ms) {
  timespec ts{0, ms * 1000000L};
  ::nanosleep(&ts, nullptr);
}

// The wait status waitpid() would give, from waitid()'s siginfo.
int wait_status(const siginfo_t& info) {
  switch (info.si_code) {
    case CLD_EXITED:
      return (info.si_status & 0xff) << 8;
    case CLD_DUMPED:
      return (info.si_status & 0x7f) | 0x80;
    default:
      return info.si_status & 0x7f;
  }
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Writes the calling process's pid into `procs` (a cgroup.procs file): it joins that cgroup, and
// so does everything it starts. Before the change of user: the file is the referee's.
template <class Fail>
void join_cgroup(const char* procs, Fail fail) {
  char digits[24];
  int n = 0;
  for (long pid = ::getpid(); pid > 0 || n == 0; pid /= 10) digits[n++] = char('0' + pid % 10);
  for (int i = 0; i < n / 2; ++i) {
    const char c = digits[i];
    digits[i] = digits[n - 1 - i];
    digits[n - 1 - i] = c;
  }
  const int fd = ::open(procs, O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(kCgroup);
  if (::write(fd, digits, static_cast<std::size_t>(n)) != n) fail(kCgroup);
  ::close(fd);
}

// The engine, in the keeper's child: never returns.
[[noreturn]] void exec_engine(const Plan& plan, int error_fd, pid_t keeper) {
  auto fail = [error_fd](std::int32_t stage) {
    send(error_fd, kFailed, errno, stage);
    ::_exit(127);
  };
  ::close(kControlFd);
  ::close(kStatusFd);
  if (plan.sandbox_status_read_fd >= 0) ::close(kBwrapStatusFd + 1);  // the keeper's end
  ::setpgid(0, 0);  // its own group: kTerm and kKill reach its plain children too
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);  // some fail: harmless
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (plan.cgroup_procs) join_cgroup(plan.cgroup_procs, fail);
  if (plan.working_dir && ::chdir(plan.working_dir) != 0) fail(kChdir);
  for (int i = 0; i < plan.limit_count; ++i) {
    rlimit lim{};
    lim.rlim_cur = plan.limits[i].soft;
    lim.rlim_max = plan.limits[i].hard;
    if (::setrlimit(static_cast<__rlimit_resource>(plan.limits[i].resource), &lim) != 0)
      fail(kLimits);
  }
  if (plan.switch_user) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(plan.gid) != 0 || ::setuid(plan.uid) != 0)
      fail(kUser);
    // From root, setuid has cleared every capability. From a user that held CAP_SETUID and
    // CAP_SETGID (a systemd unit's AmbientCapabilities) they stay: cleared here, the ambient set
    // first (bwrap refuses to run with capabilities it was not installed setuid for).
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct cleared[2] = {};
    if (::syscall(SYS_capset, &header, cleared) != 0) fail(kUser);
  }
  // After the change of credentials, which clears it.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail(kSetup);
  if (::getppid() != keeper) ::_exit(127);  // the keeper died already
  ::execve(plan.path, plan.argv, plan.envp);
  fail(kExec);
  ::_exit(127);  // not reached
}

// A sandboxed engine: waits for bwrap's first report on its status pipe (`fd`), written once its
// namespaces exist. False when the pipe ends first: bwrap exited without creating them. A word
// on the control pipe ends the wait too (true): the main loop then serves it.
bool sandbox_created(int fd) {
  pollfd fds[2] = {{fd, POLLIN, 0}, {kControlFd, POLLIN, 0}};
  for (;;) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return true;
    }
    if (fds[1].revents) return true;
    if (fds[0].revents) {
      char report[256];
      const ssize_t n = ::read(fd, report, sizeof report);
      if (n < 0 && errno == EINTR) continue;
      return n > 0;
    }
  }
}

// A sandboxed engine has exited: did bwrap report the engine's exit code? It does only when it
// had exec'd the engine; without it bwrap failed before (a mount refused inside its namespaces,
// the engine's exec). Reads what `fd`, bwrap's status pipe, holds; bwrap has exited.
bool engine_exit_reported(int fd) {
  static constexpr char kWord[] = "\"exit-code\"";
  constexpr int kLength = sizeof kWord - 1;
  ::fcntl(fd, F_SETFL, O_NONBLOCK);
  char buf[512];
  int matched = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    for (ssize_t i = 0; i < n; ++i) {
      // No proper prefix of the word is also a suffix of another of its prefixes: on a mismatch
      // only its first character can begin a match again.
      if (buf[i] == kWord[matched])
        ++matched;
      else
        matched = buf[i] == kWord[0] ? 1 : 0;
      if (matched == kLength) return true;
    }
  }
}

// Has the engine leader exited? Leaves it a zombie (WNOWAIT), so that its process group id stays
// reserved; adopted orphans that exited are reaped on the way.
bool leader_exited(pid_t leader, int& status) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (info.si_pid == 0) return false;
    if (info.si_pid == leader) {
      status = wait_status(info);
      return true;
    }
    siginfo_t gone{};
    ::waitid(P_PID, static_cast<id_t>(info.si_pid), &gone, WEXITED | WNOHANG);
  }
}

// SIGKILL every child and reap, until none is left: a child's own children re-parent to the
// keeper (a subreaper) when it dies, and are found by the next round.
void kill_tree() {
  for (int round = 0;; ++round) {
    if (kill_children_listed() < 0) kill_children_by_scan();
    for (;;) {
      siginfo_t info{};
      if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG) < 0) {
        if (errno == EINTR) continue;
        if (errno == ECHILD) return;
        break;
      }
      if (info.si_pid == 0) break;  // some are still dying
    }
    pause_ms(round < 200 ? 1 : 10);
  }
}

}  // namespace

int kill_children_listed() {
  int fd = ::open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[1024];
  long pid = 0;
  bool in_number = false;
  int found = 0;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (is_digit(buf[i])) {
        pid = pid * 10 + (buf[i] - '0');
        in_number = true;
      } else if (in_number) {
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        ++found;
        pid = 0;
        in_number = false;
      }
    }
  }
  if (in_number) {
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ++found;
  }
  ::close(fd);
  return found;
}

int kill_children_by_scan() {
  int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  const long self = ::getpid();
  alignas(8) char entries[4096];
  int found = 0;
  for (;;) {
    long n = ::syscall(SYS_getdents64, dir, entries, sizeof entries);
    if (n <= 0) break;
    // struct linux_dirent64: u64 d_ino, s64 d_off, u16 d_reclen, u8 d_type, char d_name[].
    for (long off = 0; off < n;) {
      unsigned short reclen = 0;
      std::memcpy(&reclen, entries + off + 16, sizeof reclen);
      const char* name = entries + off + 19;
      off += reclen;
      char path[48] = "/proc/";
      std::size_t len = 6;
      long pid = 0;
      for (const char* c = name; *c; ++c) {
        if (!is_digit(*c) || len > 30) {
          pid = 0;
          break;
        }
        pid = pid * 10 + (*c - '0');
        path[len++] = *c;
      }
      if (pid <= 0) continue;
      std::memcpy(path + len, "/stat", 6);
      int fd = ::open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char stat[512];
      ssize_t got = ::read(fd, stat, sizeof stat - 1);
      ::close(fd);
      if (got <= 0) continue;
      // "pid (comm) state ppid ...": comm may hold spaces and ')', so the last ')' ends it.
      ssize_t close_paren = got - 1;
      while (close_paren >= 0 && stat[close_paren] != ')') --close_paren;
      ssize_t i = close_paren + 4;  // past ") S "
      long ppid = 0;
      while (i < got && is_digit(stat[i])) ppid = ppid * 10 + (stat[i++] - '0');
      if (close_paren < 0 || ppid != self) continue;
      ::kill(static_cast<pid_t>(pid), SIGKILL);
      ++found;
    }
  }
  ::close(dir);
  return found;
}

void run(const Plan& plan) {
  // Descriptors: the five it needs at 0..4 (seven for a sandboxed engine: bwrap's status pipe
  // at kBwrapStatusFd, then its read end), nothing else (not the referee's ends of these pipes,
  // not other engines' pipes, not the database). Copies above 10 first, so no dup2 clobbers a
  // source that sits at a low number.
  const int wanted[7] = {plan.stdin_fd,
                         plan.stdout_fd,
                         plan.stderr_fd,
                         plan.control_fd,
                         plan.status_fd,
                         plan.sandbox_status_write_fd,
                         plan.sandbox_status_read_fd};
  const int count = plan.sandbox_status_read_fd >= 0 ? 7 : 5;
  int high[7];
  for (int i = 0; i < count; ++i) {
    high[i] = ::fcntl(wanted[i], F_DUPFD, 10);
    if (high[i] < 0) {
      send(plan.status_fd, kFailed, errno, kSetup);
      ::_exit(127);
    }
  }
  for (int i = 0; i < count; ++i) ::dup2(high[i], i);  // without close-on-exec, as bwrap needs
  if (::close_range(static_cast<unsigned>(count), ~0U, 0) != 0)
    for (int fd = count; fd < plan.max_fd; ++fd) ::close(fd);

  ::setpgid(0, 0);  // a `kill` of the referee's group does not reach it
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::prctl(PR_SET_NAME, "referee-keeper");
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (int sig :
       {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2})
    ::sigaction(sig, &ignore, nullptr);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_SETMASK, &chld, nullptr);
  const int sig_fd = ::signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);  // -1: poll with a timeout

  int exec_pipe[2];
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    send(kStatusFd, kFailed, errno, kSetup);
    ::_exit(127);
  }
  const pid_t self = ::getpid();
  const pid_t engine = ::fork();
  if (engine == 0) exec_engine(plan, exec_pipe[1], self);
  const int fork_error = errno;
  ::close(exec_pipe[1]);
  for (int fd = 0; fd < 3; ++fd) ::close(fd);  // the engine's pipes are the engine's alone now
  if (engine < 0) {
    send(kStatusFd, kFailed, fork_error, kFork);
    ::_exit(127);
  }
  Message failure;
  ssize_t n;
  while ((n = ::read(exec_pipe[0], &failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  ::close(exec_pipe[0]);
  if (n > 0) {  // chdir, setrlimit or execve failed: the child has exited
    siginfo_t info{};
    ::waitid(P_PID, static_cast<id_t>(engine), &info, WEXITED);
    send(kStatusFd, kFailed, failure.value, failure.stage);
    ::_exit(127);
  }
  if (plan.sandbox_status_read_fd >= 0) {
    ::close(kBwrapStatusFd);  // bwrap's alone: its end of file comes when bwrap exits
    if (!sandbox_created(kBwrapStatusFd + 1)) {
      siginfo_t info{};
      while (::waitid(P_PID, static_cast<id_t>(engine), &info, WEXITED | WNOWAIT) < 0 &&
             errno == EINTR) {
      }
      send(kStatusFd, kFailed, wait_status(info), kSandbox);
      ::kill(-engine, SIGKILL);
      kill_tree();
      ::_exit(127);
    }
  }
  send(kStatusFd, kStarted, engine);

  int status = 0;
  bool exited = false;
  pollfd fds[2] = {{kControlFd, POLLIN, 0}, {sig_fd, POLLIN, 0}};
  for (;;) {
    const int r = ::poll(fds, sig_fd >= 0 ? 2 : 1, sig_fd >= 0 ? -1 : 20);
    if (r < 0 && errno != EINTR) break;
    if (sig_fd >= 0 && fds[1].revents) {
      signalfd_siginfo si;
      while (::read(sig_fd, &si, sizeof si) > 0) {
      }
    }
    if (leader_exited(engine, status)) {
      exited = true;
      // bwrap exiting by itself without the engine's exit code: its own failure, not the engine's.
      const bool sandbox_failed = plan.sandbox_status_read_fd >= 0 && WIFEXITED(status) &&
                                  !engine_exit_reported(kBwrapStatusFd + 1);
      send(kStatusFd, kExited, status, sandbox_failed ? kSandbox : kNoStage);  // first: the
      break;  // referee ends the game now
    }
    if (r > 0 && fds[0].revents) {
      char commands[16];
      const ssize_t got = ::read(kControlFd, commands, sizeof commands);
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) break;
      for (ssize_t i = 0; i < got; ++i) {
        if (commands[i] == kTerm) ::kill(-engine, SIGTERM);
        if (commands[i] == kKill) ::kill(-engine, SIGKILL);
      }
    }
  }
  // The leader is not reaped yet, so its group id cannot have been reused.
  ::kill(-engine, SIGKILL);
  if (!exited) {
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(engine), &info, WEXITED | WNOWAIT) < 0 &&
           errno == EINTR) {
    }
    send(kStatusFd, kExited, wait_status(info));
  }
  kill_tree();
  ::_exit(0);
}

}  // namespace referee::engines::keeper
