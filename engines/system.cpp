#include "engines/system.h"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace referee::engines {

Usage self_usage() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6,
          static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6,
          u.ru_maxrss, u.ru_nvcsw, u.ru_nivcsw};
}

Usage thread_usage() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return {static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6,
          static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6,
          u.ru_maxrss, u.ru_nvcsw, u.ru_nivcsw};
}

std::vector<int> allowed_cpus() {
  std::vector<int> out;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  if (out.empty()) out.push_back(0);
  return out;
}

bool pin_this_thread(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
  return CPU_COUNT(&set) > 0 && sched_setaffinity(0, sizeof set, &set) == 0;
}

Expected<Usage> run_measured(const std::vector<std::string>& argv, const std::string& stdout_path) {
  if (argv.empty()) return Error{"run_measured: no program"};
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) return Error{"cannot write " + stdout_path};
  const pid_t pid = fork();
  if (pid < 0) {
    close(out);
    return Error{"cannot start " + argv[0]};
  }
  if (pid == 0) {
    dup2(out, STDOUT_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out);
  int status = 0;
  rusage u{};
  while (wait4(pid, &status, 0, &u) < 0)
    if (errno != EINTR) return Error{"cannot wait for " + argv[0]};
  if (WIFSIGNALED(status))
    return Error{argv[0] + " failed (killed by signal " + std::to_string(WTERMSIG(status)) + ")"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Error{argv[0] + " failed (exit status " + std::to_string(WEXITSTATUS(status)) +
                 (WEXITSTATUS(status) == 127 ? ": could not be run" : "") + ")"};
  return Usage{
      static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6,
      static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6,
      u.ru_maxrss, u.ru_nvcsw, u.ru_nivcsw};
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) != 0;
}

std::string executable_dir() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
}

std::string make_temp_dir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot create a temporary directory");
  return pattern;
}

Expected<ProcessUsage> process_usage(long pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::ifstream stat(dir + "/stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) return Error{"no process " + std::to_string(pid)};
  // The command name (field 2) may hold spaces: the fields after it follow its last ')'.
  const auto paren = line.rfind(')');
  if (paren == std::string::npos) return Error{"unreadable " + dir + "/stat"};
  std::istringstream fields(line.substr(paren + 2));
  std::string field;
  ProcessUsage u;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) u.user_seconds = std::strtod(field.c_str(), nullptr) / tick;
    if (i == 15) u.system_seconds = std::strtod(field.c_str(), nullptr) / tick;
    if (i == 20) u.threads = std::atoi(field.c_str());
  }
  std::ifstream status(dir + "/status");
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) u.rss_kb = std::atol(line.c_str() + 6);
    if (line.rfind("VmHWM:", 0) == 0) u.peak_rss_kb = std::atol(line.c_str() + 6);
  }
  return u;
}

bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (!stream) return false;
  unsigned long long dev = 0, ino = 0;
  if (std::sscanf(stream, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st {};
  if (fstat(STDERR_FILENO, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == dev &&
         static_cast<unsigned long long>(st.st_ino) == ino;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

Status create_private_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return Error{"cannot create '" + path + "': " + std::strerror(errno),
                 errno == EEXIST ? ErrorKind::Conflict : ErrorKind::Io};
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!written || !synced) {
    ::unlink(path.c_str());
    return Error{"cannot write '" + path + "'", ErrorKind::Io};
  }
  return Ok{};
}

void limit_allocator_arenas(int arenas) {
#ifdef M_ARENA_MAX
  mallopt(M_ARENA_MAX, arenas);
#else
  (void)arenas;
#endif
}

long raise_open_files_limit(long wanted) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (wanted > 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < static_cast<rlim_t>(wanted)) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max == RLIM_INFINITY
                          ? static_cast<rlim_t>(wanted)
                          : std::min(limit.rlim_max, static_cast<rlim_t>(wanted));
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  return limit.rlim_cur == RLIM_INFINITY ? wanted : static_cast<long>(limit.rlim_cur);
}

long process_id() {
  return static_cast<long>(getpid());
}

}  // namespace referee::engines
