#include "service/worker.h"

#include <algorithm>
#include <thread>

#include "engines/system.h"
#include "event/event_spec.h"
#include "event/schedule.h"
#include "service/core.h"
#include "service/reconnect.h"
#include "storage/work_queue.h"

namespace referee::service {

namespace {

constexpr auto kRefreshBusy = std::chrono::milliseconds(1000);

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
  auto config = load_tournament_file(file);
  if (!config) return config.failure();
  auto schedule = make_schedule(*config);
  if (!schedule) return Error{file + ": " + schedule.error()};
  if (schedule->size() > static_cast<std::size_t>(kMaxScheduledGames))
    return Error{file + ": " + std::to_string(schedule->size()) +
                 " games scheduled; an event holds at most " + std::to_string(kMaxScheduledGames)};
  const std::string spec = event_spec(*config);
  storage::NewEventOptions options;
  options.state = storage::EventState::Queued;
  auto row =
      storage::work_queue::open_event(store, config->name, spec, schedule_fingerprint(*config),
                                      slot_records(*config, *schedule), options);
  if (!row) return row.failure();
  if (!row->created) {
    const std::string changes =
        row->spec.empty() ? std::string("its schedule") : spec_changes(row->spec, spec);
    if (!changes.empty())
      return Error{file + ": event \"" + config->name +
                   "\" already exists with a different specification (" + changes +
                   "); give it a new name"};
  }
  return row;
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
  core->options.db = options.db;
  core->options.concurrency = options.concurrency;
  core->options.lease_ms = options.lease_ms;
  core->options.drain_seconds = options.drain_seconds;
  core->options.keep_logs = options.keep_logs;
  core->options.idle_max_ms = std::max(1000L, options.idle_max_ms);
  core->log = &log;
  core->db_path = options.db;
  SessionEnd end;
  // A failure before the games start: worth a new connection when the old one was lost, or, after
  // a reconnection, when the server went away again (the reads open their own connections).
  auto stop_with = [&](const Error& error) {
    end.reconnect = error.kind == ErrorKind::Unavailable || !first;
    end.status = 1;
    return end;
  };
  const auto interval = options.commit_interval_ms > 0
                            ? std::chrono::milliseconds(options.commit_interval_ms)
                            : store.default_commit_interval();
  {
    storage::OwnerInfo me;
    me.name = name;
    me.host = engines::host_name();
    me.pid = engines::process_id();
    me.kind = storage::OwnerKind::Worker;
    me.lease_ms = options.lease_ms;
    auto owner = storage::work_queue::register_owner(store, me);
    if (!owner) {
      log.error(owner.error());
      return stop_with(owner.failure());
    }
    core->owner = end.owner = *owner;
    if (first && !options.queue.empty()) {
      auto row = queue_event(store, options.queue);
      if (!row) {
        log.error(row.error());
        (void)storage::work_queue::stop_owner(store, core->owner);
        end.status = 1;
        return end;
      }
      log.info("event " + std::to_string(row->id) + " \"" + row->name + "\" " +
               (row->created ? "queued" : "was already queued"));
    }
    Core* c = core.get();
    core->recorder = std::make_unique<storage::Recorder>(
        std::move(store), interval, [c](const Error& error) { c->fail(error); });
  }
  core->reads = std::make_unique<ReadPool>(options.db, 2);
  if (auto loaded = refresh_events(*core); !loaded) {
    log.error(loaded.error());
    (void)core->recorder->call<Ok>(  // on a failure its claims wait for their leases
        [&](storage::Store& s) { return storage::work_queue::stop_owner(s, core->owner); });
    return stop_with(loaded.failure());
  }
  if (first) out << "worker " << name << " (owner " << core->owner << ")" << std::endl;
  end.started = true;
  log.info("worker " + name + " on " + storage::database_name(options.db) + " with " +
           std::to_string(options.concurrency) + " game slots (owner " +
           std::to_string(core->owner) + ", lease " + std::to_string(options.lease_ms) +
           " ms, commits every " + std::to_string(interval.count()) + " ms)");

  {
    std::lock_guard lock(core->mutex);
    for (int i = 0; i < options.concurrency; ++i) {
      core->slots.push_back(std::make_unique<GameSlot>());
      core->slots.back()->index = i;
    }
  }
  std::vector<std::thread> players;
  for (auto& slot : core->slots)
    players.emplace_back([&core, s = slot.get()] { run_game_slot(*core, *s); });
  std::atomic<bool> done{false};
  std::thread heartbeat([&] {
    const auto period = std::chrono::milliseconds(std::max<long>(50, options.lease_ms / 4));
    while (!done.load()) {
      nap(period, [&] { return !done.load(); });
      if (done.load()) break;
      auto renewed = core->recorder->call<int>([&](storage::Store& s) {
        return storage::work_queue::renew_claims(s, core->owner, options.lease_ms);
      });
      if (!renewed) core->fail(renewed.failure());
    }
  });

  // Reads the events again: every second while there is work, backing off while there is none.
  std::atomic<bool> idle_done{false};  // exit_when_done: nothing open is left
  std::thread refresher([&] {
    auto wait = kRefreshBusy;
    while (!done.load() && !core->stop_claims.load()) {
      nap(wait, [&] { return !done.load() && !core->stop_claims.load(); });
      if (done.load() || core->stop_claims.load()) break;
      if (auto st = refresh_events(*core); !st) log.warning(st.error());
      const bool open = open_events(*core) > 0;
      if (!open && busy_slots(*core) == 0 && options.exit_when_done) {
        idle_done = true;
        break;
      }
      wait = open ? kRefreshBusy
                  : std::min(std::chrono::milliseconds(core->options.idle_max_ms), wait * 2);
    }
  });

  while (!signals.flag().load() && !core->failed.load() && !idle_done.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(50));

  core->stop_claims = true;
  core->wake();
  std::string failure;
  if (core->failed.load()) {
    {
      std::lock_guard lock(core->mutex);
      failure = core->failure;
    }
    log.error("storage failure, stopping the games: " + failure);
  } else if (idle_done.load()) {
    log.info("no event left to play: stopping");
  } else {
    log.info("stopping: " + std::to_string(busy_slots(*core)) + " games running, waiting up to " +
             std::to_string(static_cast<long>(options.drain_seconds)) + " s for them");
  }
  drain_slots(
      *core, options.drain_seconds, [&] { return signals.interrupts() < 2; }, log);
  for (auto& t : players) t.join();
  done = true;
  heartbeat.join();
  refresher.join();
  // A failed release is told: its claims then wait for their leases to expire.
  if (auto released = core->recorder->call<Ok>(
          [&](storage::Store& s) { return storage::work_queue::stop_owner(s, core->owner); });
      !released)
    log.error(released.error());
  core->recorder->flush();
  const bool failed = core->failed.load();
  core->recorder.reset();
  if (failed && core->connection_lost.load() && !signals.flag().load()) {
    end.reconnect = true;
    end.status = 1;
    return end;
  }
  log.info(failed ? "stopped after a storage failure" : "stopped");
  end.status = failed ? 1 : 0;
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
