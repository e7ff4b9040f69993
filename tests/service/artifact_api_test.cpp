// Engine artifacts uploaded to a real daemon (`referee serve`) over TCP (referee/service/API.md
// "Engine artifacts"): uploads by authors, their versions, export, ownership, and the refusals
// made from an upload's head before its body is read (no token, another's name, too large), the
// hostile archives refused whole, the slow upload answered 408, and `referee engine upload` end
// to end.
//
// The slow-upload case takes about 6 s: the least rate is enforced only after a 5 s grace.
#include <poll.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/service/daemon_util.h"
#include "tests/service/raw_http.h"

using namespace stest;

namespace {

const std::string kBot = "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n  pass\n";

rtest::RunResult referee_run(const TempDir& dir, std::vector<std::string> args) {
  return rtest::run_program(REFEREE_BIN, args, dir);
}

std::string new_token(const TempDir& dir, const std::string& name) {
  auto made = referee_run(dir, {"token", "add", name, "--db", dir.file("serve.db")});
  INFO(made.out << made.err);
  REQUIRE(made.status == 0);
  return rtest::lines_of(made.out).front();
}

httplib::Headers bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

std::string upload_target(const std::string& name, const std::string& file_name) {
  return "/api/artifacts?name=" + name + "&kind=file&file_name=" + file_name;
}

Json versions(httplib::Client& c, const std::string& query = "") {
  return get_json(c, "/api/artifacts" + query)["versions"];
}

// A ustar header and data of one entry: type '0' file, '2' symlink, '3' character device.
std::string tar_entry(const std::string& name, char type, const std::string& data,
                      const std::string& link = "", unsigned mode = 0644) {
  std::string h(512, '\0');
  std::snprintf(&h[0], 100, "%s", name.c_str());
  std::snprintf(&h[100], 8, "%07o", mode);
  std::snprintf(&h[108], 8, "%07o", 0);
  std::snprintf(&h[116], 8, "%07o", 0);
  std::snprintf(&h[124], 12, "%011o", static_cast<unsigned>(data.size()));
  std::snprintf(&h[136], 12, "%011o", 0);
  h[156] = type;
  std::snprintf(&h[157], 100, "%s", link.c_str());
  std::memcpy(&h[257], "ustar", 6);
  std::memcpy(&h[263], "00", 2);
  std::memset(&h[148], ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  std::snprintf(&h[148], 8, "%06o", sum);
  std::string padded = data;
  padded.resize((data.size() + 511) / 512 * 512, '\0');
  return h + padded;
}

std::string tar_of(const std::string& entries) {
  return entries + std::string(1024, '\0');
}

// Sends a request's head (and `body`), then reads what the daemon answers within `wait`.
std::string raw_exchange(int port, const std::string& head, const std::string& body = "",
                         std::chrono::milliseconds wait = std::chrono::milliseconds(3000)) {
  const int fd = rawhttp::connect_tcp(port);
  rawhttp::send_text(fd, head + body);
  std::string answer = rawhttp::read_all(fd, wait);
  ::close(fd);
  return answer;
}

}  // namespace

TEST_CASE("artifact API: authors upload artifacts, their versions, export and ownership") {
  TempDir dir;
  Daemon d(dir, {});
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice"), bob = new_token(dir, "bob");
  auto c = d.anonymous();

  auto first =
      c.Post(upload_target("pybot", "bot.py"), bearer(alice), kBot, "application/octet-stream");
  REQUIRE(first);
  INFO(first->body);
  CHECK(first->status == 201);
  Json v = Json::parse(first->body);
  CHECK(v["label"] == "pybot@1");
  CHECK(v["kind"] == "file");
  CHECK(v["owner"] == "alice");
  CHECK(v["uploaded_by"] == "alice");
  CHECK(v["size"] == kBot.size());
  CHECK(v["files"] == 1);
  CHECK(v["created"] == true);
  CHECK(v["command"] == "./bot.py");

  // The same bytes and command again: the same version, not a new one.
  auto again =
      c.Post(upload_target("pybot", "bot.py"), bearer(alice), kBot, "application/octet-stream");
  REQUIRE(again);
  CHECK(again->status == 200);
  CHECK(Json::parse(again->body)["created"] == false);
  CHECK(Json::parse(again->body)["label"] == "pybot@1");

  // A new version under another command (an interpreter named, the file as its argument).
  auto second = c.Post(upload_target("pybot", "bot.py") + "&command=python3%20bot.py",
                       bearer(alice), kBot, "application/octet-stream");
  REQUIRE(second);
  CHECK(second->status == 201);
  CHECK(Json::parse(second->body)["label"] == "pybot@2");

  // Readers list.
  Json all = versions(c);
  REQUIRE(all.size() == 2);
  CHECK(all[0]["sha256"] == all[1]["sha256"]);
  CHECK(get_json(c, "/api/artifacts/pybot")["versions"].size() == 2);
  CHECK(c.Get("/api/artifacts/nosuch")->status == 404);

  // Export: the owner and the operator get the bytes, identical; others 403.
  auto mine = c.Get("/api/artifacts/pybot@1/bytes", bearer(alice));
  REQUIRE(mine);
  CHECK(mine->status == 200);
  CHECK(mine->body == kBot);
  CHECK(d.client().Get("/api/artifacts/pybot@2/bytes")->body == kBot);
  CHECK(c.Get("/api/artifacts/pybot@1/bytes", bearer(bob))->status == 403);
  CHECK(c.Get("/api/artifacts/pybot@1/bytes")->status == 403);

  // Another author's upload to that name: 403 from its head, nothing stored.
  auto theirs = c.Post(upload_target("pybot", "bot.py"), bearer(bob), kBot + "# bob\n",
                       "application/octet-stream");
  REQUIRE(theirs);
  CHECK(theirs->status == 403);
  CHECK(contains(theirs->body, "belongs to alice"));
  CHECK(versions(c).size() == 2);

  // Retiring: another's is 403, the owner's works.
  CHECK(c.Post("/api/artifacts/pybot@1/retire", bearer(bob), "", "text/plain")->status == 403);
  auto retired = c.Post("/api/artifacts/pybot@1/retire", bearer(alice), "", "text/plain");
  REQUIRE(retired);
  CHECK(retired->status == 200);
  CHECK(versions(c, "?name=pybot")[0]["retired_at"].is_string());
  CHECK(versions(c, "?name=pybot")[1]["retired_at"].is_null());
}

TEST_CASE("artifact API: an upload is refused from its head: no token, too large, bad query") {
  TempDir dir;
  Daemon d(dir, {"--max-artifact-mb", "1"});
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice");
  const std::string head = "POST " + upload_target("big", "bot.py") +
                           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n";

  // No token: 401 at once, with none of the announced gigabyte sent.
  auto started = std::chrono::steady_clock::now();
  std::string answer = raw_exchange(d.port(), head + "\r\n");
  INFO(answer);
  CHECK(rawhttp::status_line(answer) == "HTTP/1.1 401 Unauthorized");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));
  // An author announcing more than the limit: 413, the body unread.
  answer = raw_exchange(d.port(), head + "Authorization: Bearer " + alice + "\r\n\r\n");
  CHECK(contains(rawhttp::status_line(answer), " 413 "));
  CHECK(contains(answer, "at most 1048576 bytes"));
  // A body over the limit without a length announced (chunked): 413 as it passes the limit. It
  // overshoots by 128 KiB, less than what the daemon reads and drops before it closes, so that
  // the answer is not lost to a reset.
  {
    const int fd = rawhttp::connect_tcp(d.port());
    REQUIRE(rawhttp::send_text(fd, "POST " + upload_target("big", "bot.py") +
                                       " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                                       alice + "\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const std::string piece(64 * 1024, '#');
    bool sent = true;
    for (int i = 0; i < 18 && sent; ++i)
      sent = rawhttp::send_text(fd, "10000\r\n" + piece + "\r\n");
    CHECK(sent);
    CHECK(contains(rawhttp::status_line(rawhttp::read_all(fd)), " 413 "));
    ::close(fd);
  }
  auto c = d.anonymous();
  // A bad query: 400 naming it, before the body.
  answer = raw_exchange(d.port(),
                        "POST /api/artifacts?name=big&kind=zip HTTP/1.1\r\nHost: "
                        "127.0.0.1\r\nContent-Length: 1000000000\r\nAuthorization: "
                        "Bearer " +
                            alice + "\r\n\r\n");
  CHECK(rawhttp::status_line(answer) == "HTTP/1.1 400 Bad Request");
  CHECK(contains(answer, "bad kind 'zip'"));
  CHECK(versions(c).empty());
  // The daemon is still there.
  CHECK(c.Get("/api/health")->status == 200);
}

TEST_CASE("artifact API: 100 Continue comes only once the head is accepted") {
  TempDir dir;
  Daemon d(dir, {});
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice");
  const std::string head =
      "POST " + upload_target("cont", "bot.py") +
      " HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: " +
      std::to_string(kBot.size()) + "\r\n";
  // Without a token: the refusal, never a 100.
  const std::string refused = raw_exchange(d.port(), head + "\r\n");
  CHECK(rawhttp::status_line(refused) == "HTTP/1.1 401 Unauthorized");
  // With one: 100 first, then the body, then 201.
  const int fd = rawhttp::connect_tcp(d.port());
  REQUIRE(rawhttp::send_text(fd, head + "Authorization: Bearer " + alice + "\r\n\r\n"));
  std::string got;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  char buf[512];
  while (got.find("\r\n\r\n") == std::string::npos && std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  CHECK(got == "HTTP/1.1 100 Continue\r\n\r\n");
  REQUIRE(rawhttp::send_text(fd, kBot));
  const std::string answer = rawhttp::read_all(fd, std::chrono::milliseconds(1000));
  CHECK(rawhttp::status_line(answer) == "HTTP/1.1 201 Created");
  ::close(fd);
}

TEST_CASE("artifact API: hostile archives are refused whole and store nothing") {
  TempDir dir;
  Daemon d(dir, {});
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice");
  auto c = d.anonymous();
  const std::string bot = tar_entry("bot.py", '0', kBot, "", 0755);
  struct Case {
    std::string what, archive, culprit;
  };
  // A real bomb: 80 MiB of zeros, gzip-compressed to about 80 KiB.
  auto made = rtest::run_program(
      "/bin/sh",
      {"-c", "cd '" + dir.path() + "' && head -c 80M /dev/zero > zeros && tar czf bomb.tgz zeros"},
      dir);
  REQUIRE(made.status == 0);
  std::filesystem::remove(dir.file("zeros"));
  const std::vector<Case> cases = {
      {"a path climbing out", tar_of(bot + tar_entry("../evil", '0', "x")), "../evil"},
      {"an absolute path", tar_of(bot + tar_entry("/etc/evil", '0', "x")), "/etc/evil"},
      {"a link to /etc", tar_of(bot + tar_entry("etc", '2', "", "/etc")), "etc"},
      {"a device", tar_of(bot + tar_entry("dev", '3', "")), "dev"},
      {"a bomb", rtest::read_text(dir.file("bomb.tgz")), "zeros"},
  };
  for (const auto& k : cases) {
    INFO(k.what);
    auto res = c.Post("/api/artifacts?name=evil&kind=tree&command=./bot.py", bearer(alice),
                      k.archive, "application/octet-stream");
    REQUIRE(res);
    INFO(res->body);
    CHECK(res->status == 400);
    CHECK(contains(res->body, k.culprit));
    CHECK(res->body.find('\n') == std::string::npos);
  }
  // A good archive of the same shape is taken: the refusals were the entries'.
  auto good = c.Post("/api/artifacts?name=good&kind=tree&command=./bot.py", bearer(alice),
                     tar_of(bot), "application/octet-stream");
  REQUIRE(good);
  INFO(good->body);
  CHECK(good->status == 201);
  // A command naming no file of the artifact: 400.
  auto bad_command = c.Post("/api/artifacts?name=good&kind=tree&command=./nosuch", bearer(alice),
                            tar_of(bot), "application/octet-stream");
  REQUIRE(bad_command);
  CHECK(bad_command->status == 400);
  CHECK(contains(bad_command->body, "nosuch"));
  CHECK(versions(c).size() == 1);
}

TEST_CASE("artifact API: an upload slower than the least rate is answered 408, its file removed") {
  TempDir dir;
  const std::string tmp = dir.file("tmp");
  std::filesystem::create_directory(tmp);
  ::setenv("TMPDIR", tmp.c_str(), 1);  // the daemon's temporary files, to see them go
  Daemon d(dir, {});
  ::unsetenv("TMPDIR");
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice");
  const int fd = rawhttp::connect_tcp(d.port());
  REQUIRE(rawhttp::send_text(fd, "POST " + upload_target("slow", "bot.py") +
                                     " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                                     alice + "\r\nContent-Length: 100000\r\n\r\n"));
  // 1 KiB every 200 ms: 5 KiB/s, far under the default 64 KiB/s.
  const auto started = std::chrono::steady_clock::now();
  bool saw_file = false, answered = false;
  while (std::chrono::steady_clock::now() - started < std::chrono::seconds(12)) {
    pollfd readable{fd, POLLIN, 0};
    if (::poll(&readable, 1, 0) > 0) {
      answered = true;
      break;
    }
    if (!rawhttp::send_text(fd, std::string(1024, '#'))) break;
    saw_file = saw_file || !std::filesystem::is_empty(tmp);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const double after =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // The answer comes before the connection closes.
  const std::string answer = rawhttp::read_all(fd, std::chrono::milliseconds(5000));
  ::close(fd);
  CHECK(answered);
  CHECK(answer.rfind("HTTP/1.1 408 ", 0) == 0);
  CHECK(contains(answer, "{\"error\":\"upload too slow: under 65536 bytes a second on average\"}"));
  CHECK(saw_file);     // the body went to a file as it came
  CHECK(after > 4.5);  // not before the grace
  CHECK(after < 8);
  CHECK(wait_until([&] { return std::filesystem::is_empty(tmp); }, 5));
  auto c = d.anonymous();
  CHECK(versions(c).empty());
}

TEST_CASE("artifact API: referee engine upload, list and show against the daemon") {
  TempDir dir;
  Daemon d(dir, {});
  REQUIRE(d.ready());
  const std::string alice = new_token(dir, "alice");
  const std::string token_file = dir.file("alice.token");
  {
    std::ofstream f(token_file);
    f << alice << "\n";
  }
  ::chmod(token_file.c_str(), 0600);
  // A directory with a binary in it.
  const std::string tree = dir.file("tree");
  std::filesystem::create_directories(tree + "/bin");
  std::filesystem::copy_file(kMock, tree + "/bin/engine");
  {
    std::ofstream f(tree + "/README");
    f << "a mock engine\n";
  }
  auto up = referee_run(dir, {"engine", "upload", "mock", tree, "--command", "bin/engine",
                              "--server", d.url(), "--token-file", token_file});
  INFO(up.out << up.err);
  REQUIRE(up.status == 0);
  CHECK(contains(up.out, "uploaded mock@1 sha256 "));
  auto c = d.anonymous();
  auto stored = versions(c, "?name=mock");
  REQUIRE(stored.size() == 1);
  CHECK(stored[0]["kind"] == "tree");
  CHECK(stored[0]["files"] == 2);
  CHECK(stored[0]["uploaded_by"] == "alice");
  CHECK(contains(up.out, stored[0]["sha256"].get<std::string>()));
  // The export is the canonical tar the client packed: what `engine add` would have stored.
  auto local = referee_run(dir, {"engine", "add", "same", tree, "--command", "bin/engine", "--db",
                                 dir.file("local.db")});
  REQUIRE(local.status == 0);
  CHECK(contains(local.out, stored[0]["sha256"].get<std::string>()));
  // The same upload again: already stored.
  auto again = referee_run(dir, {"engine", "upload", "mock", tree, "--command", "bin/engine",
                                 "--server", d.url(), "--token-file", token_file});
  CHECK(again.status == 0);
  CHECK(contains(again.out, "already stored: mock@1"));
  // Checked locally first: a command naming no file is refused before any upload.
  auto bad = referee_run(dir, {"engine", "upload", "mock", tree, "--command", "bin/nosuch",
                               "--server", d.url(), "--token-file", token_file});
  CHECK(bad.status == 2);
  CHECK(rtest::lines_of(bad.err).size() == 1);
  CHECK(contains(bad.err, "bin/nosuch"));
  // Without a token: the daemon's 401, in one line and a hint.
  auto anonymous = referee_run(
      dir, {"engine", "upload", "mock", tree, "--command", "bin/engine", "--server", d.url()});
  CHECK(anonymous.status == 1);
  CHECK(contains(anonymous.err, "401"));
  // list and show over the server.
  auto listed = referee_run(dir, {"engine", "list", "--server", d.url()});
  INFO(listed.err);
  CHECK(listed.status == 0);
  CHECK(contains(listed.out, "mock@1"));
  auto shown = referee_run(dir, {"engine", "show", "mock@1", "--server", d.url()});
  CHECK(shown.status == 0);
  CHECK(contains(shown.out, "command bin/engine"));
  CHECK(referee_run(dir, {"engine", "show", "mock@9", "--server", d.url()}).status == 1);
}
