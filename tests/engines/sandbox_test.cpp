// engines/sandbox: real engines (small Python 3 and shell scripts written to a temporary root)
// run under bubblewrap through Process::spawn, each test pinning one wall of the sandbox, with
// the same script run outside the sandbox where that shows the wall is the sandbox's doing.
// They need bwrap and the referee-engine user and fail, saying deps.sh installs them, where
// those are missing: a sandbox that is not tested is not there.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "engines/engine_config.h"
#include "engines/process.h"
#include "engines/sandbox.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace sandbox_test {

// Fails the test when what the sandbox needs is missing (never a silent skip).
void require_sandbox_host() {
  const Sandbox defaults;
  INFO("bubblewrap and the user referee-engine are needed: deps.sh installs them");
  REQUIRE(::access(defaults.bwrap.c_str(), X_OK) == 0);
  if (::geteuid() == 0) REQUIRE(::getpwnam(defaults.user.c_str()) != nullptr);
}

// The uid a sandboxed engine runs as: referee-engine's when the tests run as root.
uid_t engine_uid() {
  return ::geteuid() == 0 ? ::getpwnam(Sandbox{}.user.c_str())->pw_uid : ::geteuid();
}

// A temporary directory the sandbox user may enter (mkdtemp makes it 0700), removed at the end;
// root/ inside it is the engine's root, the rest is "the host".
struct TempDir {
  std::string path;
  TempDir() {
    char pattern[] = "/tmp/sandbox_test_XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    path = pattern;
    ::chmod(path.c_str(), 0755);
    std::filesystem::create_directory(root());
    ::chmod(root().c_str(), 0755);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string root() const { return path + "/root"; }
  // Writes `content` to `name` (relative to the temporary directory) with `mode`.
  std::string write(const std::string& name, const std::string& content, mode_t mode) const {
    const std::string file = path + "/" + name;
    std::ofstream(file) << content;
    ::chmod(file.c_str(), mode);
    return file;
  }
  // An executable Python 3 script in the engine's root: "engine.py" inside the sandbox.
  void engine(const std::string& body) const {
    write("root/engine.py", "#!/usr/bin/python3\nimport os, sys, socket\n" + body, 0755);
  }
};

SpawnSpec sandboxed(const TempDir& dir, const std::string& command = "./engine.py") {
  SpawnSpec spec;
  spec.command = command;
  spec.sandbox = Sandbox{dir.root()};
  return spec;
}

// The same engine without the sandbox: the control that shows the wall is the sandbox's.
SpawnSpec unsandboxed(const TempDir& dir) {
  SpawnSpec spec;
  spec.command = dir.root() + "/engine.py";
  spec.working_dir = dir.root();
  return spec;
}

Process start(const SpawnSpec& spec) {
  auto p = Process::spawn(spec);
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  return std::move(p).value();
}

// Everything the engine writes on stdout until it exits, then its shutdown.
std::vector<std::string> output_of(const SpawnSpec& spec) {
  Process p = start(spec);
  std::vector<std::string> lines;
  for (;;) {
    ReadResult r = p.read_line(Clock::now() + 20s);
    if (r.status != ReadStatus::Line) {
      INFO("stderr: " << p.stderr_tail());
      REQUIRE(r.status == ReadStatus::Eof);
      break;
    }
    lines.push_back(r.line);
  }
  p.shut_down(2000ms, 200ms);
  INFO("stderr: " << p.stderr_tail());
  CHECK(p.exit_code() == 0);
  return lines;
}

// Processes of the host whose command line holds `marker` as a word.
std::set<pid_t> processes_with(const std::string& marker);

// Waits up to 5 s for `count` of them: an exec'd process's command line is set a little after
// its parent learns that the exec succeeded.
std::set<pid_t> wait_for_processes_with(const std::string& marker, std::size_t count) {
  const auto deadline = Clock::now() + 5s;
  auto found = processes_with(marker);
  while (found.size() != count && Clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
    found = processes_with(marker);
  }
  return found;
}

std::set<pid_t> processes_with(const std::string& marker) {
  std::set<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream cmdline(entry.path() / "cmdline");
    std::string word;
    while (std::getline(cmdline, word, '\0'))
      if (word == marker) found.insert(std::stoi(name));
  }
  return found;
}

// The tests are in the namespace too: its helpers hide those of the other files of the unity
// build (start, ...).

