// Finding the program to execute (command_path.h).
#include "engines/command_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

#include "engines/sandbox.h"

namespace referee::engines {

namespace {

// An executable regular file at `path` (relative paths taken from `dir` when not empty)?
// Returns 0 or the errno explaining why not.
int check_executable(const std::string& path, const std::string& dir) {
  std::string full = (path.front() == '/' || dir.empty()) ? path : dir + "/" + path;
  struct stat st {};
  if (::stat(full.c_str(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  if (!S_ISREG(st.st_mode)) return EACCES;
  if (::access(full.c_str(), X_OK) != 0) return errno;
  return 0;
}

}  // namespace

int check_working_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return errno;
  if (!S_ISDIR(st.st_mode)) return ENOTDIR;
  if (::access(dir.c_str(), X_OK) != 0) return errno;
  return 0;
}

CommandPath resolve_command(const std::string& command, const std::string& working_dir) {
  if (command.empty()) return {{}, ENOENT};
  if (command.find('/') != std::string::npos) {
    if (int err = check_executable(command, working_dir)) return {{}, err};
    return {command};
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  int first_error = ENOENT;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string entry = path.substr(start, end - start);
    std::string candidate = (entry.empty() ? std::string(".") : entry) + "/" + command;
    int err = check_executable(candidate, working_dir);
    if (err == 0) return {candidate, 0, true};
    if (err != ENOENT && err != ENOTDIR && first_error == ENOENT) first_error = err;
    start = end + 1;
  }
  return {{}, first_error, true};
}

CommandPath resolve_sandboxed_command(const std::string& command, const std::string& root) {
  if (command.empty()) return {{}, ENOENT};
  const std::string engine_dir = kSandboxEngineDir;
  // The host path of `inside`, a path inside the sandbox; "" where the sandbox has no file.
  auto host_path = [&](const std::string& inside) -> std::string {
    if (inside.rfind(engine_dir + "/", 0) == 0)
      return root.empty() ? std::string() : root + inside.substr(engine_dir.size());
    for (const char* mounted : {"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/"})
      if (inside.rfind(mounted, 0) == 0) return inside;
    return {};
  };
  auto check = [&](const std::string& inside) {
    const std::string host = host_path(inside);
    return host.empty() ? ENOENT : check_executable(host, {});
  };
  if (command.find('/') != std::string::npos) {
    std::string_view relative = command;
    while (relative.rfind("./", 0) == 0) relative.remove_prefix(2);  // "/engine/./x" reads badly
    const std::string inside =
        command.front() == '/' ? command : engine_dir + "/" + std::string(relative);
    if (int err = check(inside)) return {{}, err};
    return {inside};
  }
  const std::string path = kSandboxPath;
  int first_error = ENOENT;
  std::size_t start = 0;
  while (start < path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string candidate = path.substr(start, end - start) + "/" + command;
    int err = check(candidate);
    if (err == 0) return {candidate, 0, true};
    if (err != ENOENT && err != ENOTDIR && first_error == ENOENT) first_error = err;
    start = end + 1;
  }
  return {{}, first_error, true};
}

}  // namespace referee::engines
