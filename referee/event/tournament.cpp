#include "event/tournament.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "event/schedule.h"
#include "match/engine_session.h"
#include "match/match.h"
#include "storage/recorder.h"
#include "storage/store.h"

namespace referee {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string duration_text(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

// State shared by the workers; every member behind `mutex` except the immutable ones.
struct Shared {
  Shared(const TournamentConfig& c, const RunOptions& o) : config(c), options(o) {}
  const TournamentConfig& config;
  const RunOptions& options;
  std::int64_t tournament_id = 0;
  std::vector<Slot> pending;
  std::int64_t total = 0;

  std::mutex mutex;
  std::size_t next = 0;
  std::vector<int> consecutive_failures;
  std::vector<bool> withdrawn;
  std::vector<bool> start_failure_told;
  RunSummary summary;
  SteadyClock::time_point started = SteadyClock::now();
  SteadyClock::time_point last_print{};

  bool stopping() const { return options.stop && options.stop->load(); }
};

void print_progress(Shared& sh, const std::string& last) {
  if (!sh.options.progress) return;
  auto now = SteadyClock::now();
  const auto done = sh.summary.already_done + sh.summary.played + sh.summary.skipped;
  const bool final_one = done >= sh.total;
  if (!sh.options.progress_is_tty && !final_one && now - sh.last_print < std::chrono::seconds(5))
    return;
  sh.last_print = now;
  const double elapsed = std::chrono::duration<double>(now - sh.started).count();
  const auto this_run = sh.summary.played + sh.summary.skipped;
  const double rate = elapsed > 0 ? static_cast<double>(this_run) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(sh.total - done) / rate : 0;
  char head[128];
  std::snprintf(
      head, sizeof head, "[%lld/%lld] %3.0f%%  %.1f games/s  ETA %s", static_cast<long long>(done),
      static_cast<long long>(sh.total),
      sh.total ? 100.0 * static_cast<double>(done) / static_cast<double>(sh.total) : 100.0, rate,
      duration_text(eta).c_str());
  std::string line = std::string(head) + "  " + last;
  if (sh.options.progress_is_tty) {
    if (line.size() > 110) line.resize(110);
    *sh.options.progress << "\r\033[K" << line << std::flush;
    if (final_one) *sh.options.progress << "\n";
  } else {
    *sh.options.progress << line << "\n" << std::flush;
  }
}

std::string short_result(const std::vector<int>& ranks) {
  if (ranks.size() == 2) {
    if (ranks[0] == ranks[1]) return "1/2-1/2";
    return ranks[0] < ranks[1] ? "1-0" : "0-1";
  }
  std::string out = "ranks";
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : " ") + std::to_string(ranks[i]);
  return out;
}

class Worker {
 public:
  Worker(Shared& shared, storage::Recorder& recorder) : sh_(shared), store_(recorder) {}

  void run() {
    while (true) {
      Slot slot;
      {
        std::lock_guard lock(sh_.mutex);
        if (sh_.stopping() || sh_.next >= sh_.pending.size()) break;
        slot = sh_.pending[sh_.next++];
        if (std::any_of(slot.seats.begin(), slot.seats.end(),
                        [&](int e) { return sh_.withdrawn[static_cast<std::size_t>(e)]; })) {
          ++sh_.summary.skipped;
          print_progress(sh_, "skipped (engine withdrawn)");
          continue;
        }
      }
      play(slot);
    }
    for (auto& [index, session] : sessions_) drop_session_counted(session);
  }

 private:
  const TournamentEngine& engine(int e) const {
    return sh_.config.engines[static_cast<std::size_t>(e)];
  }

  EngineSession* session_for(int e, std::string& error) {
    auto it = sessions_.find(e);
    if (it != sessions_.end() && it->second.alive()) return &it->second;
    if (it != sessions_.end()) drop_session(e);
    auto started = EngineSession::start(engines::spawn_spec_of(engine(e).config),
                                        settings_of(engine(e).config));
    if (!started) {
      error = started.error();
      return nullptr;
    }
    return &sessions_.emplace(e, std::move(*started)).first->second;
  }

  SessionSettings settings_of(const engines::EngineConfig& config) const {
    SessionSettings s;
    s.start_timeout = Millis(config.start_timeout_ms);
    s.ready_timeout = Millis(config.ready_timeout_ms);
    s.setgame_timeout = Millis(config.setgame_timeout_ms);
    s.protocol0 = config.protocol0;
    s.options = std::map<std::string, std::string>(config.options.begin(), config.options.end());
    s.keep_log = sh_.options.keep_logs;
    return s;
  }

