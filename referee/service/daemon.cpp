#include "service/daemon.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "engines/system.h"
#include "service/api.h"
#include "service/http_server.h"
#include "service/reconnect.h"

namespace referee::service {

namespace {

constexpr auto kHubTick = std::chrono::milliseconds(250);
constexpr auto kRefreshEvery = std::chrono::seconds(2);
constexpr auto kTopUpEvery = std::chrono::seconds(1);
constexpr std::size_t kIdleSessions = 4;  // per game thread: it serves many events
constexpr long kOpenFiles = 8192;
constexpr int kAllocatorArenas = 2;
constexpr long kReservedFiles = 128;  // the database, the log, the read pool, the process itself
constexpr long kFilesPerGame = 16;    // two engines' pipes and their keeper, with room

// Answers every request with 503 and `why` (and Retry-After): between sessions, while the
// database is away or the daemon is stopping, so that no request finds a handler whose Core is
// gone and none is refused at the door.
http::Handler unavailable(std::string why) {
  return [why = std::move(why)](http::Request&, http::Response& res) {
    res.set_header("Retry-After", "1");
    reply_error(res, 503, why);
  };
}

struct SessionEnd {
  int status = 0;          // the exit status, when the daemon stops
  bool reconnect = false;  // the connection to the server was lost: open a new one and go on
  std::int64_t owner = 0;  // the owner of the session (0: none registered)
  bool full = false;       // it could not register: the disk or the database is full
};

// One connection's worth of serving: registers an owner on `store`, serves the API through
// `server` (bound already) until a signal or a storage failure, and leaves the server answering
// 503 when it returns. `first`: the daemon's first session (a failure to start it, but for a
// lost connection or a full disk, ends the daemon). `announced`: the "listening on" line was
// printed (by the first session that served).
SessionEnd serve_session(const ServeOptions& options, Log& log,
                         const engines::InterruptWatch& signals, std::ostream& out,
                         std::optional<storage::Store>& opened, bool first, bool& announced,
                         int port, http::Server& server) {
  SessionEnd end;
  end.status = 1;
  auto core = std::make_unique<Core>();
  core->options = options;
  core->idle_max_ms = options.idle_max_ms;
  core->log = &log;
  core->db_path = options.db;
  {
    event::OwnerSettings settings;
    settings.info.name = "serve " + options.host + ":" + std::to_string(options.port);
    settings.info.host = engines::host_name();
    settings.info.pid = engines::process_id();
    settings.info.kind = storage::OwnerKind::Serve;
    settings.info.lease_ms = options.lease_ms;
    settings.threads = event::game_threads(options.concurrency);
    settings.commit_interval = std::chrono::milliseconds(options.commit_interval_ms);
    settings.keep_logs = options.keep_logs;
    settings.idle_sessions = kIdleSessions;
    settings.artifact_cache = options.artifact_cache;
    settings.limits = logged_limits(options.limits, log);
    auto loop = event::OwnerLoop::start(*opened, settings);
    if (!loop) {
      log.error(loop.error());
      // A full disk or database is waited out like a server out of reach: exiting would only
      // become a restart every few seconds under the unit's Restart=on-failure.
      end.full = loop.kind() == ErrorKind::Full;
      end.reconnect = loop.kind() == ErrorKind::Unavailable || end.full || !first;
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

  const std::string shown_host =
      options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
  server.set_handler(api_handler(*core));

  log.info("serving " + storage::database_name(options.db) + " on http://" + shown_host + ":" +
           std::to_string(port) + " with " + std::to_string(core->loop->threads()) +
           " game threads (owner " + std::to_string(core->owner()) + ", commits every " +
           std::to_string(core->loop->interval().count()) + " ms, " +
           (options.socket.empty() ? std::string("changes need a token")
                                   : "changes need a token or the socket " + options.socket) +
           ")");
  // After the log line: whoever waits for this one finds the log begun.
  if (!announced) out << "listening on http://" << shown_host << ":" << port << std::endl;
  announced = true;

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
    if (lost_connection(failure) && !signals.flag().load()) {
      // Streams end first: the handler is replaced once no request runs it.
      core->stream.close();
      server.set_handler(unavailable("the database " + storage::database_name(options.db) +
                                     " is unreachable: reconnecting"));
    }
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
  server.set_handler(unavailable("the daemon is stopping"));
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
// answered 503 (unavailable) and live streams end (clients connect again).
int serve(const ServeOptions& options, Log& log, const engines::InterruptWatch& signals,
          std::ostream& out) {
  // As the systemd unit's LimitNOFILE. Beyond the connections' share, new connections get 503 and
  // are closed (http_server.h); the games keep theirs: each engine's pipes come from the share
  // left over.
  const long files = engines::raise_open_files_limit(kOpenFiles);
  // Measured with 200 live streams and 300 that never read (tests/bench/serve_load): 505 MB of
  // RSS with glibc's default arenas, 103 MB with two, and a lower p99 latency.
  engines::limit_allocator_arenas(kAllocatorArenas);
  const long reserved = kReservedFiles + kFilesPerGame * event::game_threads(options.concurrency);
  http::Limits limits;
  limits.max_body = options.max_body_bytes;
  limits.upload_paths = {kArtifactsPath};
  limits.max_upload = options.max_artifact_bytes;
  limits.min_upload_rate = options.min_upload_rate;
  limits.handler_threads = static_cast<std::size_t>(std::max(1, options.max_stream_clients) +
                                                    std::max(1, options.http_threads));
  limits.max_connections = static_cast<std::size_t>(std::max(16L, files - reserved));
  http::Server server(limits, unavailable("the daemon is starting"));
  auto bound = server.listen_tcp(options.host, options.port);
  if (!bound) {
    log.error(bound.error());
    return 1;
  }
  if (!options.socket.empty())
    if (auto listening = server.listen_unix(options.socket, 0660); !listening) {
      log.error(listening.error());
      return 1;
    }

  std::optional<storage::Store> store;
  if (auto opened = storage::Store::open(options.db); opened) {
    store.emplace(std::move(*opened));
  } else {
    log.error(opened.error());
    return 1;
  }
  server.start();
  bool first = true, announced = false;
  auto unregistered_wait = kReconnectFirst;
  for (;;) {
    SessionEnd end =
        serve_session(options, log, signals, out, store, first, announced, *bound, server);
    if (!end.reconnect || signals.flag().load()) return end.status;
    first = false;
    const std::string name = storage::database_name(options.db);
    server.set_handler(
        unavailable(end.full ? "the disk of the database " + name + " is full: waiting for room"
                             : "the database " + name + " is unreachable: reconnecting"));
    // A session that could not even register waits longer each time (up to kReconnectMax, as
    // reopen_store's attempts), so that a lasting failure costs a log line every few seconds.
    if (end.owner == 0) {
      log.info("trying again in " + std::to_string(unregistered_wait.count()) + " ms");
      nap(unregistered_wait, [&] { return !signals.flag().load(); });
      if (signals.flag().load()) return end.status;
      unregistered_wait = std::min(unregistered_wait * 2, kReconnectMax);
    } else {
      unregistered_wait = kReconnectFirst;
    }
    store = reopen_store(options.db, log, signals);
    if (!store) return 1;
    release_lost_owner(*store, end.owner, log);
  }
}

}  // namespace referee::service
