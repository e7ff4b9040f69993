// The daemon's and the workers' side of the owner loop (event/owner_loop.h): which events a game
// thread claims from (the scheduler's order), what it publishes on the live stream while a game
// is played, and the events' counters.
//
// Decisions:
// - An event whose claim found nothing (every slot done, or held by other processes) is not
//   asked again for a second, doubling up to Core::idle_max_ms (EventRuntime::retry_at); a
//   thread with nothing to do waits as the owner loop decides (woken by a submission, a resume,
//   a ladder top-up).
// - A game thread keeps at most 4 idle engine sessions (it serves many events).
// - A capped or paced event (EventRuntime::cap, interval_ms) is offered to one thread at a time
//   (see candidates): two threads never pass its cap nor start its games closer than its interval.
// - The position sent with each move event comes from a State the game thread keeps in step with
//   the moves (one apply per move); the JSON is built only while someone listens.
// - Knockout and Swiss events (event/rounds.h): the games a settled slot makes due (the next
//   round, a match's tie-break pairs) are added in the transaction that settles it
//   (SlotHooks::settled), by whichever process played it: a daemon, or a worker on any host. A
//   claim that finds nothing in such a running event adds them too (a failed write left them
//   unmade). Rounds that cannot be made (an Invalid error of the rules) are a warning of the
//   event, never the owner's failure.
#include <algorithm>

#include "event/rounds.h"
#include "service/core.h"
#include "service/scheduler.h"

namespace referee::service {

namespace {

// What the live stream needs to follow one game.
struct LiveGame {
  std::int64_t id = 0;
  std::int64_t event = 0;
  std::optional<games::State> state;
  std::vector<long> clocks;  // per player, -1 without a clock
};

Json clocks_json(const std::vector<long>& clocks) {
  Json out = Json::array();
  for (long c : clocks) out.push_back(c < 0 ? Json(nullptr) : Json(c));
  return out;
}

// The offer made to this game thread, settled: `started` when its game began (the interval then
// runs), else given back (the event was not claimed from, or had nothing). Under core.mutex.
void settle_offer(Core& core, bool started) {
  auto it = core.offers.find(std::this_thread::get_id());
  if (it == core.offers.end()) return;
  if (auto e = core.events.find(it->second); e != core.events.end()) {
    if (e->second.offered > 0) --e->second.offered;
    if (!started) e->second.next_start = {};
  }
  core.offers.erase(it);
}

// The events to try, in the scheduler's order, with at most one capped or paced event: it is
// offered to this thread alone until its claim settles, counting against its cap meanwhile, its
// interval running from now. Without that, two threads reading the order at once would both
// claim the last game its cap allows, or two games within its interval.
std::vector<std::int64_t> candidates(Core& core) {
  std::lock_guard lock(core.mutex);
  settle_offer(core, false);  // an offer left by a claim made elsewhere
  const auto now = SteadyClock::now();
  std::vector<EventLoad> loads;
  for (const auto& [id, rt] : core.events) {
    EventLoad l;
    l.id = id;
    l.state = rt.state;
    l.priority = rt.priority;
    l.running = rt.running + rt.offered;
    l.cap = rt.cap;
    l.served = rt.served;
    l.out_of_work = now < rt.retry_at;
    l.paced = rt.interval_ms > 0 && now < rt.next_start;
    loads.push_back(l);
  }
  std::vector<std::int64_t> out;
  bool offered = false;
  for (std::int64_t id : claim_order(loads)) {
    auto& rt = core.events.at(id);
    if (rt.cap > 0 || rt.interval_ms > 0) {
      if (offered) continue;  // one such event per list: the others at the thread's next turn
      offered = true;
      ++rt.offered;
      if (rt.interval_ms > 0) rt.next_start = now + std::chrono::milliseconds(rt.interval_ms);
      core.offers[std::this_thread::get_id()] = id;
    }
    out.push_back(id);
  }
  return out;
}

// A knockout's or Swiss event's games due now added on `store` (event/rounds.h), told to the log
// and to the idle game threads; see the header for the errors.
Status add_due_games(Core& core, storage::Store& store, std::int64_t event,
                     const event::TournamentConfig& config) {
  auto added = event::advance_rounds(store, event, config);
  if (!added) {
    if (added.kind() != ErrorKind::Invalid && added.kind() != ErrorKind::NotFound)
      return added.failure();
    core.log->warning("event " + std::to_string(event) +
                      ": the next games cannot be made: " + added.error());
    return Ok{};
  }
  if (*added == 0) return Ok{};
  core.log->info("event " + std::to_string(event) + ": " + std::to_string(*added) +
                 (config.format == "swiss" ? " games of the next Swiss round added"
                                           : " knockout games added"));
  {
    std::lock_guard lock(core.mutex);
    if (auto it = core.events.find(event); it != core.events.end()) {
      it->second.retry_at = {};  // its new games are claimed at once
      it->second.empty_claims = 0;
      it->second.dirty = true;
    }
  }
  core.wake();
  return Ok{};
}

// A game of `event` is over (or never began): the counters, the notices, the sprt, the stream.
void game_over(Core& core, std::int64_t event, const std::string& event_name, const LiveGame& live,
               event::SlotOutcome& out);

event::GameWatch watch_game(Core& core, const storage::Claim& claim) {
  const std::int64_t event = claim.event;
  event::GameWatch watch;
  std::string event_name;
  std::shared_ptr<event::EventRoster> roster;
  std::shared_ptr<const event::TournamentConfig> rounds;  // a knockout's or Swiss event's
  bool was_queued = false;
  bool is_ladder = false;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(event);
    if (it == core.events.end()) {  // cannot happen: the thread claimed from it
      watch.cut = true;
      return watch;
    }
    EventRuntime& rt = it->second;
    ++rt.running;
    if (auto offer = core.offers.find(std::this_thread::get_id());
        offer != core.offers.end() && offer->second == event)
      settle_offer(core, true);
    rt.served = ++core.tick;
    if (!rt.started_here) {
      rt.started_here = true;
      rt.first_start = SteadyClock::now();
    }
    was_queued = rt.state == storage::EventState::Queued;
    if (was_queued) {
      rt.state = storage::EventState::Running;
      rt.changed = ++core.changes;
    }
    event_name = rt.name;
    roster = rt.roster;
    is_ladder = rt.kind == storage::EventKind::Ladder;
    if (event::has_rounds(rt.config))
      rounds = std::make_shared<const event::TournamentConfig>(rt.config);
    // Cancelled between the claim and now: the game stops at once.
    watch.cut = rt.state == storage::EventState::Cancelled;
  }
  // A ladder's version stored since this process last looked (a worker pairs nothing, and
  // refreshes once a second): its entry is made before the game, else the slot would be skipped.
  if (is_ladder && roster)
    for (const auto& name : claim.slot.seats)
      if (!roster->find(name)) {
        sync_ladder_rosters(core);
        break;
      }
  if (was_queued)
    (void)core.recorder().call<bool>(  // a failure reaches the owner loop
        [&](storage::Store& s) {
          return storage::work_queue::set_event_state(s, event, storage::EventState::Running,
                                                      {storage::EventState::Queued});
        });

