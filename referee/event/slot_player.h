// Plays one claimed slot of an event (storage/work_queue.h: claims): the piece shared by `referee
// tournament`, `serve` and `worker` (event/owner_loop.h). A SlotPlayer belongs to one thread and
// keeps that thread's engine sessions between games; an EventRoster belongs to one event and is
// shared by every thread playing it (the engines by name, the failure bookkeeping).
//
// One play(): resolve the seats, start or reuse the engine sessions, check that each declares the
// game, prepare every seat (a stall or crash there forfeits the game), begin the game through the
// Recorder, play the match, store the transcripts, finish the claim (finish_claimed: exactly once)
// and do the withdrawal bookkeeping (crashes, stalls and protocol faults in a row withdraw an
// engine after max_crashes; time losses too with withdraw_on_time).
//
// Decisions:
// - An engine that cannot start is excluded from the event for this run and the slot released
//   (another run may try again); a game an engine does not declare (or refuses at setgame) skips
//   the slot for good, never stored as a game.
// - Sessions are keyed by the engine's whole configuration, not its name, so one player thread
//   can serve several events (the daemon) without mixing two engines of the same name.
//   max_idle_sessions > 0 bounds how many sessions a player keeps (least recently used first out).
// - Each engine's content hash (engines/engine_hash.h) is taken when its session starts and
//   recorded with every game it plays; an engine whose event pins another hash does not start
//   (excluded from the event here, like an engine that cannot start: "sha256 differs").
// - The hooks run on the game's thread: they must be quick and never wait on anything slow.
// - With an OutputBudget (the owner's), what each engine wrote is charged to it before it is
//   stored: its transcript lines and its moves' info past its budget are dropped, never its
//   moves (event/output_budget.h); the first refusal of a window is one of the game's notices.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engines/artifact_cache.h"
#include "event/egdb_adjudication.h"
#include "event/output_budget.h"
#include "event/tournament_config.h"
#include "match/debug_log.h"
#include "match/engine_session.h"
#include "match/match.h"
#include "storage/recorder.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::event {

// The engines of one event and their failure bookkeeping; thread-safe.
class EventRoster {
 public:
  EventRoster(std::vector<TournamentEngine> engines, match::TimeControl tc, int max_crashes,
              bool withdraw_on_time, match::Adjudication adjudication = {},
              SharedTable egdb = nullptr, std::string egdb_path = "");

  // A copy of the engine of that name (engines may be added or replaced meanwhile).
  std::optional<TournamentEngine> find(const std::string& name) const;
  // Adds an engine, or replaces the one of that name.
  void set_engine(TournamentEngine engine);
  match::TimeControl time_control_of(const TournamentEngine& engine) const;
  std::vector<std::string> names() const;  // every engine, in the order added
  bool withdraws_on_time() const { return withdraw_on_time_; }
  // The event's adjudication rules, for every game it plays (fixed for the event).
  const match::Adjudication& adjudication() const { return adjudication_; }
  // The judge of `game`'s positions by the event's endgame table (event/egdb_adjudication.h),
  // empty without a table or when it does not cover the game. The one table is shared, read-only,
  // by every game of the event.
  match::PositionJudge judge_for(const games::Game& game) const;

  // A failure of `name` (crash, stall, protocol; time with withdraw_on_time); returns the notice
  // when this failure withdraws it.
  std::optional<std::string> note_failure(const std::string& name, const std::string& what);
  void note_success(const std::string& name);
  // Excludes the engine from the event's remaining games; returns the notice, or nothing when
  // it was already excluded.
  std::optional<std::string> exclude(const std::string& name, const std::string& why);
  bool excluded(const std::string& name) const;
  std::map<std::string, std::string> exclusions() const;  // name -> why
  std::vector<std::string> excluded_names() const;
  void clear_exclusions();
  // Games of `name` skipped because of it (`why`: "does not declare awale"), counted, so that
  // an engine whose games are being skipped says so while the event runs (the API's
  // engine_status); the last reason is kept.
  struct Skips {
    std::string why;
    std::int64_t games = 0;
  };
  void note_skips(const std::string& name, const std::string& why, std::int64_t games = 1);
  std::map<std::string, Skips> skips() const;

 private:
  mutable std::mutex mutex_;
  std::vector<TournamentEngine> engines_;
  match::TimeControl tc_;
  int max_crashes_;
  bool withdraw_on_time_;
  const match::Adjudication adjudication_;
  const SharedTable egdb_;
  const std::string egdb_path_;
  std::map<std::string, int> consecutive_failures_;
  std::map<std::string, std::string> excluded_;
  std::map<std::string, Skips> skips_;
};

