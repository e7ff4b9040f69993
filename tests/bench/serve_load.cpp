// Load benchmark of `referee serve` (not a test; prints figures): a daemon on a loopback port
// plays an event of fast mock engines at concurrency 2 while this program holds open live-stream
// clients and drives a steady rate of API requests. It prints the API latency (p50, p99, max),
// the daemon's CPU and peak RSS over the window, the live-stream bytes received, the games played,
// and the games lost on time (goal: none: the engines' clocks must not feel the server).
//
// Usage: serve_load [--seconds S] [--streams N] [--rate R] [--slow N] [--deaf N] [--hostile]
//        (defaults 20, 200, 1000, 0, 0, off)
//        serve_load --at-cap
// With --at-cap it measures instead the acceptance of one event at the cap of 1,000,000 games
// (2 mock engines on awale, 500,000 cycles, submitted paused so no game starts): the time of the
// POST, and the daemon's peak RSS (VmHWM) and RSS afterwards (goal: under 100 MB).
// With the hostile clients of a shared machine beside the load: --slow N connections from
// 127.0.0.2-9 that send their header a byte a second (opened again when the daemon cuts them),
// --deaf N live streams that never read, and --hostile a client that sends, one after the other,
// a 64 MiB chunked body, 4 MiB of header lines and 100,000 nested JSON arrays.
//
// Decisions: the requests are paced by a schedule (a request is sent at its planned time, or at
// once when late), so the rate holds whatever the latency; the latency is measured from the send,
// on keep-alive connections, over a mix of the dashboard's reads (health, events, one event, its
// standings, a page of games, one game). The daemon's CPU is user+system from /proc, engines
// (its children) excluded.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engines/system.h"

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

