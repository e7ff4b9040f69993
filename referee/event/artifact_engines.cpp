// Artifact engines of an event (artifact_engines.h).
#include "event/artifact_engines.h"

#include "base/text.h"
#include "engines/engine_config.h"
#include "storage/artifact_store.h"

namespace referee::event {

Status resolve_artifacts(storage::Database& db, std::vector<TournamentEngine>& engines) {
  for (auto& e : engines) {
    if (e.artifact_ref.empty() || !e.config.artifact.empty()) continue;
    const std::string who = "engine '" + text::printable(e.config.name) + "'";
    auto found = storage::artifact_store::find(db, e.artifact_ref);
    if (!found) return Error{who + ": " + found.error(), found.kind()};
    if (!*found)
      return Error{who + ": no stored engine \"" + text::printable(e.artifact_ref) +
                       "\" (referee engine list)",
                   ErrorKind::NotFound};
    const storage::ArtifactVersion& version = **found;
    if (!version.retired_at.empty())
      return Error{who + ": " + version.label() + " is retired (since " + version.retired_at + ")",
                   ErrorKind::Conflict};
    auto words = engines::split_command_line(version.command);
    if (!words || words->empty())
      return Error{who + ": " + version.label() +
                   " has a command that cannot be read: " + text::printable(version.command)};
    auto& c = e.config;
    std::vector<std::string> args(words->begin() + 1, words->end());
    args.insert(args.end(), c.args.begin(), c.args.end());
    c.command = words->front();
    c.args = std::move(args);
    c.artifact = version.artifact.sha256;
    c.sandbox = true;
    if (auto valid = engines::validate(c); !valid) return Error{who + ": " + valid.error()};
  }
  return Ok{};
}

}  // namespace referee::event
