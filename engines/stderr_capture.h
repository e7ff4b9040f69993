// What is kept of an engine's stderr (process.h: on_stderr, flush_stderr, stderr_tail): a bounded
// tail for the crash report, and the lines handed to a sink as they arrive.
//
// Contract: take() accepts any bytes in any pieces. The sink gets each line without its '\n' (a
// trailing '\r' dropped, control bytes escaped as \xNN), a line longer than kStderrLineBytes cut
// into pieces of that size. end_line() hands over an unfinished line (at end of file, or when the
// caller wants what there is now). tail() is the last tail_cap bytes taken.
//
// Decisions:
// - Nothing grows without cap: the tail is trimmed back to tail_cap once it reaches twice that
//   (one erase per tail_cap bytes, not one per read), the unfinished line is at most
//   kStderrLineBytes.
// - stderr is not protocol: no budget of lines, no BadByte; only bytes counted by the caller.
// - The capture holds no descriptor: the caller reads the pipe (read_ready, process_wait.h) and
//   passes the bytes on.
#pragma once

#include <cstddef>
#include <string>

#include "engines/process.h"

namespace referee::engines {

struct StderrCapture {
  std::size_t tail_cap = 0;
  StderrSink sink;  // may be empty: only the tail is kept

  void take(const char* p, std::size_t n);
  // Hands an unfinished line to the sink, if there is one.
  void end_line();
  std::string tail() const;

 private:
  void emit_line();

  std::string tail_;
  std::string line_;  // an unfinished line, at most kStderrLineBytes
};

}  // namespace referee::engines
