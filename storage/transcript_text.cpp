#include "storage/transcript_text.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace referee::storage {

namespace {

constexpr std::string_view kPosition = "position ";

template <class Int>
void append_number(std::string& out, Int n) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out.append(digits, static_cast<std::size_t>(end - digits));
}

// '\\' and '\n' escaped, the runs between them appended whole.
void append_escaped(std::string& out, std::string_view text) {
  const char* run = text.data();
  const char* const stop = run + text.size();
  for (const char* c = run; c < stop; ++c) {
    if (*c != '\\' && *c != '\n') continue;
    out.append(run, static_cast<std::size_t>(c - run));
    out += *c == '\\' ? "\\\\" : "\\n";
    run = c + 1;
  }
  out.append(run, static_cast<std::size_t>(stop - run));
}

std::size_t shared_prefix(std::string_view base, std::string_view line) {
  if (line.size() >= base.size() && std::memcmp(base.data(), line.data(), base.size()) == 0)
    return base.size();  // the usual case: the game went on
  const auto n = std::min(base.size(), line.size());
  return static_cast<std::size_t>(
      std::mismatch(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(n), line.begin())
          .first -
      base.begin());
}

void append_unescaped(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[i + 1] == 'n' ? '\n' : text[i + 1];
      ++i;
    } else {
      out += text[i];
    }
  }
}

bool read_number(std::string_view& s, std::size_t& n) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end == s.data() || end == s.data() + s.size() || *end != ' ')
    return false;
  s.remove_prefix(static_cast<std::size_t>(end - s.data()) + 1);
  return true;
}

}  // namespace

void encode_transcript(const std::vector<const LogLine*>& lines, std::string& out) {
  std::size_t size = 0;
  for (const LogLine* line : lines) size += line->text.size() + 24;  // "ms.uuu d \n"
  out.reserve(out.size() + size);   // an upper bound: differences are shorter
  std::size_t base = lines.size();  // the last position line written, if any
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LogLine& line = *lines[i];
    append_number(out, line.at_ms);
    const int us = std::clamp(line.at_us, 0, 999);
    out += '.';
    out += static_cast<char>('0' + us / 100);
    out += static_cast<char>('0' + us / 10 % 10);
    out += static_cast<char>('0' + us % 10);
    std::string_view text = line.text;
    if (line.direction == '>' && text.starts_with(kPosition)) {
      const std::size_t shared = base < i ? shared_prefix(lines[base]->text, text) : 0;
      if (shared >= kMinShared) {
        out += " + ";
        append_number(out, i - base);
        out += ' ';
        append_number(out, shared);
        out += ' ';
        text.remove_prefix(shared);
        append_escaped(out, text);
        out += '\n';
        base = i;
        continue;
      }
      base = i;
    }
    out += ' ';
    out += line.direction;
    out += ' ';
    append_escaped(out, text);
    out += '\n';
  }
}

Status decode_transcript(std::string_view text, int seat, std::vector<LogLine>& out) {
  const std::size_t first = out.size();  // this row's first line in `out`
  std::size_t number = 0;                // of the stored line, from 1, for errors
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    // "<at_ms>[.<us>] <dir> <escaped text>" or "<at_ms>.<us> + <back> <k> <escaped rest>"
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    const auto space = line.find(' ');
    if (space == std::string_view::npos || space + 1 >= line.size()) continue;
    LogLine l;
    l.seat = seat;
    const std::string_view stamp = line.substr(0, space);
    const auto dot = stamp.find('.');
    long ms = 0;
    std::from_chars(stamp.data(), stamp.data() + std::min(dot, stamp.size()), ms);
    l.at_ms = ms;
    if (dot != std::string_view::npos) {
      char us[3] = {'0', '0', '0'};  // as before, ".5" reads as 500 µs
      std::copy_n(stamp.begin() + static_cast<std::ptrdiff_t>(dot + 1),
                  std::min<std::size_t>(3, stamp.size() - dot - 1), us);
      std::from_chars(us, us + 3, l.at_us);
    }
    l.direction = line[space + 1];
    std::string_view rest = line.size() > space + 3 ? line.substr(space + 3) : std::string_view{};
    if (l.direction == '+') {
      std::size_t back = 0, shared = 0;
      const std::size_t have = out.size() - first;
      const auto bad = [&](const std::string& why) {
        return Error{"transcript of seat " + std::to_string(seat) + ", line " +
                     std::to_string(number) + ": " + why};
      };
      if (!read_number(rest, back) || !read_number(rest, shared))
        return bad("a '+' line without its two numbers");
      if (back == 0 || back > have)
        return bad("refers to line " + std::to_string(back) + " above it, not in the row");
      const LogLine& base = out[out.size() - back];
      if (base.direction != '>') return bad("refers to a line that is not the referee's");
      if (shared > base.text.size())
        return bad("takes " + std::to_string(shared) + " bytes of a line of " +
                   std::to_string(base.text.size()));
      l.direction = '>';
      l.text.reserve(shared + rest.size());
      l.text.assign(base.text, 0, shared);
    }
    append_unescaped(l.text, rest);
    out.push_back(std::move(l));
  }
  return Ok{};
}

}  // namespace referee::storage
