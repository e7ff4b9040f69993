// Engine process: spawning, line reading with absolute deadlines, writing, shutdown (process.h).
//
// Decisions:
// - The stdout buffer is one flat array of max_line_bytes + kReadChunk bytes, scanned with memchr
//   and compacted only when it runs out of room: a buffered line costs no syscall and no clock
//   read, and a flooding engine cannot make it grow.
// - The deadline is checked before every read or poll, so an engine that writes without pause
//   still sees its deadline; lines already in the buffer (one read's worth at most) are handed
//   out after it.
// - Exit is detected with waitid(WNOWAIT): the leader stays a zombie, so its pid (the group id)
//   cannot be reused while we kill the rest of its group; only then is it reaped.
// - SIGPIPE is ignored process-wide on the first spawn (std::call_once): a write to a dead
//   engine is then EPIPE, a value. The child gets every signal back to its default.
#include "engines/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

extern char** environ;

namespace referee::engines {

namespace {

constexpr std::size_t kReadChunk = 16384;
constexpr int kMaxReadsPerWake = 4;  // a flood on one pipe cannot starve the deadline
// Without a pidfd, how often shut_down looks whether the child has exited.
constexpr auto kExitPollStep = std::chrono::milliseconds(2);

std::string errno_text(int err) {
  return std::strerror(err);
}

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

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

bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

std::string escape_controls(const char* p, std::size_t n) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto c = static_cast<unsigned char>(p[i]);
    if (is_control(c)) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

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

// The path to execute: `command` itself when it holds a '/', else the first executable match in
// PATH (the referee's). Errors are errno values.
Expected<std::string> resolve_command(const std::string& command, const std::string& dir) {
  if (command.empty()) return Error{"empty command"};
  if (command.find('/') != std::string::npos) {
    if (int err = check_executable(command, dir)) return Error{errno_text(err)};
    return command;
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
    int err = check_executable(candidate, dir);
    if (err == 0) return candidate;
    if (err != ENOENT && err != ENOTDIR && first_error == ENOENT) first_error = err;
    start = end + 1;
  }
  return Error{errno_text(first_error) + " (searched PATH)"};
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* text = ::sigdescr_np(sig);
    return "signal " + std::to_string(sig) + " (" + (text ? text : "unknown") + ")";
  }
  return "status " + std::to_string(status);
}

// RAII for the posix_spawn attribute objects.
struct SpawnActions {
  posix_spawn_file_actions_t actions;
  SpawnActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
};
struct SpawnAttr {
  posix_spawnattr_t attr;
  SpawnAttr() { posix_spawnattr_init(&attr); }
  ~SpawnAttr() { posix_spawnattr_destroy(&attr); }
};

}  // namespace

struct Process::Impl {
  pid_t pid = -1;
  int in_fd = -1, out_fd = -1, err_fd = -1, pid_fd = -1;
  std::string command;
  std::size_t max_line = 0;
  std::size_t tail_cap = 0;

  // stdout bytes: [head, tail) unconsumed; [head, scanned) known to hold no '\n'.
  std::unique_ptr<char[]> buf;
  std::size_t cap = 0, head = 0, tail = 0, scanned = 0;
  bool discarding = false;  // inside a line already reported TooLong: drop up to its '\n'
  bool out_eof = false;
  bool poll_first = false;  // a request was just written: its answer cannot be there yet
  std::size_t out_count = 0;

  std::string err_tail;
  std::string wbuf;           // reused by every write: no allocation once warm
  std::optional<int> status;  // the raw wait status, once reaped

  ~Impl() {
    if (pid > 0 && !status) {
      ::kill(-pid, SIGKILL);
      int st = 0;
      while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
    }
    close_fd(in_fd);
    close_fd(out_fd);
    close_fd(err_fd);
    close_fd(pid_fd);
  }

  // ---- stdout ----

  ReadResult make_line(std::size_t begin, std::size_t len) {
    if (len > 0 && buf[begin + len - 1] == '\r') --len;
    const char* p = buf.get() + begin;
    if (len > max_line) return {ReadStatus::TooLong, {}};
    for (std::size_t i = 0; i < len; ++i)
      if (is_control(static_cast<unsigned char>(p[i])))
        return {ReadStatus::BadByte, escape_controls(p, len)};
    return {ReadStatus::Line, std::string(p, len)};
  }

