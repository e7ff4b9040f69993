// The one pass over an artifact's archive that inspect_artifact and extract_artifact share
// (engines/artifact.h has the rules): every entry is checked against the rules and the limits
// before a sink sees it, and its data is counted as it is decompressed.
//
// Decisions:
// - Inspection and extraction are the same walk with two sinks, so what is written is exactly
//   what was checked; extraction walks twice (a check, then the writing) so that a refused
//   artifact writes nothing.
// - The root directory's own entry ("." or "./") is skipped: the root always exists.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/expected.h"
#include "engines/artifact.h"

namespace referee::engines::detail {

// What a walk hands its entries to; the default sink reads and drops.
class ArtifactSink {
 public:
  virtual ~ArtifactSink() = default;
  virtual Status begin(const ArtifactEntry&) { return Ok{}; }
  virtual Status data(const char*, std::size_t) { return Ok{}; }
  virtual Status end() { return Ok{}; }
};

// Walks the tar archive `bytes`, refusing (kind Invalid) the first entry that breaks a rule.
Expected<ArtifactManifest> walk_archive(std::string_view bytes, const ArtifactLimits& limits,
                                        ArtifactSink& sink);

// A path as written in an archive, normalised (artifact.h); "" for the root itself. Errors say
// what is wrong with it, without naming it.
Expected<std::string> normalise_entry_path(std::string_view raw);

// `text` for a one-line message: text::printable of its first 200 bytes.
std::string printable(std::string_view text);

// Whether a symbolic link at `link_path` (normalised) with `target` stays inside the root (the
// rule of artifact.h); "" when it does, else why not.
std::string symlink_target_problem(const std::string& link_path, const std::string& target);

}  // namespace referee::engines::detail
