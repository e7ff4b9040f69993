// The network namespaces of the worker proof (netns.h): a namespace reaches the root side of its
// own veth pair, and everything created is gone when the owner goes out of scope, and also when
// the process that owns them is killed with SIGKILL (the watchdog). Without root or namespaces
// these print `SKIPPED netns: <why>` and check only that the reason is given.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "tests/service/daemon_util.h"
#include "tests/service/netns.h"

using stest::contains;

namespace {

std::string output_of(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

bool skipped(const stest::NetNamespaces& nets) {
  if (nets.available()) return false;
  CHECK_FALSE(nets.reason().empty());
  std::cerr << "SKIPPED netns: " << nets.reason() << "\n";
  WARN("SKIPPED netns: " + nets.reason());
  return true;
}

// Whatever of this run's namespaces or veths `ip` still lists.
std::string leftovers(const std::string& prefix) {
  std::string out;
  for (const auto& line : rtest::lines_of(output_of("ip netns list; ip -o link")))
    if (contains(line, prefix)) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("netns: each namespace reaches its root side over its veth, and all is removed after") {
  const std::string prefix = "rf" + std::to_string(::getpid());
  {
    stest::NetNamespaces nets(2);
    if (skipped(nets)) return;
    CHECK(nets.ns(0) == prefix + "n0");
    CHECK(nets.address(1) != nets.address(0));
    const std::string listed = leftovers(prefix);
    CHECK(contains(listed, nets.ns(0)));
    CHECK(contains(listed, nets.ns(1)));
    CHECK(contains(listed, prefix + "h1"));
    // Namespace 0 has its address and reaches its root side; it has no other route out.
    const std::string in0 = "ip netns exec " + nets.ns(0) + " ";
    CHECK(contains(output_of(in0 + "ip -4 -o addr"), nets.address(0) + "/30"));
    CHECK_FALSE(contains(output_of(in0 + "ip -4 -o addr"), "192."));
    CHECK(
        contains(output_of(in0 + "ip route get " + nets.root_address(0)), "dev " + prefix + "c0"));
    CHECK(contains(output_of(in0 + "ip route get " + nets.root_address(1)), "unreachable"));
  }
  CHECK(leftovers(prefix).empty());
}

TEST_CASE("netns: namespaces of a process killed with SIGKILL are removed by the watchdog") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    stest::NetNamespaces nets(1);
    const std::string line = (nets.available() ? "ok " : "no ") + nets.reason() + "\n";
    if (::write(fds[1], line.data(), line.size()) < 0) ::_exit(1);
    if (nets.available())
      for (;;) ::pause();
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string line;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
  ::close(fds[0]);
  const std::string prefix = "rf" + std::to_string(child);
  if (line.rfind("ok", 0) != 0) {
    ::waitpid(child, nullptr, 0);
    INFO(line);
    CHECK(line.size() > 3);
    std::cerr << "SKIPPED netns: " << line.substr(3) << "\n";
    WARN("SKIPPED netns: " + line.substr(3));
    return;
  }
  CHECK(contains(leftovers(prefix), prefix + "n0"));
  REQUIRE(::kill(child, SIGKILL) == 0);
  REQUIRE(::waitpid(child, nullptr, 0) == child);
  const bool gone = stest::wait_until([&] { return leftovers(prefix).empty(); }, 20);
  if (!gone) output_of("ip netns del " + prefix + "n0; ip link del " + prefix + "h0");
  CHECK(gone);
}
