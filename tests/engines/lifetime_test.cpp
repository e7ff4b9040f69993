// engines/process and engines/keeper: no process of an engine outlives it or the referee, and an
// engine's exit is seen at once. Real processes: /bin/sh scripts and the mock engine, whose
// --setsid-child grandchild leaves the engine's process group (fork, setsid, fork) and ignores
// every signal it can, and whose --pid-file tells the test which processes to watch.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <thread>

#include "engines/keeper.h"
#include "engines/process.h"

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

Process sh(const std::string& script) {
  SpawnSpec spec;
  spec.command = "/bin/sh";
  spec.args = {"-c", script};
  return start(spec);
}

Process mock(std::vector<std::string> flags) {
  SpawnSpec spec;
  spec.command = kMock;
  spec.args = std::move(flags);
  return start(spec);
}

// Alive and not a zombie.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content;
  if (!std::getline(stat, content)) return false;
  auto close = content.rfind(')');
  return close != std::string::npos && close + 2 < content.size() && content[close + 2] != 'Z' &&
         content[close + 2] != 'X';
}

bool all_die_within(const std::vector<pid_t>& pids, std::chrono::milliseconds wait) {
  auto deadline = in(wait);
  for (pid_t pid : pids) {
    while (alive(pid)) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(5ms);
    }
  }
  return true;
}

// Live processes with `arg` among their arguments.
int count_processes_with_arg(const std::string& arg) {
  // Processes come and go while /proc is read: the error_code overloads never throw.
  int count = 0;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end;
       it.increment(error)) {
    const auto& entry = *it;
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // Through the stream (not istreambuf_iterator): a process that exits while it is read makes
    // read() fail with ESRCH, which the stream turns into a failed state instead of throwing.
    std::ifstream in(entry.path() / "cmdline");
    std::ostringstream read;
    read << in.rdbuf();
    const std::string cmdline = read.str();
    if (cmdline.find(std::string(1, '\0') + arg + '\0') != std::string::npos &&
        alive(static_cast<pid_t>(std::stol(name))))
      ++count;
  }
  return count;
}

std::string temp_file() {
  char pattern[] = "/tmp/lifetime_test_XXXXXX";
  int fd = ::mkstemp(pattern);
  REQUIRE(fd >= 0);
  ::close(fd);
  return pattern;
}

std::vector<pid_t> read_pids(const std::string& file) {
  std::ifstream in(file);
  std::vector<pid_t> pids;
  for (long pid; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  return pids;
}

// Polls until `file` lists `count` pids (the mock and its grandchild write them as they start).
std::vector<pid_t> wait_for_pids(const std::string& file, std::size_t count) {
  auto deadline = in(10000ms);
  auto pids = read_pids(file);
  while (pids.size() < count && Clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
    pids = read_pids(file);
  }
  REQUIRE(pids.size() == count);
  for (pid_t pid : pids) CHECK(alive(pid));
  return pids;
}

}  // namespace

TEST_CASE("lifetime: an engine's exit is seen at once while a child still holds its stdout") {
  // `sleep 300 &` keeps stdout open: no end of file comes, only the keeper's report.
  Process p = sh("sleep 300 & echo $!; exit 5");
  const pid_t child = static_cast<pid_t>(std::stol(p.read_line(in(5000ms)).line));
  auto t0 = Clock::now();
  CHECK(p.read_line(in(20000ms)).status == ReadStatus::Eof);
  CHECK(ms_since(t0) < 5000);  // far below the 20 s deadline
  CHECK_FALSE(p.running());
  CHECK(p.exit_description() == "exit 5");
  CHECK(all_die_within({child}, 2000ms));  // the keeper killed the rest of the tree
}

TEST_CASE("lifetime: what an engine wrote before it exited is read first, a last line too") {
  Process p = sh("sleep 300 & printf 'one\\ntwo\\nlast'; exit 0");
  CHECK(p.read_line(in(5000ms)).line == "one");
  CHECK(p.read_line(in(5000ms)).line == "two");
  auto t0 = Clock::now();
  auto last = p.read_line(in(20000ms));
  CHECK(last.status == ReadStatus::Line);
  CHECK(last.line == "last");
  CHECK(p.read_line(in(20000ms)).status == ReadStatus::Eof);
  CHECK(p.poll_line().status == ReadStatus::Eof);
  CHECK(ms_since(t0) < 5000);
}

TEST_CASE("lifetime: the mock's --fork-exit-on-go is a crash seen at once") {
  Process p = mock({"--fork-exit-on-go"});
  REQUIRE(p.write_lines({"position startpos", "go"}, in(1000ms)).ok());
  auto t0 = Clock::now();
  CHECK(p.read_line(in(20000ms)).status == ReadStatus::Eof);
  CHECK(ms_since(t0) < 5000);
  p.shut_down(1000ms, 100ms);
  CHECK(p.exit_description() == "exit 5");
}

