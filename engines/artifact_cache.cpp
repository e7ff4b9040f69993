#include "engines/artifact_cache.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "engines/owned_fd.h"
#include "engines/sandbox.h"

namespace referee::engines {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = "complete";
constexpr const char* kRoot = "root";
// How long a materialise waits for the leases of a damaged entry to go before giving up.
constexpr auto kDamagedWait = std::chrono::seconds(10);
// Entries appearing and vanishing under a materialise (cleaned, repaired) before it gives up.
constexpr int kAttempts = 8;

Error io_error(const std::string& what, const std::string& path) {
  return Error{"artifact cache: cannot " + what + " '" + path + "': " + std::strerror(errno),
               ErrorKind::Io};
}

bool is_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_key(const std::string& text) {
  return text.size() == 64 && is_hex(text);
}

// The entry's name: the key, and for a File artifact a tag of its name too (the same bytes
// uploaded as "bot.py" and as "main.py" are two directories: the command names the file).
std::string entry_name(const std::string& sha256, ArtifactKind kind, const std::string& name) {
  if (kind == ArtifactKind::Tree) return sha256;
  return sha256 + "-f" + bytes_sha256("file:" + name).substr(0, 16);
}

bool is_entry_name(const std::string& text) {
  const std::string_view view(text);
  return (text.size() == 64 && is_hex(view)) ||
         (text.size() == 64 + 2 + 16 && is_hex(view.substr(0, 64)) && view.substr(64, 2) == "-f" &&
          is_hex(view.substr(66)));
}

// An flock'ed lock file: closing it, when it goes, unlocks it.
using Lock = OwnedFd;

enum class LockResult { Locked, Busy, Failed };

// Locks the file at `path` (created if missing) with `operation`, making sure the file locked is
// still the one at the path (a cleaner may unlink it under its exclusive lock).
LockResult lock_file(const std::string& path, int operation, Lock& out) {
  for (;;) {
    Lock lock(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (lock.get() < 0) return LockResult::Failed;
    while (::flock(lock.get(), operation) != 0) {
      if (errno == EWOULDBLOCK) return LockResult::Busy;
      if (errno != EINTR) return LockResult::Failed;
    }
    struct stat held {
    }, now{};
    if (::fstat(lock.get(), &held) != 0) return LockResult::Failed;
    if (::stat(path.c_str(), &now) == 0 && now.st_ino == held.st_ino && now.st_dev == held.st_dev) {
      out = std::move(lock);
      return LockResult::Locked;
    }
  }
}

enum class EntryState { Missing, Complete, Damaged };

struct EntryInfo {
  EntryState state = EntryState::Missing;
  std::uint64_t bytes = 0;
};

EntryInfo entry_info(const std::string& entry) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0) return {};
  EntryInfo info{EntryState::Damaged, 0};
  std::ifstream marker(entry + "/" + kMarker);
  std::string word;
  if (S_ISDIR(st.st_mode) && marker >> word >> info.bytes && word == "bytes" &&
      ::stat((entry + "/" + kRoot).c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    info.state = EntryState::Complete;
  return info;
}

// Files 0444 (0555 when executable), directories 0555, below and including `root`.
Status make_read_only(const std::string& root) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) return io_error("read", it->path().string());
    if (S_ISLNK(st.st_mode)) continue;
    const mode_t mode = S_ISDIR(st.st_mode) ? 0555 : (st.st_mode & S_IXUSR) ? 0555 : 0444;
    if (::chmod(it->path().c_str(), mode) != 0) return io_error("chmod", it->path().string());
  }
  if (ec)
    return Error{"artifact cache: cannot walk '" + root + "': " + ec.message(), ErrorKind::Io};
  if (::chmod(root.c_str(), 0555) != 0) return io_error("chmod", root);
  return Ok{};
}

// Removes a tree made read-only (its directories made writable first: a non-root owner cannot
// unlink from a 0555 directory).
void remove_tree(const std::string& path) {
  std::error_code ec;
  ::chmod(path.c_str(), 0700);
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      ::chmod(it->path().c_str(), 0700);
  }
  fs::remove_all(path, ec);
}

// Moves `entry` out of the way (one rename: the entry vanishes whole), then removes it.
void discard_entry(const std::string& dir, const std::string& entry) {
  std::string trash = dir + "/.trash-" + std::to_string(::getpid()) + "-XXXXXX";
  if (!::mkdtemp(trash.data())) return;
  if (::rename(entry.c_str(), (trash + "/entry").c_str()) != 0 && errno != ENOENT) {
    remove_tree(entry);  // cannot happen on one file system; removing in place still frees it
  }
  remove_tree(trash);
}

