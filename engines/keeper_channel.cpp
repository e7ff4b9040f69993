// The keeper's pipes, the referee's end (keeper_channel.h).
#include "engines/keeper_channel.h"

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <utility>

#include "engines/process_wait.h"

extern char** environ;

namespace referee::engines {

void make_plan(const SpawnSpec& spec, const std::string& path, KeeperPlan& out,
               const SandboxLaunch* sandbox, const EngineCgroup* cgroup) {
  keeper::Plan& plan = out.plan;
  if (sandbox) {
    // bwrap's own environment is empty: the engine's is built by its --setenv options.
    out.argv_store = sandbox->argv;
    plan.switch_user = sandbox->switch_user;
    plan.uid = sandbox->uid;
    plan.gid = sandbox->gid;
  } else {
    out.argv_store.push_back(spec.command);
    out.argv_store.insert(out.argv_store.end(), spec.args.begin(), spec.args.end());
    for (char** e = environ; e && *e; ++e) {
      std::string_view entry(*e);
      auto key = entry.substr(0, entry.find('='));
      if (!spec.env.count(std::string(key))) out.env_store.emplace_back(entry);
    }
    for (const auto& [key, value] : spec.env) out.env_store.push_back(key + "=" + value);
  }
  for (auto& a : out.argv_store) out.argv.push_back(a.data());
  out.argv.push_back(nullptr);
  for (auto& e : out.env_store) out.envp.push_back(e.data());
  out.envp.push_back(nullptr);

  plan.path = path.c_str();
  plan.argv = out.argv.data();
  plan.envp = out.envp.data();
  // bwrap starts in "/" (it may not enter the referee's directory) and takes the engine to /engine.
  plan.working_dir = sandbox ? "/" : spec.working_dir.empty() ? nullptr : spec.working_dir.c_str();
  // In a memory cgroup, the cgroup limits memory; otherwise the address space is limited.
  if (cgroup) plan.cgroup_procs = cgroup->procs.c_str();
  const long memory_mb = cgroup                      ? 0
                         : spec.limits.memory_mb > 0 ? spec.limits.memory_mb
                         : sandbox                   ? sandbox->memory_mb
                                                     : 0;
  const std::pair<int, long> limits[] = {{RLIMIT_AS, memory_mb * 1024 * 1024},
                                         {RLIMIT_CPU, spec.limits.cpu_seconds},
                                         {RLIMIT_NPROC, spec.limits.processes}};
  for (auto [resource, value] : limits) {
    if (value <= 0) continue;
    auto& l = plan.limits[plan.limit_count++];
    l.resource = resource;
    l.soft = static_cast<unsigned long>(value);
    // CPU: SIGXCPU at the soft limit, SIGKILL one second later.
    l.hard = static_cast<unsigned long>(resource == RLIMIT_CPU ? value + 1 : value);
  }
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    plan.max_fd = static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 20));
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "signal " + std::to_string(sig) + " (" + signal_description(sig) + ")";
  }
  return "status " + std::to_string(status);
}

bool read_reports(int status_fd, KeeperReports& reports) {
  for (;;) {
    auto* bytes = reinterpret_cast<char*>(&reports.partial);
    const std::size_t want = sizeof reports.partial - reports.partial_bytes;
    ssize_t n = ::read(status_fd, bytes + reports.partial_bytes, want);
    if (n > 0) {
      reports.partial_bytes += static_cast<std::size_t>(n);
      if (reports.partial_bytes == sizeof reports.partial) {
        if (reports.partial.kind == keeper::kExited && !reports.exited) {
          reports.exited = true;
          reports.status = reports.partial.value;
          reports.sandbox_failed = reports.partial.stage == keeper::kSandbox;
        }
        reports.partial_bytes = 0;
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return true;
    reports.exited = true;  // the keeper has exited, without a report if it was killed
    return false;
  }
}

FirstReport wait_first_report(int status_fd, Clock::time_point deadline, keeper::Message& out) {
  std::size_t got = 0;
  while (got < sizeof out) {
    ssize_t n = ::read(status_fd, reinterpret_cast<char*>(&out) + got, sizeof out - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) break;
    if (Clock::now() >= deadline) return FirstReport::TimedOut;
    pollfd fd{status_fd, POLLIN, 0};
    timespec ts = to_timespec(deadline - Clock::now());
    ::ppoll(&fd, 1, &ts, nullptr);
  }
  return got < sizeof out ? FirstReport::KeeperDied : FirstReport::Received;
}

std::string failed_step(const keeper::Message& report, const std::string& working_dir) {
  switch (report.stage) {
    case keeper::kChdir:
      return "working directory '" + working_dir + "'";
    case keeper::kLimits:
      return "setrlimit";
    case keeper::kFork:
      return "fork";
    case keeper::kExec:
      return "";
    case keeper::kUser:
      return "switching to the sandbox user";
    case keeper::kCgroup:
      return "joining its memory cgroup";
    default:
      return "setup";
  }
}

void tell_keeper(int control_fd, char command) {
  if (control_fd >= 0) (void)!::write(control_fd, &command, 1);
}

}  // namespace referee::engines
