// Boost.Beast under the daemon's HTTP server (http_server.h states the contract).
//
// Decisions:
// - Every socket operation runs on the one I/O thread; handler threads only build responses and,
//   for streamed bodies, post each chunk's write to the I/O thread and wait for it. So a
//   connection needs no strand, and a handler never touches a socket.
// - The parser's own limits (header_limit, body_limit) hold the sizes while bytes arrive; the
//   per-line and field-count limits are checked on the parsed header, whose whole size is already
//   bounded. The read buffer's maximum is the header limit, so a flood of header bytes costs at
//   most that much memory per connection.
// - Deadlines are basic_stream's expiry, set once per phase (first byte, rest of the header,
//   body, each write): bytes arriving do not extend it. An upload's body is the exception: its
//   deadline before each read is the moment its average rate would fall under the least rate,
//   so bytes arriving do extend it, but never beyond what the bytes earned; it is a timer that
//   cancels the read, so that the client is answered 408 rather than cut.
// - Errors the server answers itself have the API's body, {"error": "one line"}.
#include "service/http_server.h"

#include <unistd.h>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <limits>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>

#include "service/http_pool.h"

namespace referee::service::http {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using Tcp = net::ip::tcp;
using Local = net::local::stream_protocol;

constexpr auto kAcceptRetry = std::chrono::milliseconds(100);
constexpr std::size_t kLingerBytes = 256 * 1024;

// {"error": text}: the API's error body.
std::string error_json(const std::string& text) {
  return nlohmann::json{{"error", text}}.dump(-1, ' ', false,
                                              nlohmann::json::error_handler_t::replace);
}

// What the handler answers, or a 500 naming what it threw: an exception never reaches the I/O.
std::shared_ptr<Response> answer(const Handler& handler, Request& request) {
  auto response = std::make_shared<Response>();
  try {
    handler(request, *response);
  } catch (const std::exception& e) {
    *response = Response{};
    response->status = 500;
    response->set_content(error_json(std::string("internal error: ") + e.what()),
                          "application/json");
  }
  return response;
}

// An upload's temporary file, removed when the last owner lets go of it (the handler that read
// it, or the session that lost its connection first).
struct TempFile {
  std::string path;
  ~TempFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

// A new empty file in `dir` (the system's temporary directory when ""), private to the daemon.
std::shared_ptr<TempFile> make_temp_file(const std::string& dir) {
  std::string base = dir;
  if (base.empty()) {
    const char* env = std::getenv("TMPDIR");
    base = env && *env ? env : "/tmp";
  }
  std::string path = base + "/referee-upload-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return nullptr;
  ::close(fd);
  auto file = std::make_shared<TempFile>();
  file->path = path;
  return file;
}

class SessionBase {
 public:
  virtual ~SessionBase() = default;
  virtual void close() = 0;
};

}  // namespace

struct Server::Impl {
  Impl(Limits l, Handler h)
      : limits(l),
        handler(std::make_shared<const Handler>(std::move(h))),
        pool(l.handler_threads) {}

  Limits limits;
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> refused_busy{0};
  std::atomic<std::size_t> refused_deadline{0};
  std::atomic<bool> stopping{false};
  // Declared before the I/O objects: pending handlers, destroyed with the io_context, end
  // sessions that count themselves out of `connections`.
  net::io_context io{1};
  std::optional<Tcp::acceptor> tcp;
  std::optional<Local::acceptor> local;
  std::string local_path;
  std::thread io_thread;
  std::optional<net::steady_timer> retry_timer;

  mutable std::mutex handler_mutex;
  std::shared_ptr<const Handler> handler;
  Pool pool;

  std::mutex sessions_mutex;
  std::list<std::weak_ptr<SessionBase>> sessions;

  std::shared_ptr<const Handler> current_handler() const {
    std::lock_guard lock(handler_mutex);
    return handler;
  }

  template <class Protocol>
  void accept(typename Protocol::acceptor& acceptor, bool via_socket);
  template <class Protocol>
  void accepted(typename Protocol::socket socket, bool via_socket);
};

namespace {

// One connection: reads requests one after the other, hands each to a handler thread, writes
// its response, and keeps the connection while the client asks for it.
template <class Protocol>
class Session : public SessionBase, public std::enable_shared_from_this<Session<Protocol>> {
 public:
  Session(Server::Impl& server, typename Protocol::socket socket, bool via_socket)
      : server_(server),
        stream_(std::move(socket)),
        buffer_(server.limits.max_header),
        via_socket_(via_socket) {
    ++server_.connections;
    if constexpr (std::is_same_v<Protocol, Tcp>) {
      beast::error_code ec;
      stream_.socket().set_option(Tcp::no_delay(true), ec);
      const auto peer = stream_.socket().remote_endpoint(ec);
      remote_ = ec ? "unknown" : peer.address().to_string();
    } else {
      remote_ = "unix";
    }
  }
  ~Session() override { --server_.connections; }

