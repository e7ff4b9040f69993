// Engine process, the referee's side: spawning through a keeper (keeper.h), line reading with
// absolute deadlines and per-phase budgets, writing, exit watching, shutdown (process.h).
//
// Decisions:
// - The stdout buffer is one flat array of max_line_bytes + kReadChunk bytes, scanned with memchr
//   and compacted only when it runs out of room: a buffered line costs no syscall and no clock
//   read, and a flooding engine cannot make it grow. stderr goes through a 4 KiB scratch array
//   into a bounded tail and a bounded partial line; nothing read from an engine grows without cap.
// - The deadline is checked before every read or poll, so an engine that writes without pause
//   still sees its deadline; lines already in the buffer (one read's worth at most) are handed
//   out after it. The phase budget is checked before every line handed out.
// - The engine's exit is seen on the keeper's status pipe, polled beside stdout and stderr: no
//   waitpid on a process that is not ours, no pid to reuse, and no wait for stdout's end of file,
//   which a descendant may hold open. Signals to the engine go through the keeper too, which
//   alone knows, race-free, whether the group id still belongs to the engine.
// - Nothing polls while the engine is idle; the keeper costs nothing per ply: a move is still one
//   write, one wait and one read on pipes that go straight from engine to referee.
// - The wait is an epoll set of stdout, stderr and the status pipe, made once per engine: a ppoll
//   of the three pipes registered and unregistered three wait queues at every wait, about a tenth
//   of the referee's CPU per ply. A pipe leaves the set before it is closed, stdout when it ends;
//   without epoll (epoll_pwait2 needs Linux 5.11) the wait falls back to ppoll.
// - SIGPIPE is ignored process-wide on the first spawn (std::call_once): a write to a dead
//   engine is then EPIPE, a value. The engine gets every signal back to its default.
#include "engines/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <utility>

#include "engines/keeper.h"

extern char** environ;

namespace referee::engines {

namespace {

constexpr std::size_t kReadChunk = 16384;
constexpr int kMaxReadsPerWake = 4;  // a flood on one pipe cannot starve the deadline
// How long spawn waits for the keeper's report that the engine exec'd, and finish() for the
// keeper to have killed the engine's tree. Both are normally a few milliseconds.
constexpr auto kKeeperReportWait = std::chrono::seconds(30);
constexpr auto kKeeperExitWait = std::chrono::seconds(5);

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

// Pipes made close-on-exec, closed on every path out of spawn() that does not take them.
struct PipePair {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  ~PipePair() {
    close_fd(fd[0]);
    close_fd(fd[1]);
  }
  int take(int end) {
    int f = fd[end];
    fd[end] = -1;
    return f;
  }
};

}  // namespace

struct Process::Impl {
  pid_t keeper = -1;
  pid_t pid = -1;
  int in_fd = -1, out_fd = -1, err_fd = -1;
  int control_fd = -1;  // to the keeper; closing it ends the engine's tree
  int status_fd = -1;   // from the keeper; end of file once the keeper has exited
  std::string command;
  std::size_t max_line = 0;
  std::size_t tail_cap = 0;

  // stdout bytes: [head, tail) unconsumed; [head, scanned) known to hold no '\n'.
  std::unique_ptr<char[]> buf;
  std::size_t cap = 0, head = 0, tail = 0, scanned = 0;
  bool discarding = false;  // inside a line already reported TooLong: drop up to its '\n'
  bool out_eof = false;
  bool poll_first = false;  // a request was just written: its answer cannot be there yet

  ReadBudget budget;
  std::size_t lines_read = 0, bytes_read = 0;  // in this phase
  std::size_t stdout_bytes = 0;                // in this phase, stdout only

  std::string err_tail;
  std::string err_line;  // an unfinished stderr line, at most kStderrLineBytes
  StderrSink sink;
  std::string wbuf;  // reused by every write: no allocation once warm

