// engines/sandbox: who a sandboxed engine runs as when the referee is not root but holds
// CAP_SETUID and CAP_SETGID alone, as referee.service gives its user: the referee-engine user,
// with every capability set empty (setuid from a user other than root keeps them: the keeper
// clears them). The referee is a forked child of the test that becomes the user `daemon` with
// those two capabilities. Such a referee gives its artifact cache to referee-engine's group when it
// is a member of it, as referee.service makes it, and says why not otherwise; one without them
// keeps it at 0700. Needs root, bwrap and referee-engine, and fails saying so otherwise.
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engines/artifact_cache.h"
#include "engines/engine_hash.h"
#include "engines/process.h"
#include "engines/sandbox.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace {

// In the child: becomes `uid` with `capabilities` (a mask) permitted and effective, nothing
// inherited, and the supplementary groups `groups`. False on a failure.
bool become_with(uid_t uid, gid_t gid, unsigned capabilities,
                 const std::vector<gid_t>& groups = {}) {
  if (::prctl(PR_SET_KEEPCAPS, 1) != 0 || ::setgroups(groups.size(), groups.data()) != 0 ||
      ::setgid(gid) != 0 || ::setuid(uid) != 0)
    return false;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  data[0].permitted = data[0].effective = capabilities;
  return ::syscall(SYS_capset, &header, data) == 0;
}

// Runs `report` in a forked child that has become the user `daemon` with `capabilities` and the
// supplementary `groups`, and returns what it returned ("cannot become daemon" if it could not).
std::string as_daemon(unsigned capabilities, const std::vector<gid_t>& groups,
                      const std::function<std::string()>& report) {
  const passwd* daemon_user = ::getpwnam("daemon");
  REQUIRE(daemon_user != nullptr);
  const uid_t uid = daemon_user->pw_uid;
  const gid_t gid = daemon_user->pw_gid;
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(out[0]);
    const std::string text =
        become_with(uid, gid, capabilities, groups) ? report() : "cannot become daemon";
    (void)!::write(out[1], text.data(), text.size());
    ::_exit(0);
  }
  ::close(out[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  ::close(out[0]);
  ::waitpid(child, nullptr, 0);
  return text;
}

// What a sandboxed engine reports about itself ("uid 123", "CapEff: 0000000000000000", ...),
// started by a referee that is the user `daemon` with `capabilities`; or the spawn's error.
std::string engine_seen_by(unsigned capabilities) {
  char pattern[] = "/tmp/sandbox_user_test_XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const std::string dir = pattern;
  ::chmod(dir.c_str(), 0755);
  std::ofstream(dir + "/engine.py") << "#!/usr/bin/python3\nimport os\nprint('uid', os.getuid())\n"
                                       "for line in open('/proc/self/status'):\n"
                                       "    if line.startswith('Cap'): print(line.strip())\n";
  ::chmod((dir + "/engine.py").c_str(), 0755);
  const std::string report = as_daemon(capabilities, {}, [&]() -> std::string {
    SpawnSpec spec;
    spec.command = "./engine.py";
    spec.sandbox = Sandbox{dir};
    auto p = Process::spawn(spec);
    if (!p) return p.error();
    std::string seen;
    for (ReadResult r = p->read_line(Clock::now() + 20s); r.status == ReadStatus::Line;
         r = p->read_line(Clock::now() + 20s))
      seen += r.line + "\n";
    p->shut_down(2000ms, 200ms);
    return seen;
  });
  std::filesystem::remove_all(dir);
  return report;
}

// A referee that is the user `daemon` with `capabilities` and the supplementary `groups`
// materialises an artifact in a new cache: "mode 0710 gid N" (in decimal), or the error.
std::string cache_made_by(unsigned capabilities, const std::vector<gid_t>& groups) {
  char pattern[] = "/tmp/sandbox_user_cache_XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const std::string dir = pattern;
  const passwd* daemon_user = ::getpwnam("daemon");
  REQUIRE(daemon_user != nullptr);
  REQUIRE(::chown(dir.c_str(), daemon_user->pw_uid, daemon_user->pw_gid) == 0);
  const std::string report = as_daemon(capabilities, groups, [&]() -> std::string {
    const std::string bytes = "#!/bin/sh\necho hello\n";
    ArtifactCache cache(dir + "/cache", 1 << 20);
    auto lease = cache.materialise(bytes_sha256(bytes), ArtifactKind::File, "bot.sh",
                                   [&]() -> referee::Expected<std::string> { return bytes; }, {});
    if (!lease) return lease.error();
    struct stat st {};
    if (::stat((dir + "/cache").c_str(), &st) != 0) return "no cache directory";
    return "mode " + std::to_string(st.st_mode & 07777) + " gid " + std::to_string(st.st_gid);
  });
  std::filesystem::remove_all(dir);
  return report;
}

}  // namespace