  // Counts a failure of engine `e`; withdraws it after max_crashes in a row.
  void note_failure(int e, const std::string& what) {
    std::lock_guard lock(sh_.mutex);
    auto& n = sh_.consecutive_failures[static_cast<std::size_t>(e)];
    if (++n >= sh_.config.max_crashes && !sh_.withdrawn[static_cast<std::size_t>(e)]) {
      sh_.withdrawn[static_cast<std::size_t>(e)] = true;
      sh_.summary.messages.push_back("engine '" + engine(e).config.name + "' withdrawn after " +
                                     std::to_string(n) + " failures in a row (last: " + what + ")");
    }
  }

  // The first failure to start of each engine is a notice: without it, a quiet run would not say
  // why the engine's games were not played (it is withdrawn only after max_crashes failures).
  void tell_start_failure(int e, const std::string& error) {
    std::lock_guard lock(sh_.mutex);
    if (sh_.start_failure_told[static_cast<std::size_t>(e)]) return;
    sh_.start_failure_told[static_cast<std::size_t>(e)] = true;
    sh_.summary.messages.push_back("engine '" + engine(e).config.name + "': " + error +
                                   " (its games are not scored)");
  }

  void note_success(int e) {
    std::lock_guard lock(sh_.mutex);
    sh_.consecutive_failures[static_cast<std::size_t>(e)] = 0;
  }

  void drop_session_counted(EngineSession& session) {
    session.quit();
    std::lock_guard lock(sh_.mutex);
    sh_.summary.round_trips += session.round_trips();
  }

  void drop_session(int e) {
    auto it = sessions_.find(e);
    if (it == sessions_.end()) return;
    drop_session_counted(it->second);
    sessions_.erase(it);
  }

  storage::GameRecord record_for(const Slot& slot) const {
    storage::GameRecord rec;
    rec.tournament_id = sh_.tournament_id;
    rec.slot = slot.index;
    rec.game = slot.game;
    rec.opening = slot.opening;
    for (int e : slot.seats) rec.players.push_back(engine(e).config.name);
    rec.time_control = seat_tc(slot.seats.front()).to_string();
    return rec;
  }

  const TimeControl& seat_tc(int e) const { return engine(e).tc ? *engine(e).tc : sh_.config.tc; }

  // A game that could not be played (an engine failed to start or does not play the game): kept
  // as "unfinished" so that it is not scored and a later run tries again.
  void record_unplayed(const Slot& slot, const std::string& termination,
                       const std::string& reason) {
    auto rec = record_for(slot);
    auto id = store_.begin_game(rec);
    if (id) {
      rec.status = "unfinished";
      rec.termination = termination;
      rec.reason = reason;
      store_.finish_game(*id, rec);
    }
    std::lock_guard lock(sh_.mutex);
    ++sh_.summary.skipped;
    print_progress(sh_, reason);
  }