TEST_CASE("sandbox: a sandboxed engine cannot connect to a port listening on the host's loopback") {
  require_sandbox_host();
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(listener, 4) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));

  TempDir dir;
  dir.engine(
      "try:\n"
      "    socket.create_connection(('127.0.0.1', " +
      port +
      "), timeout=3)\n"
      "    print('connected')\n"
      "except OSError as e:\n"
      "    print('refused', e.errno)\n");
  CHECK(output_of(unsandboxed(dir)) == std::vector<std::string>{"connected"});
  const auto inside = output_of(sandboxed(dir));
  REQUIRE(inside.size() == 1);
  CHECK(inside[0].rfind("refused", 0) == 0);
  ::close(listener);
}

TEST_CASE("sandbox: a sandboxed engine cannot read a file of the host outside its root") {
  require_sandbox_host();
  TempDir dir;
  const std::string database = dir.write("referee.db", "secret\n", 0644);  // readable by all
  dir.engine(
      "try:\n"
      "    print(open('" +
      database +
      "').read().strip())\n"
      "except OSError as e:\n"
      "    print('error', e.errno)\n"
      "print(sorted(os.listdir('/')))\n");
  CHECK(output_of(unsandboxed(dir)).at(0) == "secret");
  const auto inside = output_of(sandboxed(dir));
  REQUIRE(inside.size() == 2);
  CHECK(inside[0] == "error 2");  // ENOENT: not there at all
  // The whole of what it sees at the top: no /home, /root, /etc/referee, /var, /srv.
  CHECK(inside[1] ==
        "['bin', 'dev', 'engine', 'etc', 'lib', 'lib64', 'proc', 'sbin', 'tmp', 'usr']");
}

TEST_CASE("sandbox: a sandboxed engine cannot write outside /tmp") {
  require_sandbox_host();
  TempDir dir;
  dir.engine(
      "for path in ['/engine/x', '/x', '/usr/x', '/etc/x', '/dev/x', '/dev/shm/x', '/tmp/x']:\n"
      "    try:\n"
      "        open(path, 'w').write('x')\n"
      "        print(path, 'written')\n"
      "    except OSError as e:\n"
      "        print(path, 'error', e.errno)\n");
  const auto inside = output_of(sandboxed(dir));
  CHECK(inside == std::vector<std::string>{"/engine/x error 30", "/x error 30", "/usr/x error 30",
                                           "/etc/x error 30", "/dev/x error 30",
                                           "/dev/shm/x written", "/tmp/x written"});  // 30: EROFS
  CHECK_FALSE(std::filesystem::exists(dir.root() + "/x"));
}

TEST_CASE("sandbox: a sandboxed engine's /tmp and /dev/shm are bounded, memory it cannot hoard") {
  require_sandbox_host();
  TempDir dir;
  dir.engine("for path, mb in [('/tmp/big', " + std::to_string(kSandboxTmpMb) +
             "), ('/dev/shm/big', " + std::to_string(kSandboxShmMb) +
             ")]:\n"
             "    try:\n"
             "        with open(path, 'wb') as f:\n"
             "            f.write(bytes(mb * 1024 * 1024 + 4096))\n"
             "        print(path, 'written')\n"
             "    except OSError as e:\n"
             "        print(path, 'error', e.errno)\n"
             "with open('/dev/null', 'w') as f:\n"
             "    print('/dev/null', f.write('x'))\n");
  CHECK(output_of(sandboxed(dir)) == std::vector<std::string>{"/tmp/big error 28",  // ENOSPC
                                                              "/dev/shm/big error 28",
                                                              "/dev/null 1"});
}

TEST_CASE("sandbox: a sandboxed engine sees only the processes of its own sandbox") {
  require_sandbox_host();
  TempDir dir;
  dir.engine(
      "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
      "print(os.getpid(), pids)\n");
  const auto inside = output_of(sandboxed(dir));
  REQUIRE(inside.size() == 1);
  // bwrap's init (1) and the engine itself (2), in a pid namespace of their own.
  CHECK(inside[0] == "2 [1, 2]");
}