void touch(int fd) {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  const struct timespec times[2] = {now, now};
  ::futimens(fd, times);
}

// The pid in a leftover's name (".tmp-<sha>-<pid>-XXXXXX", ".trash-<pid>-XXXXXX"), or 0.
pid_t leftover_pid(const std::string& name) {
  const std::size_t end = name.rfind('-');
  if (end == std::string::npos || end == 0) return 0;
  const std::size_t start = name.rfind('-', end - 1);
  if (start == std::string::npos) return 0;
  try {
    return static_cast<pid_t>(std::stol(name.substr(start + 1, end - start - 1)));
  } catch (...) {
    return 0;
  }
}

}  // namespace

ArtifactLease::ArtifactLease(std::string root, std::string sha256, int lock_fd)
    : root_(std::move(root)), sha256_(std::move(sha256)), lock_fd_(lock_fd) {}

ArtifactLease::ArtifactLease(ArtifactLease&& other) noexcept
    : root_(std::move(other.root_)),
      sha256_(std::move(other.sha256_)),
      lock_fd_(std::exchange(other.lock_fd_, -1)) {}

ArtifactLease& ArtifactLease::operator=(ArtifactLease&& other) noexcept {
  std::swap(root_, other.root_);
  std::swap(sha256_, other.sha256_);
  std::swap(lock_fd_, other.lock_fd_);
  return *this;
}

ArtifactLease::~ArtifactLease() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing the last descriptor drops the flock
}

namespace {

// The cache directory, made when missing, closed to every other user: 0710 with the group of the
// sandbox's user where engines run as that user (it crosses the directory to the entry bwrap
// mounts), else 0700. Set at each materialise, so that a cache made before is closed too.
Status make_cache_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Error{"artifact cache: cannot create '" + dir + "': " + ec.message(), ErrorKind::Io};
  const std::string user = Sandbox{}.user;
  const auto group = sandbox_user_group(user);
  if (group && ::chown(dir.c_str(), static_cast<uid_t>(-1), *group) != 0)
    return Error{"artifact cache: cannot give '" + dir + "' to the group of '" + user +
                     "', who runs the engines: " + std::strerror(errno) +
                     " (the referee must be root or a member of that group)",
                 ErrorKind::Io};
  if (::chmod(dir.c_str(), group ? 0710 : 0700) != 0) return io_error("chmod", dir);
  return Ok{};
}

}  // namespace

