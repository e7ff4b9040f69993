// The events the daemon plays: loading them from the database, submitting, pausing, resuming,
// cancelling, reprioritizing, their summaries and standings (see core.h).
//
// Decisions:
// - A submitted file is the same document as `referee tournament` reads, plus two keys only the
//   daemon knows: `kind` and `priority`. Kinds: "tournament", and "sprt" (two engines and an
//   `sprt` table; the kind by default when the document has one); ladders are made by
//   registering engines.
// - An sprt event's schedule (`cycles`, or `max_games`) is materialized whole, like a
//   tournament's, and the test stops it: after every finished game the hub runs it on the stored
//   games (event/sprt_event.h, the same code as `referee tournament` and `referee sprt`) and, when
//   it decides, skips the open slots and cuts this daemon's games of the event. So any process
//   playing the event (another daemon, `referee tournament` on the same file) agrees on when it
//   stops, and a restart resumes the test from the database. `database` is ignored (the daemon has
//   its own); `concurrency` caps how many of the pool's slots the event uses at once.
// - Submitting a name that exists with the same specification returns that event (200), like
//   running the same file again; with another specification it is refused (409), naming what
//   differs.
// - Cancel is final and interrupts the event's running games (their slots go back to pending,
//   never played unless the event is resubmitted under another name); pause lets them finish.
//   Resume forgets which engines could not start, so they are tried again.

#include <algorithm>
#include <set>

#include "base/input_limits.h"
#include "engines/engine_hash.h"
#include "event/artifact_engines.h"
#include "event/event_spec.h"
#include "event/rounds.h"
#include "event/schedule.h"
#include "event/sprt_event.h"
#include "service/core.h"
#include "service/roles.h"
#include "storage/work_queue.h"

namespace referee::service {

namespace {

Reply error_reply(int status, const std::string& text) {
  return {status, Json{{"error", text}}};
}

// A failed storage call: the status of its kind (http_status).
Reply storage_error(const Error& error) {
  return error_reply(http_status(error.kind), "storage: " + error.message);
}

// A failed read of event `id`: 404 when there is no such event, else the status of the kind.
Reply event_error(std::int64_t id, const Error& error) {
  if (error.kind == ErrorKind::NotFound) return error_reply(404, "no event " + std::to_string(id));
  return storage_error(error);
}

std::optional<double> eta_of(const EventRuntime& rt, const storage::EventInfo& info) {
  if (info.kind == storage::EventKind::Ladder || !rt.started_here || rt.finished_here == 0)
    return std::nullopt;
  const double elapsed = std::chrono::duration<double>(SteadyClock::now() - rt.first_start).count();
  if (elapsed <= 0) return std::nullopt;
  const double rate = static_cast<double>(rt.finished_here) / elapsed;
  return static_cast<double>(info.pending + info.claimed) / rate;
}

}  // namespace

void exclude_unpinned(Core& core, EventRuntime& rt) {
  for (const auto& name : rt.roster->names()) {
    auto e = rt.roster->find(name);
    if (!e || e->config.sha256.empty()) continue;
    auto hash = engines::engine_hash(e->config);
    std::string why;
    if (!hash)
      why = "its sha256 cannot be checked on this host: " + hash.error();
    else if (hash->pinned() != e->config.sha256)
      why =
          "sha256 differs: " + hash->pinned() + " on this host, the event pins " + e->config.sha256;
    if (why.empty()) continue;
    if (rt.roster->exclude(name, why))
      core.log->warning("event " + std::to_string(rt.id) + " (" + rt.name + "): engine '" + name +
                        "' is not played here: " + why);
  }
}

std::string now_iso() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return iso_utc(ms, false);
}

