#include "engines/system.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>

namespace referee::engines {

Usage self_usage() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6,
          static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6,
          u.ru_maxrss};
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
      u.ru_maxrss};
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

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

long process_id() {
  return static_cast<long>(getpid());
}

}  // namespace referee::engines
