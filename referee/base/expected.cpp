#include "base/expected.h"

namespace referee {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Invalid:
      return "invalid";
    case ErrorKind::NotFound:
      return "not-found";
    case ErrorKind::Conflict:
      return "conflict";
    case ErrorKind::Unavailable:
      return "unavailable";
    case ErrorKind::Io:
      return "io";
    case ErrorKind::Full:
      return "full";
    case ErrorKind::Denied:
      return "denied";
  }
  return "invalid";
}

}  // namespace referee
