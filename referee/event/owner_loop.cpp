#include "event/owner_loop.h"

#include <algorithm>
#include <filesystem>

#include "engines/system.h"

namespace referee::event {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kSqliteCommits{20};
constexpr std::chrono::milliseconds kServerCommits{100};
constexpr std::chrono::milliseconds kLeastHeartbeat{10};
constexpr std::chrono::milliseconds kMostIdleWait{500};

}  // namespace

std::chrono::milliseconds commit_interval(const storage::Store& store) {
  return storage::is_server_database(store.path()) ? kServerCommits : kSqliteCommits;
}

const char* owner_state_name(OwnerState state) {
  switch (state) {
    case OwnerState::Ok:
      return "ok";
    case OwnerState::Degraded:
      return "degraded";
    case OwnerState::Draining:
      return "draining";
    case OwnerState::Failed:
      return "failed";
  }
  return "ok";
}

namespace {

std::string mib(std::int64_t bytes) {
  return std::to_string((bytes + (1LL << 19)) >> 20) + " MiB";
}

}  // namespace

int games_at_once(int concurrency, int threads) {
  return concurrency > 0 ? std::min(concurrency, threads) : threads;
}

int game_threads(int threads) {
  return threads > 0 ? threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

Expected<std::unique_ptr<OwnerLoop>> OwnerLoop::start(storage::Store& store,
                                                      const OwnerSettings& settings) {
  auto owner = storage::work_queue::register_owner(store, settings.info);
  if (!owner) return owner.failure();
  const auto interval =
      settings.commit_interval.count() > 0 ? settings.commit_interval : commit_interval(store);
  return std::unique_ptr<OwnerLoop>(new OwnerLoop(*owner, std::move(store), settings, interval));
}

OwnerLoop::OwnerLoop(std::int64_t owner, storage::Store store, const OwnerSettings& settings,
                     std::chrono::milliseconds interval)
    : settings_(settings),
      owner_(owner),
      interval_(interval),
      headroom_(settings.limits.headroom_bytes),
      db_path_(store.path()),
      budget_(settings.limits.engine_output),
      artifacts_(settings.artifact_cache.empty() ? engines::default_artifact_cache_dir()
                                                 : settings.artifact_cache,
                 settings.artifact_cache_bytes) {
  recorder_ = std::make_unique<storage::Recorder>(std::move(store), interval,
                                                  [this](const Error& e) { fail(e); });
  const int n = std::max(1, settings.threads);
  for (int i = 0; i < n; ++i) {
    threads_.push_back(std::make_unique<GameThread>());
    threads_.back()->index = i;
    players_.push_back(std::make_unique<SlotPlayer>(*recorder_, owner_, settings.keep_logs,
                                                    settings.debug, settings.idle_sessions,
                                                    &budget_, &artifacts_));
  }
}

OwnerLoop::~OwnerLoop() {
  (void)stop();
}

match::EngineSession* OwnerLoop::check_session(const engines::EngineConfig& config,
                                               std::string& error) {
  return players_.front()->check_session(config, error);
}

void OwnerLoop::run(WorkSource source) {
  source_ = std::move(source);
  check_space();  // a disk already low: no game starts
  beat_ = std::thread([this] { heartbeat(); });
  const std::vector<int> cpus = settings_.pin_cpus ? engines::allowed_cpus() : std::vector<int>{};
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    const int cpu = cpus.empty() ? -1 : cpus[i % cpus.size()];
    running_.emplace_back([this, i, cpu] {
      if (cpu >= 0) engines::pin_this_thread({cpu});
      game_thread(*threads_[i], *players_[i]);
    });
  }
}

void OwnerLoop::wake() {
  std::lock_guard lock(mutex_);
  work_.notify_all();
}

void OwnerLoop::fail(const Error& error) {
  if (error.kind == ErrorKind::Full && settings_.limits.degrade && !stop_claims_.load()) {
    degrade(error.message.empty() ? "the disk is full" : error.message, true);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (failed_.load()) return;
    failure_ = error;
    if (failure_.message.empty()) failure_.message = "unknown storage failure";
    failed_ = true;
  }
  halt();
}

