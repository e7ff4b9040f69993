#include "match/time_control.h"

#include <cmath>
#include <cstdlib>

#include "games/core.h"

namespace referee {

namespace {

// A plain decimal number of seconds: digits with at most one '.'. strtod alone would also take
// leading blanks, signs, hexadecimal, exponents, "inf" and "nan".
std::optional<double> parse_seconds(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos ||
      text.find('.') != text.rfind('.') || text == ".")
    return std::nullopt;
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

Millis from_seconds(double s) {
  return Millis(static_cast<long long>(std::llround(s * 1000.0)));
}

Status parse_clock(std::string_view text, TimeControl& tc) {
  const std::string item(text);  // `text` is consumed below; the error names the whole item
  auto bad = [&] {
    return Error{"bad time control '" + item + "' (expected e.g. 40/60+0.5, 10+0.1 or 60)"};
  };
  auto slash = text.find('/');
  if (slash != std::string_view::npos) {
    auto moves = games::parse_count(text.substr(0, slash), 100000);
    if (!moves || *moves == 0) return bad();
    tc.moves_to_go = static_cast<int>(*moves);
    text = text.substr(slash + 1);
  }
  auto plus = text.find('+');
  auto base = parse_seconds(text.substr(0, plus));
  if (!base || *base <= 0) return bad();
  tc.base = from_seconds(*base);
  if (plus != std::string_view::npos) {
    auto inc = parse_seconds(text.substr(plus + 1));
    if (!inc) return bad();
    tc.increment = from_seconds(*inc);
  }
  return Ok{};
}

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
  if (!has_clock() && !movetime.count()) item("cap=" + std::to_string(wall_cap.count()));
  if (margin != Millis(50)) item("margin=" + std::to_string(margin.count()));
  return out;
}

Expected<TimeControl> parse_time_control(std::string_view text) {
  TimeControl tc;
  if (text.empty()) return Error{"empty time control"};
  for (auto item : games::split(text, ',')) {
    if (item.empty()) return Error{"empty item in time control '" + std::string(text) + "'"};
    auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      if (tc.has_clock()) return Error{"time control '" + std::string(text) + "' has two clocks"};
      auto st = parse_clock(item, tc);
      if (!st) return Error{st.error()};
      continue;
    }
    auto key = item.substr(0, eq);
    auto value = games::parse_count(item.substr(eq + 1), 1000000000L);
    if (!value) return Error{"bad value in time control item '" + std::string(item) + "'"};
    if (key == "movetime" && *value > 0)
      tc.movetime = Millis(*value);
    else if (key == "depth" && *value > 0)
      tc.depth = static_cast<int>(*value);
    else if (key == "nodes" && *value > 0)
      tc.nodes = *value;
    else if (key == "cap" && *value > 0)
      tc.wall_cap = Millis(*value);
    else if (key == "margin")
      tc.margin = Millis(*value);
    else
      return Error{"unknown or zero time control item '" + std::string(item) +
                   "' (known: movetime, depth, nodes, cap, margin)"};
  }
  if (tc.has_clock() && tc.movetime.count())
    return Error{"time control '" + std::string(text) + "' mixes a clock and movetime"};
  if (!tc.has_clock() && !tc.movetime.count() && !tc.depth && !tc.nodes)
    return Error{"time control '" + std::string(text) + "' sets no limit"};
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
  return true;
}

}  // namespace referee
