// The one owner loop (design.md §8): what every process that plays an event's games does, written
// once for `referee tournament`, `referee serve` and `referee worker`. An owner registers in the
// database, takes over its Store as the one writer (storage::Recorder), renews its claims on a
// heartbeat, runs N game threads that claim one slot at a time and play it through a SlotPlayer,
// and at the end drains (no new claims; the games in hand may finish for a while, then they are
// interrupted and their slots go back to pending) and releases its claims (work_queue::stop_owner).
//
// What differs between the three is given as a WorkSource, a few callbacks run on the game
// threads: which events to claim from (one event for `tournament`; the scheduler's order for
// `serve` and `worker`), what a game's start, moves and end publish (progress lines; the live
// stream), and whether a thread with nothing to claim ends (a tournament run is over) or waits.
// Events whose games are not all known at the start (a ladder's top-ups; a Swiss round or a
// knockout match that adds its games when the previous ones finish) need nothing more: whoever
// appends slots calls wake(), and the threads claim them like any. When several owners may decide
// the same games at once (each sees the round end), they append with the slot number the first
// should get (work_queue::append_slots' expected_next): one transaction adds them, the others get
// ErrorKind::Conflict, so the games are added exactly once on one host or many. A knockout's or
// Swiss event's are added in the transaction that settles the game making them due
// (SlotHooks::settled), under the writers' lock (work_queue::decide_exclusively), by whichever
// owner played it.
//
// Decisions, taken once for the three commands:
// - Commits: every commit_interval(store): 20 ms for a SQLite file (at 2 ms a run of instant
//   engines paid about 2 µs more per ply in commits), 100 ms for a server (each commit is a round
//   trip and a WAL flush shared by every worker: storage/SCALING.md). serve and worker may set
//   their own (--commit-interval).
// - Heartbeat: every lease/4 (at least 10 ms), so a lease is renewed three times before it can
//   expire. A failed renewal is a storage failure of the owner.
// - A thread with nothing to claim waits for wake() or min(500 ms, lease/4): leases of dead
//   owners expire by the clock, and nothing else would wake it.
// - Games at once: the number of game threads. A tournament file's `concurrency` (an event's
//   limit) of 0 means the event has no limit of its own: as many games at once as the process
//   playing it has game threads (games_at_once; `referee tournament` runs one thread per core
//   for it).
// - Any storage failure (a write, a claim, a renewal) is the owner's failure: no new claims, the
//   games in hand are interrupted, and the first failure is kept with its kind (a lost server
//   connection is ErrorKind::Unavailable: serve and worker reconnect).
// - Exactly-once finishes are the Store's (finish_claimed); the loop only never claims a second
//   slot on a thread before the first is settled.
// - A low or full disk degrades the owner instead (OwnerLimits::degrade, the default): when the
//   database's file system has less than headroom_bytes free (statvfs of a SQLite file's
//   directory, checked every space_check), or a write fails with ErrorKind::Full (any backend),
//   no new game is started and health() says `degraded` with the reason; the process goes on
//   (the daemon serves its reads). A low disk lets the games in hand finish; a failed write
//   interrupts them (their later writes are being dropped) and, once none is in hand, the owner
//   releases its claims. Every space_check it looks again: with room (free space at least the
//   headroom, or no way to measure it: a server is simply tried again), it resumes, without a
//   restart. An owner that should rather stop (`referee tournament`: a run in the foreground
//   ends with its error and resumes next time) sets degrade = false: low space and a full disk
//   are then failures of kind Full. Failures of any other kind stop the owner as before.
// - Each engine's stored output is held to a budget across games (event/output_budget.h).
// - Finishes are durable (storage/recorder.h: call_durable): a game play() reports Done has been
//   synced to the disk, whatever the moves' commits.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/expected.h"
#include "event/output_budget.h"
#include "event/slot_player.h"
#include "storage/recorder.h"
#include "storage/store.h"

