// The mock engine (tests/support/mock_engine.cpp) does what each of its flags promises, so the
// referee's tests that rely on it test what they claim. Driven through engines/process.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "engines/process.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace {

Clock::time_point in(std::chrono::milliseconds ms) {
  return Clock::now() + ms;
}

Process mock(std::vector<std::string> flags) {
  SpawnSpec spec;
  spec.command = SUPPORT_DIR "/mock_engine";
  spec.args = std::move(flags);
  auto p = Process::spawn(spec);
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  return std::move(p).value();
}

void send(Process& p, const std::vector<std::string>& lines) {
  REQUIRE(p.write_lines(lines, in(1000ms)).ok());
}

ReadResult next(Process& p, std::chrono::milliseconds wait = 2000ms) {
  return p.read_line(in(wait));
}

std::string line(Process& p) {
  ReadResult r = next(p);
  INFO("status " << static_cast<int>(r.status));
  REQUIRE(r.status == ReadStatus::Line);
  return r.line;
}

}  // namespace

TEST_CASE("mock: plays the first legal move of the position, setgame and fen included") {
  Process p = mock({});
  send(p, {"setgame awale", "position startpos", "go", "position startpos moves 3", "go"});
  CHECK(line(p) == "bestmove 1");
  CHECK(line(p) == "bestmove 10");
  send(p, {"position fen 0,0,0,0,0,1/4,4,4,4,4,4:23,0:1:0:0", "go"});
  CHECK(line(p) == "bestmove 6");
  send(p, {"setgame nosuchgame", "position fen nonsense", "frobnicate"});
  CHECK(line(p).rfind("error setgame ", 0) == 0);
  CHECK(line(p).rfind("error position ", 0) == 0);
  CHECK(line(p) == "error unknown frobnicate");
}

TEST_CASE("mock: --no-handshake and --no-readyok stay silent") {
  Process quiet = mock({"--no-handshake"});
  send(quiet, {"ugi"});
  CHECK(next(quiet, 100ms).status == ReadStatus::Timeout);
  Process deaf = mock({"--no-readyok"});
  send(deaf, {"isready 3"});
  CHECK(next(deaf, 100ms).status == ReadStatus::Timeout);
}

TEST_CASE("mock: --exit-on-start") {
  Process p = mock({"--exit-on-start"});
  CHECK(next(p).status == ReadStatus::Eof);
  p.shut_down(1000ms, 100ms);
  CHECK(p.exit_description() == "exit 1");
}

TEST_CASE("mock: --illegal and --garbage") {
  Process illegal = mock({"--illegal"});
  send(illegal, {"position startpos", "go"});
  CHECK(line(illegal) == "bestmove 10");  // South's first go: 10 is North's pit
  Process garbage = mock({"--garbage"});
  send(garbage, {"go"});
  CHECK(line(garbage) == "bestmove");
}

TEST_CASE("mock: --crash-on-go=2 exits 3 on the second go") {
  Process p = mock({"--crash-on-go=2"});
  send(p, {"go"});
  CHECK(line(p) == "bestmove 1");
  send(p, {"go"});
  CHECK(next(p).status == ReadStatus::Eof);
  p.shut_down(1000ms, 100ms);
  CHECK(p.exit_description() == "exit 3");
}

TEST_CASE("mock: --stall-after-go=2 answers nothing from the second go") {
  Process p = mock({"--stall-after-go=2"});
  send(p, {"go", "isready 1"});
  CHECK(line(p) == "bestmove 1");
  CHECK(line(p) == "readyok 1");
  send(p, {"go", "isready 2", "quit"});
  CHECK(next(p, 150ms).status == ReadStatus::Timeout);
  CHECK(p.running());  // quit ignored too
}

TEST_CASE("mock: --resign-on-go, --spam-info, --slow-ms") {
  Process p = mock({"--resign-on-go=1", "--spam-info=3", "--slow-ms=50"});
  auto t0 = Clock::now();
  send(p, {"go"});
  CHECK(line(p) == "info depth 1 nodes 1");
  CHECK(line(p) == "info depth 2 nodes 1");
  CHECK(line(p) == "info depth 3 nodes 1");
  CHECK(line(p) == "bestmove resign");
  CHECK(Clock::now() - t0 >= 50ms);
  send(p, {"go"});
  CHECK(line(p) == "info depth 1 nodes 1");
}

TEST_CASE("mock: --double-bestmove and --bare-readyok") {
  Process twice = mock({"--double-bestmove"});
  send(twice, {"position startpos", "go"});
  CHECK(line(twice) == "bestmove 1");
  CHECK(line(twice) == "bestmove 1");
  Process bare = mock({"--bare-readyok"});
  send(bare, {"isready 4"});
  CHECK(line(bare) == "readyok");
}

TEST_CASE("mock: --flood=WHEN[,stderr][,raw] floods on that command only") {
  SECTION("go, stdout lines") {
    Process p = mock({"--flood=go"});
    send(p, {"isready 1", "go"});
    CHECK(line(p) == "readyok 1");
    for (int i = 0; i < 1000; ++i) REQUIRE(line(p).rfind("flood flood", 0) == 0);
  }
  SECTION("ugi, raw: no newline ever") {
    SpawnSpec spec;
    spec.command = SUPPORT_DIR "/mock_engine";
    spec.args = {"--flood=ugi,raw"};
    spec.max_line_bytes = 1000;
    auto p = Process::spawn(spec);
    REQUIRE(p.ok());
    send(*p, {"ugi"});
    CHECK(next(*p).status == ReadStatus::TooLong);
  }
  SECTION("isready, stderr: stdout stays silent, stderr fills") {
    Process p = mock({"--flood=isready,stderr"});
    p.set_budget({1000, 1u << 20});
    send(p, {"isready 1"});
    CHECK(next(p, 5000ms).status == ReadStatus::Flood);
    CHECK(p.stderr_tail().find("flood flood") != std::string::npos);
  }
  SECTION("gameover and quit") {
    Process between = mock({"--flood=gameover"});
    send(between, {"isready 1", "gameover p1win rules"});
    CHECK(line(between) == "readyok 1");
    CHECK(line(between).rfind("flood", 0) == 0);
    Process after = mock({"--flood=quit"});
    send(after, {"quit"});
    CHECK(line(after).rfind("flood", 0) == 0);
    CHECK(after.running());
  }
}

TEST_CASE("mock: --pid-file and --setsid-child: a grandchild in a session of its own") {
  char pattern[] = "/tmp/mock_test_XXXXXX";
  int fd = ::mkstemp(pattern);
  REQUIRE(fd >= 0);
  ::close(fd);
  Process p = mock({"--setsid-child", std::string("--pid-file=") + pattern});
  std::vector<long> pids;
  auto deadline = in(5000ms);
  while (pids.size() < 2 && Clock::now() < deadline) {
    std::ifstream f(pattern);
    pids.clear();
    for (long pid; f >> pid;) pids.push_back(pid);
  }
  REQUIRE(pids.size() == 2);
  CHECK(pids[0] == p.pid());
  // Field 6 of /proc/<pid>/stat is the session id.
  auto session_of = [](long pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    std::istringstream rest(text.substr(text.rfind(')') + 2));
    std::string state;
    long ppid = 0, pgrp = 0, session = 0;
    rest >> state >> ppid >> pgrp >> session;
    return session;
  };
  CHECK(session_of(pids[1]) != session_of(pids[0]));  // so not in its process group either
  std::remove(pattern);
}
