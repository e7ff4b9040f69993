// A small synchronous HTTP/1.1 client for the command-line clients (cmd_client.cpp): requests to
// http://HOST:PORT over TCP, or to the daemon's Unix socket (whose file permissions are the
// credential: service/auth.h).
//
// Decisions:
// - One connection per request ("Connection: close"): a command makes a handful of requests, and a
//   fresh connection never meets one the daemon closed while idle.
// - A deadline per phase: connecting (name resolution included), writing the request, and each
//   read (the header, then every piece of the body). For a stream the read deadline is the longest
//   silence allowed, not a total: `watch` reads for hours.
// - Errors are values. Not reaching the server (refused, no such socket, no route, the connect
//   deadline) and losing it halfway (the connection dropped, a read deadline) are Unavailable;
//   a malformed URL or answer is Invalid. Every message names the server ("http://HOST:PORT" or
//   "the socket PATH"), in one line.
// - Answers of every status are values: a 4xx or 5xx carries the daemon's error for the caller.
// - A whole answer is at most 64 MiB; a streamed one is handed over piece by piece, unbounded.
//   An answer of status 400 or more is never streamed: its body is read whole, as for send().
// - Boost.Beast stays in http_client.cpp: it compiles slowly. Beast parses; no HTTP is parsed
//   by hand here.
// - http:// only: the daemon speaks no TLS; reach a remote one through a tunnel or a proxy's
//   plain-HTTP side.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/expected.h"

namespace referee::cli {

struct HttpTimeouts {
  std::chrono::milliseconds connect{5000};
  std::chrono::milliseconds write{10000};
  std::chrono::milliseconds read{60000};
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "GET";  // GET, POST, PATCH, PUT, DELETE, HEAD
  std::string target;          // "/api/events?limit=10"
  HttpHeaders headers;
  std::string body;          // sent with Content-Length (none for a GET without a body)
  std::string content_type;  // the body's, when not empty
};

struct HttpResponse {
  int status = 0;
  HttpHeaders headers;
  std::string body;
  // The first header of this name (case-insensitive), "" when absent.
  std::string header(std::string_view name) const;
};

class HttpClient {
 public:
  // "http://HOST:PORT" (HOST a name, an IPv4 literal or an IPv6 literal in brackets; PORT 80 when
  // left out; one trailing '/' at most). Invalid otherwise, https:// included.
  static Expected<HttpClient> tcp(const std::string& url, HttpTimeouts timeouts = {});
  static HttpClient unix_socket(const std::string& path, HttpTimeouts timeouts = {});

  // "http://127.0.0.1:8410" or "the socket /run/referee/referee.sock", for messages.
  const std::string& name() const { return name_; }
  bool via_socket() const { return !socket_path_.empty(); }

  Expected<HttpResponse> send(const HttpRequest& request) const;
  // Hands each piece of the answer's body to `on_data` as it arrives, until the body ends or
  // `on_data` returns false (which is no error). The response returned has an empty body, unless
  // its status is 400 or more.
  Expected<HttpResponse> stream(const HttpRequest& request,
                                const std::function<bool(std::string_view)>& on_data) const;

 private:
  HttpClient() = default;
  Expected<HttpResponse> exchange(const HttpRequest& request,
                                  const std::function<bool(std::string_view)>* on_data) const;

  std::string host_, port_;  // TCP
  std::string socket_path_;  // Unix socket
  std::string name_;
  HttpTimeouts timeouts_;
};

// A query parameter's value percent-encoded: every byte but RFC 3986's unreserved characters.
std::string url_encode(std::string_view text);

}  // namespace referee::cli
