// A file descriptor that is closed when its owner goes (move-only), for the engines layer's files:
// archives being written, lock files (closing one releases its flock).
#pragma once

#include <unistd.h>

#include <utility>

namespace referee::engines {

class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(OwnedFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  OwnedFd& operator=(OwnedFd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }  // the caller closes it

 private:
  int fd_ = -1;
};

}  // namespace referee::engines
