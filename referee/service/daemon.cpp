#include "service/daemon.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "engines/system.h"
#include "service/api.h"
#include "service/listen_backlog.h"
#include "service/reconnect.h"
#include "service/task_queue.h"

namespace referee::service {

namespace {

constexpr auto kHubTick = std::chrono::milliseconds(250);
constexpr auto kRefreshEvery = std::chrono::seconds(2);
constexpr auto kTopUpEvery = std::chrono::seconds(1);
constexpr std::size_t kWaitingConnections = 64;
constexpr std::size_t kIdleSessions = 4;  // per game thread: it serves many events

// While the database is out of reach: the daemon's port answers every request 503 with one line
// saying so (and Retry-After), rather than refusing connections for as long as the server is
// away. Started as soon as a session sees its connection lost, beside that session's server
// (httplib binds with SO_REUSEPORT: the kernel spreads new connections over both), so that no
// request is refused while the session drains; stopped once the next session has bound the port.
class Unreachable {
 public:
  Unreachable(const std::string& host, int port, const std::string& db) {
    const std::string why =
        "the database " + storage::database_name(db) + " is unreachable: reconnecting";
    auto answer = [why](const httplib::Request&, httplib::Response& res) {
      res.set_header("Retry-After", "1");
      reply_error(res, 503, why);
    };
    server_.Get(".*", answer);
    server_.Post(".*", answer);
    server_.Put(".*", answer);
    server_.Patch(".*", answer);
    server_.Delete(".*", answer);
    server_.set_read_timeout(5, 0);
    server_.set_write_timeout(5, 0);
    if (port > 0 && bind_with_deep_backlog(server_, host, port).port > 0)
      listener_ = std::thread([this] {
        server_.listen_after_bind();
        ended_ = true;
      });
  }
  ~Unreachable() {
    if (!listener_.joinable()) return;
    // stop() does nothing until the listener runs.
    while (!server_.is_running() && !ended_.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_.stop();
    listener_.join();
  }
  Unreachable(const Unreachable&) = delete;
  Unreachable& operator=(const Unreachable&) = delete;

 private:
  httplib::Server server_;
  std::atomic<bool> ended_{false};
  std::thread listener_;
};

struct SessionEnd {
  int status = 0;          // the exit status, when the daemon stops
  bool reconnect = false;  // the connection to the server was lost: open a new one and go on
  std::int64_t owner = 0;  // the owner of the session (0: none registered)
};

// One connection's worth of serving: registers an owner on `store`, binds `port` (0: any; set to
// the one bound, so that a later session binds the same), serves until a signal or a storage
// failure. `first`: the session that prints the "listening on" line. `away`: the 503 answerer,
// stopped here once the port is bound, started here when the connection is lost.
SessionEnd serve_session(const ServeOptions& options, Log& log,
                         const engines::InterruptWatch& signals, std::ostream& out,
                         std::optional<storage::Store>& opened, bool first, int& port,
                         std::unique_ptr<Unreachable>& away) {
  SessionEnd end;
  end.status = 1;
  auto core = std::make_unique<Core>();
  core->options = options;
  core->idle_max_ms = options.idle_max_ms;
  core->log = &log;
  core->db_path = options.db;
  {
    OwnerSettings settings;
    settings.info.name = "serve " + options.host + ":" + std::to_string(options.port);
    settings.info.host = engines::host_name();
    settings.info.pid = engines::process_id();
    settings.info.kind = storage::OwnerKind::Serve;
    settings.info.lease_ms = options.lease_ms;
    settings.threads = game_threads(options.concurrency);
    settings.commit_interval = std::chrono::milliseconds(options.commit_interval_ms);
    settings.keep_logs = options.keep_logs;
    settings.idle_sessions = kIdleSessions;
    settings.limits = logged_limits(options.limits, log);
    auto loop = OwnerLoop::start(*opened, settings);
    if (!loop) {
      log.error(loop.error());
      end.reconnect =
          loop.kind() == ErrorKind::Unavailable || loop.kind() == ErrorKind::Unavailable || !first;
      return end;
    }
    core->loop = std::move(*loop);
    end.owner = core->owner();
    opened.reset();
  }
  core->reads = std::make_unique<ReadPool>(options.db);
  if (auto loaded = refresh_events(*core); !loaded) {
    log.error(loaded.error());
    (void)core->loop->stop();  // on a failure its claims wait for their leases
    end.reconnect = lost_connection(loaded.failure()) || !first;
    return end;
  }

  httplib::Server server;
  const std::size_t http_threads = static_cast<std::size_t>(
      std::max(1, options.max_stream_clients) + std::max(1, options.http_threads));
  server.new_task_queue = [http_threads] {
    return new BoundedTaskQueue(http_threads, kWaitingConnections);
  };
  server.set_payload_max_length(options.max_body_bytes);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_timeout(5);
  server.set_keep_alive_max_count(1000);
  // A reply is written in pieces (headers, body): without TCP_NODELAY, Nagle's algorithm holds the
  // body until the client's delayed ACK, 40 ms on Linux (measured: p50 44 ms on keep-alive).
  server.set_tcp_nodelay(true);
  install_api(server, *core);
  auto give_up = [&](const std::string& why) {
    log.error(why);
    (void)core->loop->stop();  // on a failure its claims wait for their leases
    core->loop.reset();
    return end;
  };
  const Bound bound = bind_with_deep_backlog(server, options.host, port);
  if (bound.port <= 0)
    return give_up(port == 0 ? "cannot listen on " + options.host + " (any port)"
                             : "cannot listen on " + options.host + ":" + std::to_string(port) +
                                   " (in use, or not an address of this machine)");
  port = bound.port;
  if (!bound.deep)
    log.warning(
        "the listening socket keeps httplib's backlog of 5: bursts of connections may wait");
  const std::string shown_host =
      options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
  away.reset();

  log.info("serving " + storage::database_name(options.db) + " on http://" + shown_host + ":" +
           std::to_string(port) + " with " + std::to_string(core->loop->threads()) +
           " game threads (owner " + std::to_string(core->owner()) + ", commits every " +
           std::to_string(core->loop->interval().count()) + " ms, " +
           (options.token.empty() ? "no token: loopback only" : "token required") + ")");
  // After the log line: whoever waits for this one finds the log begun.
  if (first) out << "listening on http://" << shown_host << ":" << port << std::endl;

  std::thread listener([&server] { server.listen_after_bind(); });
  core->loop->run(work_source(*core));
  std::atomic<bool> hub_done{false};
  std::thread hub([&] {
    auto next_refresh = SteadyClock::now() + kRefreshEvery;
    auto next_top_up = SteadyClock::now();
    while (!hub_done.load()) {
      nap(kHubTick, [&] { return !hub_done.load(); });
      check_sprt_events(*core);
      publish_dirty(*core);
      const auto now = SteadyClock::now();
      if (now >= next_refresh) {
        if (auto st = refresh_events(*core); !st) log.warning(st.error());
        next_refresh = now + kRefreshEvery;
      }
      if (now >= next_top_up && !core->draining()) {
        top_up_ladders(*core);
        next_top_up = now + kTopUpEvery;
      }
    }
  });

  // Serve until a signal or a storage failure.
  // From 0, not from the count here: a SIGHUP that came after "serving" was logged but before
  // this loop started (the threads above take a while) still reopens the log.
  int hangups = 0;
  while (!signals.flag().load() && !core->failed()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (signals.hangups() != hangups) {
      hangups = signals.hangups();
      if (auto st = log.reopen(); !st) log.error(st.error());
      log.info("log reopened");
    }
  }

  // Drain: no new games; the running ones may finish until the deadline or a second signal.
  const int running = core->loop->busy();
  const bool failed = core->failed();
  const Error failure = failed ? core->loop->failure() : Error{};
  if (failed) {
    log.error("storage failure, stopping the games: " + failure.message);
    if (lost_connection(failure) && !signals.flag().load())
      away = std::make_unique<Unreachable>(options.host, port, options.db);
  } else {
    log.info("stopping: " + std::to_string(running) + " games running, waiting up to " +
             std::to_string(static_cast<long>(options.drain_seconds)) + " s for them");
  }
  drain_games(
      *core, options.drain_seconds, [&] { return signals.interrupts() < 2; }, log);
  hub_done = true;
  hub.join();
  // A failed release is told: its claims then wait for their leases to expire.
  if (auto released = core->loop->stop(); !released) log.error(released.error());
  core->stream.close();
  server.stop();
  listener.join();
  // A failure while draining or releasing counts too.
  const bool ended_failed = core->failed();
  const Error last_failure = ended_failed ? core->loop->failure() : Error{};
  core->loop.reset();
  if (ended_failed && lost_connection(last_failure) && !signals.flag().load()) {
    end.reconnect = true;
    return end;
  }
  log.info(ended_failed ? "stopped after a storage failure" : "stopped");
  end.status = ended_failed ? 1 : 0;
  return end;
}

}  // namespace

// Sessions as the worker's (worker.cpp): one that lost its connection to the server is followed
// by another on a new connection (reconnect.h), on the same port; in between every request is
// answered 503 (Unreachable) and live streams end (clients connect again).
int serve(const ServeOptions& options, Log& log, const engines::InterruptWatch& signals,
          std::ostream& out) {
  std::optional<storage::Store> store;
  if (auto opened = storage::Store::open(options.db); opened) {
    store.emplace(std::move(*opened));
  } else {
    log.error(opened.error());
    return 1;
  }
  int port = options.port;
  bool first = true;
  std::unique_ptr<Unreachable> away;
  for (;;) {
    SessionEnd end = serve_session(options, log, signals, out, store, first, port, away);
    if (!end.reconnect || signals.flag().load()) return end.status;
    first = false;
    store = reopen_store(options.db, log, signals);
    if (!store) return 1;
    release_lost_owner(*store, end.owner, log);
  }
}

}  // namespace referee::service
