// engines/process: real child processes (/bin/sh scripts, /bin/cat, the mock engine) driven
// through every path: lines, deadlines, caps, per-phase budgets against floods of every kind,
// bad bytes, stderr lines and tail, exit status, writes to dead or deaf engines, shutdown
// escalation, group kill, spawn errors, environment and resource limits. lifetime_test.cpp has
// the keeper's side: exits seen at once, escaped descendants, the referee killed.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "engines/process.h"
#include "sanitizers.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace {

const std::string kMock = SUPPORT_DIR "/mock_engine";

Clock::time_point in(std::chrono::milliseconds ms) {
  return Clock::now() + ms;
}

long ms_since(Clock::time_point start) {
  return static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
}

Process start(SpawnSpec spec) {
  auto p = Process::spawn(spec);
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  return std::move(p).value();
}

Process sh(const std::string& script, std::size_t max_line = 65536, std::size_t tail = 4096) {
  SpawnSpec spec;
  spec.command = "/bin/sh";
  spec.args = {"-c", script};
  spec.max_line_bytes = max_line;
  spec.stderr_tail_bytes = tail;
  return start(spec);
}

Process mock(std::vector<std::string> flags) {
  SpawnSpec spec;
  spec.command = kMock;
  spec.args = std::move(flags);
  return start(spec);
}

std::string expect_line(Process& p, std::chrono::milliseconds wait = 2000ms) {
  ReadResult r = p.read_line(in(wait));
  INFO("status " << static_cast<int>(r.status) << " line '" << r.line << "'");
  REQUIRE(r.status == ReadStatus::Line);
  return r.line;
}

// Alive and not a zombie (an orphan may be left a zombie when pid 1 does not reap).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content;
  if (!std::getline(stat, content)) return false;
  auto close = content.rfind(')');
  return close != std::string::npos && close + 2 < content.size() && content[close + 2] != 'Z' &&
         content[close + 2] != 'X';
}

bool dies_within(pid_t pid, std::chrono::milliseconds wait) {
  auto deadline = in(wait);
  while (alive(pid)) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// A value of /proc/<pid>/limits: the soft limit on the line starting with `name`.
std::string soft_limit(pid_t pid, const std::string& name) {
  std::ifstream limits("/proc/" + std::to_string(pid) + "/limits");
  for (std::string line; std::getline(limits, line);) {
    if (line.rfind(name, 0) != 0) continue;
    std::istringstream rest(line.substr(name.size()));
    std::string soft;
    rest >> soft;
    return soft;
  }
  return "";
}

std::string temp_dir() {
  char pattern[] = "/tmp/proc_test_XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  return pattern;
}

}  // namespace

TEST_CASE("process: line endings and end of file") {
  Process p = sh("printf 'a\\r\\nb\\n\\nc'");
  CHECK(expect_line(p) == "a");
  CHECK(expect_line(p) == "b");
  CHECK(expect_line(p) == "");
  CHECK(expect_line(p) == "c");
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::Eof);
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::Eof);  // Eof stays Eof
  p.shut_down(1000ms, 100ms);
  CHECK(p.exit_description() == "exit 0");
  CHECK(p.exit_code() == 0);
  CHECK_FALSE(p.exit_signal().has_value());
}

TEST_CASE("process: a second '\\r' is a bad byte") {
  Process p = sh("printf 'b\\r\\r\\n'");
  ReadResult r = p.read_line(in(2000ms));
  CHECK(r.status == ReadStatus::BadByte);
  CHECK(r.line == "b\\x0d");
}