TEST_CASE("sandbox: a sandboxed engine has no capability") {
  require_sandbox_host();
  TempDir dir;
  dir.engine(
      "for line in open('/proc/self/status'):\n"
      "    if line.startswith('Cap'):\n"
      "        print(line.split()[0], line.split()[1])\n");
  CHECK(output_of(sandboxed(dir)) ==
        std::vector<std::string>{"CapInh: 0000000000000000", "CapPrm: 0000000000000000",
                                 "CapEff: 0000000000000000", "CapBnd: 0000000000000000",
                                 "CapAmb: 0000000000000000"});
}

TEST_CASE(
    "sandbox: a sandboxed engine cannot read a root-only file even when the referee is root") {
  require_sandbox_host();
  TempDir dir;
  dir.write("root/secret", "secret\n", 0600);  // owned by the test's user, root in CI
  dir.engine(
      "try:\n"
      "    print(open('secret').read().strip())  # relative: the same script runs outside\n"
      "except OSError as e:\n"
      "    print('error', e.errno)\n");
  if (::geteuid() == 0) CHECK(output_of(unsandboxed(dir)) == std::vector<std::string>{"secret"});
  CHECK(output_of(sandboxed(dir)) == std::vector<std::string>{"error 13"});  // EACCES
}

TEST_CASE("sandbox: a sandboxed engine runs as the sandbox user with its group alone") {
  require_sandbox_host();
  TempDir dir;
  dir.engine("print(os.getuid(), os.geteuid(), os.getgid(), os.getgroups())\n");
  const uid_t uid = engine_uid();
  const gid_t gid = ::geteuid() == 0 ? ::getpwnam(Sandbox{}.user.c_str())->pw_gid : ::getegid();
  const auto inside = output_of(sandboxed(dir));
  REQUIRE(inside.size() == 1);
  const std::string ids =
      std::to_string(uid) + " " + std::to_string(uid) + " " + std::to_string(gid) + " [";
  CHECK(inside[0].rfind(ids, 0) == 0);
  if (::geteuid() == 0) CHECK(inside[0] == ids + "]");  // setgroups: none left
}

TEST_CASE("sandbox: a sandboxed engine's /tmp is empty at its next start") {
  require_sandbox_host();
  TempDir dir;
  dir.engine(
      "print(sorted(os.listdir('/tmp')), os.environ['HOME'])\n"
      "open('/tmp/left-behind', 'w').write('x')\n");
  CHECK(output_of(sandboxed(dir)) == std::vector<std::string>{"[] /tmp"});
  CHECK(output_of(sandboxed(dir)) == std::vector<std::string>{"[] /tmp"});
}

TEST_CASE("sandbox: a sandboxed engine gets a fixed environment, not the referee's") {
  require_sandbox_host();
  ::setenv("REFEREE_SANDBOX_TEST_SECRET", "leaked", 1);
  TempDir dir;
  dir.engine("print(sorted(os.environ.items()))\nprint(os.getcwd())\n");
  SpawnSpec spec = sandboxed(dir);
  spec.env = {{"ENGINE_OPTION", "1"}};
  CHECK(output_of(spec) ==
        std::vector<std::string>{"[('ENGINE_OPTION', '1'), ('HOME', '/tmp'), ('LANG', 'C.UTF-8'), "
                                 "('PATH', '/usr/local/bin:/usr/bin:/bin'), ('PWD', '/engine')]",
                                 "/engine"});
  ::unsetenv("REFEREE_SANDBOX_TEST_SECRET");
}

TEST_CASE("sandbox: a sandboxed engine still plays: lines in, lines out, its exit code reported") {
  require_sandbox_host();
  TempDir dir;
  dir.engine(
      "for line in sys.stdin:\n"
      "    if line.strip() == 'quit':\n"
      "        sys.exit(3)\n"
      "    print('pong', line.strip(), flush=True)\n"
      "    print('to stderr', line.strip(), file=sys.stderr, flush=True)\n");
  Process p = start(sandboxed(dir));
  for (const std::string ply : {"a", "b"}) {
    REQUIRE(p.write_line(ply, Clock::now() + 5s).ok());
    ReadResult r = p.read_line(Clock::now() + 20s);
    REQUIRE(r.status == ReadStatus::Line);
    CHECK(r.line == "pong " + ply);
  }
  REQUIRE(p.write_line("quit", Clock::now() + 5s).ok());
  CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
  p.shut_down(2000ms, 200ms);
  CHECK(p.exit_description() == "exit 3");
  CHECK(p.stderr_tail() == "to stderr a\nto stderr b\n");
}

