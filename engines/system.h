// The few facts about this process that the referee's commands need from the operating system,
// kept here so that POSIX stays in the process layer.
#pragma once

#include <string>
#include <vector>

#include "base/expected.h"

namespace referee::engines {

struct Usage {
  double user_seconds = 0;
  double system_seconds = 0;
  long peak_rss_kb = 0;
  long voluntary_switches = 0;    // context switches while waiting (a pipe, a lock)
  long involuntary_switches = 0;  // preemptions
};

// CPU time and peak memory of this process alone (engines are children: not included).
Usage self_usage();
// CPU time and context switches of the calling thread alone (RUSAGE_THREAD; peak_rss_kb is the
// process's).
Usage thread_usage();
// The CPUs this process may run on (sched_getaffinity), in increasing order; never empty.
std::vector<int> allowed_cpus();
// Pins the calling thread to these CPUs; processes it forks afterwards (engines) inherit the pin.
// False when the system refuses (no CPU of the list is allowed).
bool pin_this_thread(const std::vector<int>& cpus);
// Runs argv[0] (a path) with `argv`, its standard output into the file `stdout_path`, waits for
// it and returns its own CPU time and peak memory (a benchmark measures a command as a user runs
// it). An error when it cannot start or does not exit with status 0.
Expected<Usage> run_measured(const std::vector<std::string>& argv, const std::string& stdout_path);
// Whether standard error is a terminal (a live progress line rewrites itself there).
bool stderr_is_terminal();
// The directory of the running executable.
std::string executable_dir();
// A new empty directory under the system's temporary directory.
std::string make_temp_dir(const std::string& prefix);
// CPU time and memory of another process (the daemon, seen by its load benchmark), read from
// /proc; an error when the process does not exist.
struct ProcessUsage {
  double user_seconds = 0;
  double system_seconds = 0;
  long rss_kb = 0;       // resident now
  long peak_rss_kb = 0;  // VmHWM
  int threads = 0;
};
Expected<ProcessUsage> process_usage(long pid);
// Whether standard error is connected to the systemd journal (JOURNAL_STREAM names its device
// and inode): log lines then carry <N> priority prefixes instead of timestamps.
bool stderr_is_journal();
// Creates `path` with `text` readable and writable by this user alone (mode 0600 from the start,
// whatever the umask), never through a file or link that is already there (O_EXCL, O_NOFOLLOW),
// and syncs it; nothing is left behind on a failure. Conflict when the path exists.
Status create_private_file(const std::string& path, const std::string& text);
// Caps the allocator's arenas (glibc's M_ARENA_MAX). glibc gives threads arenas of their own, up
// to 8 per core; memory freed in one is not reused by the others, so hundreds of threads that
// each build and drop large strings (the daemon's live streams) hold several times the memory in
// use. Call it before starting threads; elsewhere it does nothing.
void limit_allocator_arenas(int arenas);
// Raises this process's soft limit of open files towards `wanted` (never above the hard limit,
// never lowering it) and returns the limit in force afterwards.
long raise_open_files_limit(long wanted);
// This machine's host name and this process's id (an event's owners table names who plays what).
std::string host_name();
long process_id();

}  // namespace referee::engines