  void play(const Slot& slot) {
    auto game = games::make_game(slot.game);
    std::vector<EngineSession*> seats;
    for (int e : slot.seats) {
      std::string error;
      EngineSession* s = session_for(e, error);
      if (!s) {
        tell_start_failure(e, error);
        note_failure(e, error);
        record_unplayed(slot, "nostart", error);
        return;
      }
      if (!s->declares(game->name())) {
        record_unplayed(slot, "unsupported",
                        "engine '" + engine(e).config.name + "' does not declare " + game->name());
        return;
      }
      seats.push_back(s);
    }
    auto rec = record_for(slot);
    auto id = store_.begin_game(rec);
    if (!id) {
      std::lock_guard lock(sh_.mutex);
      sh_.summary.messages.push_back("database: " + id.error());
      return;
    }
    const auto game_start = SteadyClock::now();
    for (std::size_t s = 0; s < seats.size(); ++s)
      seats[s]->start_log(game_start, static_cast<int>(s + 1));

    MatchResult result;
    // Prepare every seat: a stall or crash here forfeits the game for that engine.
    for (std::size_t s = 0; s < seats.size() && result.termination.empty(); ++s) {
      std::string detail;
      Fault f = seats[s]->prepare(*game, detail);
      if (f == Fault::Unsupported) {
        result.termination = "unsupported";
        result.reason = detail;
      } else if (f != Fault::None) {
        result.finished = true;
        result.ranks = forfeit_ranks(game->num_players(), static_cast<int>(s + 1));
        result.scores.assign(seats.size(), 0.0);
        result.termination = fault_name(f);
        result.reason =
            "p" + std::to_string(s + 1) + " " + fault_name(f) + " before the game: " + detail;
        result.faulty_seat = static_cast<int>(s + 1);
        result.fault = f;
      }
    }
    if (result.termination.empty()) {
      MatchSetup setup{*game, "", slot.opening, seats, {}, sh_.options.stop, {}};
      for (int e : slot.seats) setup.time_controls.push_back(seat_tc(e));
      setup.on_move = [&](const storage::MoveRecord& m) { store_.add_move(*id, m); };
      result = play_match(setup);
    }
    for (auto* s : seats) store_.add_logs(*id, s->take_log());

    rec.status = result.finished ? "finished" : "unfinished";
    rec.ranks = result.ranks;
    rec.scores = result.scores;
    rec.termination = result.termination;
    rec.reason = result.reason;
    rec.plies = static_cast<std::int64_t>(result.moves.size());
    store_.finish_game(*id, rec);

    // Engines that failed are restarted for their next game; repeated failures withdraw them.
    for (std::size_t s = 0; s < slot.seats.size(); ++s) {
      const int e = slot.seats[s];
      if (result.faulty_seat == static_cast<int>(s + 1) && result.fault != Fault::Illegal &&
          result.fault != Fault::Resign) {
        std::string what = fault_name(result.fault) + ": " + result.reason;
        drop_session(e);
        if (result.fault == Fault::Crash || result.fault == Fault::Stall ||
            result.fault == Fault::Timeout || result.fault == Fault::Protocol)
          note_failure(e, what);
      } else if (result.finished) {
        note_success(e);
      }
    }

    std::lock_guard lock(sh_.mutex);
    sh_.summary.plies += rec.plies;
    for (const auto& m : result.moves) sh_.summary.engine_moves += m.source == "engine";
    if (result.finished) {
      ++sh_.summary.played;
      std::string names;
      for (std::size_t s = 0; s < rec.players.size(); ++s)
        names += (s ? " vs " : "") + rec.players[s];
      print_progress(sh_,
                     names + " " + short_result(result.ranks) + " (" + result.termination + ")");
    } else if (result.termination != "interrupted") {
      ++sh_.summary.skipped;
      print_progress(sh_, result.reason);
    }
  }

  Shared& sh_;
  storage::Recorder& store_;
  std::map<int, EngineSession> sessions_;
};

}  // namespace

Expected<RunSummary> run_tournament(const TournamentConfig& config, const RunOptions& options) {
  auto schedule = make_schedule(config);
  if (!schedule) return Error{schedule.error()};
  auto store = storage::Store::open(config.database);
  if (!store) return Error{store.error()};
  auto tid = store->open_tournament(config.name, schedule_fingerprint(config));
  if (!tid && tid.error().find("different configuration") != std::string::npos)
    return Error{tid.error() + ": its games, engines, cycles, seed or openings changed since it " +
                 "began; give it a new name or use another database"};
  if (!tid) return Error{tid.error()};
  auto closed = store->close_running(*tid);
  if (!closed) return Error{closed.error()};
  auto done = store->finished_slots(*tid);
  if (!done) return Error{done.error()};
  std::set<std::int64_t> finished(done->begin(), done->end());

  Shared sh(config, options);
  sh.tournament_id = *tid;
  sh.total = static_cast<std::int64_t>(schedule->size());
  for (auto& slot : *schedule)
    if (!finished.count(slot.index)) sh.pending.push_back(std::move(slot));
  sh.consecutive_failures.assign(config.engines.size(), 0);
  sh.withdrawn.assign(config.engines.size(), false);
  sh.start_failure_told.assign(config.engines.size(), false);
  sh.summary.tournament_id = *tid;
  sh.summary.scheduled = sh.total;
  sh.summary.already_done = static_cast<std::int64_t>(finished.size());

  int threads = config.concurrency > 0
                    ? config.concurrency
                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads),
                                                   std::max<std::size_t>(1, sh.pending.size())));

  storage::Recorder recorder(std::move(*store));
  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < threads; ++t) workers.push_back(std::make_unique<Worker>(sh, recorder));
  std::vector<std::thread> pool;
  for (auto& w : workers) pool.emplace_back([&w] { w->run(); });
  for (auto& t : pool) t.join();
  recorder.flush();
  for (auto& e : recorder.take_errors()) sh.summary.messages.push_back("database: " + e);

  sh.summary.interrupted =
      sh.stopping() && sh.summary.already_done + sh.summary.played + sh.summary.skipped < sh.total;
  if (options.progress && options.progress_is_tty && sh.summary.interrupted)
    *options.progress << "\n";
  return sh.summary;
}

}  // namespace referee
