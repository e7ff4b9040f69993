// The stdout line buffer (line_buffer.h).
#include "engines/line_buffer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace referee::engines {

bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

std::string escape_controls(const char* p, std::size_t n) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto c = static_cast<unsigned char>(p[i]);
    if (is_control(c)) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

LineBuffer::LineBuffer(std::size_t max_line_bytes)
    : max_line_(max_line_bytes),
      cap_(max_line_bytes + 1 + kReadChunk),
      buf_(std::make_unique<char[]>(cap_)) {}

Filled LineBuffer::fill(int fd) {
  if (cap_ - tail_ < kReadChunk && head_ > 0) {
    std::memmove(buf_.get(), buf_.get() + head_, tail_ - head_);
    tail_ -= head_;
    scanned_ -= head_;
    head_ = 0;
  }
  for (;;) {
    ssize_t n = ::read(fd, buf_.get() + tail_, cap_ - tail_);
    if (n > 0) {
      tail_ += static_cast<std::size_t>(n);
      return {Fill::Bytes, static_cast<std::size_t>(n)};
    }
    if (n == 0) return {Fill::End};
    if (errno == EINTR) continue;
    if (errno == EAGAIN) return {Fill::Nothing};
    return {Fill::End};  // any other error: nothing more will come
  }
}

ReadResult LineBuffer::make_line(std::size_t begin, std::size_t len) const {
  if (len > 0 && buf_[begin + len - 1] == '\r') --len;
  const char* p = buf_.get() + begin;
  if (len > max_line_) return {ReadStatus::TooLong, {}};
  for (std::size_t i = 0; i < len; ++i)
    if (is_control(static_cast<unsigned char>(p[i])))
      return {ReadStatus::BadByte, escape_controls(p, len)};
  return {ReadStatus::Line, std::string(p, len)};
}

bool LineBuffer::take_line(ReadResult& out) {
  for (;;) {
    auto* nl = static_cast<char*>(std::memchr(buf_.get() + scanned_, '\n', tail_ - scanned_));
    if (!nl) {
      scanned_ = tail_;
      if (discarding_) {
        clear();
        return false;
      }
      if (tail_ - head_ > max_line_ + 1) {  // +1: room for a '\r' that would be stripped
        discarding_ = true;
        clear();
        out = {ReadStatus::TooLong, {}};
        return true;
      }
      return false;
    }
    std::size_t end = static_cast<std::size_t>(nl - buf_.get());
    std::size_t begin = head_;
    head_ = scanned_ = end + 1;
    if (head_ == tail_) clear();
    if (discarding_) {
      discarding_ = false;
      continue;
    }
    out = make_line(begin, end - begin);
    return true;
  }
}

std::optional<ReadResult> LineBuffer::take_rest() {
  if (tail_ > head_ && !discarding_) {  // a last line without its '\n'
    std::size_t begin = head_, len = tail_ - head_;
    clear();
    return make_line(begin, len);  // the bytes stay where they are until the next fill()
  }
  clear();
  return std::nullopt;
}

}  // namespace referee::engines
