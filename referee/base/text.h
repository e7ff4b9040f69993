// Text helpers every layer may use (the rules library, the time control, the engine
// configuration, storage). Pure functions on strings; no locale, no allocation beyond the result.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace referee::text {

// The pieces between `sep`s, empty ones included: split("a,,b", ',') is {"a", "", "b"}; split("",
// ',') is {""}. The views point into `text`.
std::vector<std::string_view> split(std::string_view text, char sep);

// Whether a byte is a control character (below 0x20, or DEL).
bool is_control(char c);

// `text` fit for one line of a message: \n, \r and \t as those escapes, other control bytes as
// \xNN; every other byte (UTF-8 included) unchanged.
std::string printable(std::string_view text);

}  // namespace referee::text
