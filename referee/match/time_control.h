// Time controls (design.md §5): Fischer base+increment, moves-to-go periods, fixed time per move,
// depth/nodes limits with a hard wall cap, and a margin. The referee measures all time itself.
//
// Every number is parsed exactly (seconds to the millisecond, no floating point) and checked
// against the limits below, so no arithmetic on a control can overflow: a period's time is at
// most kMaxTimeMs, and a clock never holds more than kMaxClockMs however long the game.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/expected.h"

namespace referee::match {

using Millis = std::chrono::milliseconds;

// Limits of a time control; the parser's errors state them.
constexpr long long kMaxTimeMs = 1'000'000'000;  // any time item: base, increment, movetime, ...
constexpr int kMaxMovesToGo = 100'000;           // period length in moves
constexpr int kMaxDepth = 1'000'000;             // depth limit sent to the engine
constexpr long long kMaxNodes = 1'000'000'000'000'000;  // node limit sent to the engine (10^15)
constexpr long long kMaxClockMs = 1'000'000'000'000;    // a running clock is capped there

struct TimeControl {
  Millis base{0};          // clock at the start (and added again every moves_to_go moves)
  Millis increment{0};     // added after each move
  int moves_to_go = 0;     // period length in moves; 0 = one period for the whole game
  Millis movetime{0};      // fixed time per move, no clock
  int depth = 0;           // search depth limit sent to the engine
  long long nodes = 0;     // node limit sent to the engine
  Millis wall_cap{10000};  // hard cap per move when only depth/nodes limit the search
  Millis margin{50};       // a move arriving later than its time + margin loses on time

  bool has_clock() const { return base.count() > 0; }
  std::string to_string() const;
  bool operator==(const TimeControl&) const = default;
};

// Parses "40/60+0.5" (moves/seconds+increment), "10+0.1", "60" (seconds), or comma-separated
// key=value items: "movetime=200" (ms), "depth=6", "nodes=5000", "cap=3000" (ms), "margin=100"
// (ms), which may follow a clock: "10+0.1,margin=100". Errors name the offending item and, for a
// number out of range, the limit.
Expected<TimeControl> parse_time_control(std::string_view text);

// One player's clock during a game.
class PlayerClock {
 public:
  explicit PlayerClock(const TimeControl& tc) : tc_(tc), left_(tc.base) {}
  // The absolute budget for the next move: time on the clock (or movetime, or the wall cap) plus
  // the margin.
  Millis move_budget() const;
  Millis left() const { return left_; }
  // Moves to go in the current period (0 when the control has no periods).
  int moves_to_go() const;
  // Charges a move that took `elapsed`; returns false when the player lost on time (elapsed beyond
  // the allowed time plus margin). Within the margin the clock stops at 0.
  [[nodiscard]] bool charge(Millis elapsed);

 private:
  TimeControl tc_;
  Millis left_;
  int moves_made_ = 0;
};

}  // namespace referee::match
