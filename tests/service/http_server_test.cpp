// The daemon's HTTP server (service/http_server.h) under hostile clients, on raw sockets: every
// limit is refused with its status while the bytes arrive (never after reading the rest), the
// header deadline is a total, a busy server answers 503 at once, slow connections cost no
// handler, a second server on one address is refused, and the Unix socket marks its requests.
// Deadlines are shortened (hundreds of ms) so that the file runs in a few seconds.
#include <sys/stat.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "service/http_router.h"
#include "service/http_server.h"
#include "tests/referee/rtest_util.h"
#include "tests/service/raw_http.h"

namespace {

using namespace referee::service::http;
using namespace rawhttp;

// A server on an ephemeral loopback port with short deadlines; its handler answers "hello",
// counting the requests it sees.
struct TestServer {
  explicit TestServer(Limits limits = quick_limits()) : server(limits, handler()) {
    auto bound = server.listen_tcp("127.0.0.1", 0);
    REQUIRE(bound);
    port = *bound;
    server.start();
  }
  static Limits quick_limits() {
    Limits l;
    l.header_deadline = std::chrono::milliseconds(800);
    l.body_deadline = std::chrono::milliseconds(800);
    l.write_timeout = std::chrono::milliseconds(800);
    l.keep_alive = std::chrono::milliseconds(800);
    l.handler_threads = 4;
    return l;
  }
  Handler handler() {
    return [this](Request& req, Response& res) {
      ++seen;
      res.set_content("hello " + req.method + " " + req.path + " " + req.get_param_value("q") +
                          " " + std::to_string(req.body.size()) + (req.via_socket ? " socket" : ""),
                      "text/plain");
    };
  }
  std::atomic<int> seen{0};
  Server server;
  int port = 0;
};

}  // namespace

TEST_CASE("http server: a request is answered, its query decoded, and HEAD has no body") {
  TestServer t;
  int fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, get("/a%20b?q=x+y%21")));
  std::string answer = read_all(fd);
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 200 OK");
  CHECK(rtest::contains(answer, "hello GET /a b x y! 0"));
  fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, "HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  answer = read_all(fd);
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 200 OK");
  CHECK(rtest::contains(answer, "Content-Length: 16"));
  CHECK_FALSE(rtest::contains(answer, "hello"));
}

TEST_CASE("http server: a kept-alive connection serves request after request") {
  TestServer t;
  const int fd = connect_tcp(t.port);
  REQUIRE(
      send_text(fd, "GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::string answer = read_all(fd, std::chrono::milliseconds(500));
  ::close(fd);
  CHECK(rtest::contains(answer, "hello GET /one"));
  CHECK(rtest::contains(answer, "hello GET /two"));
}

TEST_CASE("http server: a malformed escape in the target is 400") {
  TestServer t;
  const int fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, get("/x?q=%zz")));
  const std::string answer = read_all(fd);
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 400 Bad Request");
  CHECK(rtest::contains(answer, "{\"error\":\"malformed request target\"}"));
  CHECK(t.seen == 0);
}

TEST_CASE("http server: headers over 64 KiB are refused 431 while they arrive") {
  TestServer t;
  const int fd = connect_tcp(t.port);
  std::string head = "GET / HTTP/1.1\r\nHost: x\r\n";
  // 400 MB would be sent if the server read on: it answers and closes after 64 KiB.
  const std::string line = "X-Fill: " + std::string(4000, 'a') + "\r\n";
  std::size_t sent = 0;
  bool open = send_text(fd, head);
  while (open && sent < 400u * 1024 * 1024) {
    open = send_text(fd, line);
    sent += line.size();
  }
  const std::string answer = read_all(fd, std::chrono::milliseconds(1000));
  ::close(fd);
  CHECK(sent < 16u * 1024 * 1024);
  if (!answer.empty()) CHECK(status_line(answer) == "HTTP/1.1 431 Request Header Fields Too Large");
  CHECK(t.seen == 0);
}