void OwnerLoop::degrade(const std::string& reason, bool interrupt) {
  if (!settings_.limits.degrade) {
    fail(Error{reason, ErrorKind::Full});
    return;
  }
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    changed = !degraded_.load();
    const bool first_write = interrupt && !write_failed_.exchange(true);
    // A failed write's reason stays until the owner resumes; a low disk's is brought up to date.
    if (changed || first_write || !write_failed_.load()) reason_ = reason;
    retry_at_ = SteadyClock::now() + settings_.limits.space_check;
    degraded_ = true;
  }
  if (interrupt)
    for (auto& t : threads_)
      if (t->event.load() != 0) t->stop = true;
  if (changed) tell_health();  // once per degradation, not once per check or failed write
}

void OwnerLoop::tell_health() {
  if (settings_.limits.changed) settings_.limits.changed(health());
}

OwnerHealth OwnerLoop::health() const {
  OwnerHealth h;
  h.free_bytes = free_.load();
  h.headroom_bytes = headroom_.load();
  std::lock_guard lock(mutex_);
  if (failed_.load()) {
    h.state = OwnerState::Failed;
    h.reason = failure_.message;
  } else if (stop_claims_.load()) {
    h.state = OwnerState::Draining;
  } else if (degraded_.load()) {
    h.state = OwnerState::Degraded;
    h.reason = reason_;
  }
  return h;
}

void OwnerLoop::set_headroom(std::int64_t bytes) {
  headroom_ = bytes;
  {
    std::lock_guard lock(mutex_);
    retry_at_ = SteadyClock::now();  // a new setting is looked at now, not a period later
  }
  check_space();
}

void OwnerLoop::check_space() {
  if (stop_claims_.load()) return;
  const auto free = storage::free_bytes(db_path_);
  free_ = free ? *free : -1;
  const std::int64_t headroom = headroom_.load();
  const bool low = free && headroom > 0 && *free < headroom;
  if (low) {
    // Told again only when the reason changes: a degraded owner is not a log line per check.
    const std::string dir = std::filesystem::path(db_path_).parent_path().string();
    degrade("low disk: " + mib(*free) + " free on " + (dir.empty() ? "." : dir) +
                ", below the headroom of " + mib(headroom),
            false);
    return;
  }
  if (!degraded_.load()) return;
  {
    std::lock_guard lock(mutex_);
    if (SteadyClock::now() < retry_at_) return;
    retry_at_ = SteadyClock::now() + settings_.limits.space_check;
  }
  if (write_failed_.load()) {
    // The recorder dropped the writes after the failure: the games in hand then must end before
    // it writes again (a game's moves stay a contiguous prefix). Their claims are released here
    // when their own release could not be written.
    if (busy() > 0) return;
    auto released = recorder_->call<Ok>(
        [&](storage::Store& st) { return storage::work_queue::release_claims(st, owner_); });
    if (!released) return;  // still full: looked at again a period later
    recorder_->clear_failure();
    write_failed_ = false;
  }
  {
    std::lock_guard lock(mutex_);
    degraded_ = false;
    reason_.clear();
  }
  tell_health();
  wake();
}

Error OwnerLoop::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

int OwnerLoop::busy() const {
  int n = 0;
  for (const auto& t : threads_) n += t->event.load() != 0;
  return n;
}

int OwnerLoop::busy_on(std::int64_t event) const {
  int n = 0;
  for (const auto& t : threads_) n += t->event.load() == event;
  return n;
}

void OwnerLoop::interrupt(std::int64_t event) {
  for (auto& t : threads_)
    if (t->event.load() == event) t->stop = true;
}

void OwnerLoop::halt() {
  stop_claims_ = true;
  interrupting_ = true;
  for (auto& t : threads_) t->stop = true;
  wake();
}

bool OwnerLoop::games_over() const {
  return ended_.load() == static_cast<int>(running_.size());
}

bool OwnerLoop::wait_games(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  ended_wake_.wait_for(lock, d, [this] { return games_over(); });
  return games_over();
}