TEST_CASE("process: exit code and signal are described") {
  SECTION("exit code") {
    Process p = sh("exit 3");
    CHECK(p.read_line(in(2000ms)).status == ReadStatus::Eof);
    p.shut_down(1000ms, 100ms);
    CHECK(p.exit_description() == "exit 3");
    CHECK(p.exit_code() == 3);
  }
  SECTION("signal") {
    Process p = sh("kill -9 $$");
    CHECK(p.read_line(in(2000ms)).status == ReadStatus::Eof);
    p.shut_down(1000ms, 100ms);
    CHECK(p.exit_description() == "signal 9 (Killed)");
    CHECK(p.exit_signal() == 9);
    CHECK_FALSE(p.exit_code().has_value());
  }
  SECTION("running() reaps an exited child") {
    Process p = sh("exit 5");
    CHECK(p.exit_description().empty());
    auto deadline = in(2000ms);
    while (p.running() && Clock::now() < deadline) std::this_thread::sleep_for(2ms);
    CHECK_FALSE(p.running());
    CHECK(p.exit_description() == "exit 5");
  }
}

TEST_CASE("process: a silent engine times out at the deadline") {
  Process p = sh("sleep 5");
  CHECK(p.running());
  CHECK(p.exit_description().empty());
  auto t0 = Clock::now();
  CHECK(p.read_line(t0 + 60ms).status == ReadStatus::Timeout);
  CHECK(ms_since(t0) >= 60);
  CHECK(ms_since(t0) < 400);
  // A deadline already past: Timeout at once.
  CHECK(p.read_line(t0).status == ReadStatus::Timeout);
  p.shut_down(0ms, 1000ms);  // sleep dies of SIGTERM
  CHECK(p.exit_description() == "signal 15 (Terminated)");
}

TEST_CASE("process: a chatty engine does not extend its own deadline") {
  SECTION("a line every 10 ms for 1 s") {
    Process p = sh("i=0; while [ $i -lt 100 ]; do echo tick; sleep 0.01; i=$((i+1)); done");
    auto t0 = Clock::now();
    auto deadline = t0 + 200ms;
    int lines = 0;
    ReadResult r;
    while ((r = p.read_line(deadline)).status == ReadStatus::Line) ++lines;
    CHECK(r.status == ReadStatus::Timeout);
    CHECK(lines >= 3);
    CHECK(ms_since(t0) >= 200);
    CHECK(ms_since(t0) < 600);
  }
  SECTION("a flood (yes)") {
    Process p = sh("exec yes");
    p.set_budget({SIZE_MAX, SIZE_MAX});  // no cap: only the deadline ends it
    auto t0 = Clock::now();
    auto deadline = t0 + 100ms;
    long lines = 0;
    ReadResult r;
    while ((r = p.read_line(deadline)).status == ReadStatus::Line) ++lines;
    CHECK(r.status == ReadStatus::Timeout);
    CHECK(lines > 1000);
    CHECK(ms_since(t0) < 500);
    CHECK(p.output_count() >= static_cast<std::size_t>(2 * lines));
  }
}

TEST_CASE("process: lines longer than the cap are TooLong and skipped whole") {
  // 100 bytes pass, 101 do not; a stripped '\r' does not count.
  Process p =
      sh("x=$(printf '%0100d' 0); printf '%s\\n%s\\r\\n%s1\\nok\\n' $x $x $x; "
         "printf '%0200000d\\nafter\\n' 0",
         100);
  CHECK(expect_line(p).size() == 100);
  CHECK(expect_line(p).size() == 100);
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::TooLong);
  CHECK(expect_line(p) == "ok");
  // A line far longer than the buffer: one TooLong, then the next line.
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::TooLong);
  CHECK(expect_line(p) == "after");
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::Eof);
}

TEST_CASE("process: the mock's 100 KiB line trips the default 64 KiB cap") {
  Process p = mock({"--long-line"});
  REQUIRE(p.write_lines({"position startpos", "go"}, in(1000ms)).ok());
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::TooLong);
  CHECK(expect_line(p) == "bestmove 1");
}

