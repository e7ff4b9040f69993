// Load benchmark of `referee serve` (not a test; prints figures): a daemon on a loopback port
// plays an event of fast mock engines at concurrency 2 while this program holds open live-stream
// clients and drives a steady rate of API requests. It prints the API latency (p50, p99, max),
// the daemon's CPU and peak RSS over the window, the live-stream bytes received, the games played,
// and the games lost on time (goal: none: the engines' clocks must not feel the server).
//
// Usage: serve_load [--seconds S] [--streams N] [--rate R]   (defaults 20, 200, 1000)
//
// Decisions: the requests are paced by a schedule (a request is sent at its planned time, or at
// once when late), so the rate holds whatever the latency; the latency is measured from the send,
// on keep-alive connections, over a mix of the dashboard's reads (health, events, one event, its
// standings, a page of games, one game). The daemon's CPU is user+system from /proc, engines
// (its children) excluded.
#include <fcntl.h>
#include <signal.h>
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

pid_t start_daemon(const std::string& dir, const std::string& out_path) {
  std::vector<std::string> text = {REFEREE_BIN,   "serve", "--db", dir + "/serve.db", "--listen",
                                   "127.0.0.1:0", "-c",    "2",    "--max-streams",   "256"};
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

}  // namespace

int main(int argc, char** argv) {
  double seconds = 20;
  int streams = 200, rate = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--seconds")
      seconds = std::atof(argv[i + 1]);
    else if (a == "--streams")
      streams = std::atoi(argv[i + 1]);
    else if (a == "--rate")
      rate = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: serve_load [--seconds S] [--streams N] [--rate R]\n");
      return 2;
    }
  }
  if (!(seconds > 0 && seconds <= 600) || streams < 0 || streams > 1000 || rate < 1 ||
      rate > 20000) {
    std::fprintf(stderr, "serve_load: --seconds 0..600, --streams 0..1000, --rate 1..20000\n");
    return 2;
  }
  const std::string dir = referee::engines::make_temp_dir("serve-load");
  const std::string out_path = dir + "/serve.out";
  const pid_t daemon = start_daemon(dir, out_path);
  const int port = wait_port(out_path);
  if (port == 0) {
    std::fprintf(stderr, "serve_load: the daemon did not start: %s\n",
                 read_text(dir + "/serve.err").c_str());
    ::kill(daemon, SIGKILL);
    return 1;
  }

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
