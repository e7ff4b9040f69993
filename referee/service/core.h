// The daemon's shared state (referee serve) and the free functions that work on it, one file per
// concern: events.cpp (the events in play, submitting and controlling them, summaries and
// standings), ladder.cpp's keeper in ladder_keeper.cpp (registered engines, the standing ladders
// and their pairings), game_source.cpp (what the owner loop's game threads claim and publish),
// api*.cpp (HTTP), daemon.cpp (start, run, drain, stop), worker.cpp (the same without HTTP).
//
// Threads: the owner loop (event/owner_loop.h) runs N game threads and the heartbeat that renews
// their claims; one "hub" refreshes the events from the database, recomputes standings and tops
// up ladders, off the game threads; the HTTP server's threads answer requests. Game threads never
// wait on HTTP threads: they publish to the Broadcaster, mark events dirty, and write through the
// loop's Recorder (whose writer thread they share with the API's few writes). `mutex` guards
// `events` and the counters; it is never held across a database call or a publication.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "event/owner_loop.h"
#include "event/slot_player.h"
#include "event/sprt_event.h"
#include "event/tournament_config.h"
#include "service/auth.h"
#include "service/broadcaster.h"
#include "service/log.h"
#include "service/principal.h"
#include "service/read_pool.h"
#include "service/views.h"
#include "storage/engine_registry.h"
#include "storage/recorder.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::service {

using SteadyClock = std::chrono::steady_clock;

struct ServeOptions {
  std::string db = "referee.db";
  std::string host = "127.0.0.1";
  int port = 8410;
  int concurrency = 0;         // game threads; 0 = number of cores
  std::string artifact_cache;  // where stored engines are materialised; "" = the default
  std::string token;   // the operator token ("" = none: only the Unix socket is the operator)
  std::string socket;  // the Unix socket for local control; "" = none
  std::vector<std::string> allowed_hosts;  // Host names accepted besides the loopback's
  bool behind_proxy = false;  // every TCP request needs a token; X-Forwarded-For names the client
  double drain_seconds = 30;
  long lease_ms = 30000;
  bool keep_logs = true;
  match::TimeControl ladder_tc = *match::parse_time_control("10+0.1");
  int ladder_random_plies = 4;
  int ladder_concurrency = 0;   // the pace of new ladders: games at once (0 = no cap)
  long ladder_interval_ms = 0;  // and the least interval between two game starts
  std::size_t max_body_bytes = 1 << 20;
  std::size_t max_artifact_bytes = 64 << 20;  // an uploaded artifact (POST /api/artifacts)
  std::size_t min_upload_rate = 64 * 1024;    // its least average rate, bytes a second
  int max_stream_clients = 256;
  int http_threads = 32;       // threads for requests other than live streams
  std::string base_dir = ".";  // relative engine commands of submitted files, by default
  // An event whose claim found nothing is retried after 1 s, doubling up to this (the daemon: 1 s
  // always; workers back off further, service/worker.h).
  long idle_max_ms = 1000;
  // How often the writer commits; 0 = the owner loop's choice for the database
  // (event/owner_loop.h: commit_interval).
  long commit_interval_ms = 0;
  // The engines' output budget and the free-space headroom (event/owner_loop.h).
  event::OwnerLimits limits;
};

// One event the daemon may play: what the database says plus what only this daemon knows.
struct EventRuntime {
  std::int64_t id = 0;
  std::string name;
  storage::EventKind kind = storage::EventKind::Tournament;
  storage::EventState state = storage::EventState::Queued;
  int priority = 0;
  int cap = 0;  // the file's concurrency: most games at once here (0 = none)
  // The least time between two of its game starts here (0 = none: a ladder's pace, PATCH
  // /api/events/{id}), and when the next may start.
  long interval_ms = 0;
  SteadyClock::time_point next_start{};
  // Game threads it has been offered to as a capped or paced event whose claim has not settled
  // yet (game_source.cpp): counted with `running` against the cap.
  int offered = 0;
  event::TournamentConfig
      config;  // from the stored specification (a ladder's engines: the registry)
  std::shared_ptr<event::EventRoster> roster;
  int running = 0;                     // games this daemon plays now
  std::uint64_t served = 0;            // scheduler's counter at the last claim
  SteadyClock::time_point retry_at{};  // nothing to claim before (another claim found none)
  int empty_claims = 0;                // claims in a row that found nothing (the backoff)
  // Core::changes when this daemon last set the state or priority itself: a refresh that read the
  // database before that must not put the older value back (see refresh_events).
  std::uint64_t changed = 0;
  std::int64_t finished_here = 0;  // games this daemon finished
  SteadyClock::time_point first_start{};
  bool started_here = false;
  std::deque<std::string> notices;  // withdrawals, exclusions (the last 20)
  bool dirty = true;                // its summary and standings changed since last published
  SteadyClock::time_point last_publish{};
  double publish_cost_s = 0;  // how long the last standings took to compute
  // Games done when standings were last published: they are published again only when this
  // changes (a "standings" message means the table changed, never an empty table at the start).
  std::int64_t standings_done = 0;
  std::int64_t sprt_done = -1;  // sprt events: finished games when the test was last run
  event::SprtThrottle
      sprt_throttle;  // as every owner's (event/sprt_event.h); the hub runs it later
};

