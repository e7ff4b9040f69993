// The stderr capture (stderr_capture.h).
#include "engines/stderr_capture.h"

#include <cstring>

#include "engines/line_buffer.h"

namespace referee::engines {

void StderrCapture::emit_line() {
  std::size_t len = line_.size();
  if (len > 0 && line_[len - 1] == '\r') --len;
  if (sink) sink(escape_controls(line_.data(), len));
  line_.clear();
}

void StderrCapture::end_line() {
  if (!line_.empty()) emit_line();
}

void StderrCapture::take(const char* p, std::size_t n) {
  tail_.append(p, n);
  if (tail_.size() > 2 * tail_cap) tail_.erase(0, tail_.size() - tail_cap);
  if (!sink) return;
  while (n > 0) {
    auto* nl = static_cast<const char*>(std::memchr(p, '\n', n));
    std::size_t piece = nl ? static_cast<std::size_t>(nl - p) : n;
    std::size_t room = kStderrLineBytes - line_.size();
    if (piece >= room) {  // a long line: cut it
      line_.append(p, room);
      emit_line();
      p += room;
      n -= room;
      continue;
    }
    line_.append(p, piece);
    if (!nl) return;
    emit_line();
    p += piece + 1;
    n -= piece + 1;
  }
}

std::string StderrCapture::tail() const {
  if (tail_.size() > tail_cap) return tail_.substr(tail_.size() - tail_cap);
  return tail_;
}

}  // namespace referee::engines
