#include "service/auth.h"

#include <algorithm>
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

// The host part of "host:port", "[v6]:port" or a URL "scheme://host:port/...".
std::string host_of(std::string text) {
  if (auto scheme = text.find("://"); scheme != std::string::npos) text = text.substr(scheme + 3);
  if (auto slash = text.find('/'); slash != std::string::npos) text.resize(slash);
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    return close == std::string::npos ? text : text.substr(1, close - 1);
  }
  if (auto colon = text.rfind(':'); colon != std::string::npos) text.resize(colon);
  return text;
}

std::string lower(std::string text) {
  for (auto& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
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
  const std::string a = lower(address);
  if (a == "localhost" || a == "::1" || a == "0:0:0:0:0:0:0:1") return true;
  if (a.rfind("127.", 0) == 0) return true;
  return a.rfind("::ffff:127.", 0) == 0;
}

AccessDecision check_access(const std::string& token, const AccessRequest& r) {
  const bool writes = mutating(r.method);
  if (writes && !r.origin.empty() && r.origin != "null" &&
      lower(host_of(r.origin)) != lower(host_of(r.host)))
    return {403, "cross-origin request refused (Origin " + r.origin + ", Host " + r.host + ")"};
  if (token.empty()) {
    // The daemon listens on loopback only: still, nothing from elsewhere, and no rebound names.
    if (!is_loopback(r.remote_addr))
      return {403, "requests from " + r.remote_addr + " are refused (no token is configured)"};
    if (!r.host.empty() && !is_loopback(host_of(r.host)))
      return {403, "Host '" + r.host + "' is not a loopback name"};
    return {};
  }
  if (!writes && is_loopback(r.remote_addr)) return {};
  const std::string prefix = "Bearer ";
  if (r.authorization.empty())
    return {401, writes ? "this request changes the daemon's state: it needs Authorization: "
                          "Bearer <token>"
                        : "reads from " + r.remote_addr + " need Authorization: Bearer <token>"};
  if (r.authorization.compare(0, prefix.size(), prefix) != 0 ||
      !token_matches(token, trim(r.authorization.substr(prefix.size()))))
    return {401, "wrong token"};
  return {};
}

}  // namespace referee::service