TEST_CASE("sandbox: a signal that ends a sandboxed engine is reported as that signal") {
  // bwrap passes it on as its exit 139; the process layer reads it back as signal 11.
  require_sandbox_host();
  TempDir dir;
  dir.engine("import signal\nos.kill(os.getpid(), signal.SIGSEGV)\n");
  Process p = start(sandboxed(dir));
  CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
  p.shut_down(2000ms, 200ms);
  CHECK(p.exit_description() == "signal 11 (Segmentation fault) in the sandbox");
  CHECK(p.exit_signal() == 11);
  CHECK_FALSE(p.exit_code().has_value());
  CHECK_FALSE(p.sandbox_failed());
}

TEST_CASE("sandbox: a sandboxed engine's own exit codes up to 128 stay exit codes") {
  require_sandbox_host();
  for (int code : {0, 1, 128}) {
    TempDir dir;
    dir.engine("sys.exit(" + std::to_string(code) + ")\n");
    Process p = start(sandboxed(dir));
    CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
    p.shut_down(2000ms, 200ms);
    CHECK(p.exit_description() == "exit " + std::to_string(code));
    CHECK(p.exit_code() == code);
    CHECK_FALSE(p.exit_signal().has_value());
  }
}

TEST_CASE("sandbox: a sandboxed engine's command is found inside its sandbox") {
  require_sandbox_host();
  TempDir dir;
  dir.write("root/run.sh", "#!/bin/sh\necho \"$0\" \"$@\"\n", 0755);
  SECTION("a path relative to /engine") {
    SpawnSpec spec = sandboxed(dir, "./run.sh");
    spec.args = {"x y"};
    CHECK(output_of(spec) == std::vector<std::string>{"/engine/run.sh x y"});
  }
  SECTION("a name in the sandbox's PATH") {
    SpawnSpec spec = sandboxed(dir, "sh");
    spec.args = {"-c", "command -v sh"};
    CHECK(output_of(spec) == std::vector<std::string>{"/usr/bin/sh"});
  }
  SECTION("a missing one is NotFound before any start") {
    auto p = Process::spawn(sandboxed(dir, "./missing.sh"));
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::NotFound);
    CHECK(p.error() ==
          "cannot start engine './missing.sh': No such file or directory in the sandbox");
    auto q = Process::spawn(sandboxed(dir, "run.sh"));  // a name: searched in PATH, not /engine
    REQUIRE_FALSE(q.ok());
    CHECK(q.error() ==
          "cannot start engine 'run.sh': No such file or directory in the sandbox "
          "(searched /usr/local/bin:/usr/bin:/bin)");
  }
  SECTION("a host path outside what the sandbox mounts is not found") {
    auto p = Process::spawn(sandboxed(dir, dir.root() + "/run.sh"));
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::NotFound);
  }
}

TEST_CASE("sandbox: a root the sandbox user may not reach is refused before the start") {
  require_sandbox_host();
  TempDir dir;
  dir.engine("print('ran')\n");
  ::chmod(dir.path.c_str(), 0700);  // the root's parent: the sandbox user may not pass
  auto p = Process::spawn(sandboxed(dir));
  if (::geteuid() != 0) {  // bwrap runs as the test's own user, who may
    CHECK(p.ok());
    return;
  }
  REQUIRE_FALSE(p.ok());
  CHECK(p.kind() == referee::ErrorKind::Invalid);
  CHECK(p.error() == "cannot start engine './engine.py': sandbox root '" + dir.root() +
                         "': the sandbox user 'referee-engine' may not read it (" + dir.path +
                         ": mode 0700)");
}

TEST_CASE("sandbox: without bwrap a sandboxed engine is not started: one line, Unavailable") {
  TempDir dir;
  dir.engine("print('ran')\n");
  SpawnSpec spec = sandboxed(dir);
  spec.sandbox->bwrap = dir.path + "/no-bwrap";
  auto p = Process::spawn(spec);
  REQUIRE_FALSE(p.ok());
  CHECK(p.kind() == referee::ErrorKind::Unavailable);
  CHECK(p.error() == "cannot start engine './engine.py': bubblewrap (" + dir.path +
                         "/no-bwrap) is not installed: sandboxed engines are not played; "
                         "deps.sh installs it");
}

