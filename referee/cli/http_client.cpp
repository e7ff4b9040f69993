// Boost.Beast under the command-line clients' HTTP client (http_client.h states the contract).
//
// Decisions:
// - Beast's stream deadlines apply to asynchronous operations only, so each step is started
//   asynchronously and the client's own io_context is run until it completes: synchronous for the
//   caller, with a deadline per step.
// - One parser with a buffer body serves both whole and streamed answers: the body is read into a
//   fixed buffer and either appended (up to the limit) or handed over. The body is read with
//   read_some, which returns what has arrived, so a stream's small events are handed over as they
//   come rather than when the buffer fills.
#include "cli/http_client.h"

#include <sys/un.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <limits>

namespace referee::cli {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using Tcp = net::ip::tcp;
using Local = net::local::stream_protocol;

constexpr std::size_t kBodyLimit = 64u << 20;
constexpr std::uint32_t kHeaderLimit = 64u << 10;

std::string reason_of(const beast::error_code& ec) {
  if (ec == beast::error::timeout) return "timed out";
  if (ec == net::error::eof || ec == bhttp::error::end_of_stream ||
      ec == bhttp::error::partial_message)
    return "the connection was closed";
  return ec.message();
}

// Runs `io` until the operation just started (and its deadline's timer) completes.
void run(net::io_context& io) {
  io.restart();
  io.run();
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// The request written and the answer read over a connected stream.
template <class Protocol>
Expected<HttpResponse> talk(net::io_context& io, beast::basic_stream<Protocol>& stream,
                            const HttpRequest& r, const std::string& host, const std::string& name,
                            const HttpTimeouts& timeouts,
                            const std::function<bool(std::string_view)>* on_data) {
  const bhttp::verb verb = bhttp::string_to_verb(r.method);
  if (verb == bhttp::verb::unknown) return Error{"unknown HTTP method '" + r.method + "'"};
  bhttp::request<bhttp::string_body> req{verb, r.target.empty() ? "/" : r.target, 11};
  req.set(bhttp::field::host, host);
  req.set(bhttp::field::user_agent, "referee");
  req.set(bhttp::field::connection, "close");
  for (const auto& [key, value] : r.headers) req.set(key, value);
  if (!r.content_type.empty()) req.set(bhttp::field::content_type, r.content_type);
  req.body() = r.body;
  if (!r.body.empty() || verb == bhttp::verb::post || verb == bhttp::verb::put ||
      verb == bhttp::verb::patch)
    req.prepare_payload();

  beast::error_code ec;
  auto done = [&ec](beast::error_code e, std::size_t) { ec = e; };
  stream.expires_after(timeouts.write);
  bhttp::async_write(stream, req, done);
  run(io);
  if (ec)
    return Error{name + ": cannot send the request (" + reason_of(ec) + ")",
                 ErrorKind::Unavailable};

  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::buffer_body> parser;
  parser.header_limit(kHeaderLimit);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  stream.expires_after(timeouts.read);
  bhttp::async_read_header(stream, buffer, parser, done);
  run(io);
  if (ec && ec.category() == bhttp::make_error_code(bhttp::error::bad_version).category() &&
      ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message)
    return Error{name + " answered something not HTTP (" + ec.message() + ")"};
  if (ec) return Error{name + ": no answer (" + reason_of(ec) + ")", ErrorKind::Unavailable};

  HttpResponse out;
  out.status = static_cast<int>(parser.get().result_int());
  for (const auto& field : parser.get())
    out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  const bool streaming = on_data && out.status < 400;
  char piece[16384];
  while (!parser.is_done()) {
    parser.get().body().data = piece;
    parser.get().body().size = sizeof piece;
    stream.expires_after(timeouts.read);
    bhttp::async_read_some(stream, buffer, parser, done);
    run(io);
    if (ec == bhttp::error::need_buffer) ec = {};
    if (ec)
      return Error{name + ": the answer broke off (" + reason_of(ec) + ")", ErrorKind::Unavailable};
    const std::size_t n = sizeof piece - parser.get().body().size;
    if (n == 0) continue;
    if (streaming) {
      if (!(*on_data)(std::string_view(piece, n))) return out;
    } else {
      if (out.body.size() + n > kBodyLimit)
        return Error{name + " answered more than " + std::to_string(kBodyLimit >> 20) + " MiB"};
      out.body.append(piece, n);
    }
  }
  return out;
}

}  // namespace

std::string HttpResponse::header(std::string_view key) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, key)) return v;
  return "";
}