Expected<EventRuntime> runtime_of(Core& core, const storage::EventInfo& info,
                                  event::SharedTable opened) {
  auto config = event::config_from_spec(info.spec);
  if (!config) return Error{"event " + std::to_string(info.id) + ": " + config.error()};
  EventRuntime rt;
  rt.id = info.id;
  rt.name = info.name;
  rt.kind = info.kind;
  rt.state = info.state;
  rt.priority = info.priority;
  rt.cap = config->concurrency;
  rt.interval_ms = stored_interval_ms(info.spec);
  rt.config = std::move(*config);
  std::vector<event::TournamentEngine> engines = rt.config.engines;
  if (info.kind == storage::EventKind::Ladder) {
    if (rt.config.games.empty()) return Error{"ladder " + info.name + " has no game"};
    auto registered = ladder_engines(core, rt.config.games.front());
    if (!registered) return registered.failure();
    engines = std::move(*registered);
  }
  // The event's endgame table, opened once for every game of the event here; a host without
  // the pinned file does not play the event (refresh_events says so once).
  event::SharedTable egdb;
  if (rt.config.egdb && opened && opened->checksum() == rt.config.egdb->checksum) {
    egdb = std::move(opened);
  } else if (rt.config.egdb) {
    auto table = event::open_pinned(*rt.config.egdb);
    if (!table) {
      std::lock_guard lock(core.mutex);
      core.no_table.insert(info.id);
      return table.failure();
    }
    egdb = std::move(*table);
  }
  rt.roster = std::make_shared<event::EventRoster>(
      std::move(engines), rt.config.tc, rt.config.max_crashes, rt.config.withdraw_on_time,
      rt.config.adjudication, egdb, rt.config.egdb ? rt.config.egdb->path : "");
  exclude_unpinned(core, rt);
  return rt;
}

Status refresh_events(Core& core) {
  auto store = core.reads->get();
  if (!store) return store.failure();
  std::uint64_t seen = 0;  // the changes made here before the read
  {
    std::lock_guard lock(core.mutex);
    seen = core.changes;
  }
  storage::EventQuery query;
  query.states = {storage::EventState::Queued, storage::EventState::Running,
                  storage::EventState::Paused};
  query.limit = 1000000;
  auto list = storage::work_queue::events(**store, query);
  if (!list) return list.failure();
  std::set<std::int64_t> active;
  for (const auto& info : list->events) {
    active.insert(info.id);
    {
      std::lock_guard lock(core.mutex);
      auto it = core.events.find(info.id);
      if (it != core.events.end()) {
        // Changed here after the read began: what was read is older than what we hold (a resume
        // put back to paused would leave the event's slots to others until the next refresh).
        if (it->second.changed > seen) continue;
        // Changed by another process (or another daemon) meanwhile.
        if (it->second.state != info.state || it->second.priority != info.priority) {
          it->second.state = info.state;
          it->second.priority = info.priority;
          it->second.dirty = true;
        }
        continue;
      }
    }
    {
      std::lock_guard lock(core.mutex);
      if (core.no_table.count(info.id)) continue;
    }
    auto rt = runtime_of(core, info);
    if (!rt) {
      std::lock_guard lock(core.mutex);
      if (core.unreadable.insert(info.id).second)
        core.log->warning("event " + std::to_string(info.id) + " is not played: " + rt.error());
      continue;
    }
    std::lock_guard lock(core.mutex);
    if (core.events.emplace(info.id, std::move(*rt)).second) core.wake();
  }
  // Events that ended (finished, cancelled) are kept until their last game here is over.
  std::vector<std::int64_t> gone;
  {
    std::lock_guard lock(core.mutex);
    for (const auto& [id, rt] : core.events)
      if (!active.count(id)) gone.push_back(id);
  }
  for (std::int64_t id : gone) {
    auto info = storage::work_queue::event(**store, id);
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it == core.events.end() || it->second.changed > seen) continue;
    const storage::EventState state = info ? info->state : storage::EventState::Finished;
    if (it->second.state != state) {
      it->second.state = state;
      it->second.dirty = true;
      core.log->info("event " + std::to_string(id) + " (" + it->second.name + ") " +
                     storage::to_text(state));
    }
    if (it->second.running == 0 && !it->second.dirty) core.events.erase(it);
  }
  return Ok{};
}

Json sprt_of_event(Core& core, const storage::EventInfo& info) {
  if (info.kind != storage::EventKind::Sprt) return nullptr;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.sprt.find(info.id);
    if (it != core.sprt.end() && it->second.first == info.done)
      return Json::parse(it->second.second);
  }
  auto config = event::config_from_spec(info.spec);
  if (!config || !config->sprt) return nullptr;
  auto store = core.reads->get();
  if (!store) return nullptr;
  auto tally = event::event_sprt(**store, info.id, *config);
  if (!tally) return nullptr;
  Json out = sprt_json(*config->sprt, *tally);
  std::lock_guard lock(core.mutex);
  core.sprt[info.id] = {info.done, dump(out)};
  return out;
}

