// Engine artifacts: the bytes an author uploads as an engine version, what may be in them, and
// how they are written out for the sandbox to run (engines/ARTIFACTS.md is the user's guide).
//
// Contract:
// - An artifact is either one file (ArtifactKind::File: the bytes are the file itself, its name
//   kept beside them) or a tree (ArtifactKind::Tree: the bytes are a tar archive, plain or
//   compressed with gzip, bzip2, xz or zstd). Its identity is the SHA-256 of the bytes, so the
//   SHA-256 of a File artifact is what `sha256sum bot.py` prints.
// - read_artifact packs a directory into a canonical tar: the same tree gives the same bytes on
//   any host, whoever owns it and whenever it was touched.
// - inspect_artifact reads an artifact without writing anything and refuses it whole, with one
//   line naming the entry at fault; extract_artifact inspects first, then writes, so a refused
//   artifact leaves its directory empty.
// - check_artifact_command says whether a command can start in the sandbox, where the artifact is
//   the working directory and the host's /usr is mounted read-only.
//
// Decisions:
// - libarchive reads and writes every archive (no tar code of ours); only the tar formats (ustar,
//   pax, GNU) and the gzip, bzip2, xz and zstd filters are enabled, the ones the library decodes
//   itself: never an external program.
// - Bombs stop early: every entry's declared size is added up before its data is read, the data
//   read is counted as it is decompressed, and so is the whole decompressed stream (headers
//   included), each against the limits.
// - The canonical tar is pax (restricted: ustar headers unless a name needs more), entries sorted
//   by path bytes, owner 0:0 without names, mtime 0, permissions normalised to 0755 or 0644 for
//   files (only the owner's exec bit counts: a umask must not change a hash), 0755 for
//   directories. Hard links on disk become separate regular files.
// - Paths are relative, "./" prefixes and trailing slashes dropped; "..", an absolute path, a
//   control character, a duplicate, an entry below a symbolic link are refused, and so are
//   names and paths too long for Linux (255, 4095 bytes), which would fail midway in writing.
// - max_files counts the directories that paths imply too: `a/b/c/d` alone is four entries, so
//   deep paths cannot make a million directories.
// - A symbolic link's target must be relative and of the form `../../a/b`: its ".." first, then
//   names, never climbing above the root from the link's directory. Checked lexically, this is
//   sound: a ".." after a name could climb out through a link (`s -> .`, `up -> s/..`).
// - Hard links are refused, even to an earlier entry: the canonical packer never writes them,
//   and a link's sharing would leave one file's mode to two entries (`tar --hard-dereference`).
// - A File artifact is written executable when it starts with "#!" or is an ELF binary.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/artifact_kind.h"
#include "base/expected.h"
#include "engines/engine_hash.h"  // bytes_sha256

namespace referee::engines {

// File or Tree (base/artifact_kind.h: shared with storage/, which knows nothing of engines/).
using referee::ArtifactKind;

// "file" or "tree".
const char* artifact_kind_name(ArtifactKind kind);

struct ArtifactLimits {
  std::uint64_t max_extracted_bytes = 64 << 20;  // the sum of the regular files' sizes
  std::size_t max_files = 4096;                  // entries and the directories they imply
  std::uint64_t max_archive_bytes = 64 << 20;    // the artifact's bytes as stored
};

struct ArtifactBytes {
  ArtifactKind kind = ArtifactKind::File;
  std::string file_name;  // File: the file's name ("bot.py"); Tree: ""
  std::string bytes;
  std::string sha256;  // of `bytes`, lower-case hex
};

enum class EntryType { File, Directory, Symlink };

struct ArtifactEntry {
  std::string path;  // relative, normalised: "bin/bot"
  EntryType type = EntryType::File;
  std::uint64_t size = 0;   // File only
  bool executable = false;  // File only: an exec bit is set
  std::string target;       // Symlink only, as written in the archive
};

struct ArtifactManifest {
  std::vector<ArtifactEntry> entries;  // in archive order
  std::uint64_t total_bytes = 0;       // the sum of the files' sizes

  // How many entries are regular files (storage's ArtifactInfo::files).
  std::size_t file_count() const;

  // The entry at `path` (normalised like an archive's), or nullptr.
  const ArtifactEntry* find(const std::string& path) const;
};

// A regular file is a File artifact (its base name kept), unless its name ends in .tar, .tar.gz,
// .tgz, .tar.bz2, .tar.xz or .tar.zst: then it is a Tree of its bytes as they are. A directory is
// a Tree packed canonically (see the header comment); the result is inspected before it is
// returned. Errors name the path; sizes past `limits` are refused before everything is read.
Expected<ArtifactBytes> read_artifact(const std::string& host_path,
                                      const ArtifactLimits& limits = {});

// The entries of an artifact, or the first rule it breaks (kind Invalid, one line naming the
// entry). Writes nothing.
Expected<ArtifactManifest> inspect_artifact(ArtifactKind kind, const std::string& file_name,
                                            std::string_view bytes, const ArtifactLimits& limits);

// Whether `words` can start the engine in the sandbox: the first word is a path with a '/'
// (`./bot`, `bin/bot`) naming an executable regular file of the artifact (symbolic links inside it
// followed), or a bare interpreter name found as an executable file in one of `sandbox_path`'s
// directories on this host, and then a later word names a regular file of the artifact.
Status check_artifact_command(const ArtifactManifest& manifest,
                              const std::vector<std::string>& words,
                              const std::vector<std::string>& sandbox_path = {"/usr/local/bin",
                                                                              "/usr/bin", "/bin"});

// Inspects the artifact, then writes it into `empty_dir` (an existing empty directory) without
// ever following a symbolic link: every file is created with openat below the directory, with
// O_NOFOLLOW and O_EXCL. Files get 0755 or 0644, directories 0755. A File artifact becomes
// `<empty_dir>/<file_name>`. On a refusal nothing is written; on an I/O error midway (kind Io)
// the directory may hold part of the artifact. Returns the manifest of what was written.
Expected<ArtifactManifest> extract_artifact(ArtifactKind kind, const std::string& file_name,
                                            std::string_view bytes, const std::string& empty_dir,
                                            const ArtifactLimits& limits);

}  // namespace referee::engines