  // Takes one complete line (or a TooLong report) from the buffer; false when none is there.
  bool take_line(ReadResult& out) {
    for (;;) {
      auto* nl = static_cast<char*>(std::memchr(buf.get() + scanned, '\n', tail - scanned));
      if (!nl) {
        scanned = tail;
        if (discarding) {
          head = tail = scanned = 0;
          return false;
        }
        if (tail - head > max_line + 1) {  // +1: room for a '\r' that would be stripped
          discarding = true;
          head = tail = scanned = 0;
          out = {ReadStatus::TooLong, {}};
          return true;
        }
        return false;
      }
      std::size_t end = static_cast<std::size_t>(nl - buf.get());
      std::size_t begin = head;
      head = scanned = end + 1;
      if (head == tail) head = tail = scanned = 0;
      if (discarding) {
        discarding = false;
        continue;
      }
      out = make_line(begin, end - begin);
      return true;
    }
  }

  // One read() from stdout into the buffer. Returns false on EAGAIN (nothing there).
  bool fill() {
    if (cap - tail < kReadChunk && head > 0) {
      std::memmove(buf.get(), buf.get() + head, tail - head);
      tail -= head;
      scanned -= head;
      head = 0;
    }
    for (;;) {
      ssize_t n = ::read(out_fd, buf.get() + tail, cap - tail);
      if (n > 0) {
        tail += static_cast<std::size_t>(n);
        out_count += static_cast<std::size_t>(n);
        return true;
      }
      if (n == 0) {
        out_eof = true;
        return true;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return false;
      out_eof = true;  // any other error: nothing more will come
      return true;
    }
  }

  // Reads and drops stdout (during shutdown).
  void discard_stdout() {
    char scratch[4096];
    for (int i = 0; i < kMaxReadsPerWake; ++i) {
      ssize_t n = ::read(out_fd, scratch, sizeof scratch);
      if (n > 0) {
        out_count += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || errno != EAGAIN) out_eof = true;
      return;
    }
  }

  // ---- stderr ----

  void drain_stderr() {
    char scratch[4096];
    for (int i = 0; i < kMaxReadsPerWake && err_fd >= 0; ++i) {
      ssize_t n = ::read(err_fd, scratch, sizeof scratch);
      if (n > 0) {
        err_tail.append(scratch, static_cast<std::size_t>(n));
        if (err_tail.size() > 2 * tail_cap) err_tail.erase(0, err_tail.size() - tail_cap);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || errno != EAGAIN) close_fd(err_fd);
      return;
    }
  }

  // Waits for stdout/stderr activity (and the pidfd when `with_pid`) until `deadline`, then
  // serves stderr. Returns whether stdout (or the pidfd) is ready.
  bool wait_io(Clock::time_point deadline, bool with_pid) {
    pollfd fds[3];
    int n = 0, out_i = -1, err_i = -1, pid_i = -1;
    if (!out_eof && out_fd >= 0) {
      out_i = n;
      fds[n++] = {out_fd, POLLIN, 0};
    }
    if (err_fd >= 0) {
      err_i = n;
      fds[n++] = {err_fd, POLLIN, 0};
    }
    if (with_pid && pid_fd >= 0) {
      pid_i = n;
      fds[n++] = {pid_fd, POLLIN, 0};
    }
    timespec ts = to_timespec(deadline - Clock::now());
    int r = ::ppoll(fds, static_cast<nfds_t>(n), &ts, nullptr);
    if (r <= 0) return false;  // timeout or EINTR: the caller re-checks its deadline
    if (err_i >= 0 && fds[err_i].revents) drain_stderr();
    bool ready = out_i >= 0 && fds[out_i].revents;
    if (pid_i >= 0 && fds[pid_i].revents) ready = true;
    return ready;
  }

  // ---- stdin ----

  // Writes all of wbuf in as few write() calls as the pipe allows.
  Status write_buffer(Clock::time_point deadline) {
    auto fail = [&](const std::string& why) {
      return Error{"cannot write to engine '" + command + "': " + why};
    };
    if (in_fd < 0) return fail("its input is closed");
    std::size_t done = 0;
    const std::size_t size = wbuf.size();
    while (done < size) {
      ssize_t n = ::write(in_fd, wbuf.data() + done, size - done);
      if (n >= 0) {
        done += static_cast<std::size_t>(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno == EPIPE) return fail("broken pipe (the engine closed its input or exited)");
      if (errno != EAGAIN) return fail(errno_text(errno));
      // The pipe is full: the engine is not reading. Wait for room, up to the deadline.
      if (Clock::now() >= deadline) return fail("timed out (the engine is not reading its input)");
      pollfd fd{in_fd, POLLOUT, 0};
      timespec ts = to_timespec(deadline - Clock::now());
      ::ppoll(&fd, 1, &ts, nullptr);
    }
    return Ok{};
  }

  // ---- exit ----

  // Has the leader exited? Leaves it a zombie (WNOWAIT).
  bool exited() {
    if (status) return true;
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
      if (errno != EINTR) return true;  // ECHILD: nothing left to wait for
    }
    return info.si_pid != 0;
  }

  // The leader has exited or been killed: kill its leftover group, reap it, keep a last stderr.
  void finish() {
    if (status) return;
    ::kill(-pid, SIGKILL);
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(pid, &st, 0)) < 0 && errno == EINTR) {
    }
    status = r == pid ? st : 0;
    drain_stderr();
    close_fd(pid_fd);
  }

  // Waits until the leader exits or `deadline`; stdout is discarded, stderr kept.
  bool wait_exit(Clock::time_point deadline) {
    // glibc 2.36's <sys/pidfd.h> lacks extern "C", so the system call is made directly.
    if (pid_fd < 0) pid_fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // -1: we poll
    for (;;) {
      if (exited()) return true;
      auto now = Clock::now();
      if (now >= deadline) return false;
      auto until = pid_fd >= 0 ? deadline : std::min(deadline, now + kExitPollStep);
      if (wait_io(until, true) && !out_eof) discard_stdout();
    }
  }
};

