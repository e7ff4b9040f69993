// Fuzz target: tournament files (referee/event/tournament_config.h), JSON when the input starts
// with '{' and TOML otherwise, read as if from /nonexistent-fuzz/ (so relative books and
// commands point nowhere). Invariants: no crash; an error is one line; an accepted file passes
// check_tournament again, has a schedule within the cap, and, when small and not a knockout or
// Swiss (whose rounds come from results, and whose size is a bound), builds exactly that many.
#include "referee/event/schedule.h"
#include "referee/event/tournament_config.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::text_of(data, size));
  const bool json = !text.empty() && text[0] == '{';
  const std::string path = json ? "/nonexistent-fuzz/t.json" : "/nonexistent-fuzz/t.toml";
  auto config = referee::event::parse_tournament(text, path);
  if (!config) {
    FUZZ_CHECK(fuzz::one_line(config.error()), config.error());
    return 0;
  }
  auto checked = referee::event::check_tournament(*config);
  FUZZ_CHECK(checked.ok(), checked ? std::string() : checked.error());
  auto size_of = referee::event::schedule_size(*config);
  FUZZ_CHECK(size_of.ok() && *size_of <= referee::event::kMaxScheduleSlots, text);
  (void)referee::event::schedule_fingerprint(*config);
  if (referee::event::has_rounds(*config)) {
    FUZZ_CHECK(!referee::event::make_schedule(*config).ok(), text);
  } else if (*size_of <= 2000) {
    auto slots = referee::event::make_schedule(*config);
    // Rare: an opening the few trial seeds of check_tournament could make, but not this one.
    if (slots) FUZZ_CHECK(static_cast<std::int64_t>(slots->size()) == *size_of, text);
  }
  return 0;
}
