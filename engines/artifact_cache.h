// The cache of materialised artifacts on a host: each artifact extracted once, by its SHA-256,
// into a read-only directory the sandbox mounts, kept while an engine uses it, cleaned least
// recently used first (engines/ARTIFACTS.md has the layout and the rules).
//
// Contract:
// - materialise(sha256, ...) returns a lease on `<dir>/<entry>/root`, the artifact extracted
//   there; the entry is named by the SHA-256 (a File artifact's also by a tag of its file name:
//   `<sha256>-f<16 hex>`, since the same bytes may be uploaded under two names). The bytes are
//   loaded only when the entry is missing, and are extracted only when their SHA-256 is the key: a
//   mismatch is an error and leaves no entry behind.
// - Any number of threads and processes may materialise, lease and clean the same directory at
//   once: the extraction is made in a temporary sibling and renamed into place, so an entry is
//   either absent or complete, and each hash is extracted by one of them at a time.
// - A lease keeps its entry from being cleaned until it is destroyed. clean() removes unleased
//   entries, least recently used first, until the entries' bytes add up to at most max_bytes;
//   it runs after every materialise (its failures are not the materialise's).
//
// Decisions:
// - Locks are flock(2) on a lock file per entry, `<dir>/<entry>.lock`, kept outside the entry
//   so that it outlives a removal: a lease holds LOCK_SH, a cleaner takes LOCK_EX without
//   waiting and skips an entry it cannot have. The lock file's mtime is the use time, set at
//   each materialise. A second lock file, `<entry>.fill`, held exclusively while an entry is
//   extracted, makes the others wait for that extraction rather than repeat it.
// - A lock file is unlinked only under its exclusive lock; whoever locks checks that the file
//   it locked is still the one at the path (the inode), and tries again if not.
// - The entry is complete when its marker `<entry>/complete` holds its size; one without it
//   (a crash, a hand's removal) is damaged, and removed and extracted again when next wanted.
// - Read-only and readable by another user (the sandbox runs engines as `referee-engine`):
//   files 0444, or 0555 when executable, directories 0555, the lock files 0600. The cache
//   directory is closed to everyone else, who could otherwise read any artifact by its hash: 0710
//   with the group of the sandbox's user when engines run as that user (sandbox_user_group),
//   0700 when they run as the referee.
// - Leftovers of a process that died while extracting or removing (`.tmp-*`, `.trash-*`, named
//   with its pid) are removed by clean() once that pid is gone; a cache directory is therefore
//   meant for the processes of one PID namespace. So are the lock files of an entry that is not
//   there (its bytes refused, its load failed), once no one holds them.
// - The size of an entry is the sum of its files' sizes (the manifest's total).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/expected.h"
#include "engines/artifact.h"

namespace referee::engines {

// The most a cache keeps unless told: room for hundreds of engine versions of a few MiB.
inline constexpr std::uint64_t kDefaultArtifactCacheBytes = 2ull << 30;

// Where a process keeps its cache unless told (--artifact-cache): /var/cache/referee/artifacts when
// it runs as root (the sandbox's user must cross every directory down to an entry, and root's home
// is closed to it); otherwise $XDG_CACHE_HOME/referee/artifacts, or ~/.cache/referee/artifacts, or
// .referee-artifacts in the working directory without a home.
std::string default_artifact_cache_dir();

// A materialised artifact in use: its entry is not cleaned while the lease lives.
class ArtifactLease {
 public:
  ArtifactLease(ArtifactLease&& other) noexcept;
  ArtifactLease& operator=(ArtifactLease&& other) noexcept;
  ArtifactLease(const ArtifactLease&) = delete;
  ArtifactLease& operator=(const ArtifactLease&) = delete;
  ~ArtifactLease();

  // The artifact's root directory (read-only): the sandbox's /engine.
  const std::string& root() const { return root_; }
  const std::string& sha256() const { return sha256_; }

 private:
  friend class ArtifactCache;
  ArtifactLease(std::string root, std::string sha256, int lock_fd);
  std::string root_;
  std::string sha256_;
  int lock_fd_ = -1;
};

// What one clean() did.
struct CacheCleaning {
  std::uint64_t total_bytes = 0;  // of the entries left
  std::size_t removed = 0;        // entries removed (damaged ones included)
  std::size_t leased = 0;         // entries that would have gone but were leased
};

class ArtifactCache {
 public:
  // `dir` is created when first needed (0710 or 0700: see above).
  ArtifactCache(std::string dir, std::uint64_t max_bytes);

  // The lease of the artifact `sha256` (64 lower-case hex digits), extracted from the bytes
  // `load_bytes` returns when it is not there yet (see the header comment). Errors: Invalid for a
  // bad key, a hash mismatch or an artifact the rules refuse; the loader's own error unchanged;
  // Io when the disk fails.
  Expected<ArtifactLease> materialise(const std::string& sha256, ArtifactKind kind,
                                      const std::string& file_name,
                                      const std::function<Expected<std::string>()>& load_bytes,
                                      const ArtifactLimits& limits);

  // Removes unleased entries, least recently used first, until the rest fit in max_bytes;
  // damaged entries and dead processes' leftovers go whatever the total.
  Expected<CacheCleaning> clean();

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::uint64_t max_bytes_;
};

}  // namespace referee::engines
