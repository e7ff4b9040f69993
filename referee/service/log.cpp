#include "service/log.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "base/input_limits.h"
#include "base/text.h"

namespace referee::service {

namespace {

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Error:
      return "error";
    case LogLevel::Warning:
      return "warning";
    case LogLevel::Notice:
      return "notice";
    case LogLevel::Info:
      return "info";
    case LogLevel::Debug:
      return "debug";
  }
  return "info";
}

}  // namespace

// ISO 8601 UTC, from the civil calendar of <chrono> (no gmtime).
std::string iso_utc(long long now_ms, bool with_ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds(now_ms)};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss hms{t - day};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02ld:%02ld:%02ld", int(ymd.year()),
                unsigned(ymd.month()), unsigned(ymd.day()), static_cast<long>(hms.hours().count()),
                static_cast<long>(hms.minutes().count()), static_cast<long>(hms.seconds().count()));
  std::string out = buf;
  if (with_ms) {
    std::snprintf(buf, sizeof buf, ".%03ld", static_cast<long>(hms.subseconds().count()));
    out += buf;
  }
  return out + "Z";
}

Expected<std::unique_ptr<Log>> Log::open(const LogOptions& options) {
  std::unique_ptr<Log> log(new Log(options));
  if (!options.file.empty()) {
    log->options_.journal = false;  // a file gets timestamps
    log->file_ = std::fopen(options.file.c_str(), "a");
    if (!log->file_)
      return Error{"cannot open log file '" + options.file + "': " + std::strerror(errno)};
  }
  return log;
}

Log::~Log() {
  if (file_) std::fclose(file_);
}

std::string Log::format(LogLevel level, const std::string& text, bool journal, long long now_ms) {
  std::string line;
  if (journal)
    line = "<" + std::to_string(static_cast<int>(level)) + ">";
  else
    line = iso_utc(now_ms, true) + " " + level_name(level) + ": ";
  for (char c : text) line += (c == '\n' || c == '\r') ? ' ' : c;
  return line;
}

void Log::write(LogLevel level, const std::string& text) {
  if (level == LogLevel::Debug && !options_.verbose) return;
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  const std::string line = format(level, text, options_.journal, now) + "\n";
  std::lock_guard lock(mutex_);
  std::FILE* out = file_ ? file_ : stderr;
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

RefusalLimiter::Verdict RefusalLimiter::admit(Time now) {
  if (tokens_ < 0) {
    tokens_ = burst_;
    last_ = now;
  } else if (now > last_) {  // threads may bring times a little out of order: no refill then
    tokens_ = std::min(burst_,
                       tokens_ + per_second_ * std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  if (tokens_ < 1) {
    ++unlogged_;
    return {};
  }
  tokens_ -= 1;
  Verdict v{true, unlogged_};
  unlogged_ = 0;
  return v;
}

void Log::refused(const std::string& method, const std::string& target, const std::string& client,
                  const std::string& why) {
  refused(method, target, client, why, std::chrono::steady_clock::now());
}

void Log::refused(const std::string& method, const std::string& target, const std::string& client,
                  const std::string& why, RefusalLimiter::Time now) {
  RefusalLimiter::Verdict verdict;
  {
    std::lock_guard lock(refusals_mutex_);
    verdict = refusals_.admit(now);
  }
  if (!verdict.write) return;
  // Cut before escaping too: an escaped byte is four, and the text may be megabytes.
  auto part = [](const std::string& text, std::size_t max) {
    return limits::shortened(text::printable(limits::shortened(text, max)), max);
  };
  if (verdict.unlogged > 0)
    warning("… " + std::to_string(verdict.unlogged) + " refusals not logged");
  warning("refused " + part(method, 16) + " " + part(target, kMaxRefusalText) + " from " +
          part(client, 64) + ": " + part(why, kMaxRefusalText));
}

Status Log::reopen() {
  if (options_.file.empty()) return Ok{};
  std::lock_guard lock(mutex_);
  std::FILE* fresh = std::fopen(options_.file.c_str(), "a");
  if (!fresh)
    return Error{"cannot reopen log file '" + options_.file + "': " + std::strerror(errno)};
  if (file_) std::fclose(file_);
  file_ = fresh;
  return Ok{};
}

}  // namespace referee::service