TEST_CASE("process: NUL and control bytes are BadByte, tab and UTF-8 are fine") {
  Process p = sh("printf 'a\\001b\\nc\\000d\\ne\\tf\\n\\303\\251t\\303\\251\\ng\\177\\n'");
  ReadResult r = p.read_line(in(2000ms));
  CHECK(r.status == ReadStatus::BadByte);
  CHECK(r.line == "a\\x01b");
  r = p.read_line(in(2000ms));
  CHECK(r.status == ReadStatus::BadByte);
  CHECK(r.line == "c\\x00d");
  CHECK(expect_line(p) == "e\tf");
  CHECK(expect_line(p) == "\xc3\xa9t\xc3\xa9");
  CHECK(p.read_line(in(2000ms)).status == ReadStatus::BadByte);
}

TEST_CASE("process: stderr is drained while reading and its tail kept") {
  SECTION("a megabyte of stderr cannot block the engine") {
    Process p = sh("head -c 1048576 /dev/zero | tr '\\0' e >&2; echo done");
    CHECK(expect_line(p, 5000ms) == "done");
  }
  SECTION("the tail holds the last bytes") {
    Process p = sh("printf '0123456789ABCDEF\\n' >&2; echo out", 65536, 10);
    CHECK(expect_line(p) == "out");
    p.shut_down(1000ms, 100ms);
    CHECK(p.stderr_tail() == "789ABCDEF\n");
  }
  SECTION("the mock's stderr lines") {
    Process p = mock({"--stderr=2"});
    REQUIRE(p.write_line("go", in(1000ms)).ok());
    CHECK(expect_line(p) == "bestmove 1");
    p.shut_down(1000ms, 100ms);
    CHECK(p.stderr_tail() == "mock stderr 1.0\nmock stderr 1.1\n");
  }
}

TEST_CASE("process: write then read through /bin/cat, output_count") {
  SpawnSpec spec;
  spec.command = "cat";  // found in PATH
  Process p = start(spec);
  REQUIRE(p.write_lines({"hello", "world"}, in(1000ms)).ok());
  CHECK(expect_line(p) == "hello");
  CHECK(expect_line(p) == "world");
  CHECK(p.output_count() == 12);
  p.set_budget({});  // a new phase
  CHECK(p.output_count() == 0);
  REQUIRE(p.write_line("x", in(1000ms)).ok());
  CHECK(expect_line(p) == "x");
  CHECK(p.output_count() == 2);
  REQUIRE(p.write_lines({}, in(1000ms)).ok());  // nothing to write is fine
  p.shut_down(1000ms, 100ms);                   // cat exits at end of input
  CHECK(p.exit_description() == "exit 0");
  CHECK_FALSE(p.write_line("late", in(100ms)).ok());
}

TEST_CASE("process: lines already read stay readable after the engine is gone") {
  Process p = sh("printf 'one\\ntwo\\nthree\\n'; sleep 5");
  CHECK(expect_line(p) == "one");
  p.shut_down(0ms, 1000ms);
  CHECK(expect_line(p) == "two");
  CHECK(expect_line(p) == "three");
  CHECK(p.read_line(in(1000ms)).status == ReadStatus::Eof);
}

TEST_CASE("process: writing to an engine that closed its input is an error, not a crash") {
  Process p = sh("exec 0<&-; echo closed; sleep 5");
  CHECK(expect_line(p) == "closed");
  auto status = p.write_line("go", in(1000ms));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().find("broken pipe") != std::string::npos);
  CHECK(status.error().find("/bin/sh") != std::string::npos);
  CHECK(p.running());
}

TEST_CASE("process: a write to an engine that does not read times out at its deadline") {
  Process p = sh("sleep 5");
  std::vector<std::string> lines(1024, std::string(1023, 'x'));  // 1 MiB: more than a pipe holds
  auto t0 = Clock::now();
  auto status = p.write_lines(lines, t0 + 80ms);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().find("timed out") != std::string::npos);
  CHECK(ms_since(t0) >= 80);
  CHECK(ms_since(t0) < 500);
}

