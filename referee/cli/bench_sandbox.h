// `referee bench --sandbox` (bench_sandbox.cpp): what the sandbox of engines/sandbox.h costs an
// engine's start. bench.cpp adds the tournament's CPU per ply and games per second with both
// engines sandboxed, beside the same tournament without.
#pragma once

#include <string>

namespace referee::cli {

// Starts `engine` (a host command) `starts` times without its sandbox, then as many times in it,
// each through the whole handshake (spawn to ugiok) and quit, and prints the times of each:
// median, 10th and 90th percentiles. Returns the exit status (1 when a start fails, with its line).
int bench_sandbox_starts(const std::string& engine, int starts);

// The engine's configuration in the sandbox: its directory read-only at /engine, its file there.
struct SandboxedCommand {
  std::string dir;      // the sandbox's root
  std::string command;  // "./<file name>"
};
SandboxedCommand sandboxed_command(const std::string& engine);

}  // namespace referee::cli
