#include "match/debug_log.h"

#include <cstdio>
#include <string>

namespace referee::match {

DebugLog::DebugLog(std::ostream& out, Clock::time_point start) : out_(out), start_(start) {}

int DebugLog::next_instance() {
  std::lock_guard lock(mutex_);
  return ++instances_;
}

void DebugLog::line(std::string_view engine, int instance, char direction, std::string_view text,
                    Clock::time_point at) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at - start_).count();
  char stamp[48];
  std::snprintf(stamp, sizeof stamp, "%lld.%03lld ", static_cast<long long>(ms < 0 ? 0 : ms / 1000),
                static_cast<long long>(ms < 0 ? 0 : ms % 1000));
  std::string out = stamp;
  out.reserve(out.size() + engine.size() + text.size() + 16);
  out += engine;
  out += '(';
  out += std::to_string(instance);
  out += ") ";
  out += direction;
  out += ' ';
  out += text;
  out += '\n';
  std::lock_guard lock(mutex_);
  out_ << out << std::flush;
}

}  // namespace referee::match
