#include "match/time_control.h"

#include <algorithm>
#include <cstdio>

#include "base/text.h"

namespace referee::match {

namespace {

// Above every limit: parsing saturates here, so a long run of digits is "too large", not UB.
constexpr long long kSaturated = 1'000'000'000'000'000'000;

// A run of decimal digits, saturating at kSaturated; nullopt when `text` is not only digits.
std::optional<long long> digits_value(std::string_view text) {
  if (text.empty()) return std::nullopt;
  long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value >= kSaturated / 10 ? kSaturated : value * 10 + (c - '0');
  }
  return std::min(value, kSaturated);
}

// A plain decimal number of seconds ("60", "0.25", "1.", ".5") in milliseconds, rounded half up
// at the fourth decimal. No signs, blanks, exponents, hexadecimal, "inf" or "nan".
std::optional<long long> parse_seconds(std::string_view text) {
  const auto dot = text.find('.');
  const auto whole = text.substr(0, dot);
  const auto frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() && frac.empty()) return std::nullopt;
  if (frac.find('.') != std::string_view::npos) return std::nullopt;
  long long ms = 0;
  if (!whole.empty()) {
    auto w = digits_value(whole);
    if (!w) return std::nullopt;
    ms = *w >= kSaturated / 1000 ? kSaturated : *w * 1000;
  }
  if (!frac.empty() && !digits_value(frac)) return std::nullopt;
  long long scale = 100;
  for (std::size_t i = 0; i < frac.size() && i < 3; ++i, scale /= 10) ms += (frac[i] - '0') * scale;
  if (frac.size() > 3 && frac[3] >= '5') ++ms;
  return std::min(ms, kSaturated);
}

std::string seconds_text(long long ms) {
  return std::to_string(ms / 1000) + " s";
}

Status parse_clock(std::string_view text, TimeControl& tc) {
  const std::string item(text);  // `text` is consumed below; the error names the whole item
  auto bad = [&] {
    return Error{"bad time control '" + item + "' (expected e.g. 40/60+0.5, 10+0.1 or 60)"};
  };
  auto slash = text.find('/');
  if (slash != std::string_view::npos) {
    const auto moves_text = text.substr(0, slash);
    auto moves = digits_value(moves_text);
    if (!moves || *moves == 0 || moves_text[0] == '0') return bad();
    if (*moves > kMaxMovesToGo)
      return Error{"time control '" + item + "': at most " + std::to_string(kMaxMovesToGo) +
                   " moves per period"};
    tc.moves_to_go = static_cast<int>(*moves);
    text = text.substr(slash + 1);
  }
  auto plus = text.find('+');
  auto base = parse_seconds(text.substr(0, plus));
  if (!base || *base == 0) return bad();
  std::optional<long long> inc = 0;
  if (plus != std::string_view::npos) inc = parse_seconds(text.substr(plus + 1));
  if (!inc) return bad();
  if (*base > kMaxTimeMs || *inc > kMaxTimeMs)
    return Error{"time control '" + item + "': base and increment are at most " +
                 seconds_text(kMaxTimeMs)};
  // Both are at most kMaxTimeMs and moves at most kMaxMovesToGo: no overflow in 64 bits.
  const long long period = *base + *inc * std::max(1, tc.moves_to_go);
  if (period > kMaxTimeMs)
    return Error{"time control '" + item + "': a period (base + increment x moves) holds " +
                 seconds_text(period) + ", more than " + seconds_text(kMaxTimeMs)};
  tc.base = Millis(*base);
  tc.increment = Millis(*inc);
  return Ok{};
}

struct ItemSpec {
  std::string_view key;
  long long min, max;
  const char* unit;
};

constexpr ItemSpec kItems[] = {
    {"movetime", 1, kMaxTimeMs, " ms"}, {"depth", 1, kMaxDepth, ""},
    {"nodes", 1, kMaxNodes, ""},        {"cap", 1, kMaxTimeMs, " ms"},
    {"margin", 0, kMaxTimeMs, " ms"},
};

}  // namespace

