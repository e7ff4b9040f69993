// Engine process, the referee's side (process.h): spawning through a keeper (keeper.h), the
// reading loop that ties the parts together, writing, exit watching and shutdown. The parts, one
// concern each: the stdout line buffer (line_buffer.h), stderr (stderr_capture.h), the keeper's
// plan, reports and commands (keeper_channel.h), the pipes at the descriptor level: waiting,
// reading, writing (process_wait.h), the command's path (command_path.h), failures as values
// (process_failures.h).
//
// Decisions:
// - The deadline is checked before every read or poll, so an engine that writes without pause
//   still sees its deadline; lines already in the buffer (one read's worth at most) are handed
//   out after it. The phase budget is checked before every line handed out.
// - The engine's exit is seen on the keeper's status pipe, polled beside stdout and stderr: no
//   waitpid on a process that is not ours, no pid to reuse, and no wait for stdout's end of file,
//   which a descendant may hold open. Signals to the engine go through the keeper too, which
//   alone knows, race-free, whether the group id still belongs to the engine.
// - Nothing polls while the engine is idle; the keeper costs nothing per ply: a move is still one
//   write, one wait and one read on pipes that go straight from engine to referee.
// - SIGPIPE is ignored process-wide on the first spawn (std::call_once): a write to a dead
//   engine is then EPIPE, a value. The engine gets every signal back to its default.
#include "engines/process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>
#include <mutex>
#include <utility>

#include "engines/command_path.h"
#include "engines/keeper.h"
#include "engines/keeper_channel.h"
#include "engines/line_buffer.h"
#include "engines/memory_cgroup.h"
#include "engines/process_failures.h"
#include "engines/process_wait.h"
#include "engines/sandbox.h"
#include "engines/stderr_capture.h"

namespace referee::engines {

namespace {

// How long spawn waits for the keeper's report that the engine exec'd, and finish() for the
// keeper to have killed the engine's tree. Both are normally a few milliseconds.
constexpr auto kKeeperReportWait = std::chrono::seconds(30);
constexpr auto kKeeperExitWait = std::chrono::seconds(5);

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

}  // namespace

struct Process::Impl {
  explicit Impl(const SpawnSpec& spec) : command(spec.command), out(spec.max_line_bytes) {
    budget = spec.budget;
    err.tail_cap = spec.stderr_tail_bytes;
  }

  pid_t keeper = -1;
  pid_t pid = -1;
  int in_fd = -1, out_fd = -1, err_fd = -1;
  int control_fd = -1;  // to the keeper; closing it ends the engine's tree
  int status_fd = -1;   // from the keeper; end of file once the keeper has exited
  std::string command;

  LineBuffer out;
  bool out_eof = false;
  bool poll_first = false;  // a request was just written: its answer cannot be there yet

  ReadBudget budget;
  std::size_t lines_read = 0, bytes_read = 0;  // in this phase
  std::size_t stdout_bytes = 0;                // in this phase, stdout only

  StderrCapture err;
  std::string wbuf;                           // reused by every write: no allocation once warm
  std::optional<WriteFailure> write_failure;  // of the last write

  KeeperReports reports;
  bool reaped = false;  // the keeper has been waited for

  std::optional<EngineCgroup> cgroup;  // its memory cgroup, removed once its tree is gone
  bool out_of_memory = false;          // the kernel killed a process of it for the cgroup's limit
  long memory_limit_mb = 0;            // the cgroup's
  bool sandboxed = false;              // its exit status is bwrap's (signal_in_sandbox)

  WaitSet waits;

  ~Impl() {
    err.sink = nullptr;  // its owner may be gone already
    if (keeper > 0 && !reaped) {
      close_fd(in_fd);
      finish();
    }
    close_fd(in_fd);
    waits.close(out_fd);
    waits.close(err_fd);
    close_fd(control_fd);
    waits.close(status_fd);
    release_cgroup();  // a spawn that failed before the keeper ran
  }

  void release_cgroup() {
    if (!cgroup) return;
    out_of_memory = engines::out_of_memory(*cgroup);
    memory_limit_mb = cgroup->memory_mb;
    remove_engine_cgroup(*cgroup);
    cgroup.reset();
  }

