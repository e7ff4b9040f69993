// One game slot of the daemon's pool (see core.h): a thread that asks the scheduler which event
// to serve, claims one slot of it (Store::claim_slots), plays it through the SlotPlayer shared
// with `referee tournament`, and tells the live stream what happens on the way.
//
// Decisions:
// - An event whose claim found nothing (every slot done, or held by other processes) is not
//   asked again for a second, doubling up to options.idle_max_ms (EventRuntime::retry_at); a slot
//   with nothing to do sleeps until woken (submission, resume, ladder top-up) or half a second
//   passes (leases of dead processes expire by the clock).
// - A slot keeps at most 4 idle engine sessions (it serves many events).
// - The position sent with each move event comes from a State the slot keeps in step with the
//   moves (one apply per move); the JSON is built only while someone listens.
#include <algorithm>

#include "service/core.h"
#include "service/scheduler.h"
#include "storage/work_queue.h"

namespace referee::service {

namespace {

constexpr std::size_t kIdleSessions = 4;

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

// The events to try, in the scheduler's order.
std::vector<std::int64_t> candidates(Core& core) {
  std::lock_guard lock(core.mutex);
  const auto now = SteadyClock::now();
  std::vector<EventLoad> loads;
  for (const auto& [id, rt] : core.events) {
    EventLoad l;
    l.id = id;
    l.state = rt.state;
    l.priority = rt.priority;
    l.running = rt.running;
    l.cap = rt.cap;
    l.served = rt.served;
    l.out_of_work = now < rt.retry_at;
    loads.push_back(l);
  }
  return claim_order(loads);
}

void play_claim(Core& core, GameSlot& slot, SlotPlayer& player, const storage::Claim& claim,
                const std::shared_ptr<EventRoster>& roster) {
  const std::int64_t event = claim.event;
  std::string event_name;
  bool was_queued = false;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(event);
    if (it == core.events.end()) return;  // cannot happen: we claimed from it
    EventRuntime& rt = it->second;
    ++rt.running;
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
    slot.event = event;
    // Cancelled (or the drain ran out) between the claim and now: the game stops at once.
    slot.stop = rt.state == storage::EventState::Cancelled || core.failed.load() ||
                core.interrupt_games.load();
  }
  if (was_queued)
    (void)core.recorder->call<bool>(  // a failure reaches Core::fail (on_failure)
        [&](storage::Store& s) {
          return storage::work_queue::set_event_state(s, event, storage::EventState::Running,
                                                      {storage::EventState::Queued});
        });

  LiveGame live;
  live.event = event;
  SlotHooks hooks;
  hooks.started = [&](std::int64_t game_id, const storage::GameRecord& rec) {
    live.id = game_id;
    if (auto game = games::make_game(rec.game)) live.state = game->initial_state();
    for (const auto& name : rec.players) {
      auto e = roster->find(name);
      const TimeControl tc = e ? roster->time_control_of(*e) : TimeControl{};
      live.clocks.push_back(tc.has_clock() ? static_cast<long>(tc.base.count()) : -1);
    }
    if (!core.stream.has_subscribers()) return;
    storage::GameRecord shown = rec;
    shown.event = event_name;
    shown.started_at = now_iso();
    Json data = game_summary(shown);
    data["position"] = live.state ? Json(live.state->to_string()) : Json(nullptr);
    data["view"] = live.state ? board_view_json(*live.state) : Json(nullptr);
    data["clocks_ms"] = clocks_json(live.clocks);
    core.stream.publish(event, "game_started", "", dump(data));
  };
  hooks.moved = [&](std::int64_t game_id, const storage::MoveRecord& m) {
    if (live.state) (void)live.state->apply(m.move);
    if (m.clock_ms >= 0 && m.player >= 1 &&
        static_cast<std::size_t>(m.player) <= live.clocks.size())
      live.clocks[static_cast<std::size_t>(m.player - 1)] = m.clock_ms;
    if (!core.stream.has_subscribers()) return;
    Json data = {{"game_id", game_id},
                 {"event_id", event},
                 {"ply", m.ply},
                 {"player", m.player},
                 {"move", m.move},
                 {"source", m.source},
                 {"time_ms", m.time_ms < 0 ? Json(nullptr) : Json(m.time_ms)},
                 {"position", live.state ? Json(live.state->to_string()) : Json(nullptr)},
                 {"view", live.state ? board_view_json(*live.state) : Json(nullptr)},
                 {"clocks_ms", clocks_json(live.clocks)}};
    core.stream.publish(event, "move", "move:" + std::to_string(game_id), dump(data));
  };

  SlotOutcome out = player.play(claim, *roster, &slot.stop, hooks);

  using Kind = SlotOutcome::Kind;
  {
    std::lock_guard lock(core.mutex);
    slot.event = 0;
    slot.stop = core.interrupt_games.load();
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
  if (out.kind == Kind::StorageFailure) {
    core.fail(Error{out.message, out.error_kind});
    return;
  }
  // sprt events: the test, before this slot claims its next game.
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

void run_game_slot(Core& core, GameSlot& slot) {
  SlotPlayer player(*core.recorder, core.owner, core.options.keep_logs, nullptr, kIdleSessions);
  while (!core.stop_claims.load() && !core.failed.load()) {
    bool played = false;
    for (std::int64_t id : candidates(core)) {
      std::shared_ptr<EventRoster> roster;
      {
        std::lock_guard lock(core.mutex);
        auto it = core.events.find(id);
        if (it == core.events.end()) continue;
        roster = it->second.roster;
      }
      auto claims = core.recorder->call<std::vector<storage::Claim>>([&](storage::Store& s) {
        return storage::work_queue::claim_slots(s, core.owner, id, 1, core.options.lease_ms,
                                                roster->excluded_names());
      });
      if (!claims) {
        core.fail(claims.failure());
        break;
      }
      if (claims->empty()) {
        std::lock_guard lock(core.mutex);
        auto it = core.events.find(id);
        if (it != core.events.end()) {
          const int doublings = std::min(it->second.empty_claims++, 16);
          const long wait = std::min(core.options.idle_max_ms, 1000L << doublings);
          it->second.retry_at = SteadyClock::now() + std::chrono::milliseconds(wait);
        }
        continue;
      }
      {
        std::lock_guard lock(core.mutex);
        auto it = core.events.find(id);
        if (it != core.events.end()) it->second.empty_claims = 0;
      }
      play_claim(core, slot, player, claims->front(), roster);
      played = true;
      break;
    }
    if (played) continue;
    std::unique_lock lock(core.mutex);
    core.wake_slots.wait_for(lock, std::chrono::milliseconds(500));
  }
  player.close();
}

int busy_slots(Core& core) {
  std::lock_guard lock(core.mutex);
  int busy = 0;
  for (const auto& s : core.slots) busy += s->event.load() != 0;
  return busy;
}

void drain_slots(Core& core, double seconds, const std::function<bool()>& keep_waiting, Log& log) {
  const auto deadline =
      SteadyClock::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  while (busy_slots(core) > 0 && SteadyClock::now() < deadline && keep_waiting() &&
         !core.failed.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (const int left = busy_slots(core); left > 0) {
    log.info("interrupting " + std::to_string(left) + " games (their slots go back to pending)");
    core.interrupt_games = true;
    std::lock_guard lock(core.mutex);
    for (auto& s : core.slots) s->stop = true;
  }
  core.wake();
}

}  // namespace referee::service