  auto live = std::make_shared<LiveGame>();
  live->event = event;
  watch.hooks.started = [&core, live, roster, event, event_name](std::int64_t game_id,
                                                                 const storage::GameRecord& rec) {
    live->id = game_id;
    if (auto game = games::make_game(rec.game)) live->state = game->initial_state();
    for (const auto& name : rec.players) {
      auto e = roster ? roster->find(name) : std::nullopt;
      const match::TimeControl tc = e ? roster->time_control_of(*e) : match::TimeControl{};
      live->clocks.push_back(tc.has_clock() ? static_cast<long>(tc.base.count()) : -1);
    }
    if (!core.stream.has_subscribers()) return;
    storage::GameRecord shown = rec;
    shown.event = event_name;
    shown.started_at = now_iso();
    Json data = game_summary(shown);
    data["position"] = live->state ? Json(live->state->to_string()) : Json(nullptr);
    data["view"] = live->state ? board_view_json(*live->state) : Json(nullptr);
    data["clocks_ms"] = clocks_json(live->clocks);
    core.stream.publish(event, "game_started", "", dump(data));
  };
  watch.hooks.moved = [&core, live, event](std::int64_t game_id, const storage::MoveRecord& m) {
    if (live->state) (void)live->state->apply(m.move);
    if (m.clock_ms >= 0 && m.player >= 1 &&
        static_cast<std::size_t>(m.player) <= live->clocks.size())
      live->clocks[static_cast<std::size_t>(m.player - 1)] = m.clock_ms;
    if (!core.stream.has_subscribers()) return;
    Json data = {{"game_id", game_id},
                 {"event_id", event},
                 {"ply", m.ply},
                 {"player", m.player},
                 {"move", m.move},
                 {"source", m.source},
                 {"time_ms", m.time_ms < 0 ? Json(nullptr) : Json(m.time_ms)},
                 {"position", live->state ? Json(live->state->to_string()) : Json(nullptr)},
                 {"view", live->state ? board_view_json(*live->state) : Json(nullptr)},
                 {"clocks_ms", clocks_json(live->clocks)}};
    core.stream.publish(event, "move", "move:" + std::to_string(game_id), dump(data));
  };
  if (rounds)
    watch.hooks.settled = [&core, rounds, event](storage::Store& s) {
      return add_due_games(core, s, event, *rounds);
    };
  watch.finished = [&core, live, event, event_name](event::SlotOutcome& out) {
    game_over(core, event, event_name, *live, out);
  };
  return watch;
}

void game_over(Core& core, std::int64_t event, const std::string& event_name, const LiveGame& live,
               event::SlotOutcome& out) {
  using Kind = event::SlotOutcome::Kind;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(event);
    if (it != core.events.end()) {
      EventRuntime& rt = it->second;
      --rt.running;
      rt.dirty = true;
      if (out.kind == Kind::Done) ++rt.finished_here;
      for (const auto& n : out.notices) {
        rt.notices.push_back(n);
        if (rt.notices.size() > 20) rt.notices.pop_front();
      }
      if (out.kind == Kind::NotStarted) rt.retry_at = SteadyClock::now() + std::chrono::seconds(1);
    }
  }
  for (const auto& n : out.notices) core.log->warning("event " + std::to_string(event) + ": " + n);
  if (out.kind == Kind::StorageFailure) return;  // the owner loop has failed
  // sprt events: the test, before this thread claims its next game.
  if (out.kind == Kind::Done) check_sprt_event(core, event);
  if (out.record.id == 0) return;  // skipped or not started: no game
  if (core.log->verbose())
    core.log->debug(
        "event " + std::to_string(event) + ": game " + std::to_string(out.record.id) + " " +
        (out.result.ranks.empty() ? out.record.termination : result_text(out.result.ranks)) + " (" +
        out.record.reason + ")");
  if (!core.stream.has_subscribers()) return;
  storage::GameRecord shown = out.record;
  shown.event = event_name;
  shown.finished_at = now_iso();
  if (out.kind == Kind::Lost) shown.termination = "lost-claim";
  Json data = game_summary(shown);
  data["position"] = live.state ? Json(live.state->to_string()) : Json(nullptr);
  core.stream.publish(event, "game_finished", "", dump(data));
}

}  // namespace

