// Which file spawn executes for an engine's command (SpawnSpec::command, process.h), and whether
// its working directory is one.
//
// Contract: a command holding a '/' is that path (a relative one taken from the working
// directory); any other is the first executable regular file of that name in the referee's PATH
// (the default "/usr/local/bin:/usr/bin:/bin" when PATH is unset; an empty entry is "."). The
// answer is the path, or the OS error (an errno value) that explains why there is none.
//
// Decisions:
// - The search is done here, before the fork, rather than by execvp in the engine's process:
//   the keeper may only make system calls after the fork, and an error found here needs no
//   round trip through the keeper.
// - A PATH search reports the first error other than "not there" (EACCES of an entry that is not
//   executable, say): it says more than ENOENT, which is reported only when nothing was found.
// - The file is checked, not trusted: a directory is EISDIR, another non-regular file EACCES.
// - A sandboxed engine's command (sandbox.h) is found inside its sandbox, but checked on the
//   host before the fork, through the host paths of what the sandbox mounts: a missing program
//   is then spawn's NotFound, not an engine that exits at once with bwrap's "execvp" line.
#pragma once

#include <string>

namespace referee::engines {

struct CommandPath {
  std::string path;            // empty when error != 0
  int error = 0;               // an errno value: ENOENT, EACCES, EISDIR, ...
  bool searched_path = false;  // the command was looked up in PATH
};

// 0 when `dir` is a directory the referee may enter, else the errno saying why not (ENOTDIR
// for a file).
int check_working_dir(const std::string& dir);

CommandPath resolve_command(const std::string& command, const std::string& working_dir);

// The command of a sandboxed engine whose root (mounted at /engine) is `root` on the host ("":
// an empty directory): `path` is the path inside the sandbox. A relative path is taken from
// /engine ("./engine.py" is "/engine/engine.py"); an absolute one under /engine is looked up in
// the root, one under /usr, /bin, /sbin, /lib, /lib64 on the host, which the sandbox mounts,
// any other is not there (ENOENT); a name is searched in kSandboxPath, as on the host: an
// engine in its root is "./name".
CommandPath resolve_sandboxed_command(const std::string& command, const std::string& root);

}  // namespace referee::engines
