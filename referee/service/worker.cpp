#include "service/worker.h"

#include <algorithm>
#include <thread>

#include "engines/system.h"
#include "event/artifact_engines.h"
#include "event/event_spec.h"
#include "event/rounds.h"
#include "event/schedule.h"
#include "service/core.h"
#include "service/reconnect.h"

namespace referee::service {

namespace {

constexpr auto kRefreshBusy = std::chrono::milliseconds(1000);
constexpr std::size_t kIdleSessions = 4;  // per game thread: it serves many events

// Events that may still give work: queued or running (paused ones wait for a resume).
int open_events(Core& core) {
  std::lock_guard lock(core.mutex);
  int open = 0;
  for (const auto& [id, rt] : core.events)
    open += rt.state == storage::EventState::Queued || rt.state == storage::EventState::Running;
  return open;
}

}  // namespace

Expected<storage::EventRow> queue_event(storage::Store& store, const std::string& file) {
  auto config = event::load_tournament_file(file);
  if (!config) return config.failure();
  if (Status pinned = event::resolve_artifacts(store, config->engines); !pinned)
    return Error{file + ": " + pinned.error(), pinned.kind()};
  if (Status seeded = event::fill_seeds(store, *config); !seeded) return seeded.failure();
  const std::string spec = event::event_spec(*config);
  storage::NewEventOptions options;
  options.state = storage::EventState::Queued;
  std::optional<Error> refused;
  auto opened = event::open_tournament_event(store, *config, spec, options,
                                             event::OnOtherSpec::ReplaceUnplayed, refused);
  if (refused)
    return Error{file + ": " + refused->message +
                     (refused->kind == ErrorKind::Conflict ? "; give it a new name" : ""),
                 refused->kind};
  if (!opened) return opened.failure();
  return opened->row;
}

namespace {

struct SessionEnd {
  int status = 0;          // the exit status, when the worker stops
  bool reconnect = false;  // the connection to the server was lost: open a new one and go on
  std::int64_t owner = 0;  // the owner of the session (0: none registered)
  bool started = false;    // it got to play (the queued file is in, the first line written)
};

// One connection's worth of work: registers an owner on `store`, plays until a signal, the end of
// the work (exit_when_done) or a storage failure.
SessionEnd run_session(const WorkerOptions& options, const std::string& name, Log& log,
                       const engines::InterruptWatch& signals, std::ostream& out,
                       storage::Store store, bool first) {
  auto core = std::make_unique<Core>();
  core->idle_max_ms = std::max(1000L, options.idle_max_ms);
  core->log = &log;
  core->db_path = options.db;
  SessionEnd end;
  // A failure before the games start: worth a new connection when the old one was lost, or, after
  // a reconnection, when the server went away again (the reads open their own connections).
  auto stop_with = [&](const Error& error) {
    end.reconnect = lost_connection(error) || !first;
    end.status = 1;
    return end;
  };
  if (first && !options.queue.empty()) {
    auto row = queue_event(store, options.queue);
    if (!row) {
      log.error(row.error());
      end.status = 1;
      return end;
    }
    log.info("event " + std::to_string(row->id) + " \"" + row->name + "\" " +
             (row->created ? "queued" : "was already queued"));
  }
  {
    event::OwnerSettings settings;
    settings.info.name = name;
    settings.info.host = engines::host_name();
    settings.info.pid = engines::process_id();
    settings.info.kind = storage::OwnerKind::Worker;
    settings.info.lease_ms = options.lease_ms;
    settings.threads = std::max(1, options.concurrency);
    settings.commit_interval = std::chrono::milliseconds(options.commit_interval_ms);
    settings.keep_logs = options.keep_logs;
    settings.idle_sessions = kIdleSessions;
    settings.artifact_cache = options.artifact_cache;
    settings.limits = logged_limits(options.limits, log);
    auto loop = event::OwnerLoop::start(store, settings);
    if (!loop) {
      log.error(loop.error());
      return stop_with(loop.failure());
    }
    core->loop = std::move(*loop);
    end.owner = core->owner();
  }
  core->reads = std::make_unique<ReadPool>(options.db, 2);
  if (auto loaded = refresh_events(*core); !loaded) {
    log.error(loaded.error());
    (void)core->loop->stop();  // on a failure its claims wait for their leases
    return stop_with(loaded.failure());
  }
  if (first) out << "worker " << name << " (owner " << core->owner() << ")" << std::endl;
  end.started = true;
  log.info("worker " + name + " on " + storage::database_name(options.db) + " with " +
           std::to_string(core->loop->threads()) + " game threads (owner " +
           std::to_string(core->owner()) + ", lease " + std::to_string(options.lease_ms) +
           " ms, commits every " + std::to_string(core->loop->interval().count()) + " ms)");

  core->loop->run(work_source(*core));
  std::atomic<bool> done{false};

  // Reads the events again: every second while there is work, backing off while there is none.
  std::atomic<bool> idle_done{false};  // exit_when_done: nothing open is left
  std::thread refresher([&] {
    auto wait = kRefreshBusy;
    while (!done.load() && !core->draining()) {
      nap(wait, [&] { return !done.load() && !core->draining(); });
      if (done.load() || core->draining()) break;
      if (auto st = refresh_events(*core); !st) log.warning(st.error());
      sync_ladder_rosters(*core);  // the versions of stored engines added or retired meanwhile
      const bool open = open_events(*core) > 0;
      if (!open && core->loop->busy() == 0 && options.exit_when_done) {
        idle_done = true;
        break;
      }
      wait = open ? kRefreshBusy : std::min(std::chrono::milliseconds(core->idle_max_ms), wait * 2);
    }
  });

  while (!signals.flag().load() && !core->failed() && !idle_done.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(50));

  const bool failed = core->failed();
  const Error failure = failed ? core->loop->failure() : Error{};
  if (failed) {
    log.error("storage failure, stopping the games: " + failure.message);
  } else if (idle_done.load()) {
    log.info("no event left to play: stopping");
  } else {
    log.info("stopping: " + std::to_string(core->loop->busy()) + " games running, waiting up to " +
             std::to_string(static_cast<long>(options.drain_seconds)) + " s for them");
  }
  drain_games(
      *core, options.drain_seconds, [&] { return signals.interrupts() < 2; }, log);
  done = true;
  refresher.join();
  // A failed release is told: its claims then wait for their leases to expire.
  if (auto released = core->loop->stop(); !released) log.error(released.error());
  // A failure while draining or releasing counts too.
  const bool ended_failed = core->failed();
  const Error last_failure = ended_failed ? core->loop->failure() : Error{};
  core->loop.reset();
  if (ended_failed && lost_connection(last_failure) && !signals.flag().load()) {
    end.reconnect = true;
    end.status = 1;
    return end;
  }
  log.info(ended_failed ? "stopped after a storage failure" : "stopped");
  end.status = ended_failed ? 1 : 0;
  return end;
}

}  // namespace

// Sessions: the first opens the database; one that lost its connection to the server is followed
// by another on a new connection (reconnect.h). The lost session's claims are released on the new
// connection (its games in progress were interrupted: their slots go back to pending, and whoever
// claims them next keeps the half-played games as interrupted).
int work(const WorkerOptions& options, Log& log, const engines::InterruptWatch& signals,
         std::ostream& out) {
  const std::string name = options.name.empty() ? engines::host_name() : options.name;
  std::optional<storage::Store> store;
  if (auto opened = storage::Store::open(options.db); opened) {
    store.emplace(std::move(*opened));
  } else {
    log.error(opened.error());
    return 1;
  }
  bool first = true;
  for (;;) {
    SessionEnd end = run_session(options, name, log, signals, out, std::move(*store), first);
    if (!end.reconnect || signals.flag().load()) return end.status;
    first = first && !end.started;
    store = reopen_store(options.db, log, signals);
    if (!store) return 1;
    release_lost_owner(*store, end.owner, log);
  }
}

}  // namespace referee::service