namespace referee::event {

// The commit interval an owner uses on `store` unless told otherwise (see above).
std::chrono::milliseconds commit_interval(const storage::Store& store);

// Games an event may play at once in a process with `threads` game threads, given its file's
// `concurrency` (0: no limit of its own).
int games_at_once(int concurrency, int threads);

// The game threads of a process: `threads` when given (> 0), else one per core.
int game_threads(int threads);

// One game thread as others see it: which event it plays (0 when idle), and its game's stop.
struct GameThread {
  int index = 0;
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> event{0};
};

// An event a thread may claim from, with the engines it plays with.
struct Candidate {
  std::int64_t event = 0;
  std::shared_ptr<EventRoster> roster;
};

// What an owner's source does with one claimed slot's game. Runs on the game thread.
struct GameWatch {
  bool cut = false;  // the game stops at once (say, its event was cancelled after the claim)
  SlotHooks hooks;   // the game's start and moves
  // The game is over (or never began: skipped, not started); its GameThread is idle again.
  std::function<void(SlotOutcome&)> finished;
};

struct WorkSource {
  // The events to try, best first; empty when there is nothing now.
  std::function<std::vector<Candidate>()> candidates;
  // A claim on `event` found a slot (true) or nothing (false).
  std::function<void(std::int64_t event, bool found)> claimed;
  // The watch of a claimed slot's game.
  std::function<GameWatch(const storage::Claim&)> watch;
  // Nothing to claim from any candidate: whether this thread ends (true) or waits (false).
  std::function<bool()> exhausted;
};

// What an owner says of itself (health()): GET /api/health, the worker's log, the tournament's
// progress.
enum class OwnerState {
  Ok,        // starting games
  Degraded,  // not starting games until there is room again (see above); reads go on
  Draining,  // stopping: no new games
  Failed,    // a storage failure stopped it
};
const char* owner_state_name(OwnerState state);  // "ok", "degraded", "draining", "failed"

struct OwnerHealth {
  OwnerState state = OwnerState::Ok;
  std::string reason;               // why degraded or failed ("" when ok)
  std::int64_t free_bytes = -1;     // on the database's file system at the last check (-1: unknown)
  std::int64_t headroom_bytes = 0;  // the headroom it is held to
};

// How an owner guards the disk (see above). The defaults are the daemon's and the worker's.
struct OwnerLimits {
  OutputBudgetSettings engine_output;         // 64 MiB per engine per hour by default
  std::int64_t headroom_bytes = 256LL << 20;  // 0: no free-space check
  std::chrono::milliseconds space_check{5000};
  bool degrade = true;  // false: low space and a full disk fail the owner
  // Told of every change of health() (on the heartbeat or a game thread): the owner's log.
  std::function<void(const OwnerHealth&)> changed;
};

struct OwnerSettings {
  storage::OwnerInfo info;  // name, host, pid, kind, lease
  int threads = 1;
  std::chrono::milliseconds commit_interval{0};  // 0: commit_interval(store)
  bool keep_logs = true;
  match::DebugLog* debug = nullptr;
  std::size_t idle_sessions = 0;  // per thread; 0: no bound (SlotPlayer)
  // Pins thread k and the engines it starts to the k-th allowed CPU (RunOptions::pin_cpus).
  bool pin_cpus = false;
  OwnerLimits limits;
  // Where the engines of stored artifacts are materialised (engines/artifact_cache.h), and the
  // most it keeps; "" = engines::default_artifact_cache_dir().
  std::string artifact_cache;
  std::uint64_t artifact_cache_bytes = engines::kDefaultArtifactCacheBytes;
};

// What the game threads did, once they have ended.
struct OwnerTotals {
  long round_trips = 0;                 // request/reply exchanges with engines
  double user_cpu = 0, system_cpu = 0;  // of the game threads
};

class OwnerLoop {
 public:
  // Registers the owner on `store` and makes the store its writer. The store is given back (in
  // `store`) when the registration fails.
  static Expected<std::unique_ptr<OwnerLoop>> start(storage::Store& store,
                                                    const OwnerSettings& settings);
  ~OwnerLoop();  // stop() if not done
  OwnerLoop(const OwnerLoop&) = delete;
  OwnerLoop& operator=(const OwnerLoop&) = delete;