TEST_CASE("process: shut_down kills the whole group, grandchild included") {
  Process p = mock({"--fork-child"});
  std::string line = expect_line(p);
  REQUIRE(line.rfind("info string child ", 0) == 0);
  pid_t child = static_cast<pid_t>(std::stol(line.substr(18)));
  REQUIRE(alive(child));
  REQUIRE(p.write_line("quit", in(1000ms)).ok());
  p.shut_down(2000ms, 500ms);
  CHECK(p.exit_description() == "exit 0");  // the leader obeyed quit
  CHECK(dies_within(child, 2000ms));        // its sleeping child did not survive it
}

TEST_CASE("process: an engine that ignores quit and SIGTERM is killed within the graces") {
  Process p = mock({"--ignore-quit"});
  REQUIRE(p.write_line("isready 1", in(1000ms)).ok());
  CHECK(expect_line(p) == "readyok 1");  // it is up, with SIGTERM ignored
  REQUIRE(p.write_line("quit", in(1000ms)).ok());
  auto t0 = Clock::now();
  p.shut_down(100ms, 100ms);
  CHECK(ms_since(t0) >= 200);
  CHECK(ms_since(t0) < 1000);
  CHECK(p.exit_description() == "signal 9 (Killed)");
  p.shut_down(100ms, 100ms);  // idempotent
  CHECK(p.exit_description() == "signal 9 (Killed)");
}

TEST_CASE("process: a well-behaved engine exits on end of input without signals") {
  Process p = mock({});
  auto t0 = Clock::now();
  p.shut_down(2000ms, 100ms);
  CHECK(ms_since(t0) < 1500);
  CHECK(p.exit_description() == "exit 0");
}

TEST_CASE("process: the destructor kills and reaps") {
  pid_t pid = 0;
  {
    Process p = sh("sleep 5");
    pid = p.pid();
    REQUIRE(alive(pid));
    Process moved = std::move(p);  // ownership moves; only one kill and reap
    CHECK(moved.pid() == pid);
  }
  CHECK(::kill(pid, 0) == -1);
  CHECK(errno == ESRCH);
}

TEST_CASE("process: the mock engine's handshake and log") {
  std::string dir = temp_dir();
  std::string log = dir + "/log";
  Process p = mock({"--log=" + log});
  REQUIRE(p.write_lines({"ugi", "isready 7"}, in(1000ms)).ok());
  CHECK(expect_line(p) == "id name mock");
  CHECK(expect_line(p) == "id author test");
  CHECK(expect_line(p) == "id protocol 1");
  std::vector<std::string> games;
  std::string line;
  while ((line = expect_line(p)) != "ugiok") games.push_back(line);
  CHECK(games.front() == "game awale");
  CHECK(expect_line(p) == "readyok 7");
  REQUIRE(
      p.write_lines({"setgame awale", "position startpos moves 3", "go", "quit"}, in(1000ms)).ok());
  CHECK(expect_line(p) == "bestmove 10");
  p.shut_down(2000ms, 100ms);
  CHECK(p.exit_description() == "exit 0");
  std::ifstream f(log);
  std::stringstream text;
  text << f.rdbuf();
  CHECK(text.str() == "ugi\nisready 7\nsetgame awale\nposition startpos moves 3\ngo\nquit\n");
  std::remove(log.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("process: spawn errors name the command") {
  SpawnSpec spec;
  SECTION("missing path") {
    spec.command = "/nonexistent/engine";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() == "cannot start engine '/nonexistent/engine': No such file or directory");
  }
  SECTION("missing from PATH") {
    spec.command = "no-such-engine-zz9";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().find("cannot start engine 'no-such-engine-zz9': No such file") == 0);
  }
  SECTION("not executable") {
    std::string dir = temp_dir();
    std::string file = dir + "/engine";
    std::ofstream(file) << "#!/bin/sh\necho hi\n";
    spec.command = file;
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() == "cannot start engine '" + file + "': Permission denied");
    std::remove(file.c_str());
    ::rmdir(dir.c_str());
  }
  SECTION("a directory") {
    spec.command = "/tmp";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() == "cannot start engine '/tmp': Is a directory");
  }
  SECTION("a bad interpreter is caught at exec") {
    std::string dir = temp_dir();
    std::string file = dir + "/engine";
    std::ofstream(file) << "#!/nonexistent/interpreter\n";
    ::chmod(file.c_str(), 0755);
    spec.command = file;
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() == "cannot start engine '" + file + "': No such file or directory");
    std::remove(file.c_str());
    ::rmdir(dir.c_str());
  }
  SECTION("bad working directory") {
    spec.command = "/bin/cat";
    spec.working_dir = "/nonexistent/dir";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() ==
          "cannot start engine '/bin/cat': working directory '/nonexistent/dir': No such file or "
          "directory");
  }
  SECTION("working directory that is a file") {
    spec.command = "/bin/cat";
    spec.working_dir = "/bin/cat";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error() ==
          "cannot start engine '/bin/cat': working directory '/bin/cat': Not a "
          "directory");
  }
}

