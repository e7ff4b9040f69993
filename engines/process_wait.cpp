// Waiting on an engine's pipes (process_wait.h).
#include "engines/process_wait.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <utility>

namespace referee::engines {

namespace {

// Tags of the pipes in the epoll set.
constexpr std::uint32_t kOut = 0, kErr = 1, kStatus = 2;

}  // namespace

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

timespec to_timespec(Clock::duration d) {
  if (d < Clock::duration::zero()) d = Clock::duration::zero();
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1000000000);
  ts.tv_nsec = static_cast<long>(ns % 1000000000);
  return ts;
}

bool PipePair::open() {
  return ::pipe2(fd, O_CLOEXEC) == 0;
}

WaitSet::~WaitSet() {
  close_fd(ep_fd_);
}

void WaitSet::watch(const WaitPipes& pipes) {
  ep_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (ep_fd_ < 0) return;
  const std::pair<int, std::uint32_t> tagged[] = {
      {pipes.out, kOut}, {pipes.err, kErr}, {pipes.status, kStatus}};
  for (auto [fd, tag] : tagged) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = tag;
    if (fd >= 0 && ::epoll_ctl(ep_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      close_fd(ep_fd_);  // ppoll then
      return;
    }
  }
  out_watched_ = pipes.out >= 0;
}

void WaitSet::close(int& fd) {
  if (ep_fd_ >= 0 && fd >= 0) ::epoll_ctl(ep_fd_, EPOLL_CTL_DEL, fd, nullptr);
  close_fd(fd);
}

Ready WaitSet::wait(const WaitPipes& pipes, Clock::time_point deadline, Clock::time_point now) {
  if (ep_fd_ < 0) return wait_ppoll(pipes, deadline, now);
  if (out_watched_ && (pipes.out_ended || pipes.out < 0)) {
    if (pipes.out >= 0) ::epoll_ctl(ep_fd_, EPOLL_CTL_DEL, pipes.out, nullptr);
    out_watched_ = false;
  }
  epoll_event events[3];
  timespec ts = to_timespec(deadline - now);
  int r = ::epoll_pwait2(ep_fd_, events, 3, &ts, nullptr);
  if (r < 0 && errno == ENOSYS) {
    close_fd(ep_fd_);
    return wait_ppoll(pipes, deadline, now);
  }
  Ready ready;
  for (int i = 0; i < r; ++i) {
    const std::uint32_t tag = events[i].data.u32;
    ready.out = ready.out || tag == kOut;
    ready.err = ready.err || tag == kErr;
    ready.status = ready.status || tag == kStatus;
  }
  ready.out = ready.out && out_watched_;
  ready.err = ready.err && pipes.err >= 0;
  ready.status = ready.status && pipes.status >= 0;
  return ready;
}

Ready WaitSet::wait_ppoll(const WaitPipes& pipes, Clock::time_point deadline,
                          Clock::time_point now) {
  pollfd fds[3];
  int n = 0, out_i = -1, err_i = -1, status_i = -1;
  if (!pipes.out_ended && pipes.out >= 0) {
    out_i = n;
    fds[n++] = {pipes.out, POLLIN, 0};
  }
  if (pipes.err >= 0) {
    err_i = n;
    fds[n++] = {pipes.err, POLLIN, 0};
  }
  if (pipes.status >= 0) {
    status_i = n;
    fds[n++] = {pipes.status, POLLIN, 0};
  }
  timespec ts = to_timespec(deadline - now);
  Ready ready;
  if (::ppoll(fds, static_cast<nfds_t>(n), &ts, nullptr) <= 0) return ready;  // timeout, EINTR
  ready.out = out_i >= 0 && fds[out_i].revents;
  ready.err = err_i >= 0 && fds[err_i].revents;
  ready.status = status_i >= 0 && fds[status_i].revents;
  return ready;
}

std::optional<WriteFailure> write_all(int fd, std::string_view bytes, Clock::time_point deadline) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE) return WriteFailure{WriteFault::BrokenPipe};
    if (errno != EAGAIN) return WriteFailure{WriteFault::System, errno};
    // The pipe is full: the engine is not reading. Wait for room, up to the deadline.
    if (Clock::now() >= deadline) return WriteFailure{WriteFault::TimedOut};
    pollfd room{fd, POLLOUT, 0};
    timespec ts = to_timespec(deadline - Clock::now());
    ::ppoll(&room, 1, &ts, nullptr);
  }
  return std::nullopt;
}

bool read_ready(int fd, const std::function<void(const char*, std::size_t)>& take) {
  char scratch[4096];
  for (int i = 0; i < kMaxReadsPerWake; ++i) {
    ssize_t n = ::read(fd, scratch, sizeof scratch);
    if (n > 0) {
      take(scratch, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n == 0 || errno != EAGAIN;
  }
  return false;
}

}  // namespace referee::engines
