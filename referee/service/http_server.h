// The daemon's HTTP/1.1 server, on Boost.Beast with asynchronous I/O (http_server.cpp is the one
// file that includes Beast: it compiles slowly).
//
// Contract:
// - Listens on TCP (host:port; port 0 = any free port) and, optionally, on a Unix socket (its
//   file mode is the credential: requests from it come with Request::via_socket). The listening
//   TCP socket is bound without SO_REUSEPORT: a second server on the same address is refused.
// - One I/O thread reads every connection with explicit parser limits and deadlines, so that a
//   slow or hostile client costs a socket and a few KiB, never a thread:
//   * the request line and each header line at most 8 KiB, all headers at most 64 KiB and 100
//     fields (431 beyond);
//   * the body at most `max_body` however it is framed (Content-Length or chunked): 413 as soon
//     as the limit is passed, never after reading the rest;
//   * a request's line and headers must arrive whole within `header_deadline` of the moment the
//     server starts waiting for them (a total, not an inactivity timeout each byte resets); its
//     body within `body_deadline` after; a response must be taken within `write_timeout`.
// - Uploads: a POST to one of `upload_paths` is streamed. Its head alone goes first to a handler
//   thread (Request::phase Head, no body read yet), so that the credential, which may need the
//   database, is checked off the I/O thread; the handler answers 100 to let the body come, anything
//   else is sent as the answer and the connection closes unread. Then the size (`max_upload`,
//   413) and the body goes to a temporary file in `upload_dir` as it arrives, never whole in
//   memory, at no less than `min_upload_rate` bytes a second on average once `upload_grace` has
//   passed (slower: answered 408, and the connection is closed). The whole request then goes to
//   a handler (phase Streamed, `body_file` its path); the server removes the file when the
//   handler returns, or when the connection is lost first.
// - A complete request goes to a handler thread (at most `handler_threads` at once). When every
//   one is busy the request is answered 503 at once on the I/O thread and the connection closes;
//   when `max_connections` are open, a new one gets 503 and is closed.
// - The handler may be replaced while serving (set_handler), e.g. by one that answers 503 while
//   the database is away; requests already running finish with the one they started with, and
//   set_handler returns once none runs it any more (what it refers to may then go away: end
//   streamed bodies first, or this waits for them).
// - stop() closes the listeners and every connection; providers of streaming responses see their
//   next write fail.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/expected.h"
#include "service/http_message.h"

namespace referee::service::http {

// The listening sockets' backlog (capped by net.core.somaxconn): a burst of connections — many
// dashboards reloading, hundreds of stream clients at once — waits in it for the I/O thread.
inline constexpr int kListenBacklog = 1024;

struct Limits {
  std::size_t max_line = 8 * 1024;     // the request line, and each header line
  std::size_t max_header = 64 * 1024;  // the request line and all headers
  std::size_t max_fields = 100;
  std::size_t max_body = 1 << 20;
  std::chrono::milliseconds header_deadline{10000};
  std::chrono::milliseconds body_deadline{10000};
  std::chrono::milliseconds write_timeout{5000};
  std::chrono::milliseconds keep_alive{5000};  // a kept-alive connection idles this long at most
  std::size_t handler_threads = 32;
  std::size_t max_connections = 4096;
  std::vector<std::string> upload_paths;  // exact paths whose POST bodies are streamed to files
  std::size_t max_upload = 64 << 20;
  std::size_t min_upload_rate = 64 * 1024;  // bytes per second, averaged from the body's start
  std::chrono::milliseconds upload_grace{5000};
  std::string upload_dir;  // "" = the system's temporary directory
};

using Handler = std::function<void(Request&, Response&)>;

// Counters for logs and tests.
struct ServerCounts {
  std::size_t connections = 0;       // open now
  std::size_t busy = 0;              // handler threads running a request now
  std::size_t refused_busy = 0;      // 503s because every handler was busy (since start)
  std::size_t refused_deadline = 0;  // connections closed for a missed deadline
};

class Server {
 public:
  Server(Limits limits, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (0 = any) and returns the port; Conflict when the address is in use,
  // Invalid when it is not an address of this machine.
  Expected<int> listen_tcp(const std::string& host, int port);
  // Binds a Unix socket at `path` with file mode `mode` (a stale socket file is replaced, a live
  // one — another server answering on it — is Conflict).
  Status listen_unix(const std::string& path, unsigned mode);
  // Starts the I/O thread; requests are served from now on.
  void start();
  void set_handler(Handler handler);
  void stop();
  ServerCounts counts() const;

  struct Impl;  // opaque: the Beast objects (http_server.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::service::http
