// bubblewrap's command line for a sandboxed engine (sandbox.h).
#include "engines/sandbox.h"

#include <linux/capability.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "engines/command_path.h"
#include "engines/process.h"
#include "engines/process_failures.h"

namespace referee::engines {

namespace {

// The merged-usr links of Debian: a symlink on the host is the same symlink inside, a directory
// (a system without merged /usr) is bound read-only, a missing one (no /lib64 on arm64) is left
// out.
void add_top_level_link(const std::string& name, std::vector<std::string>& out) {
  struct stat st {};
  if (::lstat(name.c_str(), &st) != 0) return;
  if (S_ISLNK(st.st_mode)) {
    char target[PATH_MAX];
    const ssize_t n = ::readlink(name.c_str(), target, sizeof target - 1);
    if (n <= 0) return;
    out.insert(out.end(), {"--symlink", std::string(target, static_cast<std::size_t>(n)), name});
  } else if (S_ISDIR(st.st_mode)) {
    out.insert(out.end(), {"--ro-bind", name, name});
  }
}

// Whether `uid`/`gid` (no supplementary group: the keeper drops them) may do `want` (a mask of
// r=4 x=1) to a file of mode `st` by its mode bits.
bool allowed(const struct stat& st, uid_t uid, gid_t gid, unsigned want) {
  const unsigned bits = st.st_uid == uid   ? (st.st_mode >> 6) & 7u
                        : st.st_gid == gid ? (st.st_mode >> 3) & 7u
                                           : st.st_mode & 7u;
  return (bits & want) == want;
}

// The first directory on the way to `dir` (its ancestors: search; itself: read and search) that
// `uid`/`gid` may not pass, with its mode; "" when none. bwrap opens the root as that user.
std::string refused_on_the_way(const std::string& dir, uid_t uid, gid_t gid) {
  char resolved[PATH_MAX];
  if (!::realpath(dir.c_str(), resolved)) return {};  // check_working_dir has said why
  const std::string path = resolved;
  for (std::size_t end = 0; end != std::string::npos;) {
    end = path.find('/', end + 1);
    const std::string step = end == std::string::npos ? path : path.substr(0, end);
    struct stat st {};
    if (::stat(step.empty() ? "/" : step.c_str(), &st) != 0) return {};
    const bool last = end == std::string::npos;
    if (!allowed(st, uid, gid, last ? 5u : 1u)) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
      return (step.empty() ? "/" : step) + ": mode " + mode;
    }
  }
  return {};
}

// Whether the referee may become the sandbox's user: root, or CAP_SETUID and CAP_SETGID in its
// effective set (referee.service gives its user those two alone).
bool may_switch_user() {
  if (::geteuid() == 0) return true;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("CapEff:", 0) == 0) {
      const unsigned long long effective = std::strtoull(line.c_str() + 7, nullptr, 16);
      const unsigned long long wanted = (1ULL << CAP_SETUID) | (1ULL << CAP_SETGID);
      return (effective & wanted) == wanted;
    }
  return false;
}

Error unavailable(std::string message) {
  return Error{std::move(message), ErrorKind::Unavailable};
}

}  // namespace

std::optional<gid_t> sandbox_user_group(const std::string& user) {
  if (!may_switch_user()) return std::nullopt;
  passwd entry{}, *found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found)
    return std::nullopt;
  return found->pw_gid;
}

std::vector<std::string> sandbox_mounts(const Sandbox& sandbox) {
  std::vector<std::string> out = {"--ro-bind", "/usr", "/usr"};
  for (const char* link : {"/bin", "/sbin", "/lib", "/lib64"}) add_top_level_link(link, out);
  out.insert(out.end(), {"--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"});
  if (sandbox.root.empty())
    out.insert(out.end(), {"--dir", kSandboxEngineDir});
  else
    out.insert(out.end(), {"--ro-bind", sandbox.root, kSandboxEngineDir});
  // tmpfs is memory that RLIMIT_AS does not count: each one writable is sized.
  const auto bytes = [](long mb) { return std::to_string(mb * 1024 * 1024); };
  out.insert(out.end(), {"--size", bytes(kSandboxTmpMb), "--tmpfs", "/tmp"});
  out.insert(out.end(), {"--proc", "/proc", "--dev", "/dev"});
  out.insert(out.end(), {"--size", bytes(kSandboxShmMb), "--tmpfs", "/dev/shm"});
  out.insert(out.end(), {"--remount-ro", "/dev"});  // its nodes are bind mounts: still usable
  out.insert(out.end(), {"--remount-ro", "/"});     // last: the tmpfs root bwrap builds on
  return out;
}

