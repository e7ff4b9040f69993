// No process of an engine outlives the referee, whatever happens to the referee: the real
// `referee match` binary plays mock engines that ignore quit, end of input, SIGTERM, SIGINT and
// SIGHUP, and each start a grandchild that leaves their process group (fork, setsid, fork) and
// ignores every signal it can. After a finished match, a Ctrl-C, a second Ctrl-C and a kill -9 of
// the referee, none of them is left a couple of seconds later.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "tests/referee/rtest_util.h"

using rtest::contains;
using SteadyClock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

// A live process (not a zombie) that runs the mock engine: a pid reused by another program does
// not count.
bool mock_alive(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::string stat = rtest::read_text(proc + "/stat");
  auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  if (stat[close + 2] == 'Z' || stat[close + 2] == 'X') return false;
  return contains(rtest::read_text(proc + "/cmdline"), "mock_engine");
}

std::vector<pid_t> read_pids(const std::string& file) {
  std::vector<pid_t> pids;
  for (const auto& line : rtest::read_lines(file))
    if (!line.empty()) pids.push_back(static_cast<pid_t>(std::stol(line)));
  return pids;
}

// Polls (up to 20 s) until the engines and their grandchildren have all written their pids.
std::vector<pid_t> wait_for_pids(const std::string& file, std::size_t count) {
  const auto deadline = SteadyClock::now() + 20s;
  auto pids = read_pids(file);
  while (pids.size() < count && SteadyClock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
    pids = read_pids(file);
  }
  return pids;
}

// The pids still alive after `wait` (none, hopefully).
std::vector<pid_t> survivors_after(const std::vector<pid_t>& pids, std::chrono::milliseconds wait) {
  const auto deadline = SteadyClock::now() + wait;
  std::vector<pid_t> alive;
  do {
    alive.clear();
    for (pid_t pid : pids)
      if (mock_alive(pid)) alive.push_back(pid);
    if (alive.empty()) break;
    std::this_thread::sleep_for(10ms);
  } while (SteadyClock::now() < deadline);
  for (pid_t pid : alive) ::kill(pid, SIGKILL);  // do not leave them to the next test
  return alive;
}

struct Match {
  rtest::TempDir dir;
  std::string pids_file = dir.file("pids");

  std::vector<std::string> args(int cycles, int slow_ms) const {
    const std::string engine = rtest::kMock +
                               " --ignore-quit --setsid-child --pid-file=" + pids_file +
                               " --slow-ms=" + std::to_string(slow_ms);
    return {"match",       "--engine", "a=" + engine,          "--engine",
            "b=" + engine, "--game",   "awale:maxplies=6",     "--tc",
            "60+0",        "--cycles", std::to_string(cycles), "--concurrency",
            "1",           "--db",     dir.file("match.db"),   "-q"};
  }

  // Starts `referee` with stdout and stderr in files of `dir`.
  pid_t start(const std::vector<std::string>& arguments) const {
    std::vector<std::string> argv_text = {REFEREE_BIN};
    argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string out = dir.file("out"), err = dir.file("err");
    pid_t pid = ::fork();
    if (pid == 0) {
      int in = ::open("/dev/null", O_RDONLY);
      int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(in, 0);
      ::dup2(o, 1);
      ::dup2(e, 2);
      ::execv(REFEREE_BIN, argv.data());
      ::_exit(127);
    }
    return pid;
  }

  std::string err() const { return rtest::read_text(dir.file("err")); }
};

int wait_exit_status(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("lifetime: after a finished match no process of an engine is left") {
  Match m;
  auto r = rtest::run_program(REFEREE_BIN, m.args(1, 0), m.dir);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto pids = read_pids(m.pids_file);
  CHECK(pids.size() >= 4);  // two engines, two grandchildren
  CHECK(survivors_after(pids, 2000ms).empty());
}

TEST_CASE("lifetime: after Ctrl-C no process of an engine is left") {
  Match m;
  pid_t referee = m.start(m.args(100, 50));
  REQUIRE(referee > 0);
  auto pids = wait_for_pids(m.pids_file, 4);
  REQUIRE(pids.size() == 4);
  ::kill(referee, SIGINT);
  CHECK(wait_exit_status(referee) == 130);
  INFO(m.err());
  CHECK(survivors_after(pids, 2000ms).empty());
}

TEST_CASE("lifetime: after a second Ctrl-C no process of an engine is left") {
  Match m;
  pid_t referee = m.start(m.args(100, 50));
  REQUIRE(referee > 0);
  auto pids = wait_for_pids(m.pids_file, 4);
  REQUIRE(pids.size() == 4);
  ::kill(referee, SIGINT);
  // Once the referee says it is finishing, it waits for engines that ignore quit: Ctrl-C again.
  const auto deadline = SteadyClock::now() + 20s;
  while (!contains(m.err(), "finishing cleanly") && SteadyClock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  REQUIRE(contains(m.err(), "finishing cleanly"));
  ::kill(referee, SIGINT);
  CHECK(wait_exit_status(referee) == 130);
  CHECK(survivors_after(pids, 2000ms).empty());
}

TEST_CASE("lifetime: after kill -9 of the referee no process of an engine is left") {
  Match m;
  pid_t referee = m.start(m.args(100, 50));
  REQUIRE(referee > 0);
  auto pids = wait_for_pids(m.pids_file, 4);
  REQUIRE(pids.size() == 4);
  ::kill(referee, SIGKILL);
  CHECK(wait_exit_status(referee) == 128 + SIGKILL);
  CHECK(survivors_after(pids, 2000ms).empty());
}
