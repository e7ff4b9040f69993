#include "event/slot_player.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "engines/engine_hash.h"
#include "storage/artifact_store.h"
#include "storage/engine_registry.h"
#include "storage/work_queue.h"

namespace referee::event {

namespace {

// Everything that makes two engine definitions different programs or differently set up.
std::string session_key(const engines::EngineConfig& c) {
  std::string key = c.name + '\n' + c.command + '\n' + c.working_dir + '\n' + c.sha256 + '\n' +
                    c.artifact + '\n' + (c.sandbox ? "sandbox\n" : "\n");
  for (const auto& a : c.args) key += a + '\x1f';
  key += '\n';
  for (const auto& [k, v] : c.env) key += k + '=' + v + '\x1f';
  key += '\n';
  for (const auto& [k, v] : c.options) key += k + '=' + v + '\x1f';
  key += '\n' + std::to_string(c.protocol0) + ' ' + std::to_string(c.limits.memory_mb) + ' ' +
         std::to_string(c.limits.cpu_seconds) + ' ' + std::to_string(c.limits.processes) + ' ' +
         std::to_string(c.start_timeout_ms) + ' ' + std::to_string(c.ready_timeout_ms) + ' ' +
         std::to_string(c.setgame_timeout_ms);
  return key;
}

}  // namespace

match::SessionSettings session_settings_of(const engines::EngineConfig& config, bool keep_logs,
                                           match::DebugLog* debug) {
  match::SessionSettings s;
  s.name = config.name;
  s.debug = debug;
  s.start_timeout = match::Millis(config.start_timeout_ms);
  s.ready_timeout = match::Millis(config.ready_timeout_ms);
  s.setgame_timeout = match::Millis(config.setgame_timeout_ms);
  s.protocol0 = config.protocol0;
  s.options = std::map<std::string, std::string>(config.options.begin(), config.options.end());
  s.keep_log = keep_logs;
  return s;
}

// ---- EventRoster ----

EventRoster::EventRoster(std::vector<TournamentEngine> engines, match::TimeControl tc,
                         int max_crashes, bool withdraw_on_time, match::Adjudication adjudication,
                         SharedTable egdb, std::string egdb_path)
    : engines_(std::move(engines)),
      tc_(tc),
      max_crashes_(max_crashes),
      withdraw_on_time_(withdraw_on_time),
      adjudication_(std::move(adjudication)),
      egdb_(std::move(egdb)),
      egdb_path_(std::move(egdb_path)) {}

match::PositionJudge EventRoster::judge_for(const games::Game& game) const {
  return egdb_judge(egdb_, game, egdb_path_);
}

std::optional<TournamentEngine> EventRoster::find(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const auto& e : engines_)
    if (e.config.name == name) return e;
  return std::nullopt;
}

void EventRoster::set_engine(TournamentEngine engine) {
  std::lock_guard lock(mutex_);
  for (auto& e : engines_)
    if (e.config.name == engine.config.name) {
      e = std::move(engine);
      return;
    }
  engines_.push_back(std::move(engine));
}

std::vector<std::string> EventRoster::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& e : engines_) out.push_back(e.config.name);
  return out;
}

match::TimeControl EventRoster::time_control_of(const TournamentEngine& engine) const {
  return engine.tc ? *engine.tc : tc_;
}

std::optional<std::string> EventRoster::note_failure(const std::string& name,
                                                     const std::string& what) {
  std::lock_guard lock(mutex_);
  int& n = consecutive_failures_[name];
  if (++n < max_crashes_ || excluded_.count(name)) return std::nullopt;
  const std::string why =
      "withdrawn after " + std::to_string(n) + " failures in a row (last: " + what + ")";
  excluded_[name] = why;
  return "engine '" + name + "' " + why;
}

void EventRoster::note_success(const std::string& name) {
  std::lock_guard lock(mutex_);
  consecutive_failures_[name] = 0;
}

std::optional<std::string> EventRoster::exclude(const std::string& name, const std::string& why) {
  std::lock_guard lock(mutex_);
  if (!excluded_.emplace(name, why).second) return std::nullopt;
  return "engine '" + name + "' " + why;
}

bool EventRoster::excluded(const std::string& name) const {
  std::lock_guard lock(mutex_);
  return excluded_.count(name) > 0;
}

std::map<std::string, std::string> EventRoster::exclusions() const {
  std::lock_guard lock(mutex_);
  return excluded_;
}

std::vector<std::string> EventRoster::excluded_names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, why] : excluded_) out.push_back(name);
  return out;
}

void EventRoster::clear_exclusions() {
  std::lock_guard lock(mutex_);
  excluded_.clear();
  consecutive_failures_.clear();
}

