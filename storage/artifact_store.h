// Engines as uploaded artifacts (engines/ARTIFACTS.md says what an artifact is and how it is
// checked): their bytes, content-addressed and deduplicated, and the versions of each name. Free
// functions over a Database (database.h says why): `artifact_store::add_version(store, ...)`.
//
// Decisions:
// - An artifact is keyed by the SHA-256 of its bytes (hex, lower case), computed and checked by the
//   caller (engines/artifact.h), which also inspected the bytes: storage keeps what it is given and
//   the cache verifies the hash again before it extracts anything (engines/artifact_cache.h).
//   Immutable: the same bytes stored twice are one row.
// - The bytes are kept in chunks of kChunkBytes (artifact_chunks), so no statement carries a whole
//   64 MiB artifact and read_bytes can hand them out piece by piece.
// - A name belongs to its first uploader (`owner`); only the owner and the operator add versions to
//   it or retire it: anyone else is Denied. Any author may play against any version.
// - Versions count from 1 per name. Adding the bytes and command of the name's newest live version
//   again gives that version back (created = false): an upload repeated is not a new version.
// - A reference is `name` (its newest version not retired), `name@N` (that version, retired or
//   not: an event that pinned it can still be replayed), or 64 hex digits (the newest version whose
//   artifact has that hash).
//
// Errors: Invalid (a bad name, command or reference), Denied (another's name), NotFound (retiring
// what does not exist), and the database's own kinds (database.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/artifact_kind.h"
#include "base/expected.h"
#include "storage/database.h"

namespace referee::storage {

struct ArtifactInfo {
  std::string sha256;
  ArtifactKind kind = ArtifactKind::File;
  std::string file_name;             // File: the file's name in its root; Tree: ""
  std::int64_t size = 0;             // bytes stored
  std::int64_t extracted_bytes = 0;  // what the files add up to once extracted
  std::int64_t files = 0;            // regular files once extracted
  std::string created_at;            // ISO 8601 UTC
};

struct ArtifactVersion {
  std::string name;
  int version = 0;
  std::string command;      // the command line that starts it, from its root
  std::string owner;        // the name's owner ("operator", an author's name)
  std::string uploaded_by;  // who added this version
  std::string created_at;
  std::string retired_at;  // "" = in play
  ArtifactInfo artifact;
  std::string label() const { return name + "@" + std::to_string(version); }
};

// What add_version stores: a version of `name` for an artifact (its bytes passed beside).
struct NewArtifactVersion {
  std::string name;
  std::string command;
  std::string by;            // the principal's name ("operator", an author's name)
  bool by_operator = false;  // the operator may add to any name
  ArtifactInfo artifact;     // sha256, kind, file_name, extracted_bytes, files (size: the bytes')
};

struct AddedVersion {
  ArtifactVersion version;
  bool created = false;           // false: the newest live version already had these bytes
  bool artifact_created = false;  // false: the bytes were stored already (under any name)
};

namespace artifact_store {

constexpr std::size_t kChunkBytes = 1u << 20;
constexpr std::size_t kMaxNameBytes = 100;

// A name is 1 to kMaxNameBytes of letters, digits and `-_.+`, starting with a letter or digit (it
// becomes an engine's name in tables, files and URLs; `@` separates the version).
Status check_name(const std::string& name);

Expected<AddedVersion> add_version(Database& db, const NewArtifactVersion& version,
                                   std::string_view bytes);
// The version a reference names (see the header comment); nullopt when there is none.
Expected<std::optional<ArtifactVersion>> find(Database& db, const std::string& reference);
// The artifact of that hash; nullopt when none is stored.
Expected<std::optional<ArtifactInfo>> artifact(Database& db, const std::string& sha256);
// Every version of `name`, or of every name when it is "", by name then version.
Expected<std::vector<ArtifactVersion>> versions(Database& db, const std::string& name = "");
// An artifact's bytes, chunk by chunk in order, to `sink`; NotFound for an unknown hash.
Status read_bytes(Database& db, const std::string& sha256,
                  const std::function<void(std::string_view chunk)>& sink);
Expected<std::string> read_bytes(Database& db, const std::string& sha256);
// Retires `name@N`, or every live version of `name`; returns how many were retired (0: all
// already were). Denied for another's name, NotFound for an unknown one.
Expected<int> retire(Database& db, const std::string& reference, const std::string& by,
                     bool by_operator);

}  // namespace artifact_store
}  // namespace referee::storage