std::string TimeControl::to_string() const {
  auto secs = [](Millis m) {
    std::string s = std::to_string(m.count() / 1000);
    if (m.count() % 1000) {
      char frac[8];
      std::snprintf(frac, sizeof frac, ".%03lld", static_cast<long long>(m.count() % 1000));
      std::string f = frac;
      while (f.back() == '0') f.pop_back();
      s += f;
    }
    return s;
  };
  std::string out;
  if (has_clock()) {
    if (moves_to_go) out += std::to_string(moves_to_go) + "/";
    out += secs(base);
    if (increment.count()) out += "+" + secs(increment);
  }
  auto item = [&](const std::string& s) { out += (out.empty() ? "" : ",") + s; };
  if (movetime.count()) item("movetime=" + std::to_string(movetime.count()));
  if (depth) item("depth=" + std::to_string(depth));
  if (nodes) item("nodes=" + std::to_string(nodes));
  // The cap matters only without a clock or movetime, but is shown whenever it was set, so that
  // the text parses back to an equal control.
  if ((!has_clock() && !movetime.count()) || wall_cap != TimeControl{}.wall_cap)
    item("cap=" + std::to_string(wall_cap.count()));
  if (margin != TimeControl{}.margin) item("margin=" + std::to_string(margin.count()));
  return out;
}

Expected<TimeControl> parse_time_control(std::string_view text) {
  TimeControl tc;
  if (text.empty()) return Error{"empty time control"};
  const std::string whole(text);
  std::string seen = ",";
  for (auto item : text::split(text, ',')) {
    if (item.empty()) return Error{"empty item in time control '" + whole + "'"};
    auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      if (tc.has_clock()) return Error{"time control '" + whole + "' has two clocks"};
      auto st = parse_clock(item, tc);
      if (!st) return st.failure();
      continue;
    }
    const auto key = item.substr(0, eq);
    const auto* spec = std::find_if(std::begin(kItems), std::end(kItems),
                                    [&](const ItemSpec& s) { return s.key == key; });
    if (spec == std::end(kItems))
      return Error{"unknown time control item '" + std::string(item) +
                   "' (known: movetime, depth, nodes, cap, margin)"};
    if (seen.find("," + std::string(key) + ",") != std::string::npos)
      return Error{"time control '" + whole + "' sets " + std::string(key) + " twice"};
    seen += std::string(key) + ",";
    const auto value_text = item.substr(eq + 1);
    auto value = digits_value(value_text);
    if (!value || (value_text.size() > 1 && value_text[0] == '0'))
      return Error{"bad value in time control item '" + std::string(item) + "'"};
    if (*value < spec->min || *value > spec->max)
      return Error{"time control item '" + std::string(item) + "' is out of range (" +
                   std::string(key) + " is from " + std::to_string(spec->min) + " to " +
                   std::to_string(spec->max) + spec->unit + ")"};
    if (key == "movetime")
      tc.movetime = Millis(*value);
    else if (key == "depth")
      tc.depth = static_cast<int>(*value);
    else if (key == "nodes")
      tc.nodes = *value;
    else if (key == "cap")
      tc.wall_cap = Millis(*value);
    else
      tc.margin = Millis(*value);
  }
  if (tc.has_clock() && tc.movetime.count())
    return Error{"time control '" + whole + "' mixes a clock and movetime"};
  if (!tc.has_clock() && !tc.movetime.count() && !tc.depth && !tc.nodes)
    return Error{"time control '" + whole + "' sets no limit"};
  return tc;
}

Millis PlayerClock::move_budget() const {
  if (tc_.has_clock()) return left_ + tc_.margin;
  if (tc_.movetime.count()) return tc_.movetime + tc_.margin;
  return tc_.wall_cap;
}

int PlayerClock::moves_to_go() const {
  return tc_.moves_to_go ? tc_.moves_to_go - moves_made_ % tc_.moves_to_go : 0;
}

bool PlayerClock::charge(Millis elapsed) {
  if (elapsed > move_budget()) return false;
  ++moves_made_;
  if (!tc_.has_clock()) return true;
  left_ = std::max(Millis(0), left_ - elapsed) + tc_.increment;
  if (tc_.moves_to_go && moves_made_ % tc_.moves_to_go == 0) left_ += tc_.base;
  left_ = std::min(left_, Millis(kMaxClockMs));
  return true;
}

}  // namespace referee::match