  void start(bool refuse) {
    if (refuse) return refuse_and_close(503, "too many connections; try again");
    wait_for_request(true);
  }

  void close() override {
    beast::error_code ec;
    stream_.socket().shutdown(Protocol::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

 private:
  using Self = Session<Protocol>;

  // Idles until the first byte of the next request (the connection's first: within the header
  // deadline; a kept-alive one: within keep_alive), then gives the rest of the header its own.
  void wait_for_request(bool first) {
    if (buffer_.size() > 0) return read_header();
    stream_.expires_after(first ? server_.limits.header_deadline : server_.limits.keep_alive);
    const std::size_t room = std::min<std::size_t>(4096, buffer_.max_size() - buffer_.size());
    stream_.async_read_some(buffer_.prepare(room),
                            [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec) {
                                if (ec == beast::error::timeout) ++self->server_.refused_deadline;
                                return self->close();
                              }
                              self->buffer_.commit(n);
                              self->read_header();
                            });
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.limits.max_header));
    // Beast refuses a Content-Length over the body limit with the header: none here, so that an
    // upload's head is seen (and its credential checked) before its size; the route's own limit
    // is set once the head is known (on_header, upload_admitted), before any body byte is read.
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    stream_.expires_after(server_.limits.header_deadline);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                               self->on_header(ec);
                             });
  }

  void on_header(beast::error_code ec) {
    if (ec == bhttp::error::header_limit || ec == bhttp::error::buffer_overflow)
      return refuse_and_close(431, "request header too large (at most " +
                                       std::to_string(server_.limits.max_header / 1024) + " KiB)");
    if (ec == bhttp::error::body_limit) return refuse_body();
    // basic_stream closed the socket at the deadline: nothing can be answered.
    if (ec == beast::error::timeout) {
      ++server_.refused_deadline;
      return close();
    }
    if (ec == bhttp::error::end_of_stream) return close();
    if (ec) return refuse_and_close(400, "malformed HTTP request");
    const auto& head = parser_->get();
    if (head.target().size() + head.method_string().size() + 10 > server_.limits.max_line)
      return refuse_and_close(414, "request line too long (at most " +
                                       std::to_string(server_.limits.max_line) + " bytes)");
    std::size_t fields = 0;
    for (const auto& field : head) {
      if (++fields > server_.limits.max_fields)
        return refuse_and_close(431, "too many header fields (at most " +
                                         std::to_string(server_.limits.max_fields) + ")");
      if (field.name_string().size() + field.value().size() + 2 > server_.limits.max_line)
        return refuse_and_close(431, "header line too long (at most " +
                                         std::to_string(server_.limits.max_line) + " bytes)");
    }
    if (head.method() == bhttp::verb::post && is_upload_path(head.target())) return admit_upload();
    parser_->body_limit(server_.limits.max_body);
    if (auto length = parser_->content_length(); length && *length > server_.limits.max_body)
      return refuse_body();
    if (parser_->is_done()) return dispatch();
    continue_then(expects_continue(parser_->get()), [](Self& self) { self.read_body(); });
  }

  // Answers "100 Continue" first when the client waits for it, then reads on with `next`.
  template <class Next>
  void continue_then(bool expected, Next next) {
    if (!expected) return next(*this);
    stream_.expires_after(server_.limits.write_timeout);
    static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    net::async_write(stream_, net::buffer(kContinue),
                     [self = this->shared_from_this(), next](beast::error_code ec, std::size_t) {
                       if (ec) return self->close();
                       next(*self);
                     });
  }

  template <class Header>
  static bool expects_continue(const Header& head) {
    return beast::iequals(head[bhttp::field::expect], "100-continue");
  }

  bool is_upload_path(beast::string_view target) const {
    const auto path = target.substr(0, target.find('?'));
    for (const auto& p : server_.limits.upload_paths)
      if (path == p) return true;
    return false;
  }

  // An upload's head goes to a handler thread (the credential may need the database); its answer
  // comes back to the I/O thread: 100 reads the body on, anything else refuses it unread.
  void admit_upload() {
    auto request = request_of(parser_->get());
    if (!request) return refuse_and_close(400, "malformed request target");
    request->phase = Phase::Head;
    auto handler = server_.current_handler();
    auto self = this->shared_from_this();
    const bool taken = server_.pool.try_run([self, request, handler] {
      auto response = answer(*handler, *request);
      self->post([self, response] { self->upload_admitted(*response); });
    });
    if (!taken) {
      ++server_.refused_busy;
      refuse_and_close(503, "the server is busy; try again");
    }
  }

  void upload_admitted(const Response& answer) {
    if (answer.status != 100) return refuse_with(answer.status, answer.body, answer.content_type);
    const std::size_t max = server_.limits.max_upload;
    if (auto length = parser_->content_length(); length && *length > max)
      return refuse_and_close(413, "upload too large (at most " + std::to_string(max) + " bytes)");
    upload_file_ = make_temp_file(server_.limits.upload_dir);
    if (!upload_file_) return refuse_and_close(500, "cannot make a temporary file for the upload");
    upload_parser_.emplace(std::move(*parser_));
    parser_.reset();
    upload_parser_->body_limit(max);
    beast::error_code ec;
    upload_parser_->get().body().open(upload_file_->path.c_str(), beast::file_mode::write, ec);
    if (ec) return refuse_and_close(500, "cannot open the upload's temporary file");
    upload_started_ = std::chrono::steady_clock::now();
    upload_received_ = 0;
    continue_then(expects_continue(upload_parser_->get()), [](Self& self) { self.read_upload(); });
  }

  // Reads the body piece by piece; each read must come before the moment the average rate since
  // the body's start would fall under the least rate (never before the grace has passed): a
  // timer, not the stream's expiry, which would close the socket before the 408.
  void read_upload() {
    if (upload_parser_->is_done()) return dispatch_upload();
    const auto& l = server_.limits;
    const auto earned = std::chrono::milliseconds(
        l.min_upload_rate ? upload_received_ * 1000 / l.min_upload_rate : 0);
    stream_.expires_never();
    if (!upload_timer_) upload_timer_.emplace(stream_.get_executor());
    upload_too_slow_ = false;
    upload_timer_->expires_at(upload_started_ +
                              std::max<std::chrono::milliseconds>(l.upload_grace, earned));
    // A wait that fired as its read completed must not cut the next read: its number is checked.
    upload_timer_->async_wait(
        [self = this->shared_from_this(), wait = ++upload_waits_](beast::error_code ec) {
          if (ec || wait != self->upload_waits_) return;  // the read came in time
          self->upload_too_slow_ = true;
          beast::error_code ignored;
          self->stream_.socket().cancel(ignored);
        });
    bhttp::async_read_some(stream_, buffer_, *upload_parser_,
                           [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                             self->upload_timer_->cancel();
                             self->upload_received_ += n;
                             if (ec == bhttp::error::body_limit)
                               return self->refuse_and_close(
                                   413, "upload too large (at most " +
                                            std::to_string(self->server_.limits.max_upload) +
                                            " bytes)");
                             if (self->upload_too_slow_) {
                               ++self->server_.refused_deadline;
                               return self->refuse_and_close(
                                   408, "upload too slow: under " +
                                            std::to_string(self->server_.limits.min_upload_rate) +
                                            " bytes a second on average");
                             }
                             if (ec) return self->close();
                             self->read_upload();
                           });
  }

  void dispatch_upload() {
    auto message = upload_parser_->release();
    upload_parser_.reset();
    message.body().close();
    auto request = request_of(message);
    if (!request) return refuse_and_close(400, "malformed request target");
    request->phase = Phase::Streamed;
    request->body_file = upload_file_->path;
    keep_alive_ = message.keep_alive();
    head_only_ = false;
    run_handler(request, std::move(upload_file_));
  }

  void read_body() {
    stream_.expires_after(server_.limits.body_deadline);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec == bhttp::error::body_limit) return self->refuse_body();
                        if (ec == beast::error::timeout) ++self->server_.refused_deadline;
                        if (ec) return self->close();
                        self->dispatch();
                      });
  }

  void refuse_body() {
    refuse_and_close(413, "request body too large (at most " +
                              std::to_string(server_.limits.max_body) + " bytes)");
  }

  // Hands the request to a handler thread, or answers 503 when none is free.
  void dispatch() {
    auto message = parser_->release();
    auto request = request_of(message);
    if (!request) return refuse_and_close(400, "malformed request target");
    request->body = std::move(message.body());
    keep_alive_ = message.keep_alive();
    head_only_ = message.method() == bhttp::verb::head;
    run_handler(request, nullptr);
  }

  // The request's line and headers; nothing when its target is malformed.
  template <class Header>
  std::shared_ptr<Request> request_of(const Header& message) const {
    auto request = std::make_shared<Request>();
    request->method = std::string(message.method_string());
    request->target = std::string(message.target());
    request->remote_addr = remote_;
    request->via_socket = via_socket_;
    for (const auto& field : message)
      request->headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    if (!split_target(request->target, request->path, request->params)) return nullptr;
    return request;
  }

  // `body_file`, when set, is removed once the handler has returned.
  void run_handler(std::shared_ptr<Request> request, std::shared_ptr<TempFile> body_file) {
    auto handler = server_.current_handler();
    auto self = this->shared_from_this();
    const bool taken = server_.pool.try_run([self, request, handler, body_file]() mutable {
      auto response = answer(*handler, *request);
      body_file.reset();  // gone before the client has the answer
      if (response->provider)
        self->stream_response(*response);
      else
        self->post([self, response] { self->write_response(*response); });
    });
    if (!taken) {
      ++server_.refused_busy;
      refuse_and_close(503, "the server is busy; try again");
    }
  }

  template <class F>
  void post(F&& f) {
    net::post(stream_.get_executor(), std::forward<F>(f));
  }

  template <class Message>
  void fill_head(Message& head, const Response& r) {
    head.result(static_cast<unsigned>(r.status));
    head.reason(reason_phrase(r.status));
    head.version(11);
    for (const auto& [name, value] : r.headers) head.set(name, value);
    if (!r.content_type.empty()) head.set(bhttp::field::content_type, r.content_type);
    head.keep_alive(keep_alive_);
  }

  void write_response(const Response& r) {
    auto out = std::make_shared<bhttp::response<bhttp::string_body>>();
    fill_head(*out, r);
    const std::size_t size = r.body.size();
    if (!head_only_) out->body() = r.body;
    out->content_length(size);
    stream_.expires_after(server_.limits.write_timeout);
    bhttp::async_write(stream_, *out,
                       [self = this->shared_from_this(), out](beast::error_code ec, std::size_t) {
                         if (ec || !self->keep_alive_ || self->server_.stopping)
                           return self->close();
                         self->wait_for_request(false);
                       });
  }

  // Posts `start(session, done)` to the I/O thread and waits for `done`: true when the write
  // succeeded. `start` owns what it writes: after a timeout here it may still run.
  template <class Start>
  bool write_and_wait(Start start) {
    auto result = std::make_shared<std::promise<bool>>();
    auto future = result->get_future();
    post([self = this->shared_from_this(), start = std::move(start), result]() mutable {
      self->stream_.expires_after(self->server_.limits.write_timeout);
      start(*self, [result](beast::error_code ec, std::size_t) { result->set_value(!ec); });
    });
    // Beyond the write timeout the I/O thread has closed the socket; the margin covers an I/O
    // thread that no longer runs (the server stopping).
    return future.wait_for(server_.limits.write_timeout + std::chrono::seconds(2)) ==
               std::future_status::ready &&
           future.get();
  }

  // Runs on the handler thread: the provider writes chunks, each through the I/O thread.
  void stream_response(Response& r) {
    struct Writer : Sink {
      explicit Writer(Self& s) : session(s) {}
      bool write(const char* data, std::size_t size) override {
        if (failed || finished) return false;
        if (size == 0) return true;
        auto copy = std::make_shared<std::string>(data, size);
        failed = !session.write_and_wait([copy](Self& s, auto done) {
          net::async_write(s.stream_, bhttp::make_chunk(net::buffer(*copy)),
                           [copy, done = std::move(done)](beast::error_code ec,
                                                          std::size_t n) mutable { done(ec, n); });
        });
        return !failed;
      }
      void done() override {
        if (failed || finished) return;
        finished = session.write_and_wait([](Self& s, auto done) {
          net::async_write(s.stream_, bhttp::make_chunk_last(), std::move(done));
        });
        failed = !finished;
      }
      Self& session;
      bool failed = false, finished = false;
    };
    auto head = std::make_shared<bhttp::response<bhttp::empty_body>>();
    fill_head(*head, r);
    head->chunked(true);
    Writer writer(*this);
    const bool started = write_and_wait([head](Self& s, auto done) {
      auto serializer = std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*head);
      bhttp::async_write_header(s.stream_, *serializer,
                                [serializer, head, done = std::move(done)](
                                    beast::error_code ec, std::size_t n) mutable { done(ec, n); });
    });
    if (started && !head_only_)
      while (!writer.finished && !writer.failed && r.provider(writer)) {
      }
    if (started && head_only_) writer.done();
    const bool reuse = started && writer.finished && keep_alive_;
    post([self = this->shared_from_this(), reuse] {
      if (!reuse || self->server_.stopping) return self->close();
      self->wait_for_request(false);
    });
  }

  // Answers on the I/O thread without a handler, then closes (the rest of the request is not
  // read). The socket's send side is shut down after the answer so that the client reads it.
  void refuse_and_close(int status, const std::string& text) {
    refuse_with(status, error_json(text), "application/json");
  }

  void refuse_with(int status, const std::string& body, const std::string& type) {
    auto out = std::make_shared<bhttp::response<bhttp::string_body>>();
    out->result(static_cast<unsigned>(status));
    out->reason(reason_phrase(status));
    out->version(11);
    out->set(bhttp::field::content_type, type.empty() ? "application/json" : type);
    out->set(bhttp::field::connection, "close");
    if (status == 503) out->set(bhttp::field::retry_after, "1");
    out->body() = body;
    out->prepare_payload();
    // One deadline for the answer and the lingering after it: a client that keeps sending
    // cannot keep the connection.
    stream_.expires_after(server_.limits.write_timeout);
    bhttp::async_write(stream_, *out,
                       [self = this->shared_from_this(), out](beast::error_code ec, std::size_t) {
                         if (ec) return self->close();
                         beast::error_code ignored;
                         self->stream_.socket().shutdown(Protocol::socket::shutdown_send, ignored);
                         self->linger(kLingerBytes);
                       });
  }

  // Reads and drops what the client still sends, up to `left` bytes, so that closing does not
  // reset the connection before the client has read the answer.
  void linger(std::size_t left) {
    buffer_.consume(buffer_.size());
    const std::size_t room = std::min<std::size_t>(4096, buffer_.max_size());
    stream_.async_read_some(buffer_.prepare(room), [self = this->shared_from_this(), left](
                                                       beast::error_code ec, std::size_t n) {
      if (ec || n >= left) return self->close();
      self->linger(left - n);
    });
  }

  Server::Impl& server_;
  beast::basic_stream<Protocol> stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::optional<bhttp::request_parser<bhttp::file_body>> upload_parser_;
  std::shared_ptr<TempFile> upload_file_;
  std::chrono::steady_clock::time_point upload_started_;
  std::size_t upload_received_ = 0;
  std::optional<net::steady_timer> upload_timer_;  // an upload's deadline (read_upload)
  bool upload_too_slow_ = false;                   // that deadline passed: 408
  std::uint64_t upload_waits_ = 0;                 // the number of the current wait
  std::string remote_;
  bool via_socket_ = false;
  bool keep_alive_ = true;
  bool head_only_ = false;
};

}  // namespace