void check_sprt_event(Core& core, std::int64_t id) {
  std::int64_t seen = 0;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it == core.events.end() || it->second.kind != storage::EventKind::Sprt) return;
    if (!it->second.sprt_throttle.due(SteadyClock::now())) return;
    seen = it->second.sprt_done;
  }
  const auto t0 = SteadyClock::now();
  auto store = core.reads->get();
  if (!store) return;
  auto info = storage::work_queue::event(**store, id);
  if (!info || info->done == seen) return;
  auto config = event::config_from_spec(info->spec);
  if (!config || !config->sprt) return;
  // On the writer: serialized with the games' finishes, so it sees every game finished so far.
  auto check = core.recorder().call<event::SprtCheck>(
      [&](storage::Store& s) { return event::enforce_sprt(s, id, *config); });
  if (!check) {
    core.fail(check.failure());
    return;
  }
  const std::string text = dump(sprt_json(*config->sprt, check->tally));
  std::lock_guard lock(core.mutex);
  auto& cached = core.sprt[id];
  const bool changed = cached.second != text;
  cached = {info->done, text};
  auto it = core.events.find(id);
  if (it == core.events.end()) return;
  it->second.sprt_done = std::max(it->second.sprt_done, info->done);
  it->second.sprt_throttle.ran(check->tally.h.games.total(), t0, SteadyClock::now());
  if (changed) it->second.dirty = true;
  if (check->skip_reason.empty()) return;
  // Decided: no new game, and this daemon's games of the event are cut.
  core.loop->interrupt(id);
  if (check->skipped > 0)
    core.log->info("event " + std::to_string(id) + " (" + it->second.name + ") " +
                   check->skip_reason + "; " + std::to_string(check->skipped) + " games skipped");
}

void check_sprt_events(Core& core) {
  std::vector<std::int64_t> due;
  {
    std::lock_guard lock(core.mutex);
    for (const auto& [id, rt] : core.events)
      if (rt.kind == storage::EventKind::Sprt &&
          (rt.state == storage::EventState::Running || rt.state == storage::EventState::Queued))
        due.push_back(id);
  }
  for (std::int64_t id : due) check_sprt_event(core, id);
}

long stored_interval_ms(const std::string& spec) {
  const Json j = Json::parse(spec, nullptr, false);
  if (!j.is_object() || !j.contains("run") || !j["run"].is_object()) return 0;
  const Json& v = j["run"].value("interval_ms", Json(0));
  return v.is_number_integer() ? v.get<long>() : 0;
}

Json summary_of(Core& core, const storage::EventInfo& info) {
  EventExtras extras;
  extras.sprt = sprt_of_event(core, info);
  std::lock_guard lock(core.mutex);
  auto it = core.events.find(info.id);
  if (it != core.events.end()) {
    extras.eta_s = eta_of(it->second, info);
    if (info.kind == storage::EventKind::Ladder) {
      const auto excluded = it->second.roster->exclusions();
      for (const auto& n : it->second.roster->names())
        if (!excluded.count(n) || excluded.at(n) != "retired") extras.engines.push_back(n);
    }
  }
  Json out = event_summary(info, extras);
  // The pace: games at once (0 = no cap of its own) and the least interval between game starts.
  if (it != core.events.end()) {
    out["concurrency"] = it->second.cap;
    out["interval_ms"] = it->second.interval_ms;
  } else {
    const Json spec = Json::parse(info.spec, nullptr, false);
    const Json run = spec.is_object() ? spec.value("run", Json::object()) : Json::object();
    out["concurrency"] = run.is_object() ? run.value("concurrency", 0) : 0;
    out["interval_ms"] = stored_interval_ms(info.spec);
  }
  if (it != core.events.end() && !it->second.notices.empty())
    out["notices"] = std::vector<std::string>(it->second.notices.begin(), it->second.notices.end());
  return out;
}

