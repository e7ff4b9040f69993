// Failures of an engine process as values (process_failures.h).
#include "engines/process_failures.h"

#include <cerrno>
#include <cstring>

namespace referee::engines {

std::string errno_text(int os_error) {
  return std::strerror(os_error);
}

ErrorKind write_error_kind(WriteFault fault) {
  switch (fault) {
    case WriteFault::InputClosed:
    case WriteFault::BrokenPipe:
      return ErrorKind::Conflict;
    case WriteFault::TimedOut:
      return ErrorKind::Unavailable;
    case WriteFault::System:
      break;
  }
  return ErrorKind::Io;
}

std::string describe(const WriteFailure& failure) {
  switch (failure.fault) {
    case WriteFault::InputClosed:
      return "its input is closed";
    case WriteFault::BrokenPipe:
      return "broken pipe (the engine closed its input or exited)";
    case WriteFault::TimedOut:
      return "timed out (the engine is not reading its input)";
    case WriteFault::System:
      break;
  }
  return errno_text(failure.os_error);
}

std::string signal_description(int signal) {
  const char* text = ::sigdescr_np(signal);
  return text ? text : "unknown";
}

ErrorKind spawn_error_kind(int os_error) {
  switch (os_error) {
    case ENOENT:
    case ENOTDIR:
      return ErrorKind::NotFound;
    case EMFILE:
    case ENFILE:
    case EAGAIN:
    case ENOMEM:
      return ErrorKind::Unavailable;
    default:
      return ErrorKind::Invalid;
  }
}

}  // namespace referee::engines
