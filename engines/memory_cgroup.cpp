// The memory cgroup of a sandboxed engine (memory_cgroup.h).
#include "engines/memory_cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "engines/process_failures.h"

namespace referee::engines {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

bool has_word(std::string_view list, std::string_view word, char separator) {
  for (auto item : split(list, separator))
    if (item == word) return true;
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Writes `value` to a cgroup file; the error names it.
Status write_file(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open " + path + ": " + errno_text(errno), ErrorKind::Io};
  const ssize_t n = ::write(fd, value.data(), value.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(value.size()))
    return Error{"cannot write '" + value + "' to " + path + ": " + errno_text(n < 0 ? err : EIO),
                 ErrorKind::Io};
  return Ok{};
}

// The parent process of `pid` (from /proc/PID/stat), or -1.
pid_t parent_of(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t paren = stat.rfind(')');  // comm may hold spaces and ')'
  if (paren == std::string::npos || paren + 4 > stat.size()) return -1;
  return static_cast<pid_t>(std::atol(stat.c_str() + paren + 4));  // past ") S "
}

// Whether `pid` is `ancestor` or one of its descendants (keepers, engines).
bool ours(pid_t pid, pid_t ancestor) {
  for (int depth = 0; depth < 16 && pid > 1; ++depth, pid = parent_of(pid))
    if (pid == ancestor) return true;
  return false;
}

// v2: the cgroup of engine cgroups, moving the referee into kDaemonLeaf when it must.
std::optional<CgroupParent> find_v2(const std::string& own) {
  const std::size_t slash = own.rfind('/');
  if (slash != std::string::npos && own.substr(slash + 1) == kDaemonLeaf) {
    const std::string parent = own.substr(0, slash);
    if (::access(parent.c_str(), W_OK) != 0) return std::nullopt;
    if (!has_word(read_text(parent + "/cgroup.subtree_control"), "memory", ' ') &&
        !write_file(parent + "/cgroup.subtree_control", "+memory"))
      return std::nullopt;  // processes of ours still in the parent: the next start tries again
    return CgroupParent{CgroupVersion::V2, parent};
  }
  std::string controllers = read_text(own + "/cgroup.controllers");
  if (!controllers.empty() && controllers.back() == '\n') controllers.pop_back();
  if (!has_word(controllers, "memory", ' ') || ::access(own.c_str(), W_OK) != 0 ||
      ::access((own + "/cgroup.subtree_control").c_str(), W_OK) != 0)
    return std::nullopt;
  const pid_t self = ::getpid();
  std::istringstream procs(read_text(own + "/cgroup.procs"));
  for (long pid = 0; procs >> pid;)
    if (!ours(static_cast<pid_t>(pid), self)) return std::nullopt;  // not ours to rearrange
  const std::string leaf = own + "/" + kDaemonLeaf;
  if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) return std::nullopt;
  if (!write_file(leaf + "/cgroup.procs", std::to_string(self))) return std::nullopt;
  if (!write_file(own + "/cgroup.subtree_control", "+memory")) return std::nullopt;
  return CgroupParent{CgroupVersion::V2, own};
}

// Removes the empty engine cgroups of referees that are gone (killed before they could).
void remove_stale(const std::string& parent) {
  DIR* dir = ::opendir(parent.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    long pid = 0;
    unsigned suffix = 0;
    if (std::sscanf(entry->d_name, "engine-%ld-%x", &pid, &suffix) != 2 || pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      ::rmdir((parent + "/" + entry->d_name).c_str());
  }
  ::closedir(dir);
}

}  // namespace

std::optional<std::string> cgroup_dir_of(CgroupVersion version, std::string_view proc_cgroup,
                                         std::string_view mountinfo) {
  std::optional<std::string> path;  // in the hierarchy
  for (auto line : split(proc_cgroup, '\n')) {
    const auto fields = split(line, ':');
    if (fields.size() < 3) continue;
    const bool match = version == CgroupVersion::V2 ? fields[0] == "0" && fields[1].empty()
                                                    : has_word(fields[1], "memory", ',');
    if (match) path = std::string(line.substr(fields[0].size() + fields[1].size() + 2));
  }
  if (!path) return std::nullopt;
  for (auto line : split(mountinfo, '\n')) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string_view::npos) continue;
    const auto mount = split(line.substr(0, dash), ' ');
    const auto source = split(line.substr(dash + 3), ' ');
    if (mount.size() < 5 || source.size() < 3) continue;
    const bool match = version == CgroupVersion::V2
                           ? source[0] == "cgroup2"
                           : source[0] == "cgroup" && has_word(source[2], "memory", ',');
    if (!match) continue;
    const std::string root(mount[3]), point(mount[4]);
    if (root == "/") return *path == "/" ? point : point + *path;
    if (*path == root) return point;
    if (path->rfind(root + "/", 0) == 0) return point + path->substr(root.size());
  }
  return std::nullopt;
}

