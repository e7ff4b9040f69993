// `--debug`: every line exchanged with the engines, printed as it happens (like cutechess-cli's
// -debug), one line per protocol line:
//
//   12.345 mybot(2) > go player 2 p1time 9120 p2time 9870 p1inc 100 p2inc 100
//
// the seconds since the log began (millisecond precision), the engine's name and its instance
// number (engines are numbered 1, 2, ... in the order this process started them, so two copies of
// one engine in concurrent games stay apart), the direction ('>' written to the engine, '<' read
// from its stdout, '!' read from its stderr) and the text.
//
// Decisions: the log is a value the commands create and hand to the engine sessions (no global
// state); each line is formatted first and written with one call under a mutex, then flushed, so
// lines from sessions on several threads never mix mid-line.
#pragma once

#include <chrono>
#include <mutex>
#include <ostream>
#include <string_view>

namespace referee::match {

class DebugLog {
 public:
  using Clock = std::chrono::steady_clock;

  explicit DebugLog(std::ostream& out, Clock::time_point start = Clock::now());
  DebugLog(const DebugLog&) = delete;
  DebugLog& operator=(const DebugLog&) = delete;

  // The number of the next engine started (1, 2, ...).
  int next_instance();
  // Writes one line (a control byte or line break in `text` cannot occur: the process layer
  // escapes them).
  void line(std::string_view engine, int instance, char direction, std::string_view text,
            Clock::time_point at);

 private:
  std::mutex mutex_;
  std::ostream& out_;
  Clock::time_point start_;
  int instances_ = 0;
};

}  // namespace referee::match