event::WorkSource work_source(Core& core) {
  event::WorkSource source;
  source.candidates = [&core] {
    std::vector<event::Candidate> out;
    const auto order = candidates(core);
    std::lock_guard lock(core.mutex);
    for (std::int64_t id : order)
      if (auto it = core.events.find(id); it != core.events.end())
        out.push_back({id, it->second.roster});
    return out;
  };
  source.claimed = [&core](std::int64_t id, bool found) {
    std::unique_lock lock(core.mutex);
    // An offer to this thread settles here when its claim found nothing, or when the thread
    // claimed from another event (it goes no further down its list); a found one settles as its
    // game begins (watch_game).
    if (auto offer = core.offers.find(std::this_thread::get_id());
        offer != core.offers.end() && (found != (offer->second == id)))
      settle_offer(core, false);
    auto it = core.events.find(id);
    if (it == core.events.end()) return;
    if (found) {
      it->second.empty_claims = 0;
      return;
    }
    const int doublings = std::min(it->second.empty_claims++, 16);
    const long wait = std::min(core.idle_max_ms, 1000L << doublings);
    it->second.retry_at = SteadyClock::now() + std::chrono::milliseconds(wait);
    if (!event::has_rounds(it->second.config)) return;
    auto config = std::make_shared<const event::TournamentConfig>(it->second.config);
    lock.unlock();  // never held across a database call
    // A failure reaches the owner loop through the recorder.
    (void)core.recorder().call<bool>([&](storage::Store& s) -> Expected<bool> {
      if (Status st = add_due_games(core, s, id, *config); !st) return st.failure();
      return true;
    });
  };
  source.watch = [&core](const storage::Claim& claim) { return watch_game(core, claim); };
  return source;
}

void drain_games(Core& core, double seconds, const std::function<bool()>& keep_waiting, Log& log) {
  const int interrupted = core.loop->drain(seconds, keep_waiting);
  if (interrupted > 0)
    log.info("interrupting " + std::to_string(interrupted) +
             " games (their slots go back to pending)");
}

event::OwnerLimits logged_limits(event::OwnerLimits limits, Log& log) {
  limits.changed = [&log](const event::OwnerHealth& h) {
    if (h.state == event::OwnerState::Degraded)
      log.warning("degraded: " + h.reason + "; no new games until there is room (reads go on)");
    else if (h.state == event::OwnerState::Ok)
      log.info("room again: starting games");
  };
  return limits;
}

}  // namespace referee::service
