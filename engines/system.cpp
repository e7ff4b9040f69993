#include "engines/system.h"

#include <sys/resource.h>
#include <unistd.h>

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