  keeper::Message message{};  // a status message being read
  std::size_t message_bytes = 0;
  bool exited = false;        // the keeper reported the engine's exit (or was lost)
  std::optional<int> status;  // its wait status; empty when the keeper was lost
  bool reaped = false;        // the keeper has been waited for

  int ep_fd = -1;            // epoll set of out_fd (tag 0), err_fd (1), status_fd (2); -1: ppoll
  bool out_watched = false;  // out_fd is in the set

  ~Impl() {
    sink = nullptr;  // its owner may be gone already
    if (keeper > 0 && !reaped) {
      close_fd(in_fd);
      finish();
    }
    close_fd(in_fd);
    close_fd(out_fd);
    close_fd(err_fd);
    close_fd(control_fd);
    close_fd(status_fd);
    close_fd(ep_fd);
  }

  // ---- the epoll set ----

  void watch_pipes() {
    ep_fd = ::epoll_create1(EPOLL_CLOEXEC);
    if (ep_fd < 0) return;
    const std::pair<int, std::uint32_t> pipes[] = {{out_fd, 0}, {err_fd, 1}, {status_fd, 2}};
    for (auto [fd, tag] : pipes) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u32 = tag;
      if (fd >= 0 && ::epoll_ctl(ep_fd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        close_fd(ep_fd);  // ppoll then
        return;
      }
    }
    out_watched = out_fd >= 0;
  }

  // Closes a watched pipe, out of the set first: the set follows the open file, which another
  // process may still hold for a moment (a keeper between its fork and its closing of the rest).
  void close_watched(int& fd) {
    if (ep_fd >= 0 && fd >= 0) ::epoll_ctl(ep_fd, EPOLL_CTL_DEL, fd, nullptr);
    close_fd(fd);
  }

  bool over_budget() const { return bytes_read > budget.bytes || lines_read > budget.lines; }

  // ---- the keeper's reports ----

  void take_message(const keeper::Message& m) {
    if (m.kind == keeper::kExited && !exited) {
      exited = true;
      status = m.value;
    }
  }