Expected<HttpClient> HttpClient::tcp(const std::string& url, HttpTimeouts timeouts) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    return Error{"'" + url + "' is not an http:// URL (http://HOST:PORT" +
                 std::string(url.rfind("https://", 0) == 0 ? "; the clients speak no TLS" : "") +
                 ")"};
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  HttpClient c;
  std::string port = "80";
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) return Error{"'" + url + "': an unclosed '[' in the host"};
    c.host_ = rest.substr(1, close - 1);
    const std::string after = rest.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Error{"'" + url + "' is not http://HOST:PORT"};
      port = after.substr(1);
    }
  } else {
    const auto colon = rest.rfind(':');
    c.host_ = rest.substr(0, colon);
    if (colon != std::string::npos) port = rest.substr(colon + 1);
  }
  const bool port_ok = !port.empty() && port.size() <= 5 &&
                       port.find_first_not_of("0123456789") == std::string::npos &&
                       std::stoi(port) > 0 && std::stoi(port) <= 65535;
  if (c.host_.empty() || c.host_.find_first_of("/?#@ ") != std::string::npos || !port_ok)
    return Error{"'" + url + "' is not http://HOST:PORT"};
  c.port_ = port;
  c.name_ = url.back() == '/' ? url.substr(0, url.size() - 1) : url;
  c.timeouts_ = timeouts;
  return c;
}

HttpClient HttpClient::unix_socket(const std::string& path, HttpTimeouts timeouts) {
  HttpClient c;
  c.socket_path_ = path;
  c.name_ = "the socket " + path;
  c.timeouts_ = timeouts;
  return c;
}

Expected<HttpResponse> HttpClient::send(const HttpRequest& request) const {
  return exchange(request, nullptr);
}

Expected<HttpResponse> HttpClient::stream(
    const HttpRequest& request, const std::function<bool(std::string_view)>& on_data) const {
  return exchange(request, &on_data);
}

Expected<HttpResponse> HttpClient::exchange(
    const HttpRequest& request, const std::function<bool(std::string_view)>* on_data) const {
  net::io_context io;
  beast::error_code ec;
  auto unreachable = [&] {
    return Error{"cannot reach " + name_ + " (" + reason_of(ec) + ")", ErrorKind::Unavailable};
  };
  if (via_socket()) {
    if (socket_path_.size() >= sizeof(sockaddr_un::sun_path))
      return Error{"cannot reach " + name_ + " (a socket path is at most " +
                   std::to_string(sizeof(sockaddr_un::sun_path) - 1) + " bytes)"};
    beast::basic_stream<Local> stream(io);
    stream.expires_after(timeouts_.connect);
    stream.async_connect(Local::endpoint(socket_path_), [&ec](beast::error_code e) { ec = e; });
    run(io);
    if (ec) return unreachable();
    // Any Host does over the socket (its permissions decide, not the name); localhost is true.
    return talk(io, stream, request, "localhost", name_, timeouts_, on_data);
  }
  Tcp::resolver resolver(io);
  Tcp::resolver::results_type endpoints;
  resolver.async_resolve(host_, port_,
                         [&](beast::error_code e, Tcp::resolver::results_type results) {
                           ec = e;
                           endpoints = std::move(results);
                         });
  run(io);
  if (ec) return unreachable();
  beast::basic_stream<Tcp> stream(io);
  stream.expires_after(timeouts_.connect);
  stream.async_connect(endpoints, [&ec](beast::error_code e, const Tcp::endpoint&) { ec = e; });
  run(io);
  if (ec) return unreachable();
  const std::string host =
      (host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_) + ":" + port_;
  return talk(io, stream, request, host, name_, timeouts_, on_data);
}

std::string url_encode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
      out.push_back(static_cast<char>(ch));
    } else {
      out.push_back('%');
      out.push_back(hex[ch >> 4]);
      out.push_back(hex[ch & 15]);
    }
  }
  return out;
}

}  // namespace referee::cli
