// Who may do what through the API (design.md §9; the roles are in principal.h). check_access
// decides, for each request, who makes it (a Principal) or refuses it with 401 or 403 and one
// line, in this order:
// 1. The daemon's Unix socket: its file permissions are the credential, the caller is the
//    operator.
// 2. Host: a loopback address literal (127.0.0.0/8 dotted quad, ::1, a v4-mapped 127 address, with
//    or without a port; IPv6 in brackets), the name localhost, or a name given with
//    --allowed-host; anything else is 403, reads too (a DNS-rebound name must never reach the API).
// 3. Origin, on changes (any method but GET, HEAD and OPTIONS): "null" and an origin whose host is
//    not the Host's are 403, before any credential is looked up (a web page cannot act for a local
//    browser).
// 4. Authorization: "Bearer <token>", the scheme in any case. The operator token makes the
//    operator; an author token in force (looked up by its SHA-256) makes that author; any other
//    token, or another scheme, is 401.
// 5. Without a token: a change is 401 (every change over TCP needs a token, loopback included);
//    a read from a loopback peer is a Reader; a read from elsewhere is 401. With --behind-proxy
//    (a reverse proxy on the host makes every client look local) every TCP request needs a token.
// The client named in logs is the peer's address or, behind a proxy, the last X-Forwarded-For
// entry (the one the proxy added; earlier ones are the client's own word).
//
// The token file: its first line, surrounding blanks removed; refused when empty, shorter than 16
// characters, or readable by every user (mode o+r, as ssh refuses keys). `referee serve` creates it
// on first start (ensure_token_file). Tokens are compared in constant time.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "service/principal.h"

namespace referee::service {

Expected<std::string> read_token_file(const std::string& path);

// The token in `path`: read when the file exists (read_token_file), else a new random one written
// there with mode 0600 (created = true). The directory must exist.
Expected<std::string> ensure_token_file(const std::string& path, bool& created);

// A new random token: 64 hexadecimal digits (32 bytes from OpenSSL's RAND_bytes).
Expected<std::string> random_token();

// What the database keeps of a token: its SHA-256, 64 lower-case hexadecimal digits.
std::string token_hash(std::string_view token);

bool token_matches(std::string_view expected, std::string_view given);

// An address literal of the loopback (127.0.0.0/8 as a dotted quad, ::1, ::ffff:127.x.y.z), or the
// name localhost. Names that merely begin with "127." are not.
bool is_loopback(const std::string& address);

// The host of a Host header ("name", "name:port", "1.2.3.4:port", "[v6]:port", "::1"); nullopt
// when it is malformed (an empty host, a port that is not a number).
std::optional<std::string> host_of_header(const std::string& host);

struct AccessPolicy {
  std::string operator_token;  // "" = none (only the Unix socket makes the operator)
  // The author whose token in force has this hash (token_hash), nullopt when none; an error when
  // the lookup fails (503). Null: there are no author tokens.
  std::function<Expected<std::optional<std::string>>(const std::string& hash)> author_of;
  std::vector<std::string> allowed_hosts;  // Host names allowed besides the loopback's
  bool behind_proxy = false;
};

struct AccessRequest {
  std::string method;         // GET, POST, ...
  std::string remote_addr;    // the peer's address ("" over the Unix socket)
  std::string authorization;  // the Authorization header, "" when absent
  std::string host;           // the Host header
  std::string origin;         // the Origin header, "" when absent
  std::string forwarded_for;  // the X-Forwarded-For header, "" when absent
  bool unix_socket = false;   // came over the daemon's Unix socket
};

struct AccessDecision {
  int status = 200;    // 200 = allowed; 401 / 403 / 503
  std::string error;   // one line for the JSON error body
  Principal who;       // who makes the request, when allowed
  std::string client;  // the client for logs and limits (see the header comment)
  bool allowed() const { return status == 200; }
};

AccessDecision check_access(const AccessPolicy& policy, const AccessRequest& request);

}  // namespace referee::service