Reply submit_event(Core& core, const Principal& who, const std::string& body, bool is_json,
                   const std::string& base_dir, std::optional<int> priority,
                   storage::EventState initial_state) {
  auto doc = event::parse_tournament_document(body, is_json, "request body");
  if (!doc) return error_reply(400, doc.error());
  if (auto may = may_submit_event(who, *doc, priority.has_value()); !may)
    return error_reply(403, may.error());
  if (!doc->is_object()) return error_reply(400, "request body: a tournament must be a table");
  if (who.role != Role::Operator) {
    // An author's engines are registered ones: their definitions come from the registry.
    if (auto filled = fill_registered_engines(core, *doc); !filled)
      return error_reply(filled.kind() == ErrorKind::Invalid ? 400 : http_status(filled.kind()),
                         filled.error());
  }
  std::string kind = "tournament";
  const bool kind_given = doc->contains("kind");
  if (kind_given) {
    if (!(*doc)["kind"].is_string())
      return error_reply(400, "request body: 'kind' must be a string");
    kind = (*doc)["kind"].get<std::string>();
    doc->erase("kind");
  }
  const bool has_sprt = doc->contains("sprt");
  if (!kind_given && has_sprt) kind = "sprt";
  if (kind == "sprt" && !has_sprt)
    return error_reply(400,
                       "request body: kind 'sprt' needs an 'sprt' table (elo0, elo1, alpha, "
                       "beta, model)");
  if (kind == "tournament" && has_sprt)
    return error_reply(400, "request body: an 'sprt' table makes an event of kind 'sprt'");
  if (kind == "ladder")
    return error_reply(400,
                       "ladders are not submitted: register engines (POST /api/engines) and they "
                       "join the ladder of each game they play");
  if (kind != "tournament" && kind != "sprt")
    return error_reply(400, "request body: unknown kind '" +
                                limits::shortened(kind, limits::kMaxNameBytes) +
                                "' (tournament, sprt)");
  int event_priority = 0;
  if (doc->contains("priority")) {
    const Json& p = (*doc)["priority"];
    if (!p.is_number_integer() || p.get<long long>() < -1000 || p.get<long long>() > 1000)
      return error_reply(400, "request body: 'priority' must be an integer from -1000 to 1000");
    event_priority = p.get<int>();
    doc->erase("priority");
  }
  if (priority) event_priority = *priority;
  auto config = event::load_tournament_text(dump(*doc), true, "request body", base_dir);
  if (!config) return error_reply(400, config.error());
  // Its stored engines pinned to their versions before the specification is made.
  std::optional<Error> unresolved;  // the request's fault: a reference to nothing, or retired
  auto pinned = core.recorder().call<bool>([&](storage::Store& s) -> Expected<bool> {
    Status p = event::resolve_artifacts(s, config->engines);
    if (!p && (p.kind() == ErrorKind::NotFound || p.kind() == ErrorKind::Invalid ||
               p.kind() == ErrorKind::Conflict))
      unresolved = p.failure();
    else if (!p)
      return p.failure();
    return true;
  });
  if (unresolved)
    return error_reply(unresolved->kind == ErrorKind::Conflict ? 409 : 400,
                       "request body: " + unresolved->message);
  if (!pinned) return storage_error(pinned.failure());
  // A knockout seeded by rating: its seeds from the database's games, once (event/rounds.h).
  if (auto seeded = core.recorder().call<bool>([&](storage::Store& s) -> Expected<bool> {
        if (Status st = event::fill_seeds(s, *config); !st) return st.failure();
        return true;
      });
      !seeded)
    return storage_error(seeded.failure());
  // The size of the schedule was checked from the counts (check_tournament): nothing over
  // kMaxScheduleSlots is made, and what is made is stored a batch at a time (the writer makes
  // each batch as it stores it), never held whole.
  const std::string spec = event::event_spec(*config);
  storage::NewEventOptions options;
  options.kind = *storage::event_kind_from_text(kind);
  options.state = initial_state;
  options.priority = event_priority;
  options.submitted_by = submitter_name(who);
  std::optional<Error> refused;  // the request's fault: its schedule, or a name already taken
  auto opened = core.recorder().call<event::OpenedEvent>([&](storage::Store& s) {
    return event::open_tournament_event(s, *config, spec, options, event::OnOtherSpec::Refuse,
                                        refused);
  });
  if (refused) {
    if (refused->kind == ErrorKind::Conflict)
      return error_reply(409, refused->message + "; give it a new name");
    return error_reply(400, "request body: " + refused->message);
  }
  if (!opened) return storage_error(opened.failure());
  auto store = core.reads->get();
  if (!store) return storage_error(store.failure());
  auto info = storage::work_queue::event(**store, opened->row.id);
  if (!info) return storage_error(info.failure());
  if (opened->how != event::Opening::Created) return {200, summary_of(core, *info)};
  auto rt = runtime_of(core, *info, config->egdb_table);  // the table read once
  if (rt) {
    std::lock_guard lock(core.mutex);
    core.events.emplace(info->id, std::move(*rt));
  }
  core.wake();
  core.log->info("event " + std::to_string(info->id) + " submitted: \"" + info->name + "\", " +
                 std::to_string(info->total()) + " games, priority " +
                 std::to_string(info->priority));
  Json summary = summary_of(core, *info);
  core.stream.publish(info->id, "event_changed", "event:" + std::to_string(info->id),
                      dump(summary));
  return {201, std::move(summary)};
}