TEST_CASE("sandbox: without the sandbox user a sandboxed engine is not started") {
  if (::geteuid() != 0) return;  // the user is looked up only by a root referee
  TempDir dir;
  dir.engine("print('ran')\n");
  SpawnSpec spec = sandboxed(dir);
  spec.sandbox->user = "no-such-referee-user";
  auto p = Process::spawn(spec);
  REQUIRE_FALSE(p.ok());
  CHECK(p.kind() == referee::ErrorKind::Unavailable);
  CHECK(p.error() ==
        "cannot start engine './engine.py': the sandbox user 'no-such-referee-user' does not "
        "exist: sandboxed engines are not played; deps.sh creates it");
}

TEST_CASE("sandbox: namespaces refused are one line, Unavailable, not an engine that failed") {
  require_sandbox_host();
  TempDir dir;
  dir.engine("sys.exit(1)\n");
  SECTION("bwrap exits before it reports its namespaces") {
    // What bwrap does where user namespaces are not allowed (its words, its exit code).
    SpawnSpec spec = sandboxed(dir);
    spec.sandbox->bwrap = dir.write(
        "fake-bwrap",
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", 0755);
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::Unavailable);
    CHECK(p.error() ==
          "cannot start engine './engine.py': bubblewrap cannot create the sandbox: bwrap: No "
          "permissions to create new namespace");
  }
  SECTION("the real bwrap, refused a namespace by the process limit") {
    // bwrap's clone() meets RLIMIT_NPROC: "Creating new namespace failed". Where other
    // processes of the sandbox user run at the same time (tests in parallel), exec'ing bwrap
    // itself may meet the limit first: EAGAIN. Both are Unavailable, neither is an engine's exit.
    SpawnSpec spec = sandboxed(dir);
    spec.limits.processes = 1;
    auto p = Process::spawn(spec);
    REQUIRE_FALSE(p.ok());
    CHECK(p.kind() == referee::ErrorKind::Unavailable);
    const std::string prefix = "cannot start engine './engine.py': ";
    CHECK_THAT(p.error(),
               Catch::Matchers::Equals(prefix + "bubblewrap cannot create the sandbox: bwrap: "
                                                "Creating new namespace failed: Resource "
                                                "temporarily unavailable") ||
                   Catch::Matchers::Equals(prefix + "Resource temporarily unavailable"));
  }
  SECTION("an engine that exits 1 at once is an engine that exits 1") {
    Process p = start(sandboxed(dir));
    CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
    p.shut_down(2000ms, 200ms);
    CHECK(p.exit_description() == "exit 1");
    CHECK_FALSE(p.sandbox_failed());
  }
}

TEST_CASE(
    "sandbox: bwrap failing once its namespaces exist is the sandbox's exit, not the engine's") {
  require_sandbox_host();
  TempDir dir;
  SECTION("a mount refused inside (what a unit's ProtectKernelTunables does to --proc)") {
    // What bwrap does then: its namespaces reported, its reason on stderr, exit 1, no exit code
    // of an engine reported.
    dir.engine("print('ran')\n");
    SpawnSpec spec = sandboxed(dir);
    spec.sandbox->bwrap =
        dir.write("fake-bwrap",
                  "#!/bin/sh\n"
                  "echo '{ \"child-pid\": 12 }' >&5\n"
                  "echo \"bwrap: Can't mount proc on /newroot/proc: Operation not "
                  "permitted\" >&2\n"
                  "exit 1\n",
                  0755);
    Process p = start(spec);
    CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
    p.shut_down(2000ms, 200ms);
    CHECK(p.sandbox_failed());
    CHECK(p.exit_description() == "exit 1 (the sandbox failed before the engine started)");
    CHECK(p.stderr_tail() == "bwrap: Can't mount proc on /newroot/proc: Operation not permitted\n");
  }
  SECTION("the real bwrap cannot exec the engine: its interpreter is not in the sandbox") {
    dir.write("root/engine.py", "#!/opt/no-such-python\nprint('ran')\n", 0755);
    Process p = start(sandboxed(dir));
    CHECK(p.read_line(Clock::now() + 20s).status == ReadStatus::Eof);
    p.shut_down(2000ms, 200ms);
    CHECK(p.sandbox_failed());
    CHECK(p.exit_description() == "exit 1 (the sandbox failed before the engine started)");
    CHECK(p.stderr_tail() == "bwrap: execvp /engine/engine.py: No such file or directory\n");
  }
}

