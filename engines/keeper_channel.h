// The referee's end of an engine's keeper (keeper.h): the plan it is forked with, the status pipe
// the referee reads its reports from, the control pipe it sends commands on.
//
// Contract: read_reports() reads what the status pipe holds without waiting and records the
// engine's exit; it returns false once the pipe has ended (the keeper exited), which the caller
// answers by closing the pipe. A keeper that ends without reporting an exit (it was killed)
// leaves `exited` true and `status` empty. wait_first_report() is spawn's wait for kStarted or
// kFailed.
//
// Decisions:
// - A report is one fixed-size Message written in one write(), atomic on a pipe; it may still
//   be read in pieces, so a partial message is kept between calls.
// - The exit is the first kExited seen; the keeper sends one, but a second would not change it.
// - Commands are one byte each and their write is not checked: a keeper that is gone has
//   already killed the engine's tree, which is what every command asks for in the end.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engines/keeper.h"
#include "engines/memory_cgroup.h"
#include "engines/process.h"
#include "engines/sandbox.h"

namespace referee::engines {

// The keeper's Plan and the storage its pointers point into: argv (argv[0] is the command as
// given), the referee's environment with SpawnSpec::env added or replacing, the rlimits (the CPU
// one with a hard limit a second above the soft one: SIGXCPU, then SIGKILL), where closing
// descriptors stops. Built before the fork: the keeper may not allocate. A sandboxed engine's
// plan execs `sandbox` (path: its bwrap) with an empty environment, in "/", as its user, with
// RLIMIT_AS the launch's memory_mb when the spec sets no memory limit; with `cgroup`, no RLIMIT_AS:
// the engine's process joins that cgroup, which holds the limit.
struct KeeperPlan {
  std::vector<std::string> argv_store, env_store;
  std::vector<char*> argv, envp;
  keeper::Plan plan;
};
void make_plan(const SpawnSpec& spec, const std::string& path, KeeperPlan& out,
               const SandboxLaunch* sandbox = nullptr, const EngineCgroup* cgroup = nullptr);

struct KeeperReports {
  bool exited = false;          // the keeper reported the engine's exit (or was lost)
  std::optional<int> status;    // its wait status; empty when the keeper was lost
  bool sandbox_failed = false;  // the exit is bwrap's, before it exec'd the engine (keeper.h)
  keeper::Message partial{};    // a report being read
  std::size_t partial_bytes = 0;
};

// "exit 3", "signal 9 (Killed)": a wait status reported with kExited, in words.
std::string describe_wait_status(int wait_status);

// Reads what `status_fd` holds now. False once it has ended (then `exited` is true).
bool read_reports(int status_fd, KeeperReports& reports);

// The keeper's first report: the engine exec'd (kStarted, with its pid) or why not (kFailed).
enum class FirstReport { Received, TimedOut, KeeperDied };
FirstReport wait_first_report(int status_fd, Clock::time_point deadline, keeper::Message& out);

// The step a kFailed report names, in the words spawn's error puts before the OS error's:
// "working directory '<dir>'", "setrlimit", "fork", "switching to the sandbox user", "setup";
// empty for exec itself.
std::string failed_step(const keeper::Message& report, const std::string& working_dir);

// One command byte (keeper::kTerm, keeper::kKill) on the control pipe, if it is open.
void tell_keeper(int control_fd, char command);

}  // namespace referee::engines