pid_t start_daemon(const std::string& dir, const std::string& out_path, int max_streams,
                   int concurrency = 2) {
  const std::string c = std::to_string(concurrency), streams = std::to_string(max_streams);
  std::vector<std::string> text = {REFEREE_BIN,   "serve", "--db", dir + "/serve.db", "--listen",
                                   "127.0.0.1:0", "-c",    c,      "--max-streams",   streams};
  std::vector<char*> argv;
  for (auto& a : text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open((dir + "/serve.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(REFEREE_BIN, argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_port(const std::string& out_path) {
  for (int i = 0; i < 500; ++i) {
    const std::string out = read_text(out_path);
    const auto at = out.find("listening on http://");
    if (at != std::string::npos && out.find('\n', at) != std::string::npos)
      return std::stoi(out.substr(out.rfind(':', out.find('\n', at)) + 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

// A daemon started in `dir` and the port it listens on; port 0 (and a line on stderr, the daemon
// killed) when it did not start.
std::pair<pid_t, int> started(const std::string& dir, int max_streams, int concurrency = 2) {
  const std::string out_path = dir + "/serve.out";
  const pid_t daemon = start_daemon(dir, out_path, max_streams, concurrency);
  const int port = wait_port(out_path);
  if (port == 0) {
    std::fprintf(stderr, "serve_load: the daemon did not start: %s\n",
                 read_text(dir + "/serve.err").c_str());
    ::kill(daemon, SIGKILL);
  }
  return {daemon, port};
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// A JSON reply, tried a few times; null (and a line on stderr) when there is none.
Json get_json(httplib::Client& c, const std::string& path) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto res = c.Get(path);
    if (res && res->status == 200) return Json::parse(res->body, nullptr, false);
    std::fprintf(
        stderr, "serve_load: GET %s: %s\n", path.c_str(),
        res ? std::to_string(res->status).c_str() : httplib::to_string(res.error()).c_str());
  }
  return Json();
}

// A raw connection to the daemon from `source` (a loopback address); -1 when refused.
int connect_raw(int port, const std::string& source) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in from{}, to{};
  from.sin_family = to.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_raw(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// The status of the answer on `fd` (0: none within 5 s, or the connection was reset).
int answer_status(int fd) {
  timeval wait{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  char buf[64] = {};
  const ssize_t n = ::recv(fd, buf, sizeof buf - 1, 0);
  if (n < 12) return 0;
  return std::atoi(buf + 9);
}

// Slow clients: each connection sends one more header byte a second; a connection the daemon
// closed is opened again. Counts the connections cut.
void hold_slow(int port, int count, const std::atomic<bool>& stop, std::atomic<long>& cut) {
  const std::string begin = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
  std::vector<int> fds(static_cast<std::size_t>(count), -1);
  while (!stop.load()) {
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i] >= 0 && !send_raw(fds[i], "s")) {
        ::close(fds[i]);
        fds[i] = -1;
        ++cut;
      }
      if (fds[i] < 0) {
        fds[i] = connect_raw(port, "127.0.0." + std::to_string(2 + i % 8));
        if (fds[i] >= 0 && !send_raw(fds[i], begin)) {
          ::close(fds[i]);
          fds[i] = -1;
        }
      }
    }
    for (int k = 0; k < 10 && !stop.load(); ++k)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
}

// One hostile request after the other; counts the answers by status (0: none, the connection
// was closed or reset while the request was still being sent).
// `token`: the operator's, so that the deep JSON reaches the body's checks (without it: 401).
void hostile(int port, const std::string& token, const std::atomic<bool>& stop,
             std::map<int, long>& answers) {
  const std::string auth = "Authorization: Bearer " + token + "\r\n";
  const std::string chunk = "100000\r\n" + std::string(0x100000, 'c') + "\r\n";
  const std::string flood = "X-Flood: " + std::string(4000, 'f') + "\r\n";
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  for (long round = 0; !stop.load(); ++round) {
    const int fd = connect_raw(port, "127.0.0.10");
    if (fd < 0) continue;
    bool open = true;
    switch (round % 3) {
      case 0:
        open = send_raw(fd,
                        "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                        "application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; open && i < 64; ++i) open = send_raw(fd, chunk);
        break;
      case 1:
        open = send_raw(fd, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (int i = 0; open && i < 1000; ++i) open = send_raw(fd, flood);
        break;
      default:
        open = send_raw(fd, "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth +
                                "Content-Type: application/json\r\nContent-Length: " +
                                std::to_string(nested.size()) + "\r\n\r\n" + nested);
    }
    ++answers[answer_status(fd)];
    ::close(fd);
  }
}

}  // namespace

std::string token_of(const std::string& dir) {
  const std::string token = read_text(dir + "/serve.db.token");
  return token.substr(0, token.find('\n'));
}

// --at-cap: one event of kMaxScheduleSlots games submitted to a fresh daemon.
int at_cap() {
  const std::string dir = referee::engines::make_temp_dir("serve-cap");
  // Not a structured binding: clang 14 refuses them in the lambdas below.
  const auto daemon_port = started(dir, 16, 1);
  const pid_t daemon = daemon_port.first;
  const int port = daemon_port.second;
  if (port == 0) return 1;
  std::string toml = "name = \"cap\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\ncycles = 500000\n";
  for (int e = 0; e < 2; ++e)
    toml += "[[engine]]\nname = \"m" + std::to_string(e) +
            "\"\ncommand = \"" SUPPORT_DIR "/mock_engine\"\n";
  httplib::Client control("127.0.0.1", port);
  control.set_default_headers({{"Authorization", "Bearer " + token_of(dir)}});
  control.set_read_timeout(600, 0);
  control.set_write_timeout(60, 0);
  auto idle = referee::engines::process_usage(daemon);
  const auto sent = Clock::now();
  auto submitted = control.Post("/api/events?state=paused", toml, "application/toml");
  const double took = std::chrono::duration<double>(Clock::now() - sent).count();
  auto after = referee::engines::process_usage(daemon);
  int rc = 0;
  if (!submitted || submitted->status != 201) {
    std::fprintf(stderr, "serve_load: submit failed: %s\n",
                 submitted ? submitted->body.c_str() : "no answer");
    rc = 1;
  } else {
    auto event = get_json(control, "/api/events/1");
    const long games = event.is_object() ? event.value("scheduled", 0L) : 0L;
    std::printf("at the cap: an event of %ld games accepted in %.2f s (POST to 201)\n", games,
                took);
    if (idle && after)
      std::printf(
          "daemon: RSS %.1f MB idle before, %.1f MB after; peak RSS %.1f MB (goal < 100 MB)\n",
          static_cast<double>(idle->rss_kb) / 1024, static_cast<double>(after->rss_kb) / 1024,
          static_cast<double>(after->peak_rss_kb) / 1024);
    if (games != 1000000 || !after || after->peak_rss_kb >= 100 * 1024) rc = 1;
  }
  ::kill(daemon, SIGTERM);
  int status = 0;
  ::waitpid(daemon, &status, 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return rc;
}

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--at-cap") return at_cap();
  double seconds = 20;
  int streams = 200, rate = 1000, slow = 0, deaf = 0;
  bool hostile_client = false;
  for (int i = 1; i < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--hostile") {
      hostile_client = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "serve_load: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--slow")
      slow = std::atoi(argv[i + 1]);
    else if (a == "--deaf")
      deaf = std::atoi(argv[i + 1]);
    else if (a == "--seconds")
      seconds = std::atof(argv[i + 1]);
    else if (a == "--streams")
      streams = std::atoi(argv[i + 1]);
    else if (a == "--rate")
      rate = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr,
                   "usage: serve_load [--seconds S] [--streams N] [--rate R] [--slow N] "
                   "[--deaf N] [--hostile] | --at-cap\n");
      return 2;
    }
  }
  if (!(seconds > 0 && seconds <= 600) || streams < 0 || streams > 1000 || rate < 1 ||
      rate > 20000 || slow < 0 || slow > 2000 || deaf < 0 || deaf > 1000) {
    std::fprintf(stderr,
                 "serve_load: --seconds 0..600, --streams 0..1000, --rate 1..20000, --slow "
                 "0..2000, --deaf 0..1000\n");
    return 2;
  }
  const std::string dir = referee::engines::make_temp_dir("serve-load");
  // Not a structured binding: clang 14 refuses them in the lambdas below.
  const auto daemon_port = started(dir, std::min(4096, streams + deaf + 16));
  const pid_t daemon = daemon_port.first;
  const int port = daemon_port.second;
  if (port == 0) return 1;

  // An event long enough to outlast the window: 4 fast engines, short games, a tight clock.
  std::string toml =
      "name = \"load\"\ngames = [\"awale:maxplies=40\"]\ntc = \"2+0.05\"\ncycles = 500\n"
      "[openings]\nrandom_plies = 4\n";
  for (int e = 0; e < 4; ++e)
    toml += "[[engine]]\nname = \"m" + std::to_string(e) +
            "\"\ncommand = \"" SUPPORT_DIR "/mock_engine\"\n";
  httplib::Client control("127.0.0.1", port);
  // The operator token the daemon made next to its database on first start.
  const std::string token = read_text(dir + "/serve.db.token");
  control.set_default_headers({{"Authorization", "Bearer " + token.substr(0, token.find('\n'))}});
  auto submitted = control.Post("/api/events", toml, "application/toml");
  if (!submitted || submitted->status != 201) {
    std::fprintf(stderr, "serve_load: submit failed: %s\n",
                 submitted ? submitted->body.c_str() : "no answer");
    ::kill(daemon, SIGKILL);
    return 1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  std::atomic<bool> stop{false};
  std::atomic<long> stream_bytes{0}, streams_open{0}, stream_refused{0};
  std::vector<std::thread> stream_threads;
  for (int s = 0; s < streams; ++s)
    stream_threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", port);
      c.set_read_timeout(5, 0);
      bool counted = false;
      auto res = c.Get("/api/stream", [&](const char*, std::size_t n) {
        if (!counted) {
          counted = true;
          ++streams_open;
        }
        stream_bytes += static_cast<long>(n);
        return !stop.load();
      });
      if (res && res->status != 200) ++stream_refused;
    });
  for (int i = 0; i < 250 && streams_open.load() < streams; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));

  // The hostile clients, beside the load from here on.
  std::atomic<long> slow_cut{0}, deaf_open{0};
  std::map<int, long> hostile_answers;
  std::vector<std::thread> hostiles;
  std::vector<int> deaf_fds;
  for (int i = 0; i < deaf; ++i) {
    const int fd = connect_raw(port, "127.0.0.1");
    if (fd >= 0 && send_raw(fd, "GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) {
      deaf_fds.push_back(fd);
      ++deaf_open;
    }
  }
  if (slow > 0) hostiles.emplace_back([&] { hold_slow(port, slow, stop, slow_cut); });
  if (hostile_client)
    hostiles.emplace_back(
        [&] { hostile(port, token.substr(0, token.find('\n')), stop, hostile_answers); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  auto before = referee::engines::process_usage(daemon);
  const long games_before = get_json(control, "/api/events/1").value("finished", 0L);
  const int workers = std::max(1, std::min(16, rate / 60));
  std::mutex mutex;
  std::vector<double> latencies_ms;
  std::atomic<long> failed{0}, busy{0};
  const auto start = Clock::now();
  const auto end = start + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  std::vector<std::thread> load;
  for (int w = 0; w < workers; ++w)
    load.emplace_back([&, w] {
      httplib::Client c("127.0.0.1", port);
      c.set_keep_alive(true);
      c.set_tcp_nodelay(true);
      c.set_read_timeout(10, 0);
      const char* paths[] = {"/api/health",         "/api/events",
                             "/api/events/1",       "/api/events/1/standings",
                             "/api/games?limit=20", "/api/games/1"};
      const auto step = std::chrono::microseconds(1000000L * workers / rate);
      auto next = start + std::chrono::microseconds(1000000L * w / rate);
      std::vector<double> mine;
      for (long i = w; Clock::now() < end; i += 1) {
        std::this_thread::sleep_until(next);
        next += step;
        const auto sent = Clock::now();
        auto res = c.Get(paths[i % 6]);
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
        if (!res)
          ++failed;
        else if (res->status == 503)
          ++busy;
        else if (res->status != 200)
          ++failed;
      }
      std::lock_guard lock(mutex);
      latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
    });
  for (auto& t : load) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  auto after = referee::engines::process_usage(daemon);
  auto event = get_json(control, "/api/events/1");
  auto terms = get_json(control, "/api/events/1/terminations");
  stop = true;
  control.Post("/api/events/1/cancel", "", "application/json");
  for (auto& t : stream_threads) t.join();
  for (auto& t : hostiles) t.join();
  for (int fd : deaf_fds) ::close(fd);

  long on_time = 0;
  if (terms.is_object() && terms.contains("engines"))
    for (const auto& [name, e] : terms["engines"].items()) on_time += e.value("time", 0L);
  const long games = (event.is_object() ? event.value("finished", 0L) : 0L) - games_before;
  const std::size_t requests = latencies_ms.size();
  auto sorted = latencies_ms;
  std::printf(
      "serve load: %.1f s, %d live-stream clients (%ld connected, %ld refused), "
      "%zu API requests (%.0f/s; %ld failed, %ld answered 503), %d HTTP client threads\n",
      elapsed, streams, streams_open.load(), stream_refused.load(), requests,
      static_cast<double>(requests) / elapsed, failed.load(), busy.load(), workers);
  if (slow > 0 || deaf > 0 || hostile_client) {
    std::string answers;
    for (const auto& [status, n] : hostile_answers)
      answers += " " + std::to_string(n) + "x" + (status ? std::to_string(status) : "none");
    std::printf(
        "hostile clients: %d slow (header a byte a second; %ld cut at the deadline), %ld deaf "
        "streams held, hostile requests answered:%s\n",
        slow, slow_cut.load(), deaf_open.load(), answers.empty() ? " -" : answers.c_str());
  }
  std::printf("API latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", percentile(sorted, 0.5),
              percentile(sorted, 0.99),
              sorted.empty() ? 0.0 : *std::max_element(sorted.begin(), sorted.end()));
  if (before && after) {
    const double cpu = (after->user_seconds + after->system_seconds) -
                       (before->user_seconds + before->system_seconds);
    std::printf(
        "daemon: CPU %.2f s over %.1f s (%.0f%% of one core), RSS %.1f MB, peak RSS "
        "%.1f MB, %d threads\n",
        cpu, elapsed, 100.0 * cpu / elapsed, static_cast<double>(after->rss_kb) / 1024,
        static_cast<double>(after->peak_rss_kb) / 1024, after->threads);
  }
  std::printf(
      "games: %ld finished in the window (awale, 40 plies, tc 2+0.05, concurrency 2), "
      "%ld lost on time in the whole event; live stream: %.1f MB received\n",
      games, on_time, static_cast<double>(stream_bytes.load()) / (1 << 20));
  ::kill(daemon, SIGTERM);
  int status = 0;
  ::waitpid(daemon, &status, 0);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return on_time == 0 && failed.load() == 0 ? 0 : 1;
}
