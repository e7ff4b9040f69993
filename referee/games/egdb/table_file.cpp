#include "games/egdb/table_file.h"

#include <cstring>

namespace referee::games::egdb {

namespace {

constexpr char kMagic[8] = {'R', 'E', 'F', 'E', 'G', 'D', 'B', '1'};
// Offsets in the header.
constexpr std::size_t kVersionAt = 8, kLayersAt = 12, kChecksumAt = 16, kConvergedAt = 24,
                      kGameAt = 128;

template <class T>
void put(std::string& out, std::size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <class T>
T get(const std::string& in, std::size_t at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

}  // namespace

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex64(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

std::string encode_header(const Header& h) {
  std::string out(kHeaderBytes, '\0');
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  put<std::uint32_t>(out, kVersionAt, h.version);
  put<std::uint32_t>(out, kLayersAt, static_cast<std::uint32_t>(h.layers));
  put<std::uint64_t>(out, kChecksumAt, h.checksum);
  for (std::size_t i = 0; i < h.converged_at.size(); ++i)
    put<std::int16_t>(out, kConvergedAt + 2 * i, static_cast<std::int16_t>(h.converged_at[i]));
  std::memcpy(out.data() + kGameAt, h.game.data(), std::min(h.game.size(), kGameBytes - 1));
  return out;
}

Expected<Header> decode_header(const std::string& bytes, const std::string& path) {
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return Error{path + " is not an endgame table (no REFEGDB1 header)"};
  Header h;
  h.version = get<std::uint32_t>(bytes, kVersionAt);
  if (h.version != 1)
    return Error{path + ": endgame table format " + std::to_string(h.version) +
                 " is not known (1 is)"};
  const auto layers = get<std::uint32_t>(bytes, kLayersAt);
  if (layers > kMaxSeeds + 1) return Error{path + ": corrupted header (layer count)"};
  h.layers = static_cast<int>(layers);
  h.checksum = get<std::uint64_t>(bytes, kChecksumAt);
  for (std::size_t i = 0; i < h.converged_at.size(); ++i)
    h.converged_at[i] = get<std::int16_t>(bytes, kConvergedAt + 2 * i);
  const char* game = bytes.data() + kGameAt;
  h.game.assign(game, strnlen(game, kGameBytes));
  return h;
}

std::uint64_t layer_offset(const Model& m, int seeds) {
  std::uint64_t at = kHeaderBytes;
  for (int n = 0; n < seeds; ++n) at += 2 * m.layer_size(n);
  return at;
}

}  // namespace referee::games::egdb