Process::Process(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Process::Process(Process&&) noexcept = default;
Process& Process::operator=(Process&&) noexcept = default;
Process::~Process() = default;

Expected<Process> Process::spawn(const SpawnSpec& spec) {
  ignore_sigpipe_once();
  auto fail = [&](const std::string& why) {
    return Error{"cannot start engine '" + spec.command + "': " + why};
  };

  if (!spec.working_dir.empty()) {
    struct stat st {};
    if (::stat(spec.working_dir.c_str(), &st) != 0)
      return fail("working directory '" + spec.working_dir + "': " + errno_text(errno));
    if (!S_ISDIR(st.st_mode))
      return fail("working directory '" + spec.working_dir + "': " + errno_text(ENOTDIR));
    if (::access(spec.working_dir.c_str(), X_OK) != 0)
      return fail("working directory '" + spec.working_dir + "': " + errno_text(errno));
  }
  auto path = resolve_command(spec.command, spec.working_dir);
  if (!path) return fail(path.error());

  auto impl = std::make_unique<Impl>();
  impl->command = spec.command;
  impl->max_line = spec.max_line_bytes;
  impl->tail_cap = spec.stderr_tail_bytes;
  impl->cap = spec.max_line_bytes + 1 + kReadChunk;
  impl->buf = std::make_unique<char[]>(impl->cap);

  // Pipes: [0] read end, [1] write end. All close-on-exec; the child's ends are dup2'd onto
  // 0/1/2 (which clears the flag on the copies) and the parent closes its copies at once.
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return fail("pipe: " + errno_text(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(in[0]), ::close(in[1]);
    return fail("pipe: " + errno_text(e));
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return fail("pipe: " + errno_text(e));
  }
  impl->in_fd = in[1];
  impl->out_fd = out[0];
  impl->err_fd = err[0];
  int child_in = in[0], child_out = out[1], child_err = err[1];
  auto close_child_ends = [&] {
    close_fd(child_in);
    close_fd(child_out);
    close_fd(child_err);
  };
  if (!set_nonblocking(impl->in_fd) || !set_nonblocking(impl->out_fd) ||
      !set_nonblocking(impl->err_fd)) {
    int e = errno;
    close_child_ends();
    return fail("fcntl: " + errno_text(e));
  }

  SpawnActions fa;
  if (!spec.working_dir.empty())
    posix_spawn_file_actions_addchdir_np(&fa.actions, spec.working_dir.c_str());
  posix_spawn_file_actions_adddup2(&fa.actions, child_in, 0);
  posix_spawn_file_actions_adddup2(&fa.actions, child_out, 1);
  posix_spawn_file_actions_adddup2(&fa.actions, child_err, 2);
  posix_spawn_file_actions_addclosefrom_np(&fa.actions, 3);  // fds other threads opened

  SpawnAttr sa;
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&sa.attr, &all);  // SIGPIPE and friends back to default
  posix_spawnattr_setsigmask(&sa.attr, &none);
  posix_spawnattr_setpgroup(&sa.attr, 0);  // its own group: kill(-pid) reaches grandchildren
  posix_spawnattr_setflags(
      &sa.attr,
      static_cast<short>(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK));

  std::vector<std::string> argv_store;
  argv_store.push_back(spec.command);
  argv_store.insert(argv_store.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_store;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    auto key = entry.substr(0, entry.find('='));
    if (!spec.env.count(std::string(key))) env_store.emplace_back(entry);
  }
  for (const auto& [key, value] : spec.env) env_store.push_back(key + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);

  // glibc's posix_spawn returns after the exec (CLONE_VFORK), reporting chdir/exec errors.
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, path->c_str(), &fa.actions, &sa.attr, argv.data(), envp.data());
  close_child_ends();
  if (rc != 0) return fail(errno_text(rc));
  impl->pid = pid;

  const std::pair<__rlimit_resource, long> limits[] = {
      {RLIMIT_AS, spec.limits.memory_mb * 1024 * 1024},
      {RLIMIT_CPU, spec.limits.cpu_seconds},
      {RLIMIT_NPROC, spec.limits.processes}};
  for (auto [resource, value] : limits) {
    if (value <= 0) continue;
    rlimit lim{};
    lim.rlim_cur = static_cast<rlim_t>(value);
    // CPU: SIGXCPU at the soft limit, SIGKILL one second later.
    lim.rlim_max = static_cast<rlim_t>(resource == RLIMIT_CPU ? value + 1 : value);
    if (::prlimit(pid, resource, &lim, nullptr) != 0)
      return fail("prlimit: " + errno_text(errno));  // ~Impl kills and reaps the child
  }
  return Process(std::move(impl));
}