void EventRoster::note_skips(const std::string& name, const std::string& why, std::int64_t games) {
  std::lock_guard lock(mutex_);
  Skips& s = skips_[name];
  s.why = why;
  s.games += games;
}

std::map<std::string, EventRoster::Skips> EventRoster::skips() const {
  std::lock_guard lock(mutex_);
  return skips_;
}

// ---- SlotPlayer ----

SlotPlayer::SlotPlayer(storage::Recorder& recorder, std::int64_t owner, bool keep_logs,
                       match::DebugLog* debug, std::size_t max_idle_sessions, OutputBudget* budget,
                       engines::ArtifactCache* artifacts)
    : recorder_(recorder),
      owner_(owner),
      keep_logs_(keep_logs),
      debug_(debug),
      max_idle_(max_idle_sessions),
      budget_(budget),
      artifacts_(artifacts) {}

Expected<engines::ArtifactLease> SlotPlayer::materialise(const std::string& sha256) {
  if (!artifacts_) return Error{"this process has no artifact cache", ErrorKind::Unavailable};
  auto info = recorder_.call<std::optional<storage::ArtifactInfo>>(
      [&](storage::Store& s) { return storage::artifact_store::artifact(s, sha256); });
  if (!info) return info.failure();
  if (!*info)
    return Error{"its artifact " + sha256 + " is not in the database", ErrorKind::NotFound};
  const storage::ArtifactInfo& a = **info;
  return artifacts_->materialise(
      sha256, a.kind, a.file_name,
      [&]() {
        return recorder_.call<std::string>(
            [&](storage::Store& s) { return storage::artifact_store::read_bytes(s, sha256); });
      },
      engines::ArtifactLimits{});
}

SlotPlayer::~SlotPlayer() {
  close();
}

void SlotPlayer::quit(match::EngineSession& session) {
  session.quit();
  round_trips_ += session.round_trips();
}

void SlotPlayer::close() {
  // Together: an engine that ignores quit costs its grace periods once, not once per engine.
  if (sessions_.size() > 1) {
    std::vector<std::thread> quitting;
    for (auto& c : sessions_) quitting.emplace_back([&c] { c.session.quit(); });
    for (auto& t : quitting) t.join();
  }
  for (auto& c : sessions_) quit(c.session);  // counts the round trips (quit is idempotent)
  sessions_.clear();
}

namespace {

// The engine's hashes, checked against its pin (an error when they differ or cannot be taken).
Expected<storage::EngineHash> checked_hash(const engines::EngineConfig& config) {
  // An artifact's bytes were checked against its hash as they were materialised.
  if (!config.artifact.empty()) return storage::EngineHash{"", "", config.artifact};
  auto hash = engines::engine_hash(config);
  if (!hash) {
    if (config.sha256.empty()) return storage::EngineHash{};  // unknown, nothing to check
    return Error{"its sha256 cannot be checked: " + hash.error()};
  }
  if (!config.sha256.empty() && hash->pinned() != config.sha256)
    return Error{"sha256 differs: " + hash->pinned() + " on this host, the event pins " +
                 config.sha256};
  return storage::EngineHash{hash->program, hash->script, ""};
}

}  // namespace

void SlotPlayer::record_identity(const engines::EngineConfig& config,
                                 const match::EngineSession& session) {
  const auto& id = session.identity();
  if (id.name.empty() && id.author.empty()) return;
  storage::EngineInfo info;
  info.name = config.name;
  info.id_name = id.name;
  info.id_author = id.author;
  // A failure reaches the recorder's on_failure, as every write's.
  (void)recorder_.call<std::int64_t>(
      [&](storage::Store& s) { return storage::engine_registry::upsert_engine(s, info); });
}

match::EngineSession* SlotPlayer::check_session(const engines::EngineConfig& config,
                                                std::string& error) {
  Cached* cached = session_for(config, error);
  return cached ? &cached->session : nullptr;
}

SlotPlayer::Cached* SlotPlayer::session_for(const engines::EngineConfig& config,
                                            std::string& error) {
  const std::string key = session_key(config);
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (it->key != key) continue;
    if (it->session.alive()) {
      sessions_.splice(sessions_.begin(), sessions_, it);
      return &sessions_.front();
    }
    quit(it->session);
    sessions_.erase(it);
    break;
  }
  auto hash = checked_hash(config);
  if (!hash) {
    error = hash.error();
    return nullptr;
  }
  // An artifact's engine runs from its bytes, materialised on this host, in the sandbox.
  engines::EngineConfig spawned = config;
  std::optional<engines::ArtifactLease> lease;
  if (!config.artifact.empty()) {
    auto leased = materialise(config.artifact);
    if (!leased) {
      error = leased.error();
      return nullptr;
    }
    spawned.sandbox = true;
    spawned.sandbox_root = leased->root();
    lease.emplace(std::move(*leased));
  }
  auto started = match::EngineSession::start(engines::spawn_spec_of(spawned),
                                             session_settings_of(config, keep_logs_, debug_));
  if (!started) {
    error = started.error();
    return nullptr;
  }
  record_identity(config, *started);
  sessions_.push_front(Cached{key, std::move(*started), std::move(*hash), std::move(lease)});
  return &sessions_.front();
}

