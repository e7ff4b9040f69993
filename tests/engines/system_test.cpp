// engines/system: this process's usage, a measured child run, temporary directories, the
// executable's directory, another process's usage, whether stderr is the journal, one thread's
// usage, CPU pinning.
#include <sched.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engines/process.h"
#include "engines/system.h"

using namespace referee::engines;

TEST_CASE("system: usage grows with work and counts memory") {
  const Usage before = self_usage();
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x = x + i * 0.5;
  const Usage after = self_usage();
  CHECK(after.user_seconds + after.system_seconds > before.user_seconds + before.system_seconds);
  CHECK(after.peak_rss_kb > 0);
}

TEST_CASE("system: a thread's usage counts its own work, not another thread's") {
  Usage busy_thread{}, idle_thread{};
  std::thread busy([&] {
    const Usage before = thread_usage();
    volatile double x = 0;
    for (int i = 0; i < 30000000; ++i) x = x + i * 0.5;
    const Usage after = thread_usage();
    busy_thread.user_seconds = after.user_seconds - before.user_seconds;
  });
  busy.join();
  std::thread idle([&] {
    idle_thread = thread_usage();  // a new thread: next to nothing yet
  });
  idle.join();
  CHECK(busy_thread.user_seconds > 0.005);
  CHECK(idle_thread.user_seconds + idle_thread.system_seconds < busy_thread.user_seconds);
}

TEST_CASE("system: a pinned thread and the engines it starts run on that CPU only") {
  const std::vector<int> cpus = allowed_cpus();
  REQUIRE(!cpus.empty());
  const int last = cpus.back();
  CHECK_FALSE(pin_this_thread({}));
  CHECK_FALSE(pin_this_thread({-1}));
  // Catch's assertions are not thread-safe: the thread records, the test checks.
  bool pinned = false, spawned = false;
  std::vector<int> seen_thread, seen_engine;
  std::thread worker([&] {
    pinned = pin_this_thread({last});
    seen_thread = allowed_cpus();
    SpawnSpec spec;
    spec.command = "/bin/sleep";
    spec.args = {"5"};
    auto engine = Process::spawn(spec);
    if (!engine) return;
    spawned = true;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(engine->pid(), sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) seen_engine.push_back(c);
    engine->shut_down(std::chrono::milliseconds(0), std::chrono::milliseconds(500));
  });
  worker.join();
  REQUIRE(pinned);
  REQUIRE(spawned);
  CHECK(seen_thread == std::vector<int>{last});
  CHECK(seen_engine == std::vector<int>{last});
  CHECK(allowed_cpus() == cpus);  // the other threads keep theirs
}

TEST_CASE("system: temporary directories are new and empty") {
  const std::string a = make_temp_dir("referee-test-");
  const std::string b = make_temp_dir("referee-test-");
  CHECK(a != b);
  CHECK(std::filesystem::is_directory(a));
  CHECK(std::filesystem::is_empty(a));
  CHECK(std::filesystem::path(a).filename().string().rfind("referee-test-", 0) == 0);
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

TEST_CASE("system: the executable's directory holds this test") {
  CHECK(std::filesystem::exists(std::filesystem::path(executable_dir()) / "test_engines"));
}

TEST_CASE(
    "system: run_measured captures the output and the child's own usage, failures are errors") {
  const std::string dir = make_temp_dir("referee-test-");
  const std::string out = dir + "/out.txt";
  auto ran = run_measured({"/bin/sh", "-c",
                           "echo hello; i=0; while [ $i -lt 20000 ]; do "
                           "i=$((i+1)); done"},
                          out);
  REQUIRE(ran.ok());
  CHECK(ran->peak_rss_kb > 0);
  CHECK(ran->user_seconds + ran->system_seconds > 0);
  std::ifstream in(out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "hello");

  auto failed = run_measured({"/bin/sh", "-c", "exit 3"}, out);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error() == "/bin/sh failed (exit status 3)");
  auto killed = run_measured({"/bin/sh", "-c", "kill -9 $$"}, out);
  REQUIRE_FALSE(killed.ok());
  CHECK(killed.error() == "/bin/sh failed (killed by signal 9)");
  CHECK_FALSE(run_measured({dir + "/no-such-program"}, out).ok());
  CHECK_FALSE(run_measured({"/bin/true"}, dir + "/no-such-dir/out.txt").ok());
  CHECK_FALSE(run_measured({}, out).ok());
  std::filesystem::remove_all(dir);
}

TEST_CASE("system: another process's usage from /proc, a missing process is an error") {
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x = x + i * 0.5;
  auto usage = process_usage(process_id());
  REQUIRE(usage.ok());
  CHECK(usage->user_seconds + usage->system_seconds > 0);
  CHECK(usage->rss_kb > 0);
  CHECK(usage->peak_rss_kb >= usage->rss_kb);
  CHECK(usage->threads >= 1);
  auto missing = process_usage(999999999);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() == "no process 999999999");
}

TEST_CASE("system: stderr is the journal only when JOURNAL_STREAM names its device and inode") {
  const char* saved = std::getenv("JOURNAL_STREAM");
  const std::string restore = saved ? saved : "";
  ::unsetenv("JOURNAL_STREAM");
  CHECK_FALSE(stderr_is_journal());
  ::setenv("JOURNAL_STREAM", "garbage", 1);
  CHECK_FALSE(stderr_is_journal());
  struct stat st {};
  REQUIRE(::fstat(2, &st) == 0);
  const std::string mine = std::to_string(static_cast<unsigned long long>(st.st_dev)) + ":" +
                           std::to_string(static_cast<unsigned long long>(st.st_ino));
  ::setenv("JOURNAL_STREAM", mine.c_str(), 1);
  CHECK(stderr_is_journal());
  ::setenv("JOURNAL_STREAM", (mine + "1").c_str(), 1);
  CHECK_FALSE(stderr_is_journal());
  if (saved)
    ::setenv("JOURNAL_STREAM", restore.c_str(), 1);
  else
    ::unsetenv("JOURNAL_STREAM");
}
