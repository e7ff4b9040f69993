// engines/memory_cgroup: where the referee's cgroup is found (from the texts of /proc/self/cgroup
// and mountinfo), and real sandboxed engines (Python 3 under bubblewrap) in a memory cgroup of
// their own: its limit, the kernel's OOM kill reported as such, address space reserved beyond the
// limit allowed, the cgroup removed after the engine. The tests of real engines need a host that
// delegates a memory cgroup to the tests (root on a cgroup v1 host, or a delegated v2 cgroup) and
// fail, saying so, where there is none: never a silent skip.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engines/memory_cgroup.h"
#include "engines/process.h"
#include "engines/sandbox.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A Python 3 engine in a temporary root the sandbox user may enter, removed at the end.
struct EngineRoot {
  std::string path;
  explicit EngineRoot(const std::string& body) {
    char pattern[] = "/tmp/memory_cgroup_test_XXXXXX";
    REQUIRE(::mkdtemp(pattern) != nullptr);
    path = pattern;
    ::chmod(path.c_str(), 0755);
    const std::string file = path + "/engine.py";
    std::ofstream(file) << "#!/usr/bin/python3\nimport sys\n" << body;
    ::chmod(file.c_str(), 0755);
  }
  ~EngineRoot() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  SpawnSpec spec(long memory_mb) const {
    SpawnSpec spec;
    spec.command = "./engine.py";
    spec.sandbox = Sandbox{path};
    spec.limits.memory_mb = memory_mb;
    return spec;
  }
};

CgroupParent require_memory_cgroup() {
  auto parent = find_memory_cgroup();
  INFO(
      "no memory cgroup is delegated to the tests: run them as root on a cgroup v1 host, or "
      "in a systemd unit with Delegate=memory on a cgroup v2 host");
  REQUIRE(parent.has_value());
  return *parent;
}

Process start(const SpawnSpec& spec) {
  auto p = Process::spawn(spec);
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  return std::move(p).value();
}

std::string next_line(Process& p) {
  ReadResult r = p.read_line(Clock::now() + 20s);
  INFO("stderr: " << p.stderr_tail());
  REQUIRE(r.status == ReadStatus::Line);
  return r.line;
}

const char* kHybrid = "9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n";
const char* kHybridMounts =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

}  // namespace

TEST_CASE("memory cgroup: the referee's cgroup is its line of /proc/self/cgroup under its mount") {
  // A hybrid host: v1 memory hierarchy, and a v2 one without controllers (find_memory_cgroup
  // then reads its cgroup.controllers and falls back to v1).
  CHECK(cgroup_dir_of(CgroupVersion::V1, kHybrid, kHybridMounts) ==
        "/sys/fs/cgroup/memory/process_api/abc");
  CHECK(cgroup_dir_of(CgroupVersion::V2, kHybrid, kHybridMounts) == "/sys/fs/cgroup/unified");
  // A unified host, the referee in a systemd service.
  const char* unified = "0::/system.slice/referee.service\n";
  const char* mounts = "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n";
  CHECK(cgroup_dir_of(CgroupVersion::V2, unified, mounts) ==
        "/sys/fs/cgroup/system.slice/referee.service");
  CHECK_FALSE(cgroup_dir_of(CgroupVersion::V1, unified, mounts).has_value());
  // A mount of a subtree (a container's): the path is taken relative to the mount's root.
  const char* subtree = "40 30 0:26 /system.slice /mnt/cg rw - cgroup2 cgroup2 rw\n";
  CHECK(cgroup_dir_of(CgroupVersion::V2, unified, subtree) == "/mnt/cg/referee.service");
  CHECK_FALSE(cgroup_dir_of(CgroupVersion::V2, "0::/user.slice\n", subtree).has_value());
  // A memory hierarchy mounted with other controllers; none mounted at all.
  const char* joint = "35 31 0:32 / /cg/mem rw - cgroup cgroup rw,memory,hugetlb\n";
  CHECK(cgroup_dir_of(CgroupVersion::V1, "4:hugetlb,memory:/x\n", joint) == "/cg/mem/x");
  CHECK_FALSE(cgroup_dir_of(CgroupVersion::V1, kHybrid, "").has_value());
  CHECK_FALSE(cgroup_dir_of(CgroupVersion::V2, "", kHybridMounts).has_value());
}