TEST_CASE("process: working directory, relative command and environment") {
  std::string dir = temp_dir();
  std::string file = dir + "/engine.sh";
  std::ofstream(file) << "#!/bin/sh\npwd\necho \"$REFEREE_TEST_VAR\" \"$1\"\n";
  ::chmod(file.c_str(), 0755);
  SpawnSpec spec;
  spec.command = "./engine.sh";  // relative to the working directory
  spec.args = {"arg one"};
  spec.working_dir = dir;
  spec.env = {{"REFEREE_TEST_VAR", "42"}};
  Process p = start(spec);
  CHECK(expect_line(p) == dir);
  CHECK(expect_line(p) == "42 arg one");
  p.shut_down(1000ms, 100ms);
  CHECK(p.exit_description() == "exit 0");
  std::remove(file.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("process: the child gets SIGPIPE back at its default") {
  // We ignore SIGPIPE; ignored signals survive exec, so the child must get SIG_DFL back.
  Process p = sh("grep SigIgn /proc/self/status");
  std::string line = expect_line(p);
  unsigned long mask = std::stoul(line.substr(line.find_first_not_of(" \t", 7)), nullptr, 16);
  CHECK((mask & (1UL << (SIGPIPE - 1))) == 0);
}

// RLIMIT_CPU and RLIMIT_NPROC are enforced by the kernel (NPROC not for root): checking that
// they were set is enough, and a CPU-burning test would take seconds of a shared machine.
TEST_CASE("process: resource limits") {
  SECTION("all three reach the child") {
    SpawnSpec spec;
    spec.command = "/bin/sh";
    spec.args = {"-c", "sleep 5"};
    spec.limits = {512, 7, 300};
    Process p = start(spec);
    CHECK(soft_limit(p.pid(), "Max address space") == std::to_string(512L << 20));
    CHECK(soft_limit(p.pid(), "Max cpu time") == "7");
    CHECK(soft_limit(p.pid(), "Max processes") == "300");
  }
  SECTION("no limits: the mock allocates 40 MiB") {
    Process p = mock({"--alloc-mb=40"});
    REQUIRE(p.write_line("go", in(1000ms)).ok());
    CHECK(expect_line(p) == "info string allocated 40 MiB");
  }
#if !REFEREE_TEST_ASAN  // AddressSanitizer reserves terabytes: no RLIMIT_AS fits it
  SECTION("an engine allocating beyond memory_mb dies") {
    SpawnSpec spec;
    spec.command = kMock;
    spec.args = {"--alloc-mb=40"};
    spec.limits.memory_mb = 24;
    Process p = start(spec);
    REQUIRE(p.write_line("go", in(1000ms)).ok());
    CHECK(p.read_line(in(3000ms)).status == ReadStatus::Eof);
    p.shut_down(1000ms, 100ms);
    CHECK(p.exit_signal() == SIGABRT);  // std::bad_alloc, uncaught
    CHECK(p.stderr_tail().find("bad_alloc") != std::string::npos);
  }
#endif
}

TEST_CASE("process: a phase's budget ends a flood, whatever it floods with") {
  SECTION("stdout lines (yes): Flood once the lines are spent, and it stays Flood") {
    Process p = sh("exec yes banner");
    p.set_budget({1000, 1u << 20});
    long lines = 0;
    ReadResult r;
    auto t0 = Clock::now();
    while ((r = p.read_line(in(10000ms))).status == ReadStatus::Line) ++lines;
    CHECK(r.status == ReadStatus::Flood);
    CHECK(lines == 1000);
    CHECK(ms_since(t0) < 5000);
    CHECK(p.read_line(in(100ms)).status == ReadStatus::Flood);
    CHECK(p.poll_line().status == ReadStatus::Flood);
    p.set_budget({1000, 1u << 20});  // a new phase starts afresh
    CHECK(expect_line(p) == "banner");
  }
  SECTION("stdout bytes in long lines") {
    Process p = sh("x=$(printf '%01000d' 0); while :; do echo $x; done");
    p.set_budget({100000, 100000});
    long lines = 0;
    ReadResult r;
    while ((r = p.read_line(in(10000ms))).status == ReadStatus::Line) ++lines;
    CHECK(r.status == ReadStatus::Flood);
    CHECK(lines <= 100);
    CHECK(p.output_count() > 100000);
  }
  SECTION("stderr: its bytes count too, while stdout stays silent") {
    Process p = sh("yes flood >&2");  // the shell keeps stdout open
    p.set_budget({1000, 1u << 20});
    auto t0 = Clock::now();
    CHECK(p.read_line(in(10000ms)).status == ReadStatus::Flood);
    CHECK(ms_since(t0) < 5000);
    CHECK(p.stderr_tail().size() == 4096);
  }
  SECTION("stdout without a newline is TooLong at the line cap") {
    Process p = sh("head -c 100000000 /dev/zero | tr '\\0' x", 100);
    CHECK(p.read_line(in(10000ms)).status == ReadStatus::TooLong);
  }
}

TEST_CASE("process: poll_line never waits") {
  SpawnSpec spec;
  spec.command = "cat";
  Process p = start(spec);
  auto t0 = Clock::now();
  CHECK(p.poll_line().status == ReadStatus::Timeout);
  CHECK(ms_since(t0) < 100);
  REQUIRE(p.write_lines({"one", "two"}, in(1000ms)).ok());
  ReadResult r{ReadStatus::Timeout, {}};
  auto deadline = in(5000ms);
  while ((r = p.poll_line()).status == ReadStatus::Timeout && Clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  CHECK(r.line == "one");
  CHECK(expect_line(p) == "two");
  p.shut_down(1000ms, 100ms);
  CHECK(p.poll_line().status == ReadStatus::Eof);
}

TEST_CASE("process: stderr lines reach the sink as they are read") {
  SECTION("lines, a CR, control bytes, a long line cut, a last line without newline") {
    std::vector<std::string> got;
    Process p =
        sh("printf 'one\\r\\ntwo\\tand\\001\\n' >&2; printf '%05000d\\n' 0 >&2; printf 'end' >&2; "
           "echo out; sleep 5");
    p.on_stderr([&](std::string_view line) { got.emplace_back(line); });
    CHECK(expect_line(p) == "out");
    auto deadline = in(5000ms);
    while (got.size() < 4 && Clock::now() < deadline) {
      p.read_line(in(10ms));
    }
    p.flush_stderr();
    REQUIRE(got.size() == 5);
    CHECK(got[0] == "one");
    CHECK(got[1] == "two\tand\\x01");
    CHECK(got[2] == std::string(kStderrLineBytes, '0'));
    CHECK(got[3] == std::string(5000 - kStderrLineBytes, '0'));
    CHECK(got[4] == "end");
    p.flush_stderr();  // nothing more
    CHECK(got.size() == 5);
  }
  SECTION("the mock's stderr lines, in order, while it plays") {
    std::vector<std::string> got;
    Process p = mock({"--stderr=2"});
    p.on_stderr([&](std::string_view line) { got.emplace_back(line); });
    REQUIRE(p.write_line("go", in(1000ms)).ok());
    CHECK(expect_line(p) == "bestmove 1");
    p.flush_stderr();
    CHECK(got == std::vector<std::string>{"mock stderr 1.0", "mock stderr 1.1"});
  }
}

TEST_CASE("process: output beyond the budget during shutdown ends the graces at once") {
  Process p = mock({"--ignore-quit", "--flood=quit"});
  p.set_budget({1000, 1u << 20});
  REQUIRE(p.write_line("quit", in(1000ms)).ok());
  auto t0 = Clock::now();
  p.shut_down(20000ms, 20000ms);
  CHECK(ms_since(t0) < 10000);  // far below the 40 s of graces
  CHECK(p.exit_description() == "signal 9 (Killed)");
}

TEST_CASE("process: the kind of a spawn failure comes from the OS error, not the text") {
  SpawnSpec spec;
  SECTION("a missing program is NotFound, by path or in PATH") {
    for (const char* command : {"/nonexistent/engine", "no-such-engine-zz9"}) {
      spec.command = command;
      auto p = Process::spawn(spec);
      REQUIRE_FALSE(p.ok());
      CHECK(p.kind() == referee::ErrorKind::NotFound);
    }
  }
  SECTION("a missing working directory is NotFound") {
    spec.command = "/bin/cat";
    spec.working_dir = "/nonexistent/dir";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::NotFound);
  }
  SECTION("a directory is Invalid") {
    spec.command = "/tmp";
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::Invalid);
  }
  CHECK(spawn_error_kind(ENOENT) == referee::ErrorKind::NotFound);
  CHECK(spawn_error_kind(EACCES) == referee::ErrorKind::Invalid);
  CHECK(spawn_error_kind(EMFILE) == referee::ErrorKind::Unavailable);
}

TEST_CASE("process: a failed write says why as a value") {
  SECTION("the engine closed its input: BrokenPipe, Conflict") {
    Process p = sh("exec 0<&-; echo closed; sleep 5");
    CHECK(expect_line(p) == "closed");
    CHECK_FALSE(p.write_failure().has_value());
    auto status = p.write_line("go", in(1000ms));
    REQUIRE_FALSE(status.ok());
    CHECK(status.kind() == referee::ErrorKind::Conflict);
    REQUIRE(p.write_failure().has_value());
    CHECK(p.write_failure()->fault == WriteFault::BrokenPipe);
    CHECK(describe(*p.write_failure()) == "broken pipe (the engine closed its input or exited)");
  }
  SECTION("the engine does not read: TimedOut, Unavailable") {
    Process p = sh("sleep 5");
    std::vector<std::string> lines(1024, std::string(1023, 'x'));  // more than a pipe holds
    auto status = p.write_lines(lines, Clock::now() + 50ms);
    REQUIRE_FALSE(status.ok());
    CHECK(status.kind() == referee::ErrorKind::Unavailable);
    REQUIRE(p.write_failure().has_value());
    CHECK(p.write_failure()->fault == WriteFault::TimedOut);
  }
  SECTION("after shut_down: InputClosed; a write that succeeds clears the failure") {
    Process p = sh("cat > /dev/null");
    REQUIRE(p.write_line("x", in(1000ms)).ok());
    CHECK_FALSE(p.write_failure().has_value());
    p.shut_down(1000ms, 1000ms);
    CHECK_FALSE(p.write_line("late", in(100ms)).ok());
    REQUIRE(p.write_failure().has_value());
    CHECK(p.write_failure()->fault == WriteFault::InputClosed);
  }
}
