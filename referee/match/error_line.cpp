#include "match/error_line.h"

#include <cctype>
#include <string_view>

namespace referee::match {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

// "ValueError: bad move", "Error: boom", "java.lang.RuntimeException: x", "KeyError",
// "Uncaught TypeError: x", "Exception in thread "main" java.lang.Error: x": a name ending in
// Error, Exception or Interrupt, alone or followed by ':'.
bool names_exception(std::string_view line) {
  for (std::string_view prefix : {"Uncaught ", "Exception in thread "})
    if (starts_with(line, prefix)) return true;
  std::size_t end = 0;
  while (end < line.size() && identifier_char(line[end])) ++end;
  if (end == 0 || (end < line.size() && line[end] != ':')) return false;
  const std::string_view name = line.substr(0, end);
  return ends_with(name, "Error") || ends_with(name, "Exception") || ends_with(name, "Interrupt") ||
         name == "panic" || name == "error";
}

bool names_error(std::string_view line) {
  if (names_exception(line)) return true;
  for (std::string_view piece :
       {"panicked at", "terminate called", "Segmentation fault", "Aborted", "Bus error", "Killed",
        "Floating point exception", "fatal error:", "FATAL", "AddressSanitizer",
        "runtime error:", "Assertion", "assertion"})
    if (line.find(piece) != std::string_view::npos) return true;
  return false;
}

// Lines printed after the error that never name it.
bool trailer(std::string_view line) {
  if (starts_with(line, "Node.js v")) return true;
  if (starts_with(line, "note: run with `RUST_BACKTRACE")) return true;
  if (starts_with(line, "at ")) return true;           // a JavaScript or Java frame
  if (starts_with(line, "File \"")) return true;       // a Python frame
  if (starts_with(line, "goroutine ")) return true;    // Go's dump
  if (starts_with(line, "exit status ")) return true;  // `go run`
  if (starts_with(line, "[process exited")) return true;
  return line == "^";
}

}  // namespace

std::string error_line(const std::vector<std::string>& lines) {
  for (std::size_t i = lines.size(); i-- > 0;) {
    const std::string_view line = trimmed(lines[i]);
    if (!names_error(line)) continue;
    const bool continued = ends_with(line, "panicked at") || ends_with(line, ":") ||
                           starts_with(line, "terminate called");
    if (continued && i + 1 < lines.size()) {
      const std::string_view next = trimmed(lines[i + 1]);
      if (!next.empty() && !trailer(next) && !starts_with(next, "stack backtrace"))
        return std::string(line) + " " + std::string(next);
    }
    return std::string(line);
  }
  for (std::size_t i = lines.size(); i-- > 0;)
    if (!trailer(trimmed(lines[i]))) return std::string(trimmed(lines[i]));
  return lines.empty() ? "" : lines.back();
}

}  // namespace referee::match