Expected<SandboxLaunch> prepare_sandbox(const Sandbox& sandbox, const std::string& command,
                                        const std::vector<std::string>& args,
                                        const std::map<std::string, std::string>& env,
                                        int status_fd) {
  SandboxLaunch launch;
  struct stat st {};
  if (sandbox.bwrap.empty() || ::stat(sandbox.bwrap.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      ::access(sandbox.bwrap.c_str(), X_OK) != 0)
    return unavailable("bubblewrap (" + sandbox.bwrap +
                       ") is not installed: sandboxed engines are not played; deps.sh installs it");
  launch.bwrap = sandbox.bwrap;
  if (const char* memory = std::getenv(kSandboxMemoryVariable); memory && *memory) {
    char* end = nullptr;
    errno = 0;
    const long mb = std::strtol(memory, &end, 10);
    if (errno != 0 || *end != '\0' || mb < 0 || mb > (1L << 30))
      return Error{std::string(kSandboxMemoryVariable) +
                       " must be a number of MB (0: no limit), not '" +
                       std::string(memory).substr(0, 40) + "'",
                   ErrorKind::Invalid};
    launch.memory_mb = mb;
  }

  if (may_switch_user()) {
    passwd entry{}, *found = nullptr;
    std::vector<char> buffer(16384);
    const int err =
        ::getpwnam_r(sandbox.user.c_str(), &entry, buffer.data(), buffer.size(), &found);
    if (err != 0 || !found)
      return unavailable("the sandbox user '" + sandbox.user +
                         "' does not exist: sandboxed engines are not played; deps.sh creates it");
    if (found->pw_uid == 0)
      return Error{"the sandbox user '" + sandbox.user + "' is root", ErrorKind::Invalid};
    launch.switch_user = true;
    launch.uid = found->pw_uid;
    launch.gid = found->pw_gid;
  }

  if (!sandbox.root.empty()) {
    if (int err = check_working_dir(sandbox.root))
      return Error{"sandbox root '" + sandbox.root + "': " + errno_text(err),
                   spawn_error_kind(err)};
    if (launch.switch_user)
      if (auto refused = refused_on_the_way(sandbox.root, launch.uid, launch.gid); !refused.empty())
        return Error{"sandbox root '" + sandbox.root + "': the sandbox user '" + sandbox.user +
                         "' may not read it (" + refused + ")",
                     ErrorKind::Invalid};
  }
  const CommandPath path = resolve_sandboxed_command(command, sandbox.root);
  if (path.error != 0)
    return Error{errno_text(path.error) + " in the sandbox" +
                     (path.searched_path ? " (searched " + std::string(kSandboxPath) + ")" : ""),
                 spawn_error_kind(path.error)};

  auto& a = launch.argv;
  a = {sandbox.bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"};
  const auto mounts = sandbox_mounts(sandbox);
  a.insert(a.end(), mounts.begin(), mounts.end());
  a.insert(a.end(), {"--chdir", kSandboxEngineDir, "--clearenv", "--setenv", "PATH", kSandboxPath,
                     "--setenv", "LANG", "C.UTF-8", "--setenv", "HOME", "/tmp"});
  for (const auto& [key, value] : env) a.insert(a.end(), {"--setenv", key, value});
  a.insert(a.end(), {"--json-status-fd", std::to_string(status_fd), "--", path.path});
  a.insert(a.end(), args.begin(), args.end());
  return launch;
}

std::string sandbox_failure(const std::string& bwrap_stderr) {
  std::string line = bwrap_stderr.substr(0, bwrap_stderr.find('\n'));
  if (line.empty()) line = "bwrap exited without a word";
  return "bubblewrap cannot create the sandbox: " + line;
}

}  // namespace referee::engines
