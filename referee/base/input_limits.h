// Limits on what text from outside may cost: tournament files and every HTTP body (events,
// engines, priorities). Each limit is refused with a one-line error naming where or what.
//
// Decisions:
// - Nesting is checked on the text, before any document is built: a deep document costs a stack
//   frame per level wherever it is built, printed, compared or destroyed (80,000 nested arrays
//   overflowed the daemon's stack). JSON is checked by nlohmann's SAX parser, which is not
//   recursive, stopping at the first level too deep; TOML by a scan of its brackets, braces and
//   dotted keys (toml++ has no limit on dotted keys, and its own limit on nested values is 256).
// - Depth counts as in the JSON of the document: the top table or object is level 1, and each
//   array, table, inline table or key of a dotted key below it one more. A tournament file needs
//   4 (an engine's options); 64 is far from anything real.
// - Names (of events, engines, games as written, option and environment variable names) are at
//   most kMaxNameBytes; other text (commands, arguments, directories, paths, option and
//   environment values, time controls) at most kMaxTextBytes. An error gives the size, never the
//   text itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/expected.h"

namespace referee::limits {

constexpr int kMaxNesting = 64;
constexpr std::size_t kMaxNameBytes = 200;
constexpr std::size_t kMaxTextBytes = 4096;

// "WHERE: nested deeper than 64 levels" when the JSON text nests deeper than kMaxNesting; Ok
// otherwise, malformed text included (its parser says what is wrong with it).
Status check_json_nesting(std::string_view text, const std::string& where);

// The same for TOML text.
Status check_toml_nesting(std::string_view text, const std::string& where);

// "FIELD has N bytes; at most MAX" when `value` is longer than `max` bytes.
Status check_length(const std::string& field, std::string_view value, std::size_t max);

// `text` cut to at most `max` bytes followed by "…" when longer (never inside a UTF-8 sequence);
// unchanged otherwise.
std::string shortened(std::string_view text, std::size_t max);

}  // namespace referee::limits
