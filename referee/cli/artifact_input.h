// The artifact a `referee engine add` or `upload` is given, read and checked on this machine before
// anything is stored or sent: its name, its bytes (a file, a directory packed canonically, a tar
// archive as it is), what they hold, and the command that starts it (default ./FILE for one file).
#pragma once

#include <optional>
#include <string>

#include "engines/artifact.h"

namespace referee::cli {

struct ArtifactInput {
  engines::ArtifactBytes bytes;
  engines::ArtifactManifest manifest;
  std::string command;
};

// Prints "referee engine: ..." (one line) and sets `status` (2 bad usage, 1 otherwise) on failure.
int engine_failure(const std::string& message, int status = 1);

// The artifact at `path` named `name`, or nothing once engine_failure has said why (`status`).
std::optional<ArtifactInput> read_artifact_input(const std::string& name, const std::string& path,
                                                 const std::string& command_text, int& status);

}  // namespace referee::cli
