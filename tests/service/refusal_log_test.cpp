// service/log: lines about refused requests are cut (the target and the reason each to 200 bytes,
// control bytes escaped, one line) and rate-limited by a token bucket (20 at once, then 10 a
// second), the lines left out counted in one "… N refusals not logged" line before the next one
// written. Time is stepped by the test, never slept.
#include <catch2/catch.hpp>
#include <chrono>

#include "service/log.h"
#include "tests/referee/rtest_util.h"

using namespace referee::service;
using rtest::contains;

namespace {

using Time = RefusalLimiter::Time;
using std::chrono::milliseconds;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("refusal log: a token bucket, a burst first, then its rate, the rest counted") {
  RefusalLimiter limiter(10, 20);
  const Time t0{};
  for (int i = 0; i < 20; ++i) {
    const auto v = limiter.admit(t0);
    CHECK(v.write);
    CHECK(v.unlogged == 0);
  }
  for (int i = 0; i < 500; ++i) CHECK_FALSE(limiter.admit(t0 + milliseconds(i / 10)).write);
  // 120 ms later: a token (10 a second), and the 500 not written are reported with it.
  auto v = limiter.admit(t0 + milliseconds(120));
  CHECK(v.write);
  CHECK(v.unlogged == 500);
  CHECK_FALSE(limiter.admit(t0 + milliseconds(150)).write);
  v = limiter.admit(t0 + milliseconds(250));
  CHECK(v.write);
  CHECK(v.unlogged == 1);
  // After a quiet time the bucket is full again, never fuller than its burst.
  const Time later = t0 + std::chrono::hours(1);
  int written = 0;
  for (int i = 0; i < 100; ++i) written += limiter.admit(later).write;
  CHECK(written == 20);
  // A time a little older than the last one (threads) refills nothing and breaks nothing.
  CHECK_FALSE(limiter.admit(later - milliseconds(5)).write);
  CHECK(limiter.admit(later + milliseconds(150)).unlogged == 81);
}

TEST_CASE("refusal log: the target and the reason are cut and made printable, one line each") {
  rtest::TempDir dir;
  auto log = Log::open({dir.file("log"), false, false});
  REQUIRE(log.ok());
  const Time t0{};
  const std::string url = "/api/" + std::string(1 << 20, 'x');
  (*log)->refused("GET", url, "127.0.0.1", "Host 'evil' is not allowed", t0);
  (*log)->refused("POST" + std::string(100, 'P'), "/a\nb\x01", "::1",
                  "Origin 'http://" + std::string(5000, 'o') + "' is refused", t0);
  const auto lines = lines_of(rtest::read_text(dir.file("log")));
  REQUIRE(lines.size() == 2);
  INFO(lines[0].substr(0, 300));
  CHECK(contains(lines[0], " warning: refused GET /api/xxx"));
  CHECK(contains(lines[0], "x… from 127.0.0.1: Host 'evil' is not allowed"));
  CHECK(lines[0].size() < 300);
  CHECK(contains(lines[1], "refused POSTPPPPPPPPPPPP… /a\\nb\\x01 from ::1: Origin 'http://ooo"));
  CHECK(contains(lines[1], "o…"));
  CHECK(lines[1].size() < 300 + 100);
}

TEST_CASE("refusal log: a flood writes its burst, then one line counting the rest") {
  rtest::TempDir dir;
  auto log = Log::open({dir.file("log"), false, false});
  REQUIRE(log.ok());
  const Time t0{};
  for (int i = 0; i < 10000; ++i)
    (*log)->refused("GET", "/x" + std::to_string(i), "127.0.0.1", "no such thing",
                    t0 + milliseconds(i / 100));  // 10,000 in 100 ms
  auto lines = lines_of(rtest::read_text(dir.file("log")));
  // The burst of 20 (the 100 ms add less than one token).
  CHECK(lines.size() == 20);
  CHECK(contains(lines.front(), "refused GET /x0 from"));
  (*log)->refused("GET", "/after", "127.0.0.1", "no such thing", t0 + std::chrono::seconds(1));
  lines = lines_of(rtest::read_text(dir.file("log")));
  REQUIRE(lines.size() == 22);
  CHECK(contains(lines[20], "warning: … 9980 refusals not logged"));
  CHECK(contains(lines[21], "refused GET /after from 127.0.0.1: no such thing"));
}