TEST_CASE(
    "memory cgroup: a sandboxed engine runs in a memory cgroup of its own, removed after it") {
  const CgroupParent parent = require_memory_cgroup();
  EngineRoot root(
      "import resource\n"
      "print(resource.getrlimit(resource.RLIMIT_AS)[0], flush=True)\n"
      "sys.stdin.readline()\n");
  Process p = start(root.spec(300));
  CHECK(next_line(p) == "-1");  // no address-space limit: the cgroup holds the limit
  const std::string dir = p.memory_cgroup();
  REQUIRE(dir.rfind(parent.dir + "/engine-", 0) == 0);
  const std::string limit =
      parent.version == CgroupVersion::V2 ? "/memory.max" : "/memory.limit_in_bytes";
  CHECK(std::stol(read_file(dir + limit)) == 300L * 1024 * 1024);
  // The engine (bwrap, and the engine under it) is in it: its cgroup's path ends with the name.
  const std::string name = dir.substr(dir.rfind('/'));
  CHECK(read_file("/proc/" + std::to_string(p.pid()) + "/cgroup").find(name + "\n") !=
        std::string::npos);
  REQUIRE(p.write_line("quit", Clock::now() + 5s).ok());
  p.shut_down(5000ms, 500ms);
  CHECK(p.exit_code() == 0);
  CHECK_FALSE(p.out_of_memory());
  CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("memory cgroup: an engine over its limit is killed by the kernel, and its exit says so") {
  require_memory_cgroup();
  EngineRoot root(
      "print('ready', flush=True)\n"
      "hoard = bytearray(400 * 1024 * 1024)\n"  // touched: zeroed pages are memory
      "print('survived', flush=True)\n");
  Process p = start(root.spec(64));
  CHECK(next_line(p) == "ready");
  ReadResult r = p.read_line(Clock::now() + 30s);
  CHECK(r.status == ReadStatus::Eof);
  p.shut_down(5000ms, 500ms);
  CHECK(p.out_of_memory());
  CHECK(p.exit_description() ==
        "signal 9 (Killed) in the sandbox (out of memory: over its limit of 64 MB)");
}

TEST_CASE("memory cgroup: address space reserved beyond the limit is no memory used") {
  // What an address-space limit refuses: Node 20 reserves 720 MB before it runs, an engine
  // built with AddressSanitizer terabytes.
  require_memory_cgroup();
  EngineRoot root(
      "import mmap\n"
      "reserved = mmap.mmap(-1, 4 << 30)\n"
      "print('reserved', len(reserved) >> 20, flush=True)\n");
  Process p = start(root.spec(256));
  CHECK(next_line(p) == "reserved 4096");
  p.shut_down(5000ms, 500ms);
  CHECK(p.exit_code() == 0);
}

TEST_CASE("memory cgroup: the empty cgroups of a referee that is gone are removed") {
  const CgroupParent parent = require_memory_cgroup();
  // A pid above the kernel's pid_max: no such process.
  const std::string stale = parent.dir + "/engine-999999999-0badcafe";
  REQUIRE(::mkdir(stale.c_str(), 0755) == 0);
  EngineRoot root("print('up', flush=True)\n");
  Process p = start(root.spec(100));
  CHECK(next_line(p) == "up");
  CHECK_FALSE(std::filesystem::exists(stale));
  p.shut_down(5000ms, 500ms);
}

TEST_CASE("memory cgroup: a limit the cgroup refuses stops the start, naming the file") {
  const CgroupParent parent = require_memory_cgroup();
  // v1 refuses a limit below the memory the cgroup already holds only once something is in it;
  // a file that is not there (a parent that is no cgroup) is refused on every host.
  const CgroupParent wrong{parent.version, "/tmp"};
  auto made = make_engine_cgroup(wrong, 100);
  REQUIRE_FALSE(made.ok());
  CHECK(made.kind() == referee::ErrorKind::Io);
  CHECK(made.error().find("/tmp/engine-") != std::string::npos);
  CHECK(made.error().find("memory.") != std::string::npos);
  // Nothing left behind.
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    CHECK(entry.path().filename().string().rfind("engine-" + std::to_string(::getpid()) + "-", 0) !=
          0);
}
