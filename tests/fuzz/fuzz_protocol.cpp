// Fuzz target: the protocol's line parsers (protocol/messages.h), both directions. The first byte
// chooses: 'E' an engine line, 'R' a referee line, anything else both; the rest is the line.
// Invariants: no crash; errors are one line; a parsed line formats to a line that parses again
// and formats the same (formatting is a fixed point); tokens hold no blank.
#include "protocol/messages.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace referee::protocol;

template <class Message, class Parse>
void check_parser(std::string_view line, Parse parse) {
  auto parsed = parse(line);
  if (!parsed) {
    FUZZ_CHECK(fuzz::one_line(parsed.error()), parsed.error());
    return;
  }
  const std::string once = format(*parsed);
  // A line the parsers accept (no control bytes) formats to one line; parsing it again gives the
  // same line back.
  FUZZ_CHECK(once.find('\n') == std::string::npos, once);
  auto again = parse(once);
  FUZZ_CHECK(again.ok(), "'" + once + "': " + (again ? std::string() : again.error()));
  FUZZ_CHECK(format(*again) == once, "'" + once + "' then '" + format(*again) + "'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const char which = static_cast<char>(data[0]);
  const std::string_view line = fuzz::text_of(data + 1, size - 1);
  for (auto token : tokenize(line))
    FUZZ_CHECK(!token.empty() && token.find_first_of(" \t") == std::string_view::npos,
               std::string(token));
  if (auto why = line_violation(line)) FUZZ_CHECK(fuzz::one_line(*why), *why);
  if (which != 'R') check_parser<EngineMessage>(line, parse_engine_line);
  if (which != 'E') check_parser<RefereeMessage>(line, parse_referee_line);
  // Game specs, as the referee turns them into setgame lines.
  auto setgame = setgame_from_spec(line);
  (void)spec_from_setgame(setgame);
  return 0;
}