TEST_CASE("sandbox: a sandboxed engine's descendants die with it") {
  require_sandbox_host();
  TempDir dir;
  // A unique word on the sleepers' command lines, to find them from the host.
  const std::string marker = std::to_string(100000 + ::getpid());
  dir.engine(
      "import subprocess\n"
      "subprocess.Popen(['/bin/sleep', '" +
      marker +
      "'])\n"
      "subprocess.Popen(['/bin/sleep', '" +
      marker +
      "'], start_new_session=True)\n"
      "print('ready', flush=True)\n"
      "sys.stdin.read()\n");
  {
    Process p = start(sandboxed(dir));
    ReadResult r = p.read_line(Clock::now() + 20s);
    REQUIRE(r.status == ReadStatus::Line);
    const auto sleepers = wait_for_processes_with(marker, 2);
    REQUIRE(sleepers.size() == 2);
    for (pid_t pid : sleepers) {
      struct stat st {};
      REQUIRE(::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0);
      CHECK(st.st_uid == engine_uid());
    }
  }  // the Process ends: its keeper kills the tree
  CHECK(wait_for_processes_with(marker, 0).empty());
}

TEST_CASE("sandbox: SIGKILL of the referee ends its sandboxed engine, descendants included") {
  require_sandbox_host();
  TempDir dir;
  const std::string marker = std::to_string(200000 + ::getpid());
  dir.engine(
      "import subprocess\n"
      "subprocess.Popen(['/bin/sleep', '" +
      marker +
      "'], start_new_session=True)\n"
      "print('ready', flush=True)\n"
      "sys.stdin.read()\n");
  // A stand-in for the referee, killed with no chance to clean up: the keeper must.
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t referee = ::fork();
  if (referee == 0) {
    ::close(ready[0]);
    auto p = Process::spawn(sandboxed(dir));
    const bool up = p.ok() && p->read_line(Clock::now() + 20s).line == "ready";
    (void)!::write(ready[1], up ? "y" : "n", 1);
    for (;;) ::pause();
  }
  REQUIRE(referee > 0);
  ::close(ready[1]);
  char answer = 0;
  REQUIRE(::read(ready[0], &answer, 1) == 1);
  ::close(ready[0]);
  CHECK(answer == 'y');
  CHECK(wait_for_processes_with(marker, 1).size() == 1);
  ::kill(referee, SIGKILL);
  REQUIRE(::waitpid(referee, nullptr, 0) == referee);
  CHECK(wait_for_processes_with(marker, 0).empty());
}

TEST_CASE(
    "sandbox: without a memory cgroup, a sandboxed engine has kSandboxMemoryMb of address space") {
  require_sandbox_host();
  // The sanitizer run sets the variable for the whole suite: this test sets it itself.
  const char* before = std::getenv(kSandboxMemoryVariable);
  const std::string saved = before ? before : "";
  ::unsetenv(kSandboxMemoryVariable);
  TempDir dir;
  dir.engine(
      "import resource\n"
      "print(resource.getrlimit(resource.RLIMIT_AS)[0] // (1024 * 1024))\n");
  // The fallback where the host delegates no memory cgroup (memory_cgroup_test.cpp has the other).
  auto without_cgroup = [&] {
    SpawnSpec spec = sandboxed(dir);
    spec.sandbox->memory_cgroup = false;
    return spec;
  };
  CHECK(output_of(without_cgroup()) == std::vector<std::string>{std::to_string(kSandboxMemoryMb)});
  SpawnSpec spec = without_cgroup();
  spec.limits.memory_mb = 300;
  CHECK(output_of(spec) == std::vector<std::string>{"300"});
  // The operator's default from the environment; 0 is none (RLIM_INFINITY reads as -1).
  ::setenv(kSandboxMemoryVariable, "700", 1);
  CHECK(output_of(without_cgroup()) == std::vector<std::string>{"700"});
  ::setenv(kSandboxMemoryVariable, "0", 1);
  CHECK(output_of(without_cgroup()) == std::vector<std::string>{"-1"});
  ::setenv(kSandboxMemoryVariable, "lots", 1);
  auto refused = Process::spawn(sandboxed(dir));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.kind() == referee::ErrorKind::Invalid);
  CHECK(refused.error().find("REFEREE_SANDBOX_MEMORY_MB must be a number of MB") !=
        std::string::npos);
  if (before)
    ::setenv(kSandboxMemoryVariable, saved.c_str(), 1);
  else
    ::unsetenv(kSandboxMemoryVariable);
}

