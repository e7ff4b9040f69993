// Who made a request, as the access check decided (auth.h) and the handlers act on it.
//
// Roles, from least to most:
// - Reader: no credential (reads on loopback TCP); may only read, and never sees an engine's
//   env values or any token.
// - Author: an author token the operator created (`referee token add NAME`); may read, submit
//   events and register engines among the engines the operator defined and the stored ones
//   (artifacts, anyone's; never a host command, env or dir), and pause, resume or cancel only
//   what it submitted.
// - Operator: the daemon's Unix socket (its file permissions are the credential) or the
//   operator token; may do everything, host commands included.
#pragma once

#include <string>

namespace referee::service {

enum class Role { Reader, Author, Operator };

struct Principal {
  Role role = Role::Reader;
  std::string name;  // the author token's name; "operator"; "" for a reader
};

}  // namespace referee::service
