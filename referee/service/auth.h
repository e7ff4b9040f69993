// Who may do what through the API (design.md §8, the daemon):
// - Without a token the daemon listens on loopback only (refusing to start otherwise), and every
//   request must come from loopback.
// - With a token, every request that changes anything (any method but GET, HEAD and OPTIONS)
//   needs "Authorization: Bearer <token>", from anywhere; reads from loopback are open, reads
//   from any other address need the token too.
// - The token file: its first line, surrounding blanks removed; refused when missing, empty,
//   shorter than 16 characters, or readable by every user (mode o+r, as ssh refuses keys).
// - Tokens are compared in constant time.
// - A browser cannot be made to act for a local user: a request that changes anything and has an
//   Origin header naming another host than its Host header is refused, and without a token the
//   Host header must name the loopback (a DNS-rebound name is refused).
#pragma once

#include <string>
#include <string_view>

#include "base/expected.h"

namespace referee::service {

Expected<std::string> read_token_file(const std::string& path);

bool token_matches(std::string_view expected, std::string_view given);

// 127.0.0.0/8, ::1, ::ffff:127.x.y.z, and the name localhost.
bool is_loopback(const std::string& address);

struct AccessRequest {
  std::string method;         // GET, POST, ...
  std::string remote_addr;    // the peer's address
  std::string authorization;  // the Authorization header, "" when absent
  std::string host;           // the Host header
  std::string origin;         // the Origin header, "" when absent
};

struct AccessDecision {
  int status = 200;   // 200 = allowed; 401 / 403
  std::string error;  // one line for the JSON error body
};

AccessDecision check_access(const std::string& token, const AccessRequest& request);

}  // namespace referee::service