  bool over_budget() const { return bytes_read > budget.bytes || lines_read > budget.lines; }
  WaitPipes pipes() const { return {out_fd, err_fd, status_fd, out_eof}; }

  // ---- the keeper ----

  // Reads what the status pipe holds, without waiting.
  void read_status() {
    if (status_fd >= 0 && !read_reports(status_fd, reports)) waits.close(status_fd);
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
        waits.close(status_fd);
        break;
      }
      pollfd fds[2] = {{status_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
      timespec ts = to_timespec(deadline - Clock::now());
      if (::ppoll(fds, err_fd >= 0 ? 2 : 1, &ts, nullptr) > 0 && fds[1].revents) drain_stderr();
    }
    reports.exited = true;
    int st = 0;
    while (::waitpid(keeper, &st, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
    drain_stderr();
    release_cgroup();
  }

  // ---- stdout ----

  // One read() from stdout into the buffer. Returns false on EAGAIN (nothing there).
  bool fill() {
    const Filled got = out.fill(out_fd);
    bytes_read += got.bytes;
    stdout_bytes += got.bytes;
    if (got.status == Fill::End) out_eof = true;
    return got.status != Fill::Nothing;
  }

  // The next line from the buffer, or the end of stdout; nullopt when more must be read.
  std::optional<ReadResult> next_buffered() {
    if (bytes_read > budget.bytes) return ReadResult{ReadStatus::Flood, {}};
    ReadResult result{ReadStatus::Eof, {}};
    if (out.take_line(result)) {
      if (++lines_read > budget.lines) return ReadResult{ReadStatus::Flood, {}};
      return result;
    }
    if (!out_eof) return std::nullopt;
    if (auto last = out.take_rest()) {
      ++lines_read;
      return last;
    }
    return ReadResult{ReadStatus::Eof, {}};
  }

  // Reads and drops stdout (during shutdown).
  void discard_stdout() {
    if (read_ready(out_fd, [&](const char*, std::size_t n) { bytes_read += n; })) out_eof = true;
  }

  // ---- stderr ----

  void drain_stderr() {
    if (err_fd < 0) return;
    auto take = [&](const char* p, std::size_t n) {
      bytes_read += n;
      err.take(p, n);
    };
    if (read_ready(err_fd, take)) {
      waits.close(err_fd);
      err.end_line();
    }
  }

  // Waits for stdout, stderr or the keeper until `deadline`; serves stderr and the keeper's
  // reports. Returns whether stdout is ready.
  bool wait_io(Clock::time_point deadline, Clock::time_point now = Clock::now()) {
    const Ready ready = waits.wait(pipes(), deadline, now);
    if (ready.err) drain_stderr();
    if (ready.status) read_status();
    return ready.out;
  }

  // ---- stdin ----

  // Writes all of wbuf (write_all); a failure is kept for write_failure().
  Status write_buffer(Clock::time_point deadline) {
    auto fail = [&](WriteFault fault, int os_error = 0) {
      write_failure = WriteFailure{fault, os_error};
      return Error{"cannot write to engine '" + command + "': " + describe(*write_failure),
                   write_error_kind(fault)};
    };
    write_failure.reset();
    if (in_fd < 0) return fail(WriteFault::InputClosed);
    if (auto failure = write_all(in_fd, wbuf, deadline))
      return fail(failure->fault, failure->os_error);
    return Ok{};
  }

  // ---- exit ----

  // Waits until the engine exits or `deadline`, or its output spends the budget; stdout is
  // discarded, stderr kept.
  bool wait_exit(Clock::time_point deadline) {
    for (;;) {
      read_status();
      if (reports.exited) return true;
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
  // `os_error` gives the kind (spawn_error_kind); 0: the failure is not the OS's (Unavailable).
  auto fail = [&](const std::string& why, int os_error) {
    return Error{"cannot start engine '" + spec.command + "': " + why,
                 os_error ? spawn_error_kind(os_error) : ErrorKind::Unavailable};
  };
  // "<what>: <the OS error's text>", or the text alone.
  auto fail_os = [&](const std::string& what, int os_error) {
    return fail((what.empty() ? "" : what + ": ") + errno_text(os_error), os_error);
  };
  const std::string in_dir = "working directory '" + spec.working_dir + "'";

  if (spec.command.empty()) return fail("empty command", EINVAL);
  std::optional<SandboxLaunch> sandbox;
  std::string path;
  if (spec.sandbox) {
    auto launch =
        prepare_sandbox(*spec.sandbox, spec.command, spec.args, spec.env, keeper::kBwrapStatusFd);
    if (!launch)
      return Error{"cannot start engine '" + spec.command + "': " + launch.error(), launch.kind()};
    sandbox = std::move(*launch);
    path = sandbox->bwrap;
  } else {
    if (!spec.working_dir.empty())
      if (int err = check_working_dir(spec.working_dir)) return fail_os(in_dir, err);
    const CommandPath found = resolve_command(spec.command, spec.working_dir);
    if (found.error != 0)
      return fail(errno_text(found.error) + (found.searched_path ? " (searched PATH)" : ""),
                  found.error);
    path = found.path;
  }

  auto impl = std::make_unique<Impl>(spec);
  // A sandboxed engine's memory: its own cgroup where the host delegates one (memory_cgroup.h).
  const long memory_mb = spec.limits.memory_mb > 0 ? spec.limits.memory_mb
                         : sandbox                 ? sandbox->memory_mb
                                                   : 0;
  if (sandbox && memory_mb > 0 && spec.sandbox->memory_cgroup)
    if (auto parent = find_memory_cgroup()) {
      auto cgroup = make_engine_cgroup(*parent, memory_mb);
      if (!cgroup) return fail(cgroup.error(), 0);
      impl->cgroup = std::move(*cgroup);
    }

  KeeperPlan keeper_plan;  // everything the keeper and the engine need, built before the fork
  make_plan(spec, path, keeper_plan, sandbox ? &*sandbox : nullptr,
            impl->cgroup ? &*impl->cgroup : nullptr);
  keeper::Plan& plan = keeper_plan.plan;

  // Pipes: [0] read end, [1] write end; close-on-exec everywhere, the keeper moves the engine's
  // ends onto 0/1/2 (and bwrap's status pipe onto keeper::kBwrapStatusFd and the next).
  PipePair in, out, err, control, status, bwrap_status;
  for (PipePair* p : {&in, &out, &err, &control, &status})
    if (!p->open()) return fail_os("pipe", errno);
  if (sandbox && !bwrap_status.open()) return fail_os("pipe", errno);
  plan.stdin_fd = in.fd[0];
  plan.stdout_fd = out.fd[1];
  plan.stderr_fd = err.fd[1];
  plan.control_fd = control.fd[0];
  plan.status_fd = status.fd[1];
  plan.sandbox_status_write_fd = bwrap_status.fd[1];
  plan.sandbox_status_read_fd = bwrap_status.fd[0];

  const pid_t keeper_pid = ::fork();
  if (keeper_pid == 0) keeper::run(plan);
  if (keeper_pid < 0) return fail_os("fork", errno);
  // The keeper's ends are the keeper's alone now: without this, no end of file would come.
  for (int* fd : {&in.fd[0], &out.fd[1], &err.fd[1], &control.fd[0], &status.fd[1],
                  &bwrap_status.fd[0], &bwrap_status.fd[1]})
    close_fd(*fd);
  impl->keeper = keeper_pid;
  impl->in_fd = in.take(1);
  impl->out_fd = out.take(0);
  impl->err_fd = err.take(0);
  impl->control_fd = control.take(1);
  impl->status_fd = status.take(0);
  for (int fd : {impl->in_fd, impl->out_fd, impl->err_fd, impl->status_fd})
    if (!set_nonblocking(fd)) return fail_os("fcntl", errno);  // ~Impl cleans up
  impl->waits.watch(impl->pipes());

  // The keeper's first report: the engine exec'd, or why not.
  keeper::Message first{};
  switch (wait_first_report(impl->status_fd, Clock::now() + kKeeperReportWait, first)) {
    case FirstReport::TimedOut:
      return fail("the engine did not exec within 30 s", 0);
    case FirstReport::KeeperDied:
      return fail("its keeper process died", 0);
    case FirstReport::Received:
      break;
  }
  if (first.kind == keeper::kFailed && first.stage == keeper::kSandbox) {
    char words[1024];  // bwrap has exited: its words are all in the pipe
    const ssize_t n = ::read(impl->err_fd, words, sizeof words);
    return fail(sandbox_failure(std::string(words, n > 0 ? static_cast<std::size_t>(n) : 0)), 0);
  }
  if (first.kind == keeper::kFailed && first.stage == keeper::kUser)
    return fail(failed_step(first, spec.working_dir) + " '" + spec.sandbox->user +
                    "': " + errno_text(first.value),
                0);
  if (first.kind == keeper::kFailed)
    return fail_os(failed_step(first, spec.working_dir), first.value);
  impl->pid = static_cast<pid_t>(first.value);
  impl->sandboxed = sandbox.has_value();
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
    if (p.reports.exited) {
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
    if (!p.reports.exited) return {ReadStatus::Timeout, {}};
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
  impl_->err.sink = std::move(sink);
}

void Process::flush_stderr() {
  Impl& p = *impl_;
  p.drain_stderr();
  p.err.end_line();
}

std::string Process::stderr_tail() {
  Impl& p = *impl_;
  p.drain_stderr();
  return p.err.tail();
}

bool Process::running() {
  Impl& p = *impl_;
  if (!p.reports.exited) p.read_status();
  if (!p.reports.exited) return true;
  p.finish();
  return false;
}

namespace {

// bwrap passes an engine's death by signal N on as its own exit 128 + N (and no other way): in a
// sandboxed engine's exit, such a code is read as the signal. An engine that exits 128 + N by
// itself reads as that signal too, as a shell would report it.
std::optional<int> signal_in_sandbox(const KeeperReports& reports, bool sandboxed) {
  const auto& st = reports.status;
  if (!sandboxed || reports.sandbox_failed || !st || !WIFEXITED(*st)) return std::nullopt;
  const int code = WEXITSTATUS(*st);
  if (code <= 128 || code > 128 + 64) return std::nullopt;
  return code - 128;
}

}  // namespace

std::string Process::exit_description() const {
  const Impl& p = *impl_;
  if (!p.reports.exited) return "";
  if (!p.reports.status) return "unknown (its keeper process was killed)";
  const auto in_sandbox = signal_in_sandbox(p.reports, p.sandboxed);
  const std::string words = in_sandbox ? "signal " + std::to_string(*in_sandbox) + " (" +
                                             signal_description(*in_sandbox) + ") in the sandbox"
                                       : describe_wait_status(*p.reports.status);
  return words +
         (p.reports.sandbox_failed ? " (the sandbox failed before the engine started)" : "") +
         (p.out_of_memory
              ? " (out of memory: over its limit of " + std::to_string(p.memory_limit_mb) + " MB)"
              : "");
}

bool Process::sandbox_failed() const {
  return impl_->reports.sandbox_failed;
}

std::string Process::memory_cgroup() const {
  return impl_->cgroup ? impl_->cgroup->dir : "";
}

bool Process::out_of_memory() const {
  return impl_->out_of_memory;
}

std::optional<int> Process::exit_code() const {
  const auto& st = impl_->reports.status;
  if (signal_in_sandbox(impl_->reports, impl_->sandboxed)) return std::nullopt;
  if (st && WIFEXITED(*st)) return WEXITSTATUS(*st);
  return std::nullopt;
}

std::optional<int> Process::exit_signal() const {
  const auto& st = impl_->reports.status;
  if (auto in_sandbox = signal_in_sandbox(impl_->reports, impl_->sandboxed)) return in_sandbox;
  if (st && WIFSIGNALED(*st)) return WTERMSIG(*st);
  return std::nullopt;
}

void Process::shut_down(std::chrono::milliseconds grace, std::chrono::milliseconds term_grace) {
  Impl& p = *impl_;
  if (p.reaped) return;
  close_fd(p.in_fd);  // end of input: a well-behaved engine exits on it as on `quit`
  if (!p.wait_exit(Clock::now() + grace)) {
    tell_keeper(p.control_fd, keeper::kTerm);
    if (!p.wait_exit(Clock::now() + term_grace)) tell_keeper(p.control_fd, keeper::kKill);
  }
  p.finish();
}

std::optional<WriteFailure> Process::write_failure() const {
  return impl_->write_failure;
}

pid_t Process::pid() const {
  return impl_->pid;
}

}  // namespace referee::engines
