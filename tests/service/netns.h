// Network namespaces for the worker proof: each worker in its own namespace, linked to the root
// namespace by a veth pair, so that it reaches the test's PostgreSQL server over TCP as a remote
// worker would (issue 12).
//
// - Namespace i of this process is `rf<pid>n<i>`, its pair `rf<pid>h<i>` (root side) and
//   `rf<pid>c<i>` (namespace side): unique per run, so parallel ctest runs do not clash.
// - Addresses: a /30 per pair in 10.<pid bits>.0/24: the root side .4i+1, the namespace .4i+2.
// - Everything is removed by the destructor (also when a REQUIRE throws) and, should the test
//   process die by a signal, by a Watchdog (tests/storage/watchdog.h).
// - Needs root and a kernel/container that allows namespaces: otherwise available() is false and
//   reason() says why (the test then falls back to the Unix socket, loudly).
#pragma once

#include <unistd.h>

#include <sys/wait.h>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "storage/watchdog.h"

namespace stest {

class NetNamespaces {
 public:
  explicit NetNamespaces(int count) {
    if (::geteuid() != 0) {
      reason_ = "not running as root";
      return;
    }
    const long pid = static_cast<long>(::getpid());
    prefix_ = "rf" + std::to_string(pid);
    subnet_ = "10." + std::to_string((pid >> 8) & 0xff) + "." + std::to_string(pid & 0xff) + ".";
    std::string cleanup;
    for (int i = 0; i < count; ++i)
      cleanup += "ip netns del " + ns(i) + " 2>/dev/null; ip link del " + prefix_ + "h" +
                 std::to_string(i) + " 2>/dev/null; ";
    watchdog_ = storage_test::Watchdog(cleanup + "true");
    for (int i = 0; i < count; ++i) {
      const std::string n = ns(i), host = prefix_ + "h" + std::to_string(i),
                        peer = prefix_ + "c" + std::to_string(i);
      created_ = i + 1;
      if (!run("ip netns add " + n) ||
          !run("ip link add " + host + " type veth peer name " + peer) ||
          !run("ip link set " + peer + " netns " + n) ||
          !run("ip addr add " + root_address(i) + "/30 dev " + host) ||
          !run("ip link set " + host + " up") ||
          !run("ip netns exec " + n + " ip addr add " + address(i) + "/30 dev " + peer) ||
          !run("ip netns exec " + n + " ip link set " + peer + " up") ||
          !run("ip netns exec " + n + " ip link set lo up"))
        return;
    }
    available_ = true;
  }
  ~NetNamespaces() {
    for (int i = 0; i < created_; ++i) {
      run("ip netns del " + ns(i), true);
      run("ip link del " + prefix_ + "h" + std::to_string(i), true);
    }
    watchdog_.release();
  }
  NetNamespaces(const NetNamespaces&) = delete;
  NetNamespaces& operator=(const NetNamespaces&) = delete;

  bool available() const { return available_; }
  const std::string& reason() const { return reason_; }
  std::string ns(int i) const { return prefix_ + "n" + std::to_string(i); }
  // The address of namespace i, and that of the root side of its pair (where servers listen).
  std::string address(int i) const { return subnet_ + std::to_string(4 * i + 2); }
  std::string root_address(int i) const { return subnet_ + std::to_string(4 * i + 1); }
  // The /24 all the namespaces' addresses are in.
  std::string clients() const { return subnet_ + "0/24"; }
  // The argv prefix that runs a program in namespace i.
  std::vector<std::string> exec_prefix(int i) const { return {"ip", "netns", "exec", ns(i)}; }
  // The file that names namespace i (for setns).
  std::string ns_file(int i) const { return "/run/netns/" + ns(i); }
  // The root side of pair i.
  std::string host_link(int i) const { return prefix_ + "h" + std::to_string(i); }
  // A silent network cut of namespace i: its pair's root side is set down, so nothing goes
  // either way and no reset reaches anyone (the namespace side keeps its address and route: its
  // packets are dropped, not refused). restore() sets it up again (its route comes back with it).
  bool cut(int i) { return run("ip link set " + host_link(i) + " down"); }
  bool restore(int i) { return run("ip link set " + host_link(i) + " up"); }
  // The processes living in namespace i.
  std::vector<long> pids(int i) {
    std::vector<long> out;
    std::string text;
    if (!run("ip netns pids " + ns(i), false, &text)) return out;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) out.push_back(std::stol(text.substr(start, end - start)));
      start = end + 1;
    }
    return out;
  }

 private:
  // Runs a command; on failure (unless `quiet`) keeps its first line of output as the reason.
  bool run(const std::string& command, bool quiet = false, std::string* output = nullptr) {
    std::string out;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p) {
      if (!quiet && reason_.empty()) reason_ = command + ": popen failed";
      return false;
    }
    char buf[512];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    if (output) *output = out;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    if (!quiet && reason_.empty())
      reason_ = "'" + command + "' failed: " + out.substr(0, out.find('\n'));
    return false;
  }

  std::string prefix_, subnet_, reason_;
  int created_ = 0;
  bool available_ = false;
  storage_test::Watchdog watchdog_;
};

}  // namespace stest
