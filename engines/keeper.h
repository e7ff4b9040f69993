// The keeper of one engine (process.h): a process the referee forks, without exec, to start the
// engine and to make sure that no process of it outlives the engine's session or the referee.
//
// What it does, in order: moves the pipes it needs to fixed numbers and closes every other
// descriptor; becomes a child subreaper in a process group of its own; ignores the signals a
// terminal or a careless `kill` sends (Ctrl-C reaches the referee, not its keepers); forks the
// engine (own process group, signals back to default, PR_SET_PDEATHSIG, chdir, rlimits, execve;
// an exec error comes back through a close-on-exec pipe) and reports kStarted or kFailed. Then it
// sleeps in poll() on the control pipe and a signalfd for SIGCHLD:
// - the engine leader exits: kExited with its wait status at once, then the tree is killed;
// - a control byte: kTerm or kKill to the engine's process group;
// - end of file on the control pipe (the referee is done with the engine, or died): SIGKILL to
//   the group, kExited, the tree is killed.
// A sandboxed engine (sandbox.h) is bwrap, exec'd as the sandbox's user (setgroups to none,
// setgid, setuid after the rlimits, PR_SET_PDEATHSIG after those: a change of credentials clears
// it) with bwrap's --json-status-fd at kBwrapStatusFd. The keeper reports kStarted once bwrap has
// written there (it does once its namespaces exist), kFailed with kSandbox and bwrap's wait
// status when bwrap ends the pipe without a word (it could not create them). The keeper keeps
// the pipe's read end open to the end: bwrap's last report, the engine's exit code, which it
// writes only when it had exec'd the engine, must not meet EPIPE. A bwrap that exits by itself
// without that report failed before the engine ran: its kExited carries kSandbox.
// Killing the tree: SIGKILL to every child listed in /proc/thread-self/children (or, where that
// file is missing, every process whose /proc/<pid>/stat names the keeper as parent), reap, and
// again until no child is left: descendants re-parent to the keeper as their parents die.
//
// The referee is multi-threaded, so after the fork the keeper may only make system calls: no
// allocation, no stdio, no locks. Everything it needs is in the Plan, prepared before the fork.
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace referee::engines::keeper {

// Keeper → referee on the status pipe: one write() of one Message each (atomic on a pipe).
enum Kind : std::int32_t { kStarted = 1, kExited = 2, kFailed = 3 };
// What failed, with kFailed (`value` holds the errno).
// kUser: switching to the sandbox's user; kSandbox: bwrap could not create the sandbox (`value`
// holds bwrap's wait status, not an errno), or, with kExited, failed before it exec'd the engine.
// kCgroup: joining the engine's memory cgroup (memory_cgroup.h).
enum Stage : std::int32_t {
  kNoStage = 0,
  kFork,
  kChdir,
  kLimits,
  kExec,
  kSetup,
  kUser,
  kSandbox,
  kCgroup
};
struct Message {
  std::int32_t kind = 0;
  std::int32_t value = 0;  // kStarted: the engine's pid; kExited: its wait status; kFailed: errno
  std::int32_t stage = kNoStage;
};

// Referee → keeper on the control pipe, one byte each. End of file: kill everything, exit.
inline constexpr char kTerm = 'T';  // SIGTERM to the engine's process group
inline constexpr char kKill = 'K';  // SIGKILL to the engine's process group

// The descriptor bwrap's --json-status-fd names in the engine's process.
inline constexpr int kBwrapStatusFd = 5;

struct Limit {
  int resource = 0;
  unsigned long soft = 0, hard = 0;
};

struct Plan {
  const char* path = nullptr;  // resolved: execve does no PATH search
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* working_dir = nullptr;  // nullptr: the referee's
  Limit limits[3];
  int limit_count = 0;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;  // the engine's ends of its pipes
  int control_fd = -1;                                // read end of the control pipe
  int status_fd = -1;                                 // write end of the status pipe
  int max_fd = 1024;  // where closing every other descriptor stops without close_range
  // A sandboxed engine: bwrap's status pipe (both -1 otherwise), and the user to become.
  int sandbox_status_write_fd = -1, sandbox_status_read_fd = -1;
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
  // The cgroup.procs file the engine's process writes its pid into before anything else, so that
  // it and all it starts are in its memory cgroup (memory_cgroup.h); nullptr: none.
  const char* cgroup_procs = nullptr;
};

// The keeper's whole life; call it in the child right after fork().
[[noreturn]] void run(const Plan& plan);

// SIGKILL to every child of the calling thread listed in /proc/thread-self/children; returns how
// many, or -1 when that file cannot be read. Public for the tests.
int kill_children_listed();
// SIGKILL to every process whose /proc/<pid>/stat names the caller as parent (the fallback);
// returns how many.
int kill_children_by_scan();

}  // namespace referee::engines::keeper