TEST_CASE("lifetime: a setsid grandchild that ignores every signal dies with the engine") {
  const std::string pids_file = temp_file();
  SECTION("shut_down, the engine ignoring quit and SIGTERM") {
    Process p = mock({"--ignore-quit", "--setsid-child", "--pid-file=" + pids_file});
    auto pids = wait_for_pids(pids_file, 2);
    REQUIRE(p.write_line("quit", in(1000ms)).ok());
    p.shut_down(100ms, 100ms);
    CHECK(p.exit_description() == "signal 9 (Killed)");
    CHECK(all_die_within(pids, 2000ms));
  }
  SECTION("the engine exits by itself: the keeper cleans up without being asked") {
    Process p = mock({"--setsid-child", "--pid-file=" + pids_file});
    auto pids = wait_for_pids(pids_file, 2);
    REQUIRE(p.write_line("quit", in(1000ms)).ok());
    CHECK(all_die_within(pids, 2000ms));
    CHECK_FALSE(p.running());
    CHECK(p.exit_description() == "exit 0");
  }
  SECTION("the destructor") {
    std::vector<pid_t> pids;
    {
      Process p = mock({"--ignore-quit", "--setsid-child", "--pid-file=" + pids_file});
      pids = wait_for_pids(pids_file, 2);
    }
    CHECK(all_die_within(pids, 2000ms));
  }
  std::remove(pids_file.c_str());
}

TEST_CASE("lifetime: SIGKILL of the referee ends its engines, grandchildren included") {
  // A stand-in for the referee: a child of the test that starts two engines, says so on a pipe,
  // and is then killed with SIGKILL: no chance to clean up. Its keepers must.
  const std::string pids_file = temp_file();
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  pid_t referee = ::fork();
  if (referee == 0) {
    ::close(ready[0]);
    SpawnSpec spec;
    spec.command = kMock;
    spec.args = {"--ignore-quit", "--setsid-child", "--pid-file=" + pids_file};
    auto a = Process::spawn(spec);
    auto b = Process::spawn(spec);
    (void)!::write(ready[1], a.ok() && b.ok() ? "y" : "n", 1);
    for (;;) ::pause();
  }
  REQUIRE(referee > 0);
  ::close(ready[1]);
  char answer = 0;
  REQUIRE(::read(ready[0], &answer, 1) == 1);
  ::close(ready[0]);
  CHECK(answer == 'y');
  auto pids = wait_for_pids(pids_file, 4);
  ::kill(referee, SIGKILL);
  REQUIRE(::waitpid(referee, nullptr, 0) == referee);
  CHECK(all_die_within(pids, 2000ms));
  std::remove(pids_file.c_str());
}

TEST_CASE("lifetime: an engine that forks without end is stopped, its whole tree with it") {
  // It ignores SIGTERM and keeps starting sleepers out of subshells that exit at once, so that
  // they re-parent to the keeper; each sleeper has a duration no other process here uses.
  const std::string marker = "7." + std::to_string(::getpid() % 100000);
  Process p = sh("trap '' TERM; while :; do (sleep " + marker + " &); sleep 0.002; done");
  auto t0 = Clock::now();
  while (count_processes_with_arg(marker) < 10 && ms_since(t0) < 5000)
    std::this_thread::sleep_for(5ms);
  REQUIRE(count_processes_with_arg(marker) >= 10);
  t0 = Clock::now();
  p.shut_down(0ms, 0ms);
  CHECK(ms_since(t0) < 5000);
  CHECK(p.exit_description() == "signal 9 (Killed)");
  CHECK(count_processes_with_arg(marker) == 0);  // shut_down returns once the tree is gone
}

TEST_CASE("lifetime: if its keeper is killed, the engine dies with it and the exit is unknown") {
  Process p = mock({"--ignore-quit"});
  // The keeper is the engine's parent: field 4 of /proc/<pid>/stat.
  std::ifstream stat("/proc/" + std::to_string(p.pid()) + "/stat");
  std::string text;
  std::getline(stat, text);
  std::istringstream rest(text.substr(text.rfind(')') + 2));
  std::string state;
  long keeper = 0;
  rest >> state >> keeper;
  REQUIRE(keeper > 1);
  REQUIRE(keeper != ::getpid());
  ::kill(static_cast<pid_t>(keeper), SIGKILL);
  CHECK(p.read_line(in(5000ms)).status == ReadStatus::Eof);  // PR_SET_PDEATHSIG
  CHECK(all_die_within({p.pid()}, 2000ms));
  CHECK_FALSE(p.running());
  CHECK(p.exit_description() == "unknown (its keeper process was killed)");
  CHECK_FALSE(p.exit_code().has_value());
}

// The keeper's two ways of finding its children, run in a helper process (they kill every child
// of their caller): two sleeping children, both must be found and die of SIGKILL.
TEST_CASE("lifetime: the keeper finds its children in /proc, both ways") {
  for (int way = 0; way < 2; ++way) {
    pid_t helper = ::fork();
    if (helper == 0) {
      pid_t kids[2];
      for (pid_t& kid : kids) {
        kid = ::fork();
        if (kid == 0) {
          for (;;) ::pause();
        }
      }
      int found = way == 0 ? keeper::kill_children_listed() : keeper::kill_children_by_scan();
      int killed = 0;
      for (pid_t kid : kids) {
        int status = 0;
        if (::waitpid(kid, &status, 0) == kid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
          ++killed;
      }
      ::_exit(found == 2 && killed == 2 ? 0 : 1);
    }
    REQUIRE(helper > 0);
    int status = 0;
    REQUIRE(::waitpid(helper, &status, 0) == helper);
    INFO("way " << way);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
}