TEST_CASE("http server: a header line over 8 KiB, or more than 100 fields, is 431") {
  TestServer t;
  int fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, get("/", "X-Long: " + std::string(9000, 'b') + "\r\n")));
  std::string answer = read_all(fd);
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 431 Request Header Fields Too Large");
  CHECK(rtest::contains(answer, "header line too long"));
  std::string many;
  for (int i = 0; i < 101; ++i) many += "X-" + std::to_string(i) + ": v\r\n";
  fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, get("/", many)));
  answer = read_all(fd);
  ::close(fd);
  CHECK(rtest::contains(answer, "too many header fields"));
  fd = connect_tcp(t.port);
  REQUIRE(send_text(fd, get("/" + std::string(9000, 'c'))));
  answer = read_all(fd);
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 414 URI Too Long");
  CHECK(t.seen == 0);
}

TEST_CASE("http server: a body over the limit is 413 however it is framed, before the rest") {
  TestServer t;
  SECTION("a Content-Length over the limit: 413 at once, no body read") {
    const int fd = connect_tcp(t.port);
    REQUIRE(send_text(fd, "POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 200000000\r\n\r\n"));
    const auto start = Clock::now();
    const std::string answer = read_all(fd, std::chrono::milliseconds(2000));
    ::close(fd);
    CHECK(status_line(answer) == "HTTP/1.1 413 Content Too Large");
    CHECK(Clock::now() - start < std::chrono::milliseconds(700));
  }
  SECTION("a chunked body: 413 once 1 MiB has passed; the client cannot send 1 GB") {
    const int fd = connect_tcp(t.port);
    REQUIRE(send_text(fd, "POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const std::string chunk = "10000\r\n" + std::string(0x10000, 'z') + "\r\n";
    std::size_t sent = 0;
    while (sent < (1u << 30) && send_text(fd, chunk)) sent += 0x10000;
    const std::string answer = read_all(fd, std::chrono::milliseconds(1000));
    ::close(fd);
    CHECK(sent < 64u * 1024 * 1024);
    if (!answer.empty()) CHECK(status_line(answer) == "HTTP/1.1 413 Content Too Large");
  }
  SECTION("a body within the limit reaches the handler") {
    const int fd = connect_tcp(t.port);
    REQUIRE(send_text(fd,
                      "POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: "
                      "close\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
    const std::string answer = read_all(fd);
    ::close(fd);
    CHECK(rtest::contains(answer, "hello POST /e  5"));
  }
}

TEST_CASE("http server: a header sent a byte at a time is closed at the deadline, a total") {
  TestServer t;  // header deadline 800 ms
  const int fd = connect_tcp(t.port);
  const std::string head = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + std::string(100, 's');
  const auto start = Clock::now();
  bool open = true;
  // A byte every 50 ms would reset an inactivity timeout for ever.
  for (std::size_t i = 0; open && i < head.size() && Clock::now() - start < std::chrono::seconds(4);
       ++i) {
    open = send_text(fd, head.substr(i, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) > 0) break;  // closed
  }
  const std::string answer = read_all(fd, std::chrono::milliseconds(1000));
  ::close(fd);
  // The first byte opens the deadline: closed 800 ms after it (without an answer: the deadline
  // closes the socket), long before the 5 s of bytes.
  CHECK(Clock::now() - start < std::chrono::milliseconds(3000));
  CHECK(answer.empty());
  CHECK(t.server.counts().refused_deadline >= 1);
  CHECK(t.seen == 0);
}

TEST_CASE("http server: when every handler is busy, a request gets 503 at once") {
  std::mutex mutex;
  std::condition_variable wake;
  bool release = false;
  std::atomic<int> running{0};
  Limits limits = TestServer::quick_limits();
  limits.handler_threads = 3;
  Server server(limits, [&](Request&, Response& res) {
    ++running;
    std::unique_lock lock(mutex);
    wake.wait(lock, [&] { return release; });
    res.set_content("done", "text/plain");
  });
  const int port = *server.listen_tcp("127.0.0.1", 0);
  server.start();
  std::vector<int> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(connect_tcp(port));
    REQUIRE(send_text(held.back(), get("/hold")));
  }
  REQUIRE(wait_for([&] { return running.load() == 3; }, 5));
  const int fd = connect_tcp(port);
  REQUIRE(send_text(fd, get("/more")));
  const auto start = Clock::now();
  const std::string answer = read_all(fd, std::chrono::milliseconds(2000));
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 503 Service Unavailable");
  CHECK(rtest::contains(answer, "Retry-After: 1"));
  CHECK(Clock::now() - start < std::chrono::milliseconds(500));
  CHECK(server.counts().refused_busy == 1);
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  wake.notify_all();
  for (int h : held) {
    CHECK(rtest::contains(read_all(h), "done"));
    ::close(h);
  }
}

TEST_CASE("http server: beyond the connection cap a new connection gets 503 and is closed") {
  Limits limits = TestServer::quick_limits();
  limits.max_connections = 5;
  Server server(limits, [](Request&, Response& res) { res.set_content("ok", "text/plain"); });
  const int port = *server.listen_tcp("127.0.0.1", 0);
  server.start();
  std::vector<int> idle;
  for (int i = 0; i < 5; ++i) idle.push_back(connect_tcp(port));
  REQUIRE(wait_for([&] { return server.counts().connections == 5; }, 5));
  const int fd = connect_tcp(port);
  const std::string answer = read_all(fd, std::chrono::milliseconds(2000));
  ::close(fd);
  CHECK(status_line(answer) == "HTTP/1.1 503 Service Unavailable");
  for (int h : idle) ::close(h);
}

TEST_CASE("http server: 500 slow connections from other addresses hold no handler") {
  Limits limits = TestServer::quick_limits();
  limits.header_deadline = std::chrono::milliseconds(20000);
  limits.handler_threads = 2;
  Server server(limits, [](Request&, Response& res) { res.set_content("ok", "text/plain"); });
  const int port = *server.listen_tcp("127.0.0.1", 0);
  server.start();
  std::vector<int> slow;
  for (int i = 0; i < 500; ++i) {
    slow.push_back(connect_tcp(port, "127.0.0." + std::to_string(2 + i % 8)));
    REQUIRE(send_text(slow.back(), "GET / HTTP/1.1\r\nHost: x\r\nX-A: "));
  }
  REQUIRE(wait_for([&] { return server.counts().connections >= 500; }, 10));
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    const int fd = connect_tcp(port);
    REQUIRE(send_text(fd, get("/")));
    const std::string answer = read_all(fd);
    ::close(fd);
    CHECK(status_line(answer) == "HTTP/1.1 200 OK");
    CHECK(Clock::now() - start < std::chrono::milliseconds(1000));
  }
  for (int h : slow) ::close(h);
}

TEST_CASE("http server: a second server on the same address is refused") {
  TestServer t;
  Server second(Limits{}, [](Request&, Response&) {});
  auto bound = second.listen_tcp("127.0.0.1", t.port);
  REQUIRE_FALSE(bound);
  CHECK(bound.kind() == referee::ErrorKind::Conflict);
  CHECK(rtest::contains(bound.error(), "in use"));
  Server third(Limits{}, [](Request&, Response&) {});
  auto bad = third.listen_tcp("not-an-address", 0);
  REQUIRE_FALSE(bad);
  CHECK(bad.kind() == referee::ErrorKind::Invalid);
}

TEST_CASE("http server: the Unix socket marks its requests, has mode 0660, is not taken over") {
  rtest::TempDir dir;
  const std::string path = dir.file("d.sock");
  Limits limits = TestServer::quick_limits();
  Server server(limits, [](Request& req, Response& res) {
    res.set_content(req.via_socket ? "socket " + req.remote_addr : "tcp", "text/plain");
  });
  REQUIRE(server.listen_tcp("127.0.0.1", 0));
  REQUIRE(server.listen_unix(path, 0660));
  server.start();
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0660);
  const int fd = connect_unix(path);
  REQUIRE(send_text(fd, get("/")));
  CHECK(rtest::contains(read_all(fd), "socket unix"));
  ::close(fd);
  // A live socket belongs to its server.
  Server second(limits, [](Request&, Response&) {});
  auto taken = second.listen_unix(path, 0660);
  REQUIRE_FALSE(taken);
  CHECK(taken.kind() == referee::ErrorKind::Conflict);
  server.stop();
  // A stale one (its server gone) is replaced.
  const int stale = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un at{};
  at.sun_family = AF_UNIX;
  std::snprintf(at.sun_path, sizeof at.sun_path, "%s", path.c_str());
  REQUIRE(::bind(stale, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0);
  ::close(stale);
  Server third(limits, [](Request&, Response&) {});
  CHECK(third.listen_unix(path, 0660));
  // A path that is not a socket is never replaced; one too long for a socket is refused.
  const std::string file = dir.file("plain");
  rtest::write_text(file, "keep me");
  Server fourth(limits, [](Request&, Response&) {});
  auto not_socket = fourth.listen_unix(file, 0660);
  REQUIRE_FALSE(not_socket);
  CHECK(not_socket.kind() == referee::ErrorKind::Conflict);
  CHECK(rtest::read_text(file) == "keep me");
  auto too_long = fourth.listen_unix(dir.file(std::string(200, 'l')), 0660);
  REQUIRE_FALSE(too_long);
  CHECK(too_long.kind() == referee::ErrorKind::Invalid);
}

TEST_CASE("http server: a streamed body arrives in chunks and ends, the connection goes on") {
  Limits limits = TestServer::quick_limits();
  Server server(limits, [](Request& req, Response& res) {
    if (req.path != "/stream") return res.set_content("after", "text/plain");
    auto left = std::make_shared<int>(3);
    res.set_chunked_content_provider("text/plain", [left](Sink& sink) {
      if ((*left)-- == 0) {
        sink.done();
        return false;
      }
      return sink.write("part;", 5);
    });
  });
  const int port = *server.listen_tcp("127.0.0.1", 0);
  server.start();
  const int fd = connect_tcp(port);
  REQUIRE(send_text(fd,
                    "GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: "
                    "x\r\nConnection: close\r\n\r\n"));
  const std::string answer = read_all(fd);
  ::close(fd);
  CHECK(rtest::contains(answer, "Transfer-Encoding: chunked"));
  CHECK(rtest::contains(answer, "5\r\npart;\r\n5\r\npart;\r\n5\r\npart;\r\n0\r\n\r\n"));
  CHECK(rtest::contains(answer, "after"));
}

TEST_CASE("http server: a client that stops reading a stream is dropped at the write timeout") {
  Limits limits = TestServer::quick_limits();
  std::atomic<bool> ended{false};
  Server server(limits, [&](Request&, Response& res) {
    res.set_chunked_content_provider("text/plain", [&](Sink& sink) {
      const std::string block(64 * 1024, 'w');
      if (sink.write(block.data(), block.size())) return true;
      ended = true;
      return false;
    });
  });
  const int port = *server.listen_tcp("127.0.0.1", 0);
  server.start();
  const int fd = connect_tcp(port);
  REQUIRE(send_text(fd, get("/")));
  // Never read: the socket buffers fill, the next write waits, the timeout ends the stream.
  CHECK(wait_for([&] { return ended.load(); }, 10));
  ::close(fd);
}

TEST_CASE("http message: percent decoding and targets") {
  std::string out;
  CHECK(percent_decode("a%2Fb+c", true, out));
  CHECK(out == "a/b c");
  CHECK(percent_decode("a+b", false, out));
  CHECK(out == "a+b");
  CHECK_FALSE(percent_decode("%4", true, out));
  CHECK_FALSE(percent_decode("%g0", true, out));
  std::string path;
  std::multimap<std::string, std::string> params;
  CHECK(split_target("/api/games?engine=a&engine=b&&x", path, params));
  CHECK(path == "/api/games");
  CHECK(params.count("engine") == 2);
  CHECK(params.count("x") == 1);
  Response res;
  res.set_header("X-One", "1");
  res.set_header("x-one", "2");
  CHECK(res.headers.size() == 1);
  CHECK(*find_field(res.headers, "X-ONE") == "2");
}

TEST_CASE("http router: routes match the whole path, HEAD takes GET routes, long paths none") {
  Router router;
  router.get(R"(/api/games/([^/]+))",
             [](const Request& req, Response& res) { res.set_content(req.matches[1], "t"); });
  Request req;
  Response res;
  req.method = "GET";
  req.path = "/api/games/12";
  CHECK(router.dispatch(req, res));
  CHECK(res.body == "12");
  req.method = "HEAD";
  CHECK(router.dispatch(req, res));
  req.method = "POST";
  CHECK_FALSE(router.dispatch(req, res));
  req.method = "GET";
  req.path = "/api/games/12/x";
  CHECK_FALSE(router.dispatch(req, res));
  req.path = "/api/games/" + std::string(100000, '1');
  CHECK_FALSE(router.dispatch(req, res));
}

TEST_CASE("http server: an upload's head is shown first, its body goes to a file removed after") {
  rtest::TempDir dir;
  Limits l = TestServer::quick_limits();
  l.max_body = 1000;
  l.upload_paths = {"/up"};
  l.max_upload = 1 << 20;
  l.upload_dir = dir.path();
  std::mutex m;
  std::vector<std::string> phases;
  std::string file_seen;
  Server server(l, [&](Request& req, Response& res) {
    std::lock_guard lock(m);
    if (req.phase == Phase::Head) {
      phases.push_back("head " + req.get_param_value("ok"));
      res.status = req.get_param_value("ok") == "1" ? 100 : 403;
      if (res.status != 100) res.set_content("{\"error\":\"not you\"}", "application/json");
      return;
    }
    phases.push_back(req.phase == Phase::Streamed ? "streamed" : "whole");
    file_seen = req.body_file;
    res.set_content("got " + std::to_string(rtest::read_text(req.body_file).size()) +
                        " in memory " + std::to_string(req.body.size()),
                    "text/plain");
  });
  auto bound = server.listen_tcp("127.0.0.1", 0);
  REQUIRE(bound);
  server.start();
  auto exchange = [&](const std::string& text) {
    const int fd = connect_tcp(*bound);
    send_text(fd, text);
    std::string answer = read_all(fd, std::chrono::milliseconds(2000));
    ::close(fd);
    return answer;
  };
  // Refused by the handler from the head: answered at once, 100 MB announced and never waited for.
  const auto started = Clock::now();
  std::string answer =
      exchange("POST /up?ok=0 HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
  CHECK(status_line(answer) == "HTTP/1.1 403 Forbidden");
  CHECK(rtest::contains(answer, "not you"));
  CHECK(Clock::now() - started < std::chrono::milliseconds(1500));
  // Accepted: a body over max_body but under max_upload arrives in a file, gone after the handler.
  answer = exchange(
      "POST /up?ok=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\nConnection: "
      "close\r\n\r\n" +
      std::string(300000, '#'));
  CHECK(status_line(answer) == "HTTP/1.1 200 OK");
  CHECK(rtest::contains(answer, "got 300000 in memory 0"));
  CHECK(file_seen.rfind(dir.path() + "/", 0) == 0);
  CHECK(std::filesystem::is_empty(dir.path()));
  // Accepted, then over max_upload: 413 after the head, never before it.
  answer = exchange("POST /up?ok=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n");
  CHECK(rtest::contains(status_line(answer), " 413 "));
  // Any other path keeps max_body, without a head phase.
  answer = exchange("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\n\r\n");
  CHECK(rtest::contains(status_line(answer), " 413 "));
  std::lock_guard lock(m);
  CHECK(phases == std::vector<std::string>{"head 0", "head 1", "streamed", "head 1"});
}
