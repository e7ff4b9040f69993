// Fuzz target: time controls (referee/match/time_control.h). The first line is the control; each
// further pair of bytes is a move's elapsed time in ms, charged to a PlayerClock.
// Invariants: no crash or overflow (UBSan); errors are one line (the control has no '\n'); an
// accepted control prints (to_string) to a text that parses back to an equal control; a clock stays
// within [0, kMaxClockMs] and its budget is never negative.
#include "referee/match/time_control.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  const auto newline = text.find('\n');
  const std::string_view control = text.substr(0, newline);
  auto tc = referee::match::parse_time_control(control);
  if (!tc) {
    FUZZ_CHECK(fuzz::one_line(tc.error()), tc.error());
    return 0;
  }
  const std::string shown = tc->to_string();
  auto again = referee::match::parse_time_control(shown);
  FUZZ_CHECK(again.ok(), shown + ": " + (again ? std::string() : again.error()));
  FUZZ_CHECK(*again == *tc, std::string(control) + " -> " + shown + " -> " + again->to_string());
  if (newline == std::string_view::npos) return 0;
  referee::match::PlayerClock clock(*tc);
  for (std::size_t i = newline + 1; i + 1 < size; i += 2) {
    const referee::match::Millis elapsed(data[i] * 256 + data[i + 1]);
    const auto budget = clock.move_budget();
    FUZZ_CHECK(budget.count() >= 0, shown);
    if (!clock.charge(elapsed)) {
      FUZZ_CHECK(elapsed > budget, shown);
      break;
    }
    FUZZ_CHECK(clock.left().count() >= 0 && clock.left().count() <= referee::match::kMaxClockMs,
               shown);
    FUZZ_CHECK(clock.moves_to_go() >= 0 && clock.moves_to_go() <= tc->moves_to_go, shown);
  }
  return 0;
}
