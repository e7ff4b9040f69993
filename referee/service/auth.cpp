#include "service/auth.h"

#include "engines/system.h"

#include <arpa/inet.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace referee::service {

namespace {

std::string trim(std::string text) {
  const char* blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

bool mutating(const std::string& method) {
  return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

std::string lower(std::string text) {
  for (auto& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

std::string hex(const unsigned char* bytes, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[bytes[i] >> 4]);
    out.push_back(digits[bytes[i] & 15]);
  }
  return out;
}

// The host of an Origin ("scheme://host[:port]"), lower case; "" when it has none.
std::string origin_host(const std::string& origin) {
  const auto scheme = origin.find("://");
  if (scheme == std::string::npos) return "";
  std::string rest = origin.substr(scheme + 3);
  if (auto slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);
  auto host = host_of_header(rest);
  return host ? lower(*host) : "";
}

// Text from a header, made safe for one log line: printable ASCII, at most 100 bytes.
std::string loggable(const std::string& text) {
  std::string out;
  for (char c : text.substr(0, 100)) out.push_back(c >= ' ' && c <= '~' ? c : '?');
  return out;
}

// The client behind a proxy: the last X-Forwarded-For entry (the proxy's own).
std::string forwarded_client(const std::string& header) {
  const auto comma = header.rfind(',');
  return trim(comma == std::string::npos ? header : header.substr(comma + 1));
}

// The token of "Bearer <token>" (any case of the scheme), nullopt for another scheme.
std::optional<std::string> bearer_token(const std::string& authorization) {
  const std::string text = trim(authorization);
  const auto blank = text.find_first_of(" \t");
  if (blank == std::string::npos || lower(text.substr(0, blank)) != "bearer") return std::nullopt;
  return trim(text.substr(blank));
}

}  // namespace

Expected<std::string> read_token_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return Error{"token file '" + path + "' does not exist"};
  if (!fs::is_regular_file(status)) return Error{"token file '" + path + "' is not a file"};
  if ((status.permissions() & fs::perms::others_read) != fs::perms::none)
    return Error{"token file '" + path +
                 "' is readable by every user; make it private (chmod o-r, e.g. chmod 600)"};
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return Error{"token file '" + path + "' is empty"};
  line = trim(line);
  if (line.empty()) return Error{"token file '" + path + "' is empty"};
  if (line.size() < 16)
    return Error{"the token in '" + path + "' is too short (" + std::to_string(line.size()) +
                 " characters; give at least 16, e.g. from: head -c 24 /dev/urandom | base64)"};
  return line;
}

Expected<std::string> random_token() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return Error{"no random bytes for a token (OpenSSL)"};
  return hex(bytes, sizeof bytes);
}

Expected<std::string> ensure_token_file(const std::string& path, bool& created) {
  created = false;
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
    return read_token_file(path);
  auto token = random_token();
  if (!token) return token;
  if (auto made = engines::create_private_file(path, *token + "\n"); !made)
    return Error{"cannot create the token file: " + made.error(), made.kind()};
  created = true;
  return token;
}

std::string token_hash(std::string_view token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(token.data(), token.size(), digest, &size, EVP_sha256(), nullptr);
  return hex(digest, size);
}

bool token_matches(std::string_view expected, std::string_view given) {
  // Every byte of the longer string is looked at, whatever matches.
  const std::size_t n = std::max(expected.size(), given.size());
  unsigned difference = expected.size() == given.size() ? 0u : 1u;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char a = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
    const unsigned char b = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    difference |= static_cast<unsigned>(a ^ b);
  }
  return difference == 0 && !expected.empty();
}

bool is_loopback(const std::string& address) {
  if (lower(address) == "localhost") return true;
  // inet_pton takes only the full dotted quad for IPv4 (no "127.1", no names) and the IPv6 forms.
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) == 1)
    return IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127);
  return false;
}

std::optional<std::string> host_of_header(const std::string& text) {
  std::string host, port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos) return std::nullopt;
    host = text.substr(1, close - 1);
    const std::string rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
      if (port.empty()) return std::nullopt;
    }
  } else if (std::count(text.begin(), text.end(), ':') > 1) {
    host = text;  // a bare IPv6 address
  } else if (const auto colon = text.find(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (port.empty()) return std::nullopt;
  } else {
    host = text;
  }
  if (host.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return host;
}

AccessDecision check_access(const AccessPolicy& policy, const AccessRequest& r) {
  AccessDecision d;
  if (r.unix_socket) {
    d.who = {Role::Operator, "operator"};
    d.client = "unix socket";
    return d;
  }
  d.client = policy.behind_proxy && !trim(r.forwarded_for).empty()
                 ? loggable(forwarded_client(r.forwarded_for))
                 : r.remote_addr;
  auto refuse = [&d](int status, std::string error) {
    d.status = status;
    d.error = std::move(error);
    return d;
  };
  const auto host = host_of_header(trim(r.host));
  if (!host) return refuse(403, "a Host header naming this server is required");
  const std::string name = lower(*host);
  const bool allowed_name =
      is_loopback(name) || std::any_of(policy.allowed_hosts.begin(), policy.allowed_hosts.end(),
                                       [&](const std::string& a) { return lower(a) == name; });
  if (!allowed_name)
    return refuse(403, "Host '" + loggable(r.host) +
                           "' is not a name of this server (loopback, localhost, --allowed-host)");
  const bool writes = mutating(r.method);
  if (writes && !r.origin.empty()) {
    if (trim(r.origin) == "null") return refuse(403, "a request with Origin: null is refused");
    if (origin_host(r.origin) != name)
      return refuse(403, "cross-origin request refused (Origin " + loggable(r.origin) + ", Host " +
                             loggable(r.host) + ")");
  }
  if (!r.authorization.empty()) {
    const auto token = bearer_token(r.authorization);
    if (!token || token->empty())
      return refuse(401, "the Authorization header must be: Bearer <token>");
    if (token_matches(policy.operator_token, *token)) {
      d.who = {Role::Operator, "operator"};
      return d;
    }
    if (policy.author_of) {
      auto author = policy.author_of(token_hash(*token));
      if (!author) return refuse(503, "cannot check the token now: " + author.error());
      if (*author) {
        d.who = {Role::Author, **author};
        return d;
      }
    }
    return refuse(401, "wrong token (unknown, or revoked)");
  }
  if (writes)
    return refuse(401,
                  "this request changes the daemon's state: it needs Authorization: Bearer "
                  "<token> (the operator token file, or an author token)");
  if (policy.behind_proxy)
    return refuse(401, "behind a proxy every request needs Authorization: Bearer <token>");
  if (!is_loopback(r.remote_addr) || lower(r.remote_addr) == "localhost")
    return refuse(401,
                  "reads from " + loggable(r.remote_addr) + " need Authorization: Bearer <token>");
  d.who = {Role::Reader, ""};
  return d;
}

}  // namespace referee::service
