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
#include "storage/work_queue.h"

namespace referee::service {

namespace {

constexpr auto kHubTick = std::chrono::milliseconds(250);
constexpr auto kRefreshEvery = std::chrono::seconds(2);
constexpr auto kTopUpEvery = std::chrono::seconds(1);
constexpr std::size_t kWaitingConnections = 64;

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
  core->log = &log;
  core->db_path = options.db;
  std::chrono::milliseconds interval{0};
  {
    storage::Store& store = *opened;
    storage::OwnerInfo me;
    me.name = "serve " + options.host + ":" + std::to_string(options.port);
    me.host = engines::host_name();
    me.pid = engines::process_id();
    me.kind = storage::OwnerKind::Serve;
    me.lease_ms = options.lease_ms;
    auto owner = storage::work_queue::register_owner(store, me);
    if (!owner) {
      log.error(owner.error());
      end.reconnect = owner.kind() == ErrorKind::Unavailable || !first;
      return end;
    }
    core->owner = end.owner = *owner;
    Core* c = core.get();
    interval = options.commit_interval_ms > 0
                   ? std::chrono::milliseconds(options.commit_interval_ms)
                   : store.default_commit_interval();
    core->recorder = std::make_unique<storage::Recorder>(
        std::move(store), interval, [c](const Error& error) { c->fail(error); });
    opened.reset();
  }
  core->reads = std::make_unique<ReadPool>(options.db);
  if (auto loaded = refresh_events(*core); !loaded) {
    log.error(loaded.error());
    (void)core->recorder->call<Ok>(  // on a failure its claims wait for their leases
        [&](storage::Store& s) { return storage::work_queue::stop_owner(s, core->owner); });
    end.reconnect = loaded.kind() == ErrorKind::Unavailable || !first;
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
    (void)core->recorder->call<Ok>(  // on a failure its claims wait for their leases
        [&](storage::Store& s) { return storage::work_queue::stop_owner(s, core->owner); });
    core->recorder.reset();
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

  int slots = options.concurrency > 0
                  ? options.concurrency
                  : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  {
    std::lock_guard lock(core->mutex);
    for (int i = 0; i < slots; ++i) {
      core->slots.push_back(std::make_unique<GameSlot>());
      core->slots.back()->index = i;
    }
  }
  log.info("serving " + storage::database_name(options.db) + " on http://" + shown_host + ":" +
           std::to_string(port) + " with " + std::to_string(slots) + " game slots (owner " +
           std::to_string(core->owner) + ", commits every " + std::to_string(interval.count()) +
           " ms, " + (options.token.empty() ? "no token: loopback only" : "token required") + ")");
  // After the log line: whoever waits for this one finds the log begun.
  if (first) out << "listening on http://" << shown_host << ":" << port << std::endl;

  std::thread listener([&server] { server.listen_after_bind(); });
  std::vector<std::thread> players;
  for (auto& slot : core->slots)
    players.emplace_back([&core, s = slot.get()] { run_game_slot(*core, *s); });
  std::atomic<bool> hub_done{false};
  std::thread heartbeat([&] {
    const auto period = std::chrono::milliseconds(std::max<long>(50, options.lease_ms / 4));
    while (!hub_done.load()) {
      nap(period, [&] { return !hub_done.load(); });
      if (hub_done.load()) break;
      (void)core->recorder->call<int>(  // a failure reaches Core::fail (on_failure)
          [&](storage::Store& s) {
            return storage::work_queue::renew_claims(s, core->owner, options.lease_ms);
          });
    }
  });
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
      if (now >= next_top_up && !core->stop_claims.load()) {
        top_up_ladders(*core);
        next_top_up = now + kTopUpEvery;
      }
    }
  });

  // Serve until a signal or a storage failure.
  // From 0, not from the count here: a SIGHUP that came after "serving" was logged but before
  // this loop started (the threads above take a while) still reopens the log.
  int hangups = 0;
  while (!signals.flag().load() && !core->failed.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (signals.hangups() != hangups) {
      hangups = signals.hangups();
      if (auto st = log.reopen(); !st) log.error(st.error());
      log.info("log reopened");
    }
  }

  // Drain: no new games; the running ones may finish until the deadline or a second signal.
  core->stop_claims = true;
  core->wake();
  const int running = busy_slots(*core);
  if (core->failed.load()) {
    std::string failure;
    {
      std::lock_guard lock(core->mutex);
      failure = core->failure;
    }
    log.error("storage failure, stopping the games: " + failure);
    if (core->connection_lost.load() && !signals.flag().load())
      away = std::make_unique<Unreachable>(options.host, port, options.db);
  } else {
    log.info("stopping: " + std::to_string(running) + " games running, waiting up to " +
             std::to_string(static_cast<long>(options.drain_seconds)) + " s for them");
  }
  drain_slots(
      *core, options.drain_seconds, [&] { return signals.interrupts() < 2; }, log);
  for (auto& t : players) t.join();
  hub_done = true;
  heartbeat.join();
  hub.join();
  // A failed release is told: its claims then wait for their leases to expire.
  if (auto released = core->recorder->call<Ok>(
          [&](storage::Store& s) { return storage::work_queue::stop_owner(s, core->owner); });
      !released)
    log.error(released.error());
  core->recorder->flush();
  core->stream.close();
  server.stop();
  listener.join();
  const bool failed = core->failed.load();
  core->recorder.reset();
  std::string failure;
  {
    std::lock_guard lock(core->mutex);
    failure = core->failure;
  }
  if (failed && core->connection_lost.load() && !signals.flag().load()) {
    end.reconnect = true;
    return end;
  }
  log.info(failed ? "stopped after a storage failure" : "stopped");
  end.status = failed ? 1 : 0;
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
