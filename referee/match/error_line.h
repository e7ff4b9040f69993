// Which line of a crashed engine's stderr says what went wrong: the crash reason quotes it
// ("mybot crashed (exit 1): TypeError: x is not a function").
//
// Contract: error_line is pure and total: given the last non-empty stderr lines of a game, oldest
// first, it returns the line (or two joined lines) naming the error, else the last line that is
// not a known trailer, else the last line, else "".
//
// Decisions:
// - Runtimes end stderr with lines that name nothing: Node.js prints its version after the stack
//   ("Node.js v20.20.2"), Rust a note about RUST_BACKTRACE, Go the goroutine dump, stacks their
//   frames. The newest line that names an error wins over those: an exception's name
//   ("Error: boom", "ValueError: bad move", "java.lang.IllegalStateException: x", "KeyError"),
//   a Rust panic, a Go panic, C++'s "terminate called ...", a fatal signal's words
//   ("Segmentation fault"), "fatal error", an AddressSanitizer report.
// - A Rust panic's message is on the line after "panicked at ...:" (Rust 1.73 and later), C++'s
//   what() on the line after "terminate called ...": the two are joined.
// - Recognised by the shape of the line, never by the engine's language: any runtime that prints
//   "SomeError: text" is read the same way.
#pragma once

#include <string>
#include <vector>

namespace referee::match {

std::string error_line(const std::vector<std::string>& lines);

}  // namespace referee::match