template <class Protocol>
void Server::Impl::accept(typename Protocol::acceptor& acceptor, bool via_socket) {
  acceptor.async_accept(
      [this, &acceptor, via_socket](beast::error_code ec, typename Protocol::socket socket) {
        if (stopping || !acceptor.is_open()) return;
        if (ec) {
          // Out of file descriptors (or another transient failure): try again shortly rather
          // than spin; the connections already open go on.
          retry_timer.emplace(io, kAcceptRetry);
          retry_timer->async_wait([this, &acceptor, via_socket](beast::error_code) {
            if (!stopping) accept<Protocol>(acceptor, via_socket);
          });
          return;
        }
        accepted<Protocol>(std::move(socket), via_socket);
        accept<Protocol>(acceptor, via_socket);
      });
}

template <class Protocol>
void Server::Impl::accepted(typename Protocol::socket socket, bool via_socket) {
  const bool full = connections.load() >= limits.max_connections;
  auto session = std::make_shared<Session<Protocol>>(*this, std::move(socket), via_socket);
  {
    std::lock_guard lock(sessions_mutex);
    sessions.remove_if([](const auto& w) { return w.expired(); });
    sessions.push_back(session);
  }
  session->start(full);
}

Server::Server(Limits limits, Handler handler)
    : impl_(std::make_unique<Impl>(limits, std::move(handler))) {}

