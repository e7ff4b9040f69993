// A small real file system for the tests of a low or full disk: a tmpfs of a few MiB mounted in a
// temporary directory (root only; ok() is false elsewhere and the test says it was skipped), with
// a filler file that takes its free space down to what the test wants.
#pragma once

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/referee/rtest_util.h"

namespace rtest {

class SmallDisk {
 public:
  explicit SmallDisk(long mib) : mount_(dir_.file("disk")) {
    ::mkdir(mount_.c_str(), 0755);
    const std::string options = "size=" + std::to_string(mib) + "m";
    mounted_ =
        ::geteuid() == 0 && ::mount("tmpfs", mount_.c_str(), "tmpfs", 0, options.c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(mount_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool ok() const { return mounted_; }
  std::string file(const std::string& name) const { return mount_ + "/" + name; }
  std::int64_t free_bytes() const {
    struct statvfs fs {};
    if (::statvfs(mount_.c_str(), &fs) != 0) return -1;
    return static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize);
  }
  // Grows the filler until at most `left` bytes are free (0: a full disk, writes fail ENOSPC).
  void fill(std::int64_t left) {
    const int fd = ::open(file("filler").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    std::vector<char> block(64 * 1024, 'x');
    while (free_bytes() > left) {
      const std::int64_t want = free_bytes() - left;
      const auto n = static_cast<std::size_t>(
          std::min<std::int64_t>(want, static_cast<std::int64_t>(block.size())));
      if (::write(fd, block.data(), n) <= 0) break;
    }
    ::close(fd);
  }
  void unfill() { ::unlink(file("filler").c_str()); }

 private:
  TempDir dir_;
  std::string mount_;
  bool mounted_ = false;
};

}  // namespace rtest