struct Core {
  // The daemon's options (API, ladders); a worker leaves them at their defaults (it has no HTTP
  // and keeps no ladders).
  ServeOptions options;
  // An event whose claim found nothing is retried after 1 s, doubling up to this (game_source).
  long idle_max_ms = 1000;
  Log* log = nullptr;
  std::string db_path;
  std::unique_ptr<event::OwnerLoop> loop;  // this process as an owner: its writer and game threads
  std::unique_ptr<ReadPool> reads;
  Broadcaster stream;
  SteadyClock::time_point started = SteadyClock::now();

  std::mutex mutex;  // guards everything below
  std::map<std::int64_t, EventRuntime> events;
  // The capped or paced event each game thread was last offered, until its claim settles.
  std::map<std::thread::id, std::int64_t> offers;
  std::uint64_t tick = 0;
  std::uint64_t changes =
      0;  // counts the state and priority changes made here (EventRuntime::changed)
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> standings;  // event -> (finished
                                                                           // games, json text)
  // sprt events: event -> (finished games, the test as JSON text), computed once per new game.
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> sprt;
  std::set<std::int64_t> unreadable;  // events whose specification cannot be read (told once)
  // Events whose endgame table is missing here or differs from the pinned one: not played by
  // this process, and not looked at again (a table may be large); install the file and restart.
  std::set<std::int64_t> no_table;
  std::mutex ladder_mutex;  // one ladder top-up at a time

  storage::Recorder& recorder() { return loop->recorder(); }
  std::int64_t owner() const { return loop->owner(); }
  // New work (an event submitted, resumed, topped up): idle game threads look again.
  void wake() {
    if (loop) loop->wake();
  }
  // A storage failure: remembered once (with its kind), every game stops.
  void fail(const Error& why) { loop->fail(why); }
  bool failed() const { return loop && loop->failed(); }
  bool draining() const { return loop && loop->draining(); }
};

// ---- events.cpp ----
// Loads or refreshes the events the daemon plays (queued, running, paused) from the database;
// events that ended elsewhere are marked and published.
Status refresh_events(Core& core);
// A runtime for a stored event (tournament or ladder), built from its specification, its endgame
// table opened (an error when this host lacks the pinned file: the event is put in no_table).
// `opened`: the table as the submission just opened it (not read twice).
Expected<EventRuntime> runtime_of(Core& core, const storage::EventInfo& info,
                                  event::SharedTable opened = nullptr);
// Excludes from the event the engines whose pinned sha256 differs from this host's file (or
// cannot be read), with one warning each: their slots are never claimed here.
void exclude_unpinned(Core& core, EventRuntime& rt);
// POST /api/events: `body` is a tournament file (TOML, or JSON when `is_json`). Returns the HTTP
// status (201 created, 200 the same event existed) and the summary, or an error with its status.
struct Reply {
  int status = 200;
  Json body;
};
// The HTTP status of a failure, chosen by its kind and never by its text (API.md "Errors"):
// Invalid 400, NotFound 404, Conflict 409, Unavailable 503 (a lost database connection: try
// again), Full 503 (the disk or the database is full: try again once there is room), Io 500 (the
// disk or a file failed: for the operator).
int http_status(ErrorKind kind);
// A new event starts `initial_state`: queued (played at once) or paused (until resumed).
// `who` submits it: an author only among registered engines (roles.h), recorded as its submitter.
Reply submit_event(Core& core, const Principal& who, const std::string& body, bool is_json,
                   const std::string& base_dir, std::optional<int> priority,
                   storage::EventState initial_state = storage::EventState::Queued);
// pause | resume | cancel, by the operator or the event's submitter (roles.h: may_control).
Reply control_event(Core& core, const Principal& who, std::int64_t id, const std::string& action);
// By the operator only.
Reply set_priority(Core& core, const Principal& who, std::int64_t id, int priority);
// The pace of an event (a ladder's, mostly), by the operator only: games at once (0 = no cap of
// its own) and the least interval between two game starts (0 = none); a value not given is kept.
// Stored under the specification's "run" key, so that it outlives the daemon.
Reply set_pace(Core& core, const Principal& who, std::int64_t id, std::optional<int> concurrency,
               std::optional<long> interval_ms);
