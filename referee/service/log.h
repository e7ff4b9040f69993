// The daemon's log: one line per happening, on stderr by default. When stderr is the systemd
// journal (JOURNAL_STREAM) every line starts with its syslog priority, "<6>" (info), so journald
// files it at the right level and adds its own timestamp; otherwise (a terminal, a file) a line is
// "2026-11-23T10:00:00.123Z info: text". With a file (--log FILE) the lines go there instead, and
// reopen() (on SIGHUP) opens the file again by name, so logrotate can move it away.
//
// Decisions: no log levels below info are written unless verbose (the per-game lines would be
// hundreds a second with fast engines); a line never holds a newline (they are replaced by
// spaces) so one happening is one line for journald and grep.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "base/expected.h"

namespace referee::service {

// "2026-11-23T10:00:00Z" (with_ms: "2026-11-23T10:00:00.123Z") for a Unix time in ms.
std::string iso_utc(long long unix_ms, bool with_ms);

enum class LogLevel { Error = 3, Warning = 4, Notice = 5, Info = 6, Debug = 7 };

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
};

}  // namespace referee::service