TEST_CASE("sandbox: an empty root is an empty read-only /engine") {
  require_sandbox_host();
  SpawnSpec spec;
  spec.command = "sh";
  spec.args = {"-c", "ls -A /engine; pwd; touch /engine/x 2>/dev/null || echo read-only"};
  spec.sandbox = Sandbox{};
  CHECK(output_of(spec) == std::vector<std::string>{"/engine", "read-only"});
}

TEST_CASE("sandbox: referee.service gives bwrap its namespaces, /proc, user and memory cgroup") {
  std::ifstream file(SOURCE_DIR "/referee/service/referee.service");
  std::map<std::string, std::string> settings;
  for (std::string line; std::getline(file, line);)
    if (auto eq = line.find('='); eq != std::string::npos && line[0] != '#')
      settings[line.substr(0, eq)] = line.substr(eq + 1);
  CHECK(settings["RestrictNamespaces"] == "user mnt pid net ipc uts cgroup");
  CHECK(settings["RestrictAddressFamilies"] == "AF_UNIX AF_INET AF_INET6 AF_NETLINK");
  // A locked mount over /proc's directories or hidepid: the kernel refuses bwrap's fresh /proc.
  CHECK(settings["ProtectKernelTunables"] == "no");
  CHECK(settings["ProtectKernelLogs"] == "no");
  CHECK(settings["ProtectProc"] == "default");
  // The daemon becomes referee-engine before bwrap (sandbox_user_test.cpp), in a memory cgroup
  // of the engine's own (memory_cgroup_test.cpp), from a cache that user may pass.
  CHECK(settings["User"] == "referee");
  CHECK(settings.count("DynamicUser") == 0);
  CHECK(settings["CapabilityBoundingSet"] == "CAP_SETUID CAP_SETGID");
  CHECK(settings["AmbientCapabilities"] == "CAP_SETUID CAP_SETGID");
  CHECK(settings["Delegate"] == "memory");
  CHECK(settings["ProtectControlGroups"] == "no");
  CHECK(settings["CacheDirectoryMode"] == "0711");
  // ... and gives its artifacts/ to that user's group (artifact_cache_test.cpp).
  CHECK(settings["SupplementaryGroups"] == "referee-engine");
  CHECK(settings["ExecStart"].find("--artifact-cache ${CACHE_DIRECTORY}/artifacts") !=
        std::string::npos);
  // Both accounts come with it.
  std::ifstream sysusers(SOURCE_DIR "/referee/service/referee.sysusers");
  std::set<std::string> accounts, memberships;
  for (std::string kind, name, rest; sysusers >> kind;) {
    if (kind[0] == '#') {
      std::getline(sysusers, rest);
      continue;
    }
    sysusers >> name;
    std::getline(sysusers, rest);
    if (kind == "u") accounts.insert(name);
    if (kind == "m") memberships.insert(name + rest);
  }
  CHECK(accounts == std::set<std::string>{"referee", "referee-engine"});
  CHECK(memberships == std::set<std::string>{"referee referee-engine"});
  // The rest of the hardening stays.
  CHECK(settings["NoNewPrivileges"] == "yes");
  CHECK(settings["ProtectSystem"] == "strict");
  CHECK(settings["ProtectHome"] == "yes");
}

TEST_CASE("sandbox: an engine configured with sandbox = true is spawned in its sandbox") {
  EngineConfig config;
  config.name = "e";
  config.command = "engine.py";
  config.working_dir = "/srv/engines/e";
  CHECK_FALSE(spawn_spec_of(config).sandbox.has_value());
  config.sandbox = true;
  SpawnSpec spec = spawn_spec_of(config);
  REQUIRE(spec.sandbox.has_value());
  CHECK(spec.sandbox->root == "/srv/engines/e");  // no sandbox_root: its working directory
  CHECK(spec.sandbox->user == "referee-engine");
  config.sandbox_root = "/var/lib/referee/artifacts/abc";
  CHECK(spawn_spec_of(config).sandbox->root == "/var/lib/referee/artifacts/abc");
}

}  // namespace sandbox_test