Status Process::write_line(std::string_view line, Clock::time_point deadline) {
  auto& w = impl_->wbuf;
  w.clear();
  w.append(line);
  w += '\n';
  return impl_->write_buffer(deadline);
}

Status Process::write_lines(const std::vector<std::string>& lines, Clock::time_point deadline) {
  auto& w = impl_->wbuf;
  w.clear();
  for (const auto& line : lines) {
    w += line;
    w += '\n';
  }
  impl_->poll_first = true;
  return impl_->write_buffer(deadline);
}

ReadResult Process::read_line(Clock::time_point deadline) {
  Impl& p = *impl_;
  ReadResult result{ReadStatus::Eof, {}};
  for (;;) {
    if (p.take_line(result)) return result;
    if (p.out_eof) {
      if (p.tail > p.head && !p.discarding) {  // a last line without its '\n'
        std::size_t begin = p.head;
        std::size_t len = p.tail - p.head;
        p.head = p.tail = p.scanned = 0;
        return p.make_line(begin, len);
      }
      p.head = p.tail = p.scanned = 0;
      return {ReadStatus::Eof, {}};
    }
    if (Clock::now() >= deadline) return {ReadStatus::Timeout, {}};
    // Right after a request the answer is not there yet: wait first, saving a read() that would
    // fail with EAGAIN. Otherwise read first: a talkative engine's bytes are usually there.
    if (p.poll_first) {
      p.poll_first = false;
      p.wait_io(deadline, false);
    }
    if (p.fill()) continue;
    p.wait_io(deadline, false);
  }
}

std::size_t Process::output_count() const {
  return impl_->out_count;
}
void Process::reset_output_count() {
  impl_->out_count = 0;
}

std::string Process::stderr_tail() {
  Impl& p = *impl_;
  p.drain_stderr();
  if (p.err_tail.size() > p.tail_cap) return p.err_tail.substr(p.err_tail.size() - p.tail_cap);
  return p.err_tail;
}

bool Process::running() {
  Impl& p = *impl_;
  if (p.status) return false;
  if (!p.exited()) return true;
  p.finish();
  return false;
}

std::string Process::exit_description() const {
  return impl_->status ? describe_status(*impl_->status) : std::string();
}

std::optional<int> Process::exit_code() const {
  const auto& st = impl_->status;
  if (st && WIFEXITED(*st)) return WEXITSTATUS(*st);
  return std::nullopt;
}

std::optional<int> Process::exit_signal() const {
  const auto& st = impl_->status;
  if (st && WIFSIGNALED(*st)) return WTERMSIG(*st);
  return std::nullopt;
}

void Process::shut_down(std::chrono::milliseconds grace, std::chrono::milliseconds term_grace) {
  Impl& p = *impl_;
  if (p.status) return;
  close_fd(p.in_fd);  // end of input: a well-behaved engine exits on it as on `quit`
  if (!p.wait_exit(Clock::now() + grace)) {
    ::kill(-p.pid, SIGTERM);
    if (!p.wait_exit(Clock::now() + term_grace)) ::kill(-p.pid, SIGKILL);
  }
  p.finish();
}

pid_t Process::pid() const {
  return impl_->pid;
}

}  // namespace referee::engines
