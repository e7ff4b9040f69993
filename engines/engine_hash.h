// The content hash of an engine (SHA-256, OpenSSL's libcrypto): which bytes a game was played
// with, recorded per game and seat, and what an event may pin (`sha256 = "..."` in a tournament
// file's engine) so that a worker whose binary differs refuses that engine's games.
//
// Decisions:
// - `program`: the SHA-256 of the file that is executed, resolved as the process layer does (a
//   command with a '/' taken from the engine's working directory when relative, else the first
//   executable match in PATH). Symbolic links are followed: the bytes count, not the name.
// - `script`: for an interpreter (`python3 bot.py`, `node bot.js`), the SHA-256 of the first
//   argument that names a regular file (relative ones from the working directory); "" when no
//   argument does. An option's value that happens to name a file counts too (documented: put the
//   script first).
// - A pin is compared with `pinned()`: the script's hash when there is one (what a bot author
//   ships; the interpreter may differ from host to host), else the program's. `sha256sum FILE`
//   gives the value to pin.
// - Hex, lower case, 64 digits. A file that cannot be read is an error naming it.
#pragma once

#include <string>
#include <string_view>

#include "base/expected.h"
#include "engines/engine_config.h"

namespace referee::engines {

struct EngineHash {
  std::string program;  // SHA-256 of the executed file
  std::string script;   // SHA-256 of the script argument, "" when none
  const std::string& pinned() const { return script.empty() ? program : script; }
};

// SHA-256 of a file's bytes, hex; errors name the file.
Expected<std::string> file_sha256(const std::string& path);
// SHA-256 of bytes in memory, lower-case hex ("" only if libcrypto fails).
std::string bytes_sha256(std::string_view bytes);

// The hashes of an engine as configured (see the header comment).
Expected<EngineHash> engine_hash(const EngineConfig& config);

// Whether `text` is a SHA-256 as written in a pin: 64 hex digits (either case).
bool is_sha256(const std::string& text);

}  // namespace referee::engines
