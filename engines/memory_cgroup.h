// The memory cgroup of a sandboxed engine (sandbox.h): where the host delegates a memory cgroup to
// the referee, each sandboxed engine gets one of its own, limited to its memory, instead of an
// address-space limit (RLIMIT_AS), which counts reservations rather than memory: Node reserves
// 720 MB of address space before it runs, and AddressSanitizer terabytes.
//
// Contract:
// - find_memory_cgroup() finds the cgroup under which engine cgroups are made, or nothing (then the
//   engine gets RLIMIT_AS as before). cgroup v2 first: the referee's own cgroup (/proc/self/cgroup
//   "0::PATH", under a cgroup2 mount of /proc/self/mountinfo) when it offers the memory controller
//   and the referee may write there (a systemd unit with Delegate=). v2 forbids processes in a
//   cgroup whose children have controllers, so the referee moves itself into a leaf
//   kDaemonLeaf of it, once, and only when it is the cgroup's only process (a shell's scope is
//   left alone); then it enables +memory for the children. Otherwise cgroup v1: the referee's
//   cgroup of the memory hierarchy, when the referee may write there (root on a v1 host).
// - make_engine_cgroup() makes a cgroup "engine-<referee pid>-<random>" under it, limited to
//   `memory_mb` (v2: memory.max, memory.swap.max 0 where swap is accounted; v1:
//   memory.limit_in_bytes and memory.memsw.limit_in_bytes where present), and empty cgroups left by
//   a referee that is gone are removed on the way. The keeper's child joins it before it execs
//   bwrap (keeper.h: Plan::cgroup_procs), so every process of the engine is in it from the start,
//   and the tmpfs /tmp it writes is charged to it too.
// - After the engine's tree is gone: out_of_memory() says whether the kernel killed a process of
//   it for the limit (memory.events "oom_kill" in v2, memory.oom_control "oom_kill" in v1), and
//   remove_engine_cgroup() removes it.
//
// Decisions:
// - Automatic, not an option: memory really used is the limit an operator means; a host that
//   delegates no memory cgroup keeps the address-space limit (OPERATING.md, "Sandbox").
// - Failures to find a cgroup are not errors (the fallback is the address-space limit); a failure
//   to make or fill the engine's own, once a parent was found, is an error: the engine would run
//   without the limit the operator was told it has.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/expected.h"

namespace referee::engines {

enum class CgroupVersion { V1, V2 };

struct CgroupParent {
  CgroupVersion version = CgroupVersion::V2;
  std::string dir;  // absolute path in the cgroup file system
};

// The leaf (v2) the referee moves itself into, so that its own cgroup may have children.
inline constexpr const char* kDaemonLeaf = "referee-daemon";

// The referee's memory cgroup directory by version, from the texts of /proc/self/cgroup and
// /proc/self/mountinfo; nothing checked on disk. nullopt when that version has none.
std::optional<std::string> cgroup_dir_of(CgroupVersion version, std::string_view proc_cgroup,
                                         std::string_view mountinfo);

// See the header comment. Reads /proc/self and the cgroup file system; may move the referee into
// kDaemonLeaf (v2).
std::optional<CgroupParent> find_memory_cgroup();

struct EngineCgroup {
  CgroupVersion version = CgroupVersion::V2;
  std::string dir;
  std::string procs;  // dir + "/cgroup.procs": what the keeper's child writes its pid into
  long memory_mb = 0;
};

// Makes the engine's cgroup under `parent`, limited to `memory_mb` (> 0). Errors name the file.
Expected<EngineCgroup> make_engine_cgroup(const CgroupParent& parent, long memory_mb);

// Whether the kernel's OOM killer killed a process of the cgroup.
bool out_of_memory(const EngineCgroup& cgroup);

// Removes the cgroup (empty once the engine's tree is gone); a few tries, since the last process
// may still be leaving. False when it stays.
bool remove_engine_cgroup(const EngineCgroup& cgroup);

}  // namespace referee::engines