// The least interval between game starts stored in a specification (0 when none).
long stored_interval_ms(const std::string& spec);
// EventSummary of a stored event, with what this daemon knows (ETA, ladder engines).
Json summary_of(Core& core, const storage::EventInfo& info);
// Standings of an event: the cached ones when no game finished since, else computed now.
Expected<Json> event_standings(Core& core, std::int64_t id);
// The sequential test of an sprt event as JSON (ratings/sprt_games.h: sprt_json), null for other
// kinds; cached per number of finished games.
Json sprt_of_event(Core& core, const storage::EventInfo& info);
// Runs the test of an sprt event that finished games since its last check (a game thread calls it
// after each finished game, before claiming its next): when it decides, the event's open slots
// are skipped (event/sprt_event.h) and this daemon's games of the event are cut. An event whose
// LLR changed is marked dirty (published). Other events are left alone.
void check_sprt_event(Core& core, std::int64_t id);
// The same for every running sprt event, on the hub: games finished by other processes, and an
// event decided before a restart whose slots were not skipped yet.
void check_sprt_events(Core& core);
// Publishes the summary and standings of dirty events (at most once a second each, or slower
// when standings are costly); called by the hub.
void publish_dirty(Core& core);

// ---- ladder_keeper.cpp ----
// POST /api/engines and POST /api/engines/{name}/retire, by `who` (roles.h).
Reply register_engine(Core& core, const Principal& who, const Json& body);
Reply retire_engine(Core& core, const Principal& who, const std::string& name);
// Replaces each [[engine]] table of a tournament document (name, and optionally tc and options)
// by the definition of the registered engine of that name (not retired), the table's tc and
// options kept on top. Invalid when a name is not a registered engine.
Status fill_registered_engines(Core& core, Json& document);
// Appends pairs to every running ladder whose open games run low; called by the hub and after a
// registration.
void top_up_ladders(Core& core);
// A ladder resumed (cancelled before): its runtime loaded again when it was dropped, and topped
// up at once.
void resume_ladder(Core& core, std::int64_t id);
// The registered engines (not retired) that play `game` (canonical), as tournament engines.
Expected<std::vector<event::TournamentEngine>> ladder_engines(Core& core, const std::string& game);
std::string ladder_name(const std::string& canonical_game);
Json ladders_json(Core& core);
Expected<Json> engines_json(Core& core);
// Skips the pending games of `name` on ladder `id` (`why` stored with each).
void skip_pending(Core& core, std::int64_t id, const std::string& name, const std::string& why);

// ---- ladder_artifacts.cpp ----
// The artifact reference a registration names ("" for an engine of a host command).
std::string artifact_of(const storage::RegisteredEngine& e);
// The ladder entries of a registration naming an artifact: one per live version it covers, named
// by the version's label, `base`'s options, limits and timeouts, resolved and sandboxed.
Expected<std::vector<event::TournamentEngine>> artifact_entries(
    storage::Database& db, const storage::RegisteredEngine& registration,
    const event::TournamentEngine& base);
// Brings every loaded ladder's artifact entries in line with the registry and the stored
// versions: new versions join, retired ones (or no longer registered) leave, their pending games
// skipped. Called by the keeper's top-up (so after a registration too), after a retirement, by a
// worker after each refresh of its events, and before a ladder game one of whose seats is missing.
void sync_ladder_rosters(Core& core);

// ---- game_source.cpp ----
// What the owner loop's game threads do here: claim from the events in the scheduler's order,
// publish each game's start, moves and end on the live stream, keep the events' counters.
event::WorkSource work_source(Core& core);
// The end of a run (serve, worker): the games in hand may finish for `seconds` while
// `keep_waiting()` holds, then those left are interrupted (their slots go back to pending);
// returns once every game thread has ended.
void drain_games(Core& core, double seconds, const std::function<bool()>& keep_waiting, Log& log);
// `limits` with its changes of health told to `log` (a warning when degraded, with the reason;
// a line when the owner starts games again): serve's and worker's owner loops.
event::OwnerLimits logged_limits(event::OwnerLimits limits, Log& log);

// Sleeps up to `d`, in short steps, while `keep_going()` holds.
template <class Pred>
void nap(std::chrono::milliseconds d, Pred keep_going) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (keep_going() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

std::string now_iso();

// ---- roles.cpp ----
// The access policy of the daemon's requests (auth.h): its operator token, its Host names, and
// author tokens looked up in the database at each request (a revoked token is refused at once).
AccessPolicy access_policy(Core& core);

}  // namespace referee::service