Reply control_event(Core& core, const Principal& who, std::int64_t id, const std::string& action) {
  auto store = core.reads->get();
  if (!store) return storage_error(store.failure());
  auto before = storage::work_queue::event(**store, id);
  if (!before) return event_error(id, before.failure());
  if (auto may = may_control(who, before->submitted_by); !may)
    return error_reply(403, "event " + std::to_string(id) + ": " + may.error());
  using storage::EventState;
  EventState state = EventState::Cancelled;
  std::vector<EventState> from = {EventState::Queued, EventState::Running, EventState::Paused};
  if (action == "pause") {
    state = EventState::Paused;
    from = {EventState::Queued, EventState::Running};
  } else if (action == "resume") {
    state = EventState::Running;
    from = {EventState::Paused};
    // A ladder never ends by itself: a cancelled one may play again (its engines stay joined).
    if (before->kind == storage::EventKind::Ladder) from.push_back(EventState::Cancelled);
  }
  auto changed = core.recorder().call<bool>(
      [&](storage::Store& s) { return storage::work_queue::set_event_state(s, id, state, from); });
  if (!changed) return storage_error(changed.failure());
  if (!*changed) {
    std::string allowed;
    for (const auto& f : from)
      allowed += std::string(allowed.empty() ? "" : " or ") + storage::to_text(f);
    return error_reply(409, "event " + std::to_string(id) + " is " +
                                storage::to_text(before->state) + ": only a " + allowed +
                                " event can be " +
                                (action == "pause"    ? "paused"
                                 : action == "resume" ? "resumed"
                                                      : "cancelled"));
  }
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it != core.events.end()) {
      EventRuntime& rt = it->second;
      rt.state = state;
      rt.changed = ++core.changes;
      rt.retry_at = {};
      rt.dirty = true;
      if (action == "resume") {
        // Engines that could not start are tried again; retired ones stay out.
        auto excluded = rt.roster->exclusions();
        rt.roster->clear_exclusions();
        for (const auto& [name, why] : excluded)
          if (why == "retired") rt.roster->exclude(name, why);
      }
      if (action == "cancel") core.loop->interrupt(id);
    }
  }
  if (action == "resume" && before->kind == storage::EventKind::Ladder) {
    resume_ladder(core, id);
  }
  core.wake();
  core.log->info("event " + std::to_string(id) + " (" + before->name + ") " +
                 storage::to_text(state));
  auto after = storage::work_queue::event(**store, id);
  if (!after) return storage_error(after.failure());
  Json summary = summary_of(core, *after);
  core.stream.publish(id, "event_changed", "event:" + std::to_string(id), dump(summary));
  return {200, std::move(summary)};
}

Reply set_priority(Core& core, const Principal& who, std::int64_t id, int priority) {
  if (auto may = may_set_priority(who); !may) return error_reply(403, may.error());
  auto store = core.reads->get();
  if (!store) return storage_error(store.failure());
  if (auto info = storage::work_queue::event(**store, id); !info)
    return event_error(id, info.failure());
  auto set = core.recorder().call<Ok>(
      [&](storage::Store& s) { return storage::work_queue::set_event_priority(s, id, priority); });
  if (!set) return storage_error(set.failure());
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it != core.events.end()) {
      it->second.priority = priority;
      it->second.changed = ++core.changes;
      it->second.dirty = true;
    }
  }
  core.wake();
  auto after = storage::work_queue::event(**store, id);
  if (!after) return storage_error(after.failure());
  core.log->info("event " + std::to_string(id) + " priority " + std::to_string(priority));
  Json summary = summary_of(core, *after);
  core.stream.publish(id, "event_changed", "event:" + std::to_string(id), dump(summary));
  return {200, std::move(summary)};
}

