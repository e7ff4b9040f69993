// duration_text, the one formatting of ETAs (the runner's progress line, the daemon's clients).
#include <catch2/catch.hpp>

#include "event/tournament.h"

TEST_CASE("duration_text: minutes and seconds under an hour, hours and minutes from an hour") {
  CHECK(referee::event::duration_text(0) == "0m00s");
  CHECK(referee::event::duration_text(59.4) == "0m59s");
  CHECK(referee::event::duration_text(59.6) == "1m00s");
  CHECK(referee::event::duration_text(247) == "4m07s");
  CHECK(referee::event::duration_text(3599.4) == "59m59s");
  CHECK(referee::event::duration_text(3600) == "1h00m");
  CHECK(referee::event::duration_text(7500) == "2h05m");
}
