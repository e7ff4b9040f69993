// The sandbox of an engine (SpawnSpec::sandbox, process.h): what a sandboxed engine sees and who
// it runs as, turned into a bubblewrap (bwrap) command line before the fork.
//
// Contract: prepare_sandbox() checks everything a sandboxed start needs that can be checked
// before the fork, and builds the command the keeper (keeper.h) execs in place of the engine:
// bwrap, which creates the namespaces, mounts, and then execs the engine inside. What the engine
// gets:
// - the mounts of sandbox_mounts() and nothing else: /usr read-only, Debian's merged-usr links
//   /bin /sbin /lib /lib64 (a read-only bind where the host has a directory instead),
//   /etc/ld.so.cache read-only (the dynamic loader's cache: nothing else under /etc is needed by
//   the loader, Python 3 or Node 20), the sandbox's root read-only at /engine (an empty directory
//   when the root is empty), a private tmpfs of kSandboxTmpMb at /tmp, its own /proc, a minimal
//   /dev, read-only but for a tmpfs of kSandboxShmMb at /dev/shm; then / is remounted read-only.
//   No database, token file, /etc/referee, other artifact, home directory;
// - every namespace of its own (--unshare-all: no network but its own loopback, its own pids),
//   --die-with-parent, --new-session (no terminal to push input into), --cap-drop ALL;
// - the environment PATH=kSandboxPath, LANG=C.UTF-8, HOME=/tmp and the engine's own env, nothing
//   of the referee's (--clearenv; bwrap itself is exec'd with an empty environment);
// - working directory /engine; its command resolved inside (resolve_sandboxed_command);
// - when the referee runs as root, or holds CAP_SETUID and CAP_SETGID (referee.service gives
//   those two to its user): the uid and gid of Sandbox::user, no supplementary groups, no
//   capability (the keeper switches before exec'ing bwrap: setgroups, setgid, setuid, then clears
//   the ambient, inheritable, permitted and effective sets, which setuid from a user other than
//   root leaves). Otherwise bwrap runs as the referee's user, in a user namespace.
//
// Decisions:
// - A missing bwrap or user is Unavailable with one line naming it and saying deps.sh installs
//   it: a sandboxed engine never runs without its sandbox.
// - bwrap reports on --json-status-fd (keeper::kBwrapStatusFd) once it has cloned into its
//   namespaces; an exit before that report is the sandbox failing (namespaces refused), told
//   apart from an engine that fails, whose exit comes after it (keeper.h, process.cpp).
// - Memory: kSandboxMemoryMb for a sandboxed engine with no memory limit of its own; the
//   operator may set another default in the environment, REFEREE_SANDBOX_MEMORY_MB (0: none).
//   Where the host delegates a memory cgroup to the referee (v2; or v1 when the referee may write
//   its memory cgroup), the limit is a cgroup of the engine's own (memory_cgroup.h): memory really
//   used, the tmpfs /tmp included. Elsewhere it is RLIMIT_AS, which counts reserved address
//   space: enough for Node 20, not for engines built with AddressSanitizer, which reserve
//   terabytes (the sanitizer run of the tests sets 0 for that case).
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"

namespace referee::engines {

struct Sandbox {
  std::string root;                      // host directory mounted read-only at /engine; "" = empty
  std::string user = "referee-engine";   // who the engine runs as when the referee may switch
  std::string bwrap = "/usr/bin/bwrap";  // bubblewrap's path (a test points it elsewhere)
  // Limit memory with a cgroup of the engine's own where the host delegates one (memory_cgroup.h);
  // false: always RLIMIT_AS (a test pins that path on a host that has a cgroup).
  bool memory_cgroup = true;
};

// The memory limit of a sandboxed engine whose ResourceLimits::memory_mb is 0. Measured
// under bwrap on x86-64: Node 20 needs about 720 MB to start (V8 reserves its code range),
// Python 3.11 about 16 MB; 2 GB leaves Node a heap of a gigabyte and more.
inline constexpr long kSandboxMemoryMb = 2048;

// The sizes of the sandbox's writable tmpfs, /tmp and /dev/shm: memory of the host that
// RLIMIT_AS does not count, so bounded here. A write past them is ENOSPC.
inline constexpr long kSandboxTmpMb = 64;
inline constexpr long kSandboxShmMb = 16;

// The environment variable that overrides kSandboxMemoryMb (see the header comment).
inline constexpr const char* kSandboxMemoryVariable = "REFEREE_SANDBOX_MEMORY_MB";

// PATH inside the sandbox.
inline constexpr const char* kSandboxPath = "/usr/local/bin:/usr/bin:/bin";

// Where the root is mounted, and the engine's working directory.
inline constexpr const char* kSandboxEngineDir = "/engine";

// What the keeper execs for a sandboxed engine.
struct SandboxLaunch {
  std::string bwrap;                  // the program
  std::vector<std::string> argv;      // bwrap's argv: argv[0], options, "--", the engine's argv
  bool switch_user = false;           // become uid/gid before exec (root, or CAP_SETUID/GID)
  long memory_mb = kSandboxMemoryMb;  // when the engine sets none; 0: none
  uid_t uid = 0;
  gid_t gid = 0;
};

// The group of `user` when sandboxed engines run as that user: the referee may switch to it (root,
// or CAP_SETUID and CAP_SETGID in its effective set) and it exists. Nothing otherwise: they run
// as the referee's own user.
std::optional<gid_t> sandbox_user_group(const std::string& user);

// bwrap's mount options for `sandbox`, in order (part of prepare_sandbox's command line).
std::vector<std::string> sandbox_mounts(const Sandbox& sandbox);

// Checks bwrap (Unavailable when it is not an executable file), the user (Unavailable when
// unknown; looked up only when the referee may switch to it: see above), the root (a directory:
// NotFound or Invalid naming it; when the user is switched, one it may read and reach by the mode
// bits of the root and its parents, ACLs not read: Invalid naming the first that refuses, where
// bwrap would fail only once started), the command (resolve_sandboxed_command: NotFound or
// Invalid), and builds the launch. Error messages are the part after "cannot start engine
// '<command>': ".
Expected<SandboxLaunch> prepare_sandbox(const Sandbox& sandbox, const std::string& command,
                                        const std::vector<std::string>& args,
                                        const std::map<std::string, std::string>& env,
                                        int status_fd);

// The line of spawn's error when bwrap exits before it has created the namespaces, from what
// bwrap wrote on stderr (its first line; "bwrap: " stays, it names the culprit).
std::string sandbox_failure(const std::string& bwrap_stderr);

}  // namespace referee::engines