TEST_CASE("sandbox user: a referee with CAP_SETUID and CAP_SETGID runs engines as referee-engine") {
  INFO("root, bubblewrap and the user referee-engine are needed: deps.sh installs them");
  REQUIRE(::geteuid() == 0);
  const passwd* engine_user = ::getpwnam(Sandbox{}.user.c_str());
  REQUIRE(engine_user != nullptr);
  const uid_t engine_uid = engine_user->pw_uid;  // getpwnam's entry is overwritten by the next
  const std::string report =
      engine_seen_by((1U << CAP_SETUID) | (1U << CAP_SETGID));  // referee.service's two
  INFO(report);
  CHECK(report.find("uid " + std::to_string(engine_uid) + "\n") != std::string::npos);
  for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapAmb"})
    CHECK(report.find(std::string(set) + ":\t0000000000000000") != std::string::npos);
}

TEST_CASE("sandbox user: a referee without them runs engines as itself, in a user namespace") {
  REQUIRE(::geteuid() == 0);
  const std::string report = engine_seen_by(0);
  INFO(report);
  // The user namespace maps the referee's uid to itself; bwrap drops every capability.
  CHECK(report.find("uid " + std::to_string(::getpwnam("daemon")->pw_uid) + "\n") !=
        std::string::npos);
  CHECK(report.find("CapEff:\t0000000000000000") != std::string::npos);
}

TEST_CASE("sandbox user: such a referee gives its artifact cache to referee-engine's group") {
  INFO("root and the user referee-engine are needed: deps.sh creates it");
  REQUIRE(::geteuid() == 0);
  const passwd* engine_user = ::getpwnam(Sandbox{}.user.c_str());
  REQUIRE(engine_user != nullptr);
  const gid_t engine_gid = engine_user->pw_gid;
  // A member of the group (referee.service's SupplementaryGroups): 0710, the group's.
  const unsigned capable = (1U << CAP_SETUID) | (1U << CAP_SETGID);
  CHECK(cache_made_by(capable, {engine_gid}) ==
        "mode " + std::to_string(0710) + " gid " + std::to_string(engine_gid));
  // Not a member: refused with one line naming the directory, the group's user and the remedy.
  const std::string refused = cache_made_by(capable, {});
  INFO(refused);
  CHECK(refused.rfind("artifact cache: cannot give '/tmp/sandbox_user_cache_", 0) == 0);
  CHECK(refused.find("/cache' to the group of 'referee-engine', who runs the engines: Operation "
                     "not permitted (the referee must be root or a member of that group)") !=
        std::string::npos);
  CHECK(refused.find('\n') == std::string::npos);
}

TEST_CASE(
    "sandbox user: a referee that runs engines as itself keeps its artifact cache to itself") {
  REQUIRE(::geteuid() == 0);
  const passwd* daemon_user = ::getpwnam("daemon");
  REQUIRE(daemon_user != nullptr);
  const gid_t daemon_gid = daemon_user->pw_gid;
  // No capabilities: engines run as `daemon`, who alone may enter the cache.
  CHECK(cache_made_by(0, {}) ==
        "mode " + std::to_string(0700) + " gid " + std::to_string(daemon_gid));
}