Reply set_pace(Core& core, const Principal& who, std::int64_t id, std::optional<int> concurrency,
               std::optional<long> interval_ms) {
  if (auto may = may_set_priority(who); !may) return error_reply(403, may.error());
  auto store = core.reads->get();
  if (!store) return storage_error(store.failure());
  auto info = storage::work_queue::event(**store, id);
  if (!info) return event_error(id, info.failure());
  // Only the "run" keys change: what decides the games stays as it was (event_spec.h).
  Json spec = Json::parse(info->spec, nullptr, false);
  if (!spec.is_object())
    return error_reply(409, "event " + std::to_string(id) + " has no stored specification");
  if (!spec.contains("run") || !spec["run"].is_object()) spec["run"] = Json::object();
  if (concurrency) spec["run"]["concurrency"] = *concurrency;
  if (interval_ms && *interval_ms > 0) spec["run"]["interval_ms"] = *interval_ms;
  if (interval_ms && *interval_ms == 0) spec["run"].erase("interval_ms");
  auto set = core.recorder().call<Ok>(
      [&](storage::Store& s) { return storage::work_queue::set_event_spec(s, id, dump(spec)); });
  if (!set) return storage_error(set.failure());
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it != core.events.end()) {
      if (concurrency) it->second.cap = it->second.config.concurrency = *concurrency;
      if (interval_ms) {
        it->second.interval_ms = *interval_ms;
        it->second.next_start = {};
      }
      it->second.dirty = true;
    }
  }
  core.wake();
  auto after = storage::work_queue::event(**store, id);
  if (!after) return storage_error(after.failure());
  core.log->info("event " + std::to_string(id) + " pace: " +
                 std::to_string(spec["run"].value("concurrency", 0)) + " games at once, " +
                 std::to_string(stored_interval_ms(after->spec)) + " ms between game starts");
  Json summary = summary_of(core, *after);
  core.stream.publish(id, "event_changed", "event:" + std::to_string(id), dump(summary));
  return {200, std::move(summary)};
}

Expected<Json> event_standings(Core& core, std::int64_t id) {
  auto store = core.reads->get();
  if (!store) return store.failure();
  auto info = storage::work_queue::event(**store, id);
  if (!info) return info.failure();
  {
    std::lock_guard lock(core.mutex);
    auto it = core.standings.find(id);
    if (it != core.standings.end() && it->second.first == info->done)
      return Json::parse(it->second.second);
  }
  storage::GameFilter filter;
  filter.event_id = id;
  auto games = (*store)->games(filter);
  if (!games) return games.failure();
  Json table = standings_json(*games);
  table["event_id"] = id;
  if (info->kind == storage::EventKind::Sprt) {
    auto config = event::config_from_spec(info->spec);
    if (config && config->sprt)
      table["sprt"] =
          sprt_json(*config->sprt, sprt_tally(*games, config->engines[0].config.name,
                                              config->engines[1].config.name, *config->sprt, true));
  }
  std::lock_guard lock(core.mutex);
  core.standings[id] = {info->done, dump(table)};
  return table;
}

void publish_dirty(Core& core) {
  const auto now = SteadyClock::now();
  std::vector<std::int64_t> due;
  {
    std::lock_guard lock(core.mutex);
    for (auto& [id, rt] : core.events) {
      if (!rt.dirty) continue;
      const double gap = std::max(1.0, 10 * rt.publish_cost_s);
      if (std::chrono::duration<double>(now - rt.last_publish).count() < gap) continue;
      rt.dirty = false;
      rt.last_publish = now;
      due.push_back(id);
    }
  }
  if (due.empty() || !core.stream.has_subscribers()) return;
  auto store = core.reads->get();
  if (!store) return;
  for (std::int64_t id : due) {
    auto info = storage::work_queue::event(**store, id);
    if (!info) continue;
    const auto t0 = SteadyClock::now();
    auto standings = event_standings(core, id);
    const double cost = std::chrono::duration<double>(SteadyClock::now() - t0).count();
    bool table_changed = false;
    {
      std::lock_guard lock(core.mutex);
      auto it = core.events.find(id);
      if (it != core.events.end()) {
        it->second.publish_cost_s = cost;
        table_changed = it->second.standings_done != info->done;
        it->second.standings_done = info->done;
      }
    }
    const std::string key = std::to_string(id);
    core.stream.publish(id, "event_changed", "event:" + key, dump(summary_of(core, *info)));
    if (standings && table_changed)
      core.stream.publish(id, "standings", "standings:" + key, dump(*standings));
  }
}

}  // namespace referee::service
