// check_artifact_command (engines/artifact.h): whether a command can start an artifact in the
// sandbox, where the artifact is the working directory (/engine) and the host's /usr is mounted
// read-only.
//
// Decisions:
// - A bare first word is looked up only in the given sandbox PATH, never in the referee's own
//   PATH: what the sandbox offers is what counts (a pyenv shim in /root is not in the sandbox).
// - An absolute first word is refused: inside the sandbox it would name a host file the author
//   cannot see; a bare interpreter name says the same portably.
// - Symbolic links of the artifact are followed as the sandbox would, component by component,
//   with a bound on the hops.
#include <sys/stat.h>
#include <unistd.h>

#include <deque>

#include "base/text.h"
#include "engines/artifact.h"
#include "engines/artifact_reader.h"

namespace referee::engines {

namespace {

constexpr int kMaxSymlinkHops = 40;  // Linux's own bound

std::string join(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : separator) + word;
  return out;
}

std::deque<std::string> split(std::string_view path) {
  std::deque<std::string> parts;
  for (std::string_view part : text::split(path, '/')) parts.emplace_back(part);
  return parts;
}

// The entry `path` names once the artifact's symbolic links are followed, or nullptr.
const ArtifactEntry* resolve(const ArtifactManifest& manifest, const std::string& path) {
  if (path.empty() || path.front() == '/') return nullptr;
  std::vector<std::string> done;
  std::deque<std::string> todo = split(path);
  const ArtifactEntry* entry = nullptr;
  int hops = 0;
  while (!todo.empty()) {
    const std::string part = todo.front();
    todo.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (done.empty()) return nullptr;
      done.pop_back();
      entry = nullptr;
      continue;
    }
    done.push_back(part);
    entry = manifest.find(join(done, "/"));
    if (!entry) return nullptr;
    if (entry->type == EntryType::Symlink) {
      if (++hops > kMaxSymlinkHops) return nullptr;
      done.pop_back();
      std::deque<std::string> target = split(entry->target);
      todo.insert(todo.begin(), target.begin(), target.end());
    }
  }
  return done.empty() ? nullptr : manifest.find(join(done, "/"));
}

bool host_offers(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir.front() != '/') return false;
  const std::string candidate = dir + "/" + name;
  struct stat st {};
  return ::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(candidate.c_str(), X_OK) == 0;
}

}  // namespace

Status check_artifact_command(const ArtifactManifest& manifest,
                              const std::vector<std::string>& words,
                              const std::vector<std::string>& sandbox_path) {
  if (words.empty() || words.front().empty()) return Error{"an empty command"};
  const std::string shown = "command '" + detail::printable(join(words, " ")) + "'";
  const std::string& first = words.front();
  const std::string first_shown = "'" + detail::printable(first) + "'";
  if (first.front() == '/')
    return Error{shown + ": " + first_shown +
                 " is an absolute path; name a file of the artifact (./bot) or an interpreter "
                 "(python3)"};
  if (first.find('/') != std::string::npos) {
    const ArtifactEntry* entry = resolve(manifest, first);
    if (!entry) return Error{shown + ": " + first_shown + " names no file of the artifact"};
    if (entry->type != EntryType::File)
      return Error{shown + ": " + first_shown + " is a directory of the artifact, not a file"};
    if (!entry->executable)
      return Error{shown + ": " + first_shown +
                   " is not executable (set its exec bit before packing, or name its interpreter)"};
    return Ok{};
  }
  bool offered = false;
  for (const std::string& dir : sandbox_path) offered = offered || host_offers(dir, first);
  if (!offered) {
    const ArtifactEntry* own = resolve(manifest, first);
    return Error{
        shown + ": " + first_shown +
        " is neither a file of the artifact nor an interpreter the host offers in " +
        join(sandbox_path, ":") +
        (own && own->type == EntryType::File ? " (write './" + first + "' for the file)" : "")};
  }
  for (std::size_t i = 1; i < words.size(); ++i) {
    const ArtifactEntry* entry = resolve(manifest, words[i]);
    if (entry && entry->type == EntryType::File) return Ok{};
  }
  return Error{shown + " names no file of the artifact"};
}

}  // namespace referee::engines
