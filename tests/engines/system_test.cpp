// engines/system: this process's usage, a measured child run, temporary directories, the
// executable's directory.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

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
    "system: run_measured captures the output and the child's own usage; failures are errors") {
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
