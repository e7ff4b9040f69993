// The file of an endgame table: a 512-byte header, then the layers of 0, 1, ..., n seeds, each
// two bytes per position: the values (signed bytes, in index order: model.h), then the
// iterations they settled at (unsigned bytes, same order: solver.h). Little-endian, as written by
// x86-64 and arm64 alike. EGDB.md describes every field.
//
// Decisions:
// - The header is rewritten after each finished layer, and it alone says how many layers are
//   whole: bytes after them are an interrupted layer, cut off when the build resumes.
// - The checksum is FNV-1a 64 over the table's game string and then the data of every whole
//   layer, in order: it names a file's content (an event pins a table by it), and a file whose
//   data or game string changed is refused on opening.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "base/expected.h"
#include "games/egdb/model.h"

namespace referee::games::egdb {

inline constexpr std::size_t kHeaderBytes = 512;
inline constexpr std::size_t kGameBytes = 256;

struct Header {
  std::uint32_t version = 1;
  int layers = 0;  // whole layers: 0..layers-1 seeds
  std::uint64_t checksum = 0;
  // Per layer: the iteration its values converged at, or -1 when stopped at the limit.
  std::array<int, kMaxSeeds + 1> converged_at{};
  std::string game;  // Model::key
};

// FNV-1a 64, continued from `hash`.
std::uint64_t fnv1a(const void* data, std::size_t bytes,
                    std::uint64_t hash = 0xcbf29ce484222325ULL);
std::string hex64(std::uint64_t v);

std::string encode_header(const Header& h);
Expected<Header> decode_header(const std::string& bytes, const std::string& path);
// The file offset of layer `seeds` (values, then settled iterations).
std::uint64_t layer_offset(const Model& m, int seeds);

}  // namespace referee::games::egdb