void SlotPlayer::drop(const engines::EngineConfig& config) {
  const std::string key = session_key(config);
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
    if (it->key == key) {
      quit(it->session);
      sessions_.erase(it);
      return;
    }
}

SlotOutcome SlotPlayer::play(const storage::Claim& claim, EventRoster& roster,
                             const std::atomic<bool>* stop, const SlotHooks& hooks) {
  const storage::SlotRecord& slot = claim.slot;
  SlotOutcome out;
  auto skip = [&](const std::string& reason) {
    // In a batch: the skip and what hooks.settled adds commit together.
    auto n = recorder_.call_in_batch<int>([&](storage::Store& s) {
      auto skipped = storage::work_queue::skip_slots(s, claim.event, {claim.slot.slot}, reason);
      if (skipped && *skipped > 0 && hooks.settled)
        if (Status st = hooks.settled(s); !st) return Expected<int>(st.failure());
      return skipped;
    });
    out.kind = n ? SlotOutcome::Kind::Skipped : SlotOutcome::Kind::StorageFailure;
    out.message = n ? reason : n.error();
    if (!n) out.error_kind = n.kind();
    return out;
  };
  auto release = [&] {
    // A failure reaches the recorder's on_failure: the run stops.
    (void)recorder_.call<Ok>([&](storage::Store& s) {
      return storage::work_queue::release_slot(s, claim.event, claim.slot.slot, owner_);
    });
  };

  std::vector<TournamentEngine> seat_engines;
  for (const auto& n : slot.seats) {
    auto e = roster.find(n);
    if (!e) return skip("engine '" + n + "' is not in the event");
    seat_engines.push_back(std::move(*e));
  }
  auto game = games::make_game(slot.game);
  if (!game) return skip(game.error());
  std::vector<match::EngineSession*> seats;
  std::vector<storage::EngineHash> hashes;
  for (const auto& e : seat_engines) {
    std::string error;
    Cached* cached = session_for(e.config, error);
    if (!cached) {
      if (auto notice = roster.exclude(e.config.name, "cannot start: " + error))
        out.notices.push_back(*notice);
      release();
      out.kind = SlotOutcome::Kind::NotStarted;
      out.message = "engine '" + e.config.name + "' cannot start: " + error;
      return out;
    }
    if (!cached->session.declares(game->name())) {
      roster.note_skips(e.config.name, "does not declare " + game->name());
      return skip("engine '" + e.config.name + "' does not declare " + game->name());
    }
    seats.push_back(&cached->session);
    hashes.push_back(cached->hash);
  }
  const auto game_start = std::chrono::steady_clock::now();
  for (std::size_t s = 0; s < seats.size(); ++s)
    seats[s]->start_log(game_start, static_cast<int>(s + 1));

  match::MatchResult result;
  // Prepare every seat: a stall or crash here forfeits the game for that engine.
  for (std::size_t s = 0; s < seats.size() && result.termination.empty(); ++s) {
    std::string detail;
    match::Fault f = seats[s]->prepare(*game, detail);
    if (f == match::Fault::Unsupported) {
      for (auto* x : seats) x->take_log();
      roster.note_skips(seat_engines[s].config.name, "refused " + game->name() + ": " + detail);
      return skip("engine '" + seat_engines[s].config.name + "' refused " + game->name() + ": " +
                  detail);
    }
    if (f != match::Fault::None) {
      result.finished = true;
      result.ranks = match::forfeit_ranks(game->num_players(), static_cast<int>(s + 1));
      result.scores.assign(seats.size(), 0.0);
      result.termination = match::fault_name(f);
      result.reason = match::forfeit_reason(*seats[s], f, detail, " before the game");
      result.faulty_seat = static_cast<int>(s + 1);
      result.fault = f;
    }
  }
  storage::GameRecord rec;
  rec.event_id = claim.event;
  rec.slot = slot.slot;
  rec.game = slot.game;
  rec.opening = slot.opening;
  rec.players = slot.seats;
  for (const auto& e : seat_engines)
    rec.time_controls.push_back(roster.time_control_of(e).to_string());
  rec.time_control = rec.time_controls.front();  // seat 1's: what the rating filters test
  rec.owner = owner_;
  if (std::any_of(hashes.begin(), hashes.end(),
                  [](const storage::EngineHash& h) { return h != storage::EngineHash{}; }))
    rec.engine_hashes = std::move(hashes);
  std::int64_t id = 0;  // with !hooks.wait_for_id, the recorder's stand-in until the finish
  if (hooks.wait_for_id) {
    auto begun = recorder_.begin_game(rec);
    if (!begun) {
      release();
      out.kind = SlotOutcome::Kind::StorageFailure;
      out.message = begun.error();
      out.error_kind = begun.kind();
      return out;
    }
    id = *begun;
  } else {
    id = recorder_.begin_game_queued(rec);
  }
  rec.id = id;
  if (hooks.started) hooks.started(id, rec);
  if (result.termination.empty()) {
    match::MatchSetup setup{*game, "", slot.opening, seats, {}, stop, {}, {}, {}};
    setup.adjudication = roster.adjudication();
    setup.judge = roster.judge_for(*game);
    for (const auto& e : seat_engines) setup.time_controls.push_back(roster.time_control_of(e));
    setup.on_move = [&](const storage::MoveRecord& m) {
      const bool by_engine = m.player >= 1 && m.player <= static_cast<int>(seat_engines.size());
      if (budget_ && by_engine && !m.info.empty()) {
        const std::string& name = seat_engines[static_cast<std::size_t>(m.player - 1)].config.name;
        const auto charged = budget_->charge(name, m.info.size() + 1);
        if (charged.first_refusal) out.notices.push_back(budget_->notice(name));
        if (!charged.allowed) {
          storage::MoveRecord bare = m;  // the move is stored, its info line is not
          bare.info.clear();
          recorder_.add_move(id, std::move(bare));
          if (hooks.moved) hooks.moved(id, m);
          return;
        }
      }
      recorder_.add_move(id, m);
      if (hooks.moved) hooks.moved(id, m);
    };
    result = match::play_match(setup);
  }
  for (std::size_t s = 0; s < seats.size(); ++s) {
    auto lines = seats[s]->take_log();
    if (budget_)
      if (auto notice = budget_->filter(seat_engines[s].config.name, lines); !notice.empty())
        out.notices.push_back(std::move(notice));
    recorder_.add_logs(id, std::move(lines));
  }

  rec.status = result.finished ? storage::GameStatus::Finished : storage::GameStatus::Unfinished;
  rec.ranks = result.ranks;
  rec.scores = result.scores;
  rec.termination = result.termination;
  rec.reason = result.reason;
  rec.plies = static_cast<std::int64_t>(result.moves.size());
  // Durable: once play() returns Done, the API and the stream may report the game finished.
  auto end = recorder_.call_durable<storage::ClaimEnd>(
      [&](storage::Store& s) -> Expected<storage::ClaimEnd> {
        const std::int64_t real = recorder_.real_id(id);
        if (real == 0)
          return Error{"slot " + std::to_string(slot.slot) +
                       ": the game's begin was not recorded: " + recorder_.first_error()};
        auto ended = storage::work_queue::finish_claimed(s, real, rec, owner_);
        if (ended && *ended == storage::ClaimEnd::Done && hooks.settled)
          if (Status st = hooks.settled(s); !st) return st.failure();
        return ended;
      });
  rec.id = recorder_.real_id(id);
  recorder_.forget(id);

  // Engines that failed are restarted for their next game; repeated failures withdraw them.
  for (std::size_t s = 0; s < seat_engines.size(); ++s) {
    const auto& e = seat_engines[s];
    if (result.faulty_seat == static_cast<int>(s + 1) && result.fault != match::Fault::Illegal &&
        result.fault != match::Fault::Resign) {
      const std::string what = match::fault_name(result.fault) + ": " + result.reason;
      drop(e.config);
      if (result.fault == match::Fault::Crash || result.fault == match::Fault::Stall ||
          result.fault == match::Fault::Protocol ||
          (result.fault == match::Fault::Timeout && roster.withdraws_on_time()))
        if (auto notice = roster.note_failure(e.config.name, what)) out.notices.push_back(*notice);
    } else if (result.finished) {
      roster.note_success(e.config.name);
    }
  }
  // Keep at most max_idle_ sessions (the daemon's threads serve many events).
  while (max_idle_ > 0 && sessions_.size() > max_idle_) {
    quit(sessions_.back().session);
    sessions_.pop_back();
  }

  out.record = std::move(rec);
  out.result = std::move(result);
  if (!end) {
    out.kind = SlotOutcome::Kind::StorageFailure;
    out.message = end.error();
    out.error_kind = end.kind();
  } else if (*end == storage::ClaimEnd::Lost) {
    out.kind = SlotOutcome::Kind::Lost;
  } else if (*end == storage::ClaimEnd::Released) {
    out.kind = SlotOutcome::Kind::Released;
  } else {
    out.kind = SlotOutcome::Kind::Done;
  }
  return out;
}

}  // namespace referee::event