  // Reads what the status pipe holds, without waiting.
  void read_status() {
    while (status_fd >= 0) {
      auto* bytes = reinterpret_cast<char*>(&message);
      ssize_t n = ::read(status_fd, bytes + message_bytes, sizeof message - message_bytes);
      if (n > 0) {
        message_bytes += static_cast<std::size_t>(n);
        if (message_bytes == sizeof message) {
          take_message(message);
          message_bytes = 0;
        }
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      close_watched(status_fd);  // the keeper has exited
      exited = true;             // without a report if it was killed: status stays empty
    }
  }

  void tell_keeper(char command_byte) {
    if (control_fd >= 0) (void)!::write(control_fd, &command_byte, 1);
  }

  // The engine has exited, or must go: the keeper kills its tree and exits; reap it.
  void finish() {
    if (reaped || keeper <= 0) return;
    close_fd(control_fd);
    const auto deadline = Clock::now() + kKeeperExitWait;
    while (status_fd >= 0) {
      read_status();
      if (status_fd < 0) break;
      if (Clock::now() >= deadline) {  // stuck (an engine in uninterruptible sleep): give up on it
        ::kill(keeper, SIGKILL);
        close_watched(status_fd);
        break;
      }
      pollfd fds[2] = {{status_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
      timespec ts = to_timespec(deadline - Clock::now());
      if (::ppoll(fds, err_fd >= 0 ? 2 : 1, &ts, nullptr) > 0 && fds[1].revents) drain_stderr();
    }
    exited = true;
    int st = 0;
    while (::waitpid(keeper, &st, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
    drain_stderr();
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
        bytes_read += static_cast<std::size_t>(n);
        stdout_bytes += static_cast<std::size_t>(n);
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

  // The next line from the buffer, or the end of stdout; nullopt when more must be read.
  std::optional<ReadResult> next_buffered() {
    if (bytes_read > budget.bytes) return ReadResult{ReadStatus::Flood, {}};
    ReadResult result{ReadStatus::Eof, {}};
    if (take_line(result)) {
      if (++lines_read > budget.lines) return ReadResult{ReadStatus::Flood, {}};
      return result;
    }
    if (out_eof) {
      if (tail > head && !discarding) {  // a last line without its '\n'
        std::size_t begin = head, len = tail - head;
        head = tail = scanned = 0;
        ++lines_read;
        return make_line(begin, len);
      }
      head = tail = scanned = 0;
      return ReadResult{ReadStatus::Eof, {}};
    }
    return std::nullopt;
  }

  // Reads and drops stdout (during shutdown).
  void discard_stdout() {
    char scratch[4096];
    for (int i = 0; i < kMaxReadsPerWake; ++i) {
      ssize_t n = ::read(out_fd, scratch, sizeof scratch);
      if (n > 0) {
        bytes_read += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || errno != EAGAIN) out_eof = true;
      return;
    }
  }

  // ---- stderr ----

  void emit_stderr_line() {
    std::size_t len = err_line.size();
    if (len > 0 && err_line[len - 1] == '\r') --len;
    if (sink) sink(escape_controls(err_line.data(), len));
    err_line.clear();
  }

  void take_stderr(const char* p, std::size_t n) {
    err_tail.append(p, n);
    if (err_tail.size() > 2 * tail_cap) err_tail.erase(0, err_tail.size() - tail_cap);
    if (!sink) return;
    while (n > 0) {
      auto* nl = static_cast<const char*>(std::memchr(p, '\n', n));
      std::size_t piece = nl ? static_cast<std::size_t>(nl - p) : n;
      std::size_t room = kStderrLineBytes - err_line.size();
      if (piece >= room) {  // a long line: cut it
        err_line.append(p, room);
        emit_stderr_line();
        p += room;
        n -= room;
        continue;
      }
      err_line.append(p, piece);
      if (!nl) return;
      emit_stderr_line();
      p += piece + 1;
      n -= piece + 1;
    }
  }

  void drain_stderr() {
    char scratch[4096];
    for (int i = 0; i < kMaxReadsPerWake && err_fd >= 0; ++i) {
      ssize_t n = ::read(err_fd, scratch, sizeof scratch);
      if (n > 0) {
        bytes_read += static_cast<std::size_t>(n);
        take_stderr(scratch, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || errno != EAGAIN) {
        close_watched(err_fd);
        if (!err_line.empty()) emit_stderr_line();
      }
      return;
    }
  }

  // Waits for stdout, stderr or the keeper until `deadline`; serves stderr and the keeper's
  // reports. Returns whether stdout is ready.
  bool wait_io(Clock::time_point deadline, Clock::time_point now = Clock::now()) {
    if (ep_fd < 0) return wait_io_ppoll(deadline, now);
    if (out_watched && (out_eof || out_fd < 0)) {  // an ended stdout would wake every wait
      if (out_fd >= 0) ::epoll_ctl(ep_fd, EPOLL_CTL_DEL, out_fd, nullptr);
      out_watched = false;
    }
    epoll_event events[3];
    timespec ts = to_timespec(deadline - now);
    int r = ::epoll_pwait2(ep_fd, events, 3, &ts, nullptr);
    if (r < 0 && errno == ENOSYS) {
      close_fd(ep_fd);
      return wait_io_ppoll(deadline, now);
    }
    bool out_ready = false, err_ready = false, status_ready = false;
    for (int i = 0; i < r; ++i) {
      const std::uint32_t tag = events[i].data.u32;
      out_ready = out_ready || tag == 0;
      err_ready = err_ready || tag == 1;
      status_ready = status_ready || tag == 2;
    }
    if (err_ready && err_fd >= 0) drain_stderr();
    if (status_ready && status_fd >= 0) read_status();
    return out_ready && out_watched;
  }

  bool wait_io_ppoll(Clock::time_point deadline, Clock::time_point now) {
    pollfd fds[3];
    int n = 0, out_i = -1, err_i = -1, status_i = -1;
    if (!out_eof && out_fd >= 0) {
      out_i = n;
      fds[n++] = {out_fd, POLLIN, 0};
    }
    if (err_fd >= 0) {
      err_i = n;
      fds[n++] = {err_fd, POLLIN, 0};
    }
    if (status_fd >= 0) {
      status_i = n;
      fds[n++] = {status_fd, POLLIN, 0};
    }
    timespec ts = to_timespec(deadline - now);
    int r = ::ppoll(fds, static_cast<nfds_t>(n), &ts, nullptr);
    if (r <= 0) return false;  // timeout or EINTR: the caller re-checks its deadline
    if (err_i >= 0 && fds[err_i].revents) drain_stderr();
    if (status_i >= 0 && fds[status_i].revents) read_status();
    return out_i >= 0 && fds[out_i].revents;
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

  // Waits until the engine exits or `deadline`, or its output spends the budget; stdout is
  // discarded, stderr kept.
  bool wait_exit(Clock::time_point deadline) {
    for (;;) {
      read_status();
      if (exited) return true;
      if (over_budget() || Clock::now() >= deadline) return false;
      if (wait_io(deadline) && !out_eof) discard_stdout();
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

  // Everything the keeper and the engine need, built before the fork.
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

  keeper::Plan plan;
  plan.path = path->c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.working_dir = spec.working_dir.empty() ? nullptr : spec.working_dir.c_str();
  const std::pair<int, long> limits[] = {{RLIMIT_AS, spec.limits.memory_mb * 1024 * 1024},
                                         {RLIMIT_CPU, spec.limits.cpu_seconds},
                                         {RLIMIT_NPROC, spec.limits.processes}};
  for (auto [resource, value] : limits) {
    if (value <= 0) continue;
    auto& l = plan.limits[plan.limit_count++];
    l.resource = resource;
    l.soft = static_cast<unsigned long>(value);
    // CPU: SIGXCPU at the soft limit, SIGKILL one second later.
    l.hard = static_cast<unsigned long>(resource == RLIMIT_CPU ? value + 1 : value);
  }
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    plan.max_fd = static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 20));

  // Pipes: [0] read end, [1] write end; close-on-exec everywhere, the keeper moves the engine's
  // ends onto 0/1/2.
  PipePair in, out, err, control, status;
  for (PipePair* p : {&in, &out, &err, &control, &status})
    if (!p->open()) return fail("pipe: " + errno_text(errno));
  plan.stdin_fd = in.fd[0];
  plan.stdout_fd = out.fd[1];
  plan.stderr_fd = err.fd[1];
  plan.control_fd = control.fd[0];
  plan.status_fd = status.fd[1];

  auto impl = std::make_unique<Impl>();
  impl->command = spec.command;
  impl->max_line = spec.max_line_bytes;
  impl->tail_cap = spec.stderr_tail_bytes;
  impl->budget = spec.budget;
  impl->cap = spec.max_line_bytes + 1 + kReadChunk;
  impl->buf = std::make_unique<char[]>(impl->cap);

  const pid_t keeper_pid = ::fork();
  if (keeper_pid == 0) keeper::run(plan);
  if (keeper_pid < 0) return fail("fork: " + errno_text(errno));
  // The keeper's ends are the keeper's alone now: without this, no end of file would come.
  for (int* fd : {&in.fd[0], &out.fd[1], &err.fd[1], &control.fd[0], &status.fd[1]}) close_fd(*fd);
  impl->keeper = keeper_pid;
  impl->in_fd = in.take(1);
  impl->out_fd = out.take(0);
  impl->err_fd = err.take(0);
  impl->control_fd = control.take(1);
  impl->status_fd = status.take(0);
  for (int fd : {impl->in_fd, impl->out_fd, impl->err_fd, impl->status_fd})
    if (!set_nonblocking(fd)) return fail("fcntl: " + errno_text(errno));  // ~Impl cleans up
  impl->watch_pipes();

  // The keeper's first report: the engine exec'd, or why not.
  keeper::Message first{};
  std::size_t got = 0;
  const auto deadline = Clock::now() + kKeeperReportWait;
  while (got < sizeof first) {
    ssize_t n = ::read(impl->status_fd, reinterpret_cast<char*>(&first) + got, sizeof first - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) break;
    if (Clock::now() >= deadline) return fail("the engine did not exec within 30 s");
    pollfd fd{impl->status_fd, POLLIN, 0};
    timespec ts = to_timespec(deadline - Clock::now());
    ::ppoll(&fd, 1, &ts, nullptr);
  }
  if (got < sizeof first) return fail("its keeper process died");
  if (first.kind == keeper::kFailed) {
    const std::string why = errno_text(first.value);
    switch (first.stage) {
      case keeper::kChdir:
        return fail("working directory '" + spec.working_dir + "': " + why);
      case keeper::kLimits:
        return fail("setrlimit: " + why);
      case keeper::kFork:
        return fail("fork: " + why);
      case keeper::kExec:
        return fail(why);
      default:
        return fail("setup: " + why);
    }
  }
  impl->pid = static_cast<pid_t>(first.value);
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
  for (;;) {
    if (auto r = p.next_buffered()) return *r;
    // The engine has exited: what it wrote is in the pipe already; do not wait for an end of file
    // that a descendant holding stdout may delay.
    if (p.exited) {
      if (!p.fill()) p.out_eof = true;  // a last line without its '\n' comes next, then Eof
      continue;
    }
    const auto now = Clock::now();
    if (now >= deadline) return {ReadStatus::Timeout, {}};
    // Right after a request the answer is not there yet: wait first, saving a read() that would
    // fail with EAGAIN. Otherwise read first: a talkative engine's bytes are usually there.
    if (p.poll_first) {
      p.poll_first = false;
      p.wait_io(deadline, now);
    }
    if (p.fill()) continue;
    p.wait_io(deadline);
  }
}

ReadResult Process::poll_line() {
  Impl& p = *impl_;
  for (;;) {
    if (auto r = p.next_buffered()) return *r;
    if (p.fill()) continue;
    if (!p.exited) return {ReadStatus::Timeout, {}};
    p.out_eof = true;
  }
}

void Process::set_budget(ReadBudget budget) {
  impl_->budget = budget;
  impl_->lines_read = 0;
  impl_->bytes_read = 0;
  impl_->stdout_bytes = 0;
}

std::size_t Process::output_count() const {
  return impl_->bytes_read;
}

std::size_t Process::stdout_count() const {
  return impl_->stdout_bytes;
}

void Process::on_stderr(StderrSink sink) {
  impl_->sink = std::move(sink);
}

void Process::flush_stderr() {
  Impl& p = *impl_;
  p.drain_stderr();
  if (!p.err_line.empty()) p.emit_stderr_line();
}

std::string Process::stderr_tail() {
  Impl& p = *impl_;
  p.drain_stderr();
  if (p.err_tail.size() > p.tail_cap) return p.err_tail.substr(p.err_tail.size() - p.tail_cap);
  return p.err_tail;
}

bool Process::running() {
  Impl& p = *impl_;
  if (!p.exited) p.read_status();
  if (!p.exited) return true;
  p.finish();
  return false;
}

std::string Process::exit_description() const {
  const Impl& p = *impl_;
  if (!p.exited) return "";
  return p.status ? describe_status(*p.status) : "unknown (its keeper process was killed)";
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
  if (p.reaped) return;
  close_fd(p.in_fd);  // end of input: a well-behaved engine exits on it as on `quit`
  if (!p.wait_exit(Clock::now() + grace)) {
    p.tell_keeper(keeper::kTerm);
    if (!p.wait_exit(Clock::now() + term_grace)) p.tell_keeper(keeper::kKill);
  }
  p.finish();
}

pid_t Process::pid() const {
  return impl_->pid;
}

}  // namespace referee::engines
