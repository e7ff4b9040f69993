// The HTTP request and response the daemon's handlers see, independent of the server library
// (http_server.h parses and writes them with Boost.Beast).
//
// Decisions:
// - A request reaches a handler whole: its line, headers and body were read within the server's
//   limits and deadlines before any handler runs. Uploads are the exception (Phase): their head
//   is shown first, then their body comes in a file, never in `body`.
// - Header names are looked up case-insensitively (RFC 9110); a header given twice yields its
//   first value. Query parameters are percent-decoded ('+' is a space) and kept in order, repeats
//   included: the handlers refuse what they do not know (api.h check_params).
// - A response is either a body (set_content) or a provider (set_chunked_content_provider) that
//   the server calls again and again on the handler's thread to write a chunked body, until it
//   returns false (the connection closes) or calls Sink::done() (the body ends cleanly).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "service/principal.h"

namespace referee::service::http {

using Fields = std::vector<std::pair<std::string, std::string>>;

// The first value of `name` in `fields` (case-insensitive), or nullptr.
const std::string* find_field(const Fields& fields, std::string_view name);

// How much of the request a handler sees: all of it, or an upload's head before its body is
// read, or an upload whose body is in a file (http_server.h).
enum class Phase { Whole, Head, Streamed };

struct Request {
  std::string method;                              // as sent, e.g. "GET"
  std::string target;                              // as sent, e.g. "/api/games?engine=a"
  std::string path;                                // the target's path, percent-decoded
  std::multimap<std::string, std::string> params;  // the query, decoded
  Fields headers;
  std::string body;
  Phase phase = Phase::Whole;
  std::string body_file;    // Streamed: the body's temporary file (removed after the handler)
  std::string remote_addr;  // the peer's IP address; "unix" over the Unix socket
  bool via_socket = false;  // came over the daemon's Unix socket
  std::vector<std::string> matches;  // the route's regex groups; [0] is the whole path
  Principal who;                     // set by the access check before routing

  bool has_header(std::string_view name) const { return find_field(headers, name) != nullptr; }
  std::string get_header_value(std::string_view name) const;
  bool has_param(const std::string& name) const { return params.count(name) > 0; }
  std::string get_param_value(const std::string& name, std::size_t index = 0) const;
  std::size_t get_param_value_count(const std::string& name) const { return params.count(name); }
};

// Where a streamed body goes. write() returns false once the client is gone or too slow (the
// server's write deadline); the provider then stops.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual bool write(const char* data, std::size_t size) = 0;
  virtual void done() = 0;  // the body is complete
};

using ContentProvider = std::function<bool(Sink&)>;

struct Response {
  int status = 200;
  Fields headers;
  std::string body;
  std::string content_type;
  ContentProvider provider;  // set: a chunked body written by the provider

  void set_header(std::string name, std::string value);
  void set_content(std::string content, std::string type);
  void set_chunked_content_provider(std::string type, ContentProvider p);
};

// "a%20b" -> "a b"; nothing when an escape is malformed. `plus_is_space`: the query's convention.
bool percent_decode(std::string_view text, bool plus_is_space, std::string& out);
// Splits a request target into its decoded path and query parameters; false when malformed.
bool split_target(std::string_view target, std::string& path,
                  std::multimap<std::string, std::string>& params);
// The standard reason phrase of a status ("Not Found").
const char* reason_phrase(int status);

}  // namespace referee::service::http
