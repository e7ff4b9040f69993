// The daemon's log: one line per happening, on stderr by default. When stderr is the systemd
// journal (JOURNAL_STREAM) every line starts with its syslog priority, "<6>" (info), so journald
// files it at the right level and adds its own timestamp; otherwise (a terminal, a file) a line is
// "2026-11-23T10:00:00.123Z info: text". With a file (--log FILE) the lines go there instead, and
// reopen() (on SIGHUP) opens the file again by name, so logrotate can move it away.
//
// Decisions: no log levels below info are written unless verbose (the per-game lines would be
// hundreds a second with fast engines); a line never holds a newline (they are replaced by
// spaces) so one happening is one line for journald and grep.
//
// Refused requests are logged by refused(), never by write(): what a client sends (the target,
// headers quoted in the reason) is cut to kMaxRefusalText bytes, and at most kRefusalsPerSecond
// such lines a second are written (a burst of kRefusalBurst), so that a client sending refused
// requests as fast as it can costs a few KB/s of log, not its own bandwidth (24 MB/s of URLs
// before). The lines left out are counted, and "… N refusals not logged" is written before the
// next refusal that is.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "base/expected.h"

namespace referee::service {

// "2026-11-23T10:00:00Z" (with_ms: "2026-11-23T10:00:00.123Z") for a Unix time in ms.
std::string iso_utc(long long unix_ms, bool with_ms);

enum class LogLevel { Error = 3, Warning = 4, Notice = 5, Info = 6, Debug = 7 };

constexpr std::size_t kMaxRefusalText = 200;  // bytes of a refused request's target or reason
constexpr double kRefusalsPerSecond = 10;
constexpr double kRefusalBurst = 20;

// A token bucket: `per_second` tokens a second, holding at most `burst` (full at first); a line
// takes one. Time is given, never read, so tests step it.
class RefusalLimiter {
 public:
  using Time = std::chrono::steady_clock::time_point;
  RefusalLimiter(double per_second, double burst) : per_second_(per_second), burst_(burst) {}

  struct Verdict {
    bool write = false;          // the line may be written
    std::uint64_t unlogged = 0;  // lines refused since the last one written (when `write`)
  };
  // Whether a line may be written at `now`; one that may not is counted.
  Verdict admit(Time now);

 private:
  double per_second_, burst_;
  double tokens_ = -1;  // < 0: not used yet (a full bucket)
  Time last_{};
  std::uint64_t unlogged_ = 0;
};

struct LogOptions {
  std::string file;      // "" = stderr
  bool journal = false;  // stderr is the journal: "<N>" prefixes, no timestamps
  bool verbose = false;  // debug lines too
};

class Log {
 public:
  // A log to stderr with the given options, or to the file (opened for appending now: an error
  // names it).
  static Expected<std::unique_ptr<Log>> open(const LogOptions& options);
  ~Log();
  Log(const Log&) = delete;
  Log& operator=(const Log&) = delete;

  void write(LogLevel level, const std::string& text);
  void error(const std::string& text) { write(LogLevel::Error, text); }
  void warning(const std::string& text) { write(LogLevel::Warning, text); }
  void info(const std::string& text) { write(LogLevel::Info, text); }
  void debug(const std::string& text) { write(LogLevel::Debug, text); }
  bool verbose() const { return options_.verbose; }

  // A warning about a request refused before its handler ran, within the limits above:
  // "refused METHOD TARGET from CLIENT: WHY", each part printable and cut ("…"). `now` is for
  // tests; the daemon leaves it to the clock.
  void refused(const std::string& method, const std::string& target, const std::string& client,
               const std::string& why);
  void refused(const std::string& method, const std::string& target, const std::string& client,
               const std::string& why, RefusalLimiter::Time now);
  // Opens the log file again by name (after SIGHUP); nothing for stderr.
  Status reopen();

  // One formatted line (without its newline), for tests: `now_ms` is the Unix time in ms.
  static std::string format(LogLevel level, const std::string& text, bool journal,
                            long long now_ms);

 private:
  explicit Log(const LogOptions& options) : options_(options) {}
  LogOptions options_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;  // null: stderr
  std::mutex refusals_mutex_;
  RefusalLimiter refusals_{kRefusalsPerSecond, kRefusalBurst};
};

}  // namespace referee::service