Server::~Server() {
  stop();
}

Expected<int> Server::listen_tcp(const std::string& host, int port) {
  beast::error_code ec;
  const auto address = net::ip::make_address(host, ec);
  const std::string where =
      host + ":" + (port == 0 ? std::string("(any port)") : std::to_string(port));
  if (ec) return Error{"cannot listen on " + where + ": not an IP address", ErrorKind::Invalid};
  Tcp::acceptor acceptor(impl_->io);
  const Tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  acceptor.open(endpoint.protocol(), ec);
  // SO_REUSEADDR only lets a restarted daemon bind past connections in TIME_WAIT; it never lets
  // two listeners share the address (that is SO_REUSEPORT, which is not set).
  if (!ec) acceptor.set_option(Tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (ec == net::error::address_in_use)
    return Error{"cannot listen on " + where + ": the address is in use (another daemon?)",
                 ErrorKind::Conflict};
  if (!ec) acceptor.listen(kListenBacklog, ec);
  if (ec) return Error{"cannot listen on " + where + ": " + ec.message(), ErrorKind::Invalid};
  const int bound = acceptor.local_endpoint().port();
  impl_->tcp.emplace(std::move(acceptor));
  return bound;
}

Status Server::listen_unix(const std::string& path, unsigned mode) {
  namespace fs = std::filesystem;
  beast::error_code ec;
  Local::endpoint endpoint;
  try {
    endpoint = Local::endpoint(path);
  } catch (const std::exception&) {
    return Error{"socket path '" + path + "' is too long for a Unix socket", ErrorKind::Invalid};
  }
  std::error_code fs_ec;
  const auto status = fs::symlink_status(path, fs_ec);
  if (fs::exists(status)) {
    if (status.type() != fs::file_type::socket)
      return Error{"'" + path + "' exists and is not a socket", ErrorKind::Conflict};
    Local::socket probe(impl_->io);
    probe.connect(endpoint, ec);
    if (!ec)
      return Error{"another daemon answers on the socket '" + path + "'", ErrorKind::Conflict};
    fs::remove(path, fs_ec);  // stale: its daemon is gone
  }
  Local::acceptor acceptor(impl_->io);
  acceptor.open(Local(), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(kListenBacklog, ec);
  if (ec)
    return Error{"cannot listen on the socket '" + path + "': " + ec.message(), ErrorKind::Io};
  fs::permissions(path, static_cast<fs::perms>(mode), fs::perm_options::replace, fs_ec);
  if (fs_ec) {
    fs::remove(path, fs_ec);
    return Error{"cannot set the mode of the socket '" + path + "'", ErrorKind::Io};
  }
  impl_->local.emplace(std::move(acceptor));
  impl_->local_path = path;
  return Ok{};
}

void Server::start() {
  if (impl_->io_thread.joinable()) return;
  if (impl_->tcp) impl_->accept<Tcp>(*impl_->tcp, false);
  if (impl_->local) impl_->accept<Local>(*impl_->local, true);
  impl_->io_thread = std::thread([this] { impl_->io.run(); });
}

void Server::set_handler(Handler handler) {
  auto next = std::make_shared<const Handler>(std::move(handler));
  std::shared_ptr<const Handler> previous;
  {
    std::lock_guard lock(impl_->handler_mutex);
    previous = std::exchange(impl_->handler, std::move(next));
  }
  // Every request running the previous handler holds a copy of it until its task ends, streamed
  // body included: once this is the last one, none runs it any more.
  while (previous.use_count() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

void Server::stop() {
  if (impl_->stopping.exchange(true)) return;
  Impl& s = *impl_;
  net::post(s.io, [&s] {
    beast::error_code ec;
    if (s.tcp) s.tcp->close(ec);
    if (s.local) s.local->close(ec);
    if (s.retry_timer) s.retry_timer->cancel();
    std::lock_guard lock(s.sessions_mutex);
    for (auto& w : s.sessions)
      if (auto session = w.lock()) session->close();
  });
  // Handlers still running see their writes fail and return.
  s.pool.stop();
  s.io.stop();
  if (s.io_thread.joinable()) s.io_thread.join();
  std::error_code ec;
  if (!s.local_path.empty()) std::filesystem::remove(s.local_path, ec);
}

ServerCounts Server::counts() const {
  ServerCounts c;
  c.connections = impl_->connections.load();
  c.busy = impl_->pool.busy();
  c.refused_busy = impl_->refused_busy.load();
  c.refused_deadline = impl_->refused_deadline.load();
  return c;
}

}  // namespace referee::service::http