struct SlotHooks {
  // Whether the game's id is needed before it ends (for started and moved): then its begin
  // waits for the database; else it is queued (storage::Recorder::begin_game_queued) and the ids
  // given to started and moved are the recorder's stand-ins (negative). SlotOutcome::record.id is
  // the real one either way.
  bool wait_for_id = true;
  // The game has begun in the database (game_id); called before the first move.
  std::function<void(std::int64_t game_id, const storage::GameRecord& record)> started;
  // A move was played (and queued for the database).
  std::function<void(std::int64_t game_id, const storage::MoveRecord& move)> moved;
  // The slot is settled (its game finished, or the slot skipped): runs on the writer, inside the
  // transaction that settles it, after that write. A knockout's or Swiss event's next games are
  // added there (event/rounds.h: advance_rounds), so that the settling and the next round commit
  // together: the event is never seen finished between two rounds, and an owner killed in
  // between leaves either both or neither. Its failure is the settling's (the transaction is
  // rolled back; a storage failure of the owner).
  std::function<Status(storage::Store& store)> settled;
};

struct SlotOutcome {
  enum class Kind {
    Done,            // the game finished and its finish is committed: the slot is done
    Released,        // interrupted: the game is kept unfinished and the slot is pending again
    Lost,            // the claim had been taken by another owner: kept unfinished, not rated
    Skipped,         // an engine does not declare or refuses the game: the slot is skipped
    NotStarted,      // an engine could not start: excluded, the slot released without a game
    StorageFailure,  // a write failed (the Recorder has told its on_failure callback)
  };
  Kind kind = Kind::StorageFailure;
  std::string message;                   // why skipped / not started / the storage error
  ErrorKind error_kind = ErrorKind::Io;  // the storage error's kind (StorageFailure)
  std::vector<std::string> notices;      // withdrawals and exclusions caused by this game
  storage::GameRecord record;            // the game as recorded (id, players, result)
  match::MatchResult result;
};

class SlotPlayer {
 public:
  // `debug`, when set, prints every line exchanged as it happens (--debug).
  SlotPlayer(storage::Recorder& recorder, std::int64_t owner, bool keep_logs,
             match::DebugLog* debug = nullptr, std::size_t max_idle_sessions = 0,
             OutputBudget* budget = nullptr, engines::ArtifactCache* artifacts = nullptr);
  ~SlotPlayer();
  SlotPlayer(const SlotPlayer&) = delete;
  SlotPlayer& operator=(const SlotPlayer&) = delete;

  // The engine's session, started (its artifact materialised, its pin checked) unless one is
  // alive: for the engine check before the games, whose sessions the games then use. Null, with
  // `error`, when it cannot start.
  match::EngineSession* check_session(const engines::EngineConfig& config, std::string& error);
  // Plays the claimed slot. `stop` interrupts the game (it is then released).
  SlotOutcome play(const storage::Claim& claim, EventRoster& roster, const std::atomic<bool>* stop,
                   const SlotHooks& hooks = {});
  // Quits every engine session.
  void close();
  // Request/reply exchanges with the engines of the sessions closed so far.
  long round_trips() const { return round_trips_; }

 private:
  struct Cached {
    std::string key;
    match::EngineSession session;
    storage::EngineHash hash;                        // of the files it was started from
    std::optional<engines::ArtifactLease> artifact;  // keeps its root from being cleaned
  };
  // The root of the artifact `sha256` on this host, from the database when not there yet.
  Expected<engines::ArtifactLease> materialise(const std::string& sha256);
  Cached* session_for(const engines::EngineConfig& config, std::string& error);
  void drop(const engines::EngineConfig& config);
  void quit(match::EngineSession& session);
  // Stores what a session that just started said in its handshake (`id name`, `id author`) with
  // its engine, so that the registry shows it (the dashboard's ID NAME).
  void record_identity(const engines::EngineConfig& config, const match::EngineSession& session);

  storage::Recorder& recorder_;
  std::int64_t owner_;
  bool keep_logs_;
  match::DebugLog* debug_;
  std::size_t max_idle_;
  OutputBudget* budget_;
  engines::ArtifactCache* artifacts_;  // null: an artifact's engine cannot start here
  std::list<Cached> sessions_;         // most recently used first
  long round_trips_ = 0;
};

match::SessionSettings session_settings_of(const engines::EngineConfig& config, bool keep_logs,
                                           match::DebugLog* debug = nullptr);

}  // namespace referee::event
