#include "cli/artifact_input.h"

#include <iostream>

#include "engines/engine_config.h"
#include "storage/artifact_store.h"

namespace referee::cli {

int engine_failure(const std::string& message, int status) {
  std::cerr << "referee engine: " << message << "\n";
  return status;
}

std::optional<ArtifactInput> read_artifact_input(const std::string& name, const std::string& path,
                                                 const std::string& command_text, int& status) {
  auto refuse = [&](const std::string& message, int code) {
    status = engine_failure(message, code);
    return std::nullopt;
  };
  if (auto valid = storage::artifact_store::check_name(name); !valid)
    return refuse(valid.error(), 2);
  auto bytes = engines::read_artifact(path);
  if (!bytes) return refuse(bytes.error(), 1);
  auto manifest = engines::inspect_artifact(bytes->kind, bytes->file_name, bytes->bytes,
                                            engines::ArtifactLimits{});
  if (!manifest) return refuse(path + ": " + manifest.error(), 1);
  std::string command = command_text;
  if (command.empty()) {
    if (bytes->kind == ArtifactKind::Tree)
      return refuse(path +
                        " is a directory or an archive: say which of its files starts it"
                        " (--command)",
                    2);
    command = "./" + bytes->file_name;
  }
  auto words = engines::split_command_line(command);
  if (!words) return refuse("--command: " + words.error(), 2);
  if (auto runs = engines::check_artifact_command(*manifest, *words); !runs)
    return refuse(runs.error(), 2);
  return ArtifactInput{std::move(*bytes), std::move(*manifest), command};
}

}  // namespace referee::cli
