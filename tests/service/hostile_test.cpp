// `referee serve` as a real process under hostile HTTP clients (issue: a service safe to run):
// huge bodies and header floods are refused with the daemon's memory flat, slow connections and
// streams that never read do not silence the API nor make a game lose on time, a second daemon
// on the same address is refused, the Unix socket beside the database is the operator's, and a
// process of another user (nobody) can neither use the socket, read the token nor submit.
// The slow-connection case holds its load about 6 s while a short event plays: the whole file
// takes about 15 s (20 s under the sanitizers).
#include <grp.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <fstream>
#include <string>
#include <vector>

#include "tests/service/daemon_util.h"
#include "tests/service/raw_http.h"

using namespace stest;

namespace {

std::string post_event(const std::string& toml, const std::string& extra = "") {
  return "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/toml\r\n" +
         extra + "Content-Length: " + std::to_string(toml.size()) +
         "\r\nConnection: close\r\n\r\n" + toml;
}

}  // namespace

TEST_CASE("serve: a 1 GB chunked body and 400 MB of headers are refused, memory stays flat") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  const long before = rawhttp::rss_kb(d.pid());
  REQUIRE(before > 0);
  {
    const int fd = rawhttp::connect_tcp(d.port());
    REQUIRE(rawhttp::send_text(fd,
                               "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                               "application/toml\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const std::string chunk = "100000\r\n" + std::string(0x100000, 'x') + "\r\n";
    std::size_t sent = 0;
    while (sent < (1u << 30) && rawhttp::send_text(fd, chunk)) sent += chunk.size();
    const std::string answer = rawhttp::read_all(fd, std::chrono::milliseconds(2000));
    ::close(fd);
    CHECK(sent < 64u << 20);
    if (!answer.empty()) CHECK(rawhttp::status_line(answer) == "HTTP/1.1 413 Content Too Large");
  }
  {
    const int fd = rawhttp::connect_tcp(d.port());
    const std::string line = "X-Flood: " + std::string(8000, 'h') + "\r\n";
    std::size_t sent = 0;
    bool open = rawhttp::send_text(fd, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    while (open && sent < 400u << 20) {
      open = rawhttp::send_text(fd, line);
      sent += line.size();
    }
    const std::string answer = rawhttp::read_all(fd, std::chrono::milliseconds(2000));
    ::close(fd);
    CHECK(sent < 64u << 20);
    if (!answer.empty())
      CHECK(rawhttp::status_line(answer) == "HTTP/1.1 431 Request Header Fields Too Large");
  }
  const long after = rawhttp::rss_kb(d.pid());
  INFO("RSS before " << before << " kB, after " << after << " kB");
  CHECK(after - before < 100 * 1024);
  CHECK(d.client().Get("/api/health")->status == 200);
  CHECK(d.running());
}

TEST_CASE("serve: slow connections and streams that never read leave the API answering") {
  TempDir dir;
  Daemon d(dir, {"-c", "2", "--max-streams", "300"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, tournament_toml("under load", 2, 3, 16));
  // 500 connections from other loopback addresses, each with a header begun and never ended.
  std::vector<int> held;
  for (int i = 0; i < 500; ++i) {
    held.push_back(rawhttp::connect_tcp(d.port(), "127.0.0." + std::to_string(2 + i % 8)));
    CHECK(rawhttp::send_text(held.back(), "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-"));
  }
  // 300 live streams whose clients never read.
  for (int i = 0; i < 300; ++i) {
    held.push_back(rawhttp::connect_tcp(d.port()));
    CHECK(rawhttp::send_text(held.back(), "GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  }
  // A normal client is answered, promptly, for as long as the load is held.
  int answered = 0;
  double slowest = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  while (std::chrono::steady_clock::now() < until) {
    const auto start = std::chrono::steady_clock::now();
    auto res = c.Get("/api/events/" + std::to_string(id));
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    slowest = std::max(slowest, took);
    if (res && res->status == 200) ++answered;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  INFO("slowest answer " << slowest << " s");
  CHECK(answered >= 30);
  CHECK(slowest < 2.0);
  REQUIRE(wait_state(c, id, "finished", 120));
  for (int fd : held) ::close(fd);
  // No game lost on time while the load was held.
  const Json games = get_json(c, "/api/games?event=" + std::to_string(id));
  REQUIRE(games["games"].size() == 6);
  for (const auto& g : games["games"]) CHECK(g.value("termination", "") != "time");
  CHECK(d.running());
}

TEST_CASE("serve: a second daemon on the same address is refused with one line") {
  TempDir dir;
  Daemon first(dir, {"-c", "1"});
  REQUIRE(first.ready());
  TempDir other;
  Daemon second(other, {"-c", "1", "--listen", "127.0.0.1:" + std::to_string(first.port())},
                "second");
  CHECK(second.wait() == 1);
  CHECK(contains(second.err(), "127.0.0.1:" + std::to_string(first.port())));
  CHECK(contains(second.err(), "in use"));
  CHECK(first.client().Get("/api/health")->status == 200);
}

TEST_CASE("serve: the Unix socket beside the database acts as the operator, TCP needs the token") {
  TempDir dir;
  const std::string token_file = dir.file("token");
  {
    std::ofstream(token_file) << "0123456789abcdef0123456789abcdef\n";
    std::filesystem::permissions(
        token_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  }
  Daemon d(dir, {"-c", "1", "--token-file", token_file});
  REQUIRE(d.ready());
  const std::string socket = dir.file("serve.db.sock");
  const std::string toml = tournament_toml("by socket", 2, 1, 8);
  int fd = rawhttp::connect_tcp(d.port());
  REQUIRE(rawhttp::send_text(fd, post_event(toml)));
  CHECK(rawhttp::status_line(rawhttp::read_all(fd)) == "HTTP/1.1 401 Unauthorized");
  ::close(fd);
  fd = rawhttp::connect_unix(socket);
  REQUIRE(rawhttp::send_text(fd, post_event(toml)));
  const std::string answer = rawhttp::read_all(fd);
  ::close(fd);
  CHECK(rawhttp::status_line(answer) == "HTTP/1.1 201 Created");
  CHECK(d.signal_and_wait(SIGTERM) == 0);
  // The socket goes with its daemon.
  CHECK_FALSE(std::filesystem::exists(socket));
}

TEST_CASE("serve: another user's process cannot make the daemon run anything") {
  if (::geteuid() != 0) {
    WARN("NOT RUN: switching to the user nobody needs root (CI runs the tests as root)");
    return;
  }
  TempDir dir;
  // Every directory on the way open to all: only the files' own modes protect them.
  for (auto p = std::filesystem::path(dir.file("x")).parent_path(); p != p.root_path();
       p = p.parent_path())
    ::chmod(p.c_str(), 0755);
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  const std::string marker = dir.file("ran");
  const std::string toml =
      "name = \"evil\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\n"
      "[[engine]]\nname = \"a\"\ncommand = \"/bin/sh\"\nargs = [\"-c\", "
      "\"touch " +
      marker + "\"]\n[[engine]]\nname = \"b\"\ncommand = \"" + kMock + "\"\n";
  const std::string socket = dir.file("serve.db.sock");
  const pid_t child = ::fork();
  if (child == 0) {
    // As nobody: each attempt that succeeds sets a bit of the exit status.
    int status = 0;
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(64);
    const int unix_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un at{};
    at.sun_family = AF_UNIX;
    std::snprintf(at.sun_path, sizeof at.sun_path, "%s", socket.c_str());
    if (::connect(unix_fd, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0 || errno != EACCES)
      status |= 1;                                          // the socket let another user in
    if (std::ifstream(d.token_file()).good()) status |= 2;  // the token file is readable
    const int tcp = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(d.port()));
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    if (::connect(tcp, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0) {
      const std::string request = post_event(toml);
      (void)!::write(tcp, request.data(), request.size());
      char buf[64] = {};
      if (::read(tcp, buf, sizeof buf - 1) < 12 || std::string(buf).rfind("HTTP/1.1 401", 0) != 0)
        status |= 4;  // a change without a token was not refused 401
    }
    ::_exit(status);
  }
  int raw = 0;
  REQUIRE(::waitpid(child, &raw, 0) == child);
  REQUIRE(WIFEXITED(raw));
  const int status = WEXITSTATUS(raw);
  CHECK((status & 1) == 0);
  CHECK((status & 2) == 0);
  CHECK((status & 4) == 0);
  CHECK(status != 64);
  // Nothing was submitted, nothing ran.
  auto c = d.client();
  CHECK(get_json(c, "/api/events")["events"].empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(std::filesystem::exists(marker));
}