int OwnerLoop::drain(double seconds, const std::function<bool()>& keep_waiting) {
  stop_claims_ = true;
  wake();
  const auto deadline =
      SteadyClock::now() + std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  while (busy() > 0 && SteadyClock::now() < deadline && keep_waiting() && !failed_.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const int left = busy();
  halt();
  join_games();
  return left;
}

void OwnerLoop::join_games() {
  for (auto& t : running_)
    if (t.joinable()) t.join();
}

Status OwnerLoop::stop() {
  if (stopped_.exchange(true)) return Ok{};
  halt();  // no new claims; games still in hand (none after a drain) are interrupted
  join_games();
  {
    std::lock_guard lock(mutex_);
    beat_done_ = true;
  }
  beat_wake_.notify_all();
  if (beat_.joinable()) beat_.join();
  players_.clear();  // engine sessions quit
  auto released = recorder_->call<Ok>(
      [&](storage::Store& s) { return storage::work_queue::stop_owner(s, owner_); });
  recorder_->flush();
  return released;
}

OwnerTotals OwnerLoop::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

void OwnerLoop::heartbeat() {
  const long lease = settings_.info.lease_ms;
  const auto period = std::max(kLeastHeartbeat, std::chrono::milliseconds(lease / 4));
  const auto check = std::max(kLeastHeartbeat, settings_.limits.space_check);
  auto next_beat = SteadyClock::now() + period, next_check = SteadyClock::now() + check;
  std::unique_lock lock(mutex_);
  while (!beat_done_) {
    if (beat_wake_.wait_until(lock, std::min(next_beat, next_check), [this] { return beat_done_; }))
      break;
    lock.unlock();
    const auto now = SteadyClock::now();
    if (now >= next_beat) {
      // A failure reaches fail() through the recorder's callback.
      (void)recorder_->call<int>(
          [&](storage::Store& s) { return storage::work_queue::renew_claims(s, owner_, lease); });
      next_beat = now + period;
    }
    if (now >= next_check) {
      check_space();
      next_check = now + check;
    }
    lock.lock();
  }
}

void OwnerLoop::game_thread(GameThread& me, SlotPlayer& player) {
  const long lease = settings_.info.lease_ms;
  const auto idle_wait =
      std::min(kMostIdleWait, std::chrono::milliseconds(std::max(1L, lease / 4)));
  while (!stop_claims_.load()) {
    if (degraded_.load()) {  // no new game until there is room (check_space)
      std::unique_lock lock(mutex_);
      work_.wait_for(lock, idle_wait, [this] { return stop_claims_.load() || !degraded_.load(); });
      continue;
    }
    bool played = false;
    for (const Candidate& c : source_.candidates()) {
      if (stop_claims_.load() || degraded_.load()) break;
      auto claims = recorder_->call_in_batch<std::vector<storage::Claim>>([&](storage::Store& s) {
        return storage::work_queue::claim_slots(s, owner_, c.event, 1, lease,
                                                c.roster->excluded_names());
      });
      if (!claims) break;  // the recorder has told fail()
      if (source_.claimed) source_.claimed(c.event, !claims->empty());
      if (claims->empty()) continue;
      const storage::Claim& claim = claims->front();
      me.event = c.event;
      GameWatch watch = source_.watch ? source_.watch(claim) : GameWatch{};
      me.stop = interrupting_.load() || watch.cut || write_failed_.load();
      SlotOutcome out = player.play(claim, *c.roster, &me.stop, watch.hooks);
      // The recorder has told fail() already; this keeps the loop's promise if it had not.
      // Not after a failed write that degraded the owner: the game's own writes were dropped
      // since (its begin, say), and what that made fail is no new failure. Told while the
      // thread still counts as busy, so that the owner cannot resume in between.
      if (out.kind == SlotOutcome::Kind::StorageFailure && !write_failed_.load())
        fail(Error{out.message, out.error_kind});
      me.event = 0;
      me.stop = interrupting_.load();
      if (watch.finished) watch.finished(out);
      played = true;
      break;
    }
    if (played || stop_claims_.load() || degraded_.load()) continue;
    if (source_.exhausted && source_.exhausted()) break;
    std::unique_lock lock(mutex_);
    work_.wait_for(lock, idle_wait, [this] { return stop_claims_.load(); });
  }
  player.close();
  const auto cpu = engines::thread_usage();
  std::lock_guard lock(mutex_);
  totals_.round_trips += player.round_trips();
  totals_.user_cpu += cpu.user_seconds;
  totals_.system_cpu += cpu.system_seconds;
  ++ended_;
  ended_wake_.notify_all();
}

}  // namespace referee::event