  std::int64_t owner() const { return owner_; }
  storage::Recorder& recorder() { return *recorder_; }
  std::chrono::milliseconds interval() const { return interval_; }
  int threads() const { return static_cast<int>(threads_.size()); }

  // The engine check before run(): the engine's session in thread 0's player, started unless
  // alive (SlotPlayer::check_session); its games then use it. Not once the threads run.
  match::EngineSession* check_session(const engines::EngineConfig& config, std::string& error);
  // Starts the heartbeat and the game threads.
  void run(WorkSource source);
  // New work (an event submitted, resumed, topped up): idle threads look again.
  void wake();

  // A storage failure: the first is kept; no new claims, games in hand interrupted.
  void fail(const Error& error);
  bool failed() const { return failed_.load(); }
  Error failure() const;

  bool draining() const { return stop_claims_.load(); }
  // Ok, degraded (with the reason), draining or failed; see above.
  OwnerHealth health() const;
  bool degraded() const { return degraded_.load(); }
  // Changes the headroom while running (tests; an operator's new setting); checked at once.
  void set_headroom(std::int64_t bytes);
  // The budget of the engines' stored output, shared by the game threads.
  OutputBudget& output_budget() { return budget_; }
  // Threads playing a game now.
  int busy() const;
  // Threads playing a game of `event` now.
  int busy_on(std::int64_t event) const;
  // Interrupts this owner's games of `event` (a cancel, a decided sprt): they are kept
  // unfinished and their slots released.
  void interrupt(std::int64_t event);
  // No new claims, every game in hand interrupted now.
  void halt();
  // Whether every game thread has ended (exhausted, drained, halted or failed).
  bool games_over() const;
  // Waits up to `d` for the game threads to end; returns games_over().
  bool wait_games(std::chrono::milliseconds d);
  // No new claims; the games in hand may finish for `seconds` while keep_waiting() holds, then
  // they are interrupted; returns once every game thread has ended, with the number interrupted.
  int drain(double seconds, const std::function<bool()>& keep_waiting);
  // Ends the threads (halt() if drain() was not called), the heartbeat, and releases the claims
  // (stop_owner); then every queued write is committed. The release's status is returned (a
  // failed one leaves the claims to expire with their leases).
  Status stop();
  // After stop(): what the game threads did.
  OwnerTotals totals() const;

 private:
  OwnerLoop(std::int64_t owner, storage::Store store, const OwnerSettings& settings,
            std::chrono::milliseconds interval);
  void game_thread(GameThread& me, SlotPlayer& player);
  void heartbeat();
  void join_games();
  // The free-space check and, when degraded, the attempt to resume (heartbeat thread).
  void check_space();
  // Degrades (or fails, without limits.degrade) for `reason`; `interrupt`: a failed write, the
  // games in hand are interrupted too.
  void degrade(const std::string& reason, bool interrupt);
  void tell_health();

  const OwnerSettings settings_;
  const std::int64_t owner_;
  const std::chrono::milliseconds interval_;
  std::unique_ptr<storage::Recorder> recorder_;
  WorkSource source_;
  std::vector<std::unique_ptr<GameThread>> threads_;
  std::vector<std::unique_ptr<SlotPlayer>> players_;
  std::vector<std::thread> running_;
  std::thread beat_;
  std::atomic<int> ended_{0};
  std::atomic<bool> stop_claims_{false}, interrupting_{false}, failed_{false}, stopped_{false};
  std::atomic<bool> degraded_{false};
  std::atomic<bool> write_failed_{false};  // degraded by a failed write: the recorder dropped some
  std::atomic<std::int64_t> headroom_{0}, free_{-1};
  std::string db_path_;
  OutputBudget budget_;
  engines::ArtifactCache artifacts_;  // shared by the players: it is safe across threads
  mutable std::mutex mutex_;  // guards failure_, totals_, beat_done_, reason_, retry_at_; waits
  std::condition_variable work_, beat_wake_, ended_wake_;
  bool beat_done_ = false;
  Error failure_;
  std::string reason_;                                // why degraded
  std::chrono::steady_clock::time_point retry_at_{};  // a degraded owner looks again then
  OwnerTotals totals_;
};

}  // namespace referee::event