std::optional<CgroupParent> find_memory_cgroup() {
  const std::string proc_cgroup = read_text("/proc/self/cgroup");
  const std::string mountinfo = read_text("/proc/self/mountinfo");
  if (auto own = cgroup_dir_of(CgroupVersion::V2, proc_cgroup, mountinfo))
    if (auto parent = find_v2(*own)) return parent;
  if (auto own = cgroup_dir_of(CgroupVersion::V1, proc_cgroup, mountinfo))
    if (::access(own->c_str(), W_OK) == 0 && exists(*own + "/memory.limit_in_bytes"))
      return CgroupParent{CgroupVersion::V1, *own};
  return std::nullopt;
}

Expected<EngineCgroup> make_engine_cgroup(const CgroupParent& parent, long memory_mb) {
  remove_stale(parent.dir);
  EngineCgroup cgroup;
  cgroup.version = parent.version;
  cgroup.memory_mb = memory_mb;
  std::random_device random;
  for (int attempt = 0;; ++attempt) {
    char name[64];
    std::snprintf(name, sizeof name, "engine-%ld-%08x", static_cast<long>(::getpid()),
                  static_cast<unsigned>(random()));
    cgroup.dir = parent.dir + "/" + name;
    if (::mkdir(cgroup.dir.c_str(), 0755) == 0) break;
    if (errno != EEXIST || attempt == 8)
      return Error{
          "cannot make the engine's memory cgroup " + cgroup.dir + ": " + errno_text(errno),
          ErrorKind::Io};
  }
  cgroup.procs = cgroup.dir + "/cgroup.procs";
  const std::string bytes = std::to_string(memory_mb * 1024 * 1024);
  Status limited = Ok{};
  if (cgroup.version == CgroupVersion::V2) {
    limited = write_file(cgroup.dir + "/memory.max", bytes);
    // No swap: the limit is memory, not memory that pages out (absent where swap is not counted).
    if (limited && exists(cgroup.dir + "/memory.swap.max"))
      limited = write_file(cgroup.dir + "/memory.swap.max", "0");
  } else {
    limited = write_file(cgroup.dir + "/memory.limit_in_bytes", bytes);
    if (limited && exists(cgroup.dir + "/memory.memsw.limit_in_bytes"))
      limited = write_file(cgroup.dir + "/memory.memsw.limit_in_bytes", bytes);
  }
  if (!limited) {
    ::rmdir(cgroup.dir.c_str());
    return limited.failure();
  }
  return cgroup;
}

bool out_of_memory(const EngineCgroup& cgroup) {
  const std::string file =
      cgroup.version == CgroupVersion::V2 ? "/memory.events" : "/memory.oom_control";
  std::istringstream text(read_text(cgroup.dir + file));
  std::string key;
  long value = 0;
  while (text >> key >> value)
    if (key == "oom_kill") return value > 0;
  return false;
}

bool remove_engine_cgroup(const EngineCgroup& cgroup) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::rmdir(cgroup.dir.c_str()) == 0 || errno == ENOENT) return true;
    if (errno != EBUSY) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

}  // namespace referee::engines