ArtifactCache::ArtifactCache(std::string dir, std::uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {}

Expected<ArtifactLease> ArtifactCache::materialise(
    const std::string& sha256, ArtifactKind kind, const std::string& file_name,
    const std::function<Expected<std::string>()>& load_bytes, const ArtifactLimits& limits) {
  if (!is_key(sha256))
    return Error{"artifact cache: '" + sha256 + "' is not a SHA-256 (64 lower-case hex digits)"};
  if (auto made = make_cache_dir(dir_); !made) return made.failure();
  const std::string entry = dir_ + "/" + entry_name(sha256, kind, file_name);
  const std::string lock_path = entry + ".lock";
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Lock lease;
    if (lock_file(lock_path, LOCK_SH, lease) != LockResult::Locked)
      return io_error("lock", lock_path);
    touch(lease.get());
    EntryInfo info = entry_info(entry);
    if (info.state == EntryState::Missing) {
      // One extraction at a time per hash; whoever waited finds it done.
      Lock fill;
      if (lock_file(entry + ".fill", LOCK_EX, fill) != LockResult::Locked)
        return io_error("lock", entry + ".fill");
      info = entry_info(entry);
      if (info.state == EntryState::Missing) {
        Expected<std::string> bytes = load_bytes();
        if (!bytes) return bytes.failure();
        const std::string actual = bytes_sha256(*bytes);
        if (actual != sha256)
          return Error{"artifact cache: the bytes loaded for " + sha256 + " have SHA-256 " +
                       actual};
        std::string tmp = entry;
        tmp.insert(dir_.size() + 1, ".tmp-");
        tmp += "-" + std::to_string(::getpid()) + "-XXXXXX";
        if (!::mkdtemp(tmp.data())) return io_error("create a directory like", tmp);
        const std::string root = tmp + "/" + kRoot;
        std::uint64_t total = 0;
        Status made = Ok{};
        if (::mkdir(root.c_str(), 0700) != 0) made = io_error("create", root);
        if (made) {
          Expected<ArtifactManifest> written =
              extract_artifact(kind, file_name, *bytes, root, limits);
          if (written) total = written->total_bytes;
          made = written ? Status(Ok{}) : Status(written.failure());
        }
        if (made) made = make_read_only(root);
        if (made) {
          std::ofstream marker(tmp + "/" + kMarker);
          marker << "bytes " << total << "\n";
          marker.close();
          if (!marker) made = io_error("write", tmp + "/" + kMarker);
        }
        if (made &&
            (::chmod((tmp + "/" + kMarker).c_str(), 0444) != 0 || ::chmod(tmp.c_str(), 0555) != 0))
          made = io_error("chmod", tmp);
        // rename(2) refuses to replace a non-empty directory: a racing twin's entry stays.
        if (made && ::rename(tmp.c_str(), entry.c_str()) != 0 && errno != EEXIST &&
            errno != ENOTEMPTY)
          made = io_error("rename into place", tmp);
        remove_tree(tmp);  // gone already when the rename succeeded
        if (!made) return made.failure();
        info = entry_info(entry);
      }
    }
    if (info.state == EntryState::Complete) {
      ArtifactLease result(entry + "/" + kRoot, sha256, lease.release());
      (void)clean();
      return result;
    }
    if (info.state == EntryState::Damaged) {
      // Removed under the exclusive lock: whoever leased it is gone, or we give up waiting.
      lease = Lock();
      const auto deadline = std::chrono::steady_clock::now() + kDamagedWait;
      Lock exclusive;
      LockResult locked;
      while ((locked = lock_file(lock_path, LOCK_EX | LOCK_NB, exclusive)) == LockResult::Busy &&
             std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (locked != LockResult::Locked)
        return Error{"artifact cache: the entry " + sha256 + " is damaged and still in use",
                     ErrorKind::Unavailable};
      if (entry_info(entry).state == EntryState::Damaged) discard_entry(dir_, entry);
    }
  }
  return Error{"artifact cache: the entry " + sha256 + " kept changing while it was materialised",
               ErrorKind::Unavailable};
}

Expected<CacheCleaning> ArtifactCache::clean() {
  struct Candidate {
    std::string name;
    EntryInfo info;
    std::int64_t used_ns = 0;
  };
  std::vector<Candidate> candidates;
  std::vector<std::string> orphans;  // lock files without an entry (a refused or failed load)
  std::error_code ec, gone;
  CacheCleaning result;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(".tmp-", 0) == 0 || name.rfind(".trash-", 0) == 0) {
      const pid_t pid = leftover_pid(name);
      if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) remove_tree(it->path().string());
      continue;
    }
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos && name.substr(dot) == ".lock" &&
        is_entry_name(name.substr(0, dot)) && !fs::exists(dir_ + "/" + name.substr(0, dot), gone))
      orphans.push_back(name.substr(0, dot));
    if (!is_entry_name(name)) continue;
    Candidate c{name, entry_info(it->path().string()), 0};
    struct stat st {};
    if (::stat((it->path().string() + ".lock").c_str(), &st) == 0)
      c.used_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
    result.total_bytes += c.info.bytes;
    candidates.push_back(std::move(c));
  }
  if (ec)
    return Error{"artifact cache: cannot list '" + dir_ + "': " + ec.message(), ErrorKind::Io};
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.used_ns < b.used_ns; });
  for (const Candidate& c : candidates) {
    if (c.info.state == EntryState::Complete && result.total_bytes <= max_bytes_) continue;
    const std::string entry = dir_ + "/" + c.name;
    Lock exclusive;
    const LockResult locked = lock_file(entry + ".lock", LOCK_EX | LOCK_NB, exclusive);
    if (locked == LockResult::Busy) ++result.leased;
    if (locked != LockResult::Locked) continue;
    discard_entry(dir_, entry);
    ::unlink((entry + ".fill").c_str());
    ::unlink((entry + ".lock").c_str());  // under its exclusive lock: see lock_file
    result.total_bytes -= c.info.bytes;
    ++result.removed;
  }
  for (const std::string& name : orphans) {
    const std::string entry = dir_ + "/" + name;
    Lock exclusive;
    if (lock_file(entry + ".lock", LOCK_EX | LOCK_NB, exclusive) != LockResult::Locked ||
        fs::exists(entry, gone))
      continue;  // in use: someone is extracting it
    ::unlink((entry + ".fill").c_str());
    ::unlink((entry + ".lock").c_str());
  }
  return result;
}

std::string default_artifact_cache_dir() {
  if (::geteuid() == 0) return "/var/cache/referee/artifacts";
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    return std::string(xdg) + "/referee/artifacts";
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return std::string(home) + "/.cache/referee/artifacts";
  // Never a guessable name in /tmp, which another user could make first.
  std::error_code ec;
  return std::filesystem::absolute(".referee-artifacts", ec).string();
}

}  // namespace referee::engines
