// What the fuzz targets share: FUZZ_CHECK, an invariant that aborts with a message when it does
// not hold (libFuzzer then keeps the input as a crash), and the input as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#define FUZZ_CHECK(condition, detail)                                                             \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n  %s\n", __FILE__, __LINE__, #condition, \
                   std::string(detail).c_str());                                                  \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)

namespace fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The lines of `text`, split on '\n' (a last line without one included).
inline std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

inline bool one_line(const std::string& message) {
  return !message.empty() && message.find('\n') == std::string::npos;
}

}  // namespace fuzz
