// An engine's stdout cut into lines (Process::read_line, process.h): bytes in, one ReadResult out
// per line, with its '\n' and a trailing '\r' removed.
//
// Contract: a line longer than max_line_bytes comes out once as TooLong and its bytes up to the
// next '\n' are dropped; a line holding a control byte (but tab) comes out as BadByte, the bytes
// escaped as \xNN for the log; at end of file, a last line without its '\n' comes out by
// take_rest(). The buffer never grows: it holds max_line_bytes + 1 + kReadChunk bytes.
//
// Decisions:
// - One flat array scanned with memchr and compacted only when it runs out of room: a buffered
//   line costs no syscall and no clock read, and a flooding engine cannot make it grow.
// - `scanned` remembers how far the search for '\n' got, so a line that arrives in many reads is
//   scanned once, not once per read.
// - The buffer does not own the descriptor nor know about deadlines or budgets: fill() is one
//   read() and says what it got; the process decides what that means.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "engines/process.h"

namespace referee::engines {

inline constexpr std::size_t kReadChunk = 16384;  // what one read() asks for at most

// Below 0x20 but tab, or 0x7f: what a protocol line may not hold.
bool is_control(unsigned char c);
// The bytes with every control byte written as \xNN (for logs: stdout's BadByte lines, stderr).
std::string escape_controls(const char* p, std::size_t n);

// What one read() brought.
enum class Fill {
  Bytes,    // bytes were added
  Nothing,  // EAGAIN: the pipe is empty now
  End,      // end of file, or an error after which nothing more will come
};
struct Filled {
  Fill status;
  std::size_t bytes = 0;
};

class LineBuffer {
 public:
  explicit LineBuffer(std::size_t max_line_bytes);

  // One read() from `fd` into the buffer (compacting it first when the room left is short).
  Filled fill(int fd);
  // Takes one complete line (or a TooLong report) from the buffer; false when none is there.
  bool take_line(ReadResult& out);
  // At end of file: the last line without its '\n', if there is one. Empties the buffer.
  std::optional<ReadResult> take_rest();

 private:
  ReadResult make_line(std::size_t begin, std::size_t len) const;
  void clear() { head_ = tail_ = scanned_ = 0; }

  std::size_t max_line_;
  std::size_t cap_;
  std::unique_ptr<char[]> buf_;
  // [head_, tail_) unconsumed; [head_, scanned_) known to hold no '\n'.
  std::size_t head_ = 0, tail_ = 0, scanned_ = 0;
  bool discarding_ = false;  // inside a line already reported TooLong: drop up to its '\n'
};

}  // namespace referee::engines
