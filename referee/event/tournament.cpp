#include "event/tournament.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "engines/system.h"
#include "event/event_spec.h"
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

std::string short_result(const std::vector<int>& ranks) {
  if (ranks.size() == 2) {
    if (ranks[0] == ranks[1]) return "1/2-1/2";
    return ranks[0] < ranks[1] ? "1-0" : "0-1";
  }
  std::string out = "ranks";
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : " ") + std::to_string(ranks[i]);
  return out;
}

std::string score_text(double points) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", points);
  return buf;
}

SessionSettings settings_of(const engines::EngineConfig& config, const RunOptions& options) {
  SessionSettings s;
  s.name = config.name;
  s.debug = options.debug;
  s.start_timeout = Millis(config.start_timeout_ms);
  s.ready_timeout = Millis(config.ready_timeout_ms);
  s.setgame_timeout = Millis(config.setgame_timeout_ms);
  s.protocol0 = config.protocol0;
  s.options = std::map<std::string, std::string>(config.options.begin(), config.options.end());
  s.keep_log = options.keep_logs;
  return s;
}

// State shared by the workers; every member behind `mutex` except the immutable ones.
struct Shared {
  Shared(const TournamentConfig& c, const RunOptions& o, storage::Recorder& r)
      : config(c), options(o), recorder(r) {}
  const TournamentConfig& config;
  const RunOptions& options;
  storage::Recorder& recorder;
  std::int64_t event = 0;
  std::int64_t owner = 0;
  std::map<std::string, int> engine_index;
  std::atomic<bool> halt{false};  // Ctrl-C or a storage failure: stop playing

  std::mutex mutex;
  std::vector<int> consecutive_failures;
  std::map<std::string, std::string> excluded;  // engine name -> why its games are not played
  RunSummary summary;
  bool first_started = false;
  SteadyClock::time_point first_game{};
  SteadyClock::time_point last_print{};
  int games_started = 0;
  // Two-engine events: points of engine 0 and engine 1 over every finished game of the event.
  double points[2] = {0, 0};
  bool two_engines = false;

  bool user_stop() const { return options.stop && options.stop->load(); }
  std::vector<std::string> excluded_names() {
    std::lock_guard lock(mutex);
    std::vector<std::string> out;
    for (const auto& [name, why] : excluded) out.push_back(name);
    return out;
  }
};

// Called with sh.mutex held.
void print_line(Shared& sh, const std::string& what, bool finished_game) {
  if (!sh.options.progress) return;
  const auto now = SteadyClock::now();
  const auto& s = sh.summary;
  const auto done = s.already_done + s.played;
  std::string line = what;
  if (finished_game) {
    const double elapsed = std::chrono::duration<double>(now - sh.first_game).count();
    const double rate = elapsed > 0 ? static_cast<double>(s.played) / elapsed : 0;
    const auto left = std::max<std::int64_t>(0, s.scheduled - done);
    char tail[160];
    std::snprintf(
        tail, sizeof tail, "  [%lld/%lld] %.0f%%  %.2f games/s  ETA %s",
        static_cast<long long>(done), static_cast<long long>(s.scheduled),
        s.scheduled ? 100.0 * static_cast<double>(done) / static_cast<double>(s.scheduled) : 100.0,
        rate, rate > 0 ? duration_text(static_cast<double>(left) / rate).c_str() : "?");
    // On a terminal the counter comes first: the line is cut to the terminal's width.
    line = sh.options.progress_is_tty ? std::string(tail + 2) + "  " + what : line + tail;
  }
  if (sh.options.progress_is_tty) {
    if (line.size() > 110) line.resize(110);
    *sh.options.progress << "\r\033[K" << line << std::flush;
  } else {
    *sh.options.progress << line << "\n" << std::flush;
  }
  sh.last_print = now;
}

class Worker {
 public:
  Worker(Shared& shared) : sh_(shared) {}

  void adopt(int e, EngineSession session) { sessions_.emplace(e, std::move(session)); }

  void run() {
    while (!sh_.halt.load()) {
      auto claims = sh_.recorder.call<std::vector<storage::Claim>>([&](storage::Store& s) {
        return s.claim_slots(sh_.owner, sh_.event, 1, sh_.options.lease_ms, sh_.excluded_names());
      });
      if (!claims) break;  // a storage failure: the recorder has raised the halt
      if (claims->empty()) {
        // Nothing to claim now: wait while other processes hold claims (they may finish them, or
        // die and let their leases expire), else the event is over for this run.
        auto counts = sh_.recorder.call<storage::SlotCounts>(
            [&](storage::Store& s) { return s.slot_counts(sh_.event, sh_.owner); });
        if (!counts || counts->claimed_others == 0) break;
        wait_a_little();
        continue;
      }
      play(claims->front());
    }
    for (auto& [index, session] : sessions_) drop_session_counted(session);
  }

 private:
  void wait_a_little() {
    const auto step = std::clamp<long>(sh_.options.lease_ms / 8, 20, 250);
    for (long waited = 0; waited < step * 4 && !sh_.halt.load(); waited += step)
      std::this_thread::sleep_for(Millis(step));
  }

  const TournamentEngine& engine(int e) const {
    return sh_.config.engines[static_cast<std::size_t>(e)];
  }
  const std::string& name(int e) const { return engine(e).config.name; }

  EngineSession* session_for(int e, std::string& error) {
    auto it = sessions_.find(e);
    if (it != sessions_.end() && it->second.alive()) return &it->second;
    if (it != sessions_.end()) drop_session(e);
    auto started = EngineSession::start(engines::spawn_spec_of(engine(e).config),
                                        settings_of(engine(e).config, sh_.options));
    if (!started) {
      error = started.error();
      return nullptr;
    }
    return &sessions_.emplace(e, std::move(*started)).first->second;
  }

  // Counts a failure of engine `e`; withdraws it after max_crashes in a row.
  void note_failure(int e, const std::string& what) {
    std::lock_guard lock(sh_.mutex);
    auto& n = sh_.consecutive_failures[static_cast<std::size_t>(e)];
    if (++n >= sh_.config.max_crashes && !sh_.excluded.count(name(e))) {
      sh_.excluded[name(e)] =
          "withdrawn after " + std::to_string(n) + " failures in a row (last: " + what + ")";
      sh_.summary.messages.push_back("engine '" + name(e) + "' " + sh_.excluded[name(e)]);
    }
  }

  void note_success(int e) {
    std::lock_guard lock(sh_.mutex);
    sh_.consecutive_failures[static_cast<std::size_t>(e)] = 0;
  }

  void exclude(int e, const std::string& why) {
    std::lock_guard lock(sh_.mutex);
    if (sh_.excluded.count(name(e))) return;
    sh_.excluded[name(e)] = why;
    sh_.summary.messages.push_back("engine '" + name(e) + "' " + why);
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

  const TimeControl& seat_tc(int e) const { return engine(e).tc ? *engine(e).tc : sh_.config.tc; }

  void release(const storage::Claim& claim) {
    sh_.recorder.call<Ok>([&](storage::Store& s) {
      return s.release_slot(claim.tournament_id, claim.slot.slot, sh_.owner);
    });
  }

  void skip(const storage::Claim& claim, const std::string& reason) {
    sh_.recorder.call<int>([&](storage::Store& s) {
      return s.skip_slots(claim.tournament_id, {claim.slot.slot}, reason);
    });
  }

  std::string players_text(const std::vector<int>& seats) const {
    std::string out;
    for (std::size_t s = 0; s < seats.size(); ++s) out += (s ? " vs " : "") + name(seats[s]);
    return out;
  }

  void play(const storage::Claim& claim) {
    const storage::SlotRecord& slot = claim.slot;
    std::vector<int> seat_engines;
    for (const auto& n : slot.seats) {
      auto it = sh_.engine_index.find(n);
      if (it == sh_.engine_index.end()) {  // cannot happen: the specification was compared
        skip(claim, "engine '" + n + "' is not in the event");
        return;
      }
      seat_engines.push_back(it->second);
    }
    auto game = games::make_game(slot.game);
    if (!game) {
      skip(claim, game.error());
      return;
    }
    std::vector<EngineSession*> seats;
    for (int e : seat_engines) {
      std::string error;
      EngineSession* s = session_for(e, error);
      if (!s) {
        exclude(e, "cannot start: " + error);
        release(claim);
        return;
      }
      if (!s->declares(game->name())) {
        skip(claim, "engine '" + name(e) + "' does not declare " + game->name());
        return;
      }
      seats.push_back(s);
    }
    const auto game_start = SteadyClock::now();
    {
      std::lock_guard lock(sh_.mutex);
      if (!sh_.first_started) {
        sh_.first_started = true;
        sh_.first_game = game_start;
      }
      ++sh_.games_started;
      if (!sh_.options.progress_is_tty)
        print_line(sh_,
                   "started  slot " + std::to_string(slot.slot + 1) + "/" +
                       std::to_string(sh_.summary.scheduled) + ": " + players_text(seat_engines) +
                       " (" + game->name() + ", round " + std::to_string(slot.round) +
                       (slot.attempts > 1 ? ", attempt " + std::to_string(slot.attempts) : "") +
                       ")",
                   false);
    }
    for (std::size_t s = 0; s < seats.size(); ++s)
      seats[s]->start_log(game_start, static_cast<int>(s + 1));

    MatchResult result;
    // Prepare every seat: a stall or crash here forfeits the game for that engine.
    for (std::size_t s = 0; s < seats.size() && result.termination.empty(); ++s) {
      std::string detail;
      Fault f = seats[s]->prepare(*game, detail);
      if (f == Fault::Unsupported) {
        skip(claim,
             "engine '" + name(seat_engines[s]) + "' refused " + game->name() + ": " + detail);
        for (auto* x : seats) x->take_log();
        return;
      }
      if (f != Fault::None) {
        result.finished = true;
        result.ranks = forfeit_ranks(game->num_players(), static_cast<int>(s + 1));
        result.scores.assign(seats.size(), 0.0);
        result.termination = fault_name(f);
        result.reason = forfeit_reason(*seats[s], f, detail, " before the game");
        result.faulty_seat = static_cast<int>(s + 1);
        result.fault = f;
      }
    }
    storage::GameRecord rec;
    rec.tournament_id = claim.tournament_id;
    rec.slot = slot.slot;
    rec.game = slot.game;
    rec.opening = slot.opening;
    rec.players = slot.seats;
    rec.time_control = seat_tc(seat_engines.front()).to_string();
    rec.owner = sh_.owner;
    auto id = sh_.recorder.begin_game(rec);
    if (!id) {
      release(claim);
      return;  // a storage failure: the recorder has raised the halt
    }
    if (result.termination.empty()) {
      MatchSetup setup{*game, "", slot.opening, seats, {}, &sh_.halt, {}};
      for (int e : seat_engines) setup.time_controls.push_back(seat_tc(e));
      setup.on_move = [&](const storage::MoveRecord& m) { sh_.recorder.add_move(*id, m); };
      result = play_match(setup);
    }
    for (auto* s : seats) sh_.recorder.add_logs(*id, s->take_log());

    rec.status = result.finished ? "finished" : "unfinished";
    rec.ranks = result.ranks;
    rec.scores = result.scores;
    rec.termination = result.termination;
    rec.reason = result.reason;
    rec.plies = static_cast<std::int64_t>(result.moves.size());
    auto end = sh_.recorder.call<storage::ClaimEnd>(
        [&](storage::Store& s) { return s.finish_claimed(*id, rec, sh_.owner); });

    // Engines that failed are restarted for their next game; repeated failures withdraw them.
    for (std::size_t s = 0; s < seat_engines.size(); ++s) {
      const int e = seat_engines[s];
      if (result.faulty_seat == static_cast<int>(s + 1) && result.fault != Fault::Illegal &&
          result.fault != Fault::Resign) {
        std::string what = fault_name(result.fault) + ": " + result.reason;
        drop_session(e);
        if (result.fault == Fault::Crash || result.fault == Fault::Stall ||
            result.fault == Fault::Protocol ||
            (result.fault == Fault::Timeout && sh_.config.withdraw_on_time))
          note_failure(e, what);
      } else if (result.finished) {
        note_success(e);
      }
    }

    std::lock_guard lock(sh_.mutex);
    sh_.summary.plies += rec.plies;
    for (const auto& m : result.moves) sh_.summary.engine_moves += m.source == "engine";
    const std::string head = "finished slot " + std::to_string(slot.slot + 1) + "/" +
                             std::to_string(sh_.summary.scheduled) + ": " +
                             players_text(seat_engines) + " ";
    if (!end) return;  // storage failure, told once by the runner
    if (*end == storage::ClaimEnd::Lost) {
      sh_.summary.messages.push_back("slot " + std::to_string(slot.slot + 1) +
                                     ": this process's claim expired and another process took "
                                     "it; the game was kept unfinished, not rated");
      print_line(sh_, head + "not counted (claim lost)", false);
      return;
    }
    if (*end == storage::ClaimEnd::Released) {
      print_line(sh_, head + "interrupted (" + result.reason + ")", false);
      return;
    }
    ++sh_.summary.played;
    std::string text = head + short_result(result.ranks) + " (" + result.termination;
    if (result.faulty_seat > 0) text += ": " + reason_headline(result.reason);
    text += ")";
    if (sh_.two_engines && result.ranks.size() == 2) {
      for (std::size_t s = 0; s < 2; ++s) {
        const int other = result.ranks[1 - s];
        const double p = result.ranks[s] < other ? 1.0 : result.ranks[s] == other ? 0.5 : 0.0;
        sh_.points[seat_engines[s]] += p;
      }
      text += "  score " + name(0) + " " + score_text(sh_.points[0]) + " - " +
              score_text(sh_.points[1]) + " " + name(1);
    }
    print_line(sh_, text, true);
  }

  Shared& sh_;
  std::map<int, EngineSession> sessions_;
};

// Starts every engine that has games left, once: handshake, declared games, rejected options.
// Returns the sessions that started (handed to the first worker).
std::map<int, EngineSession> check_engines(
    Shared& sh, const std::vector<storage::SlotRecord>& open_slots,
    std::vector<std::pair<std::vector<std::int64_t>, std::string>>& skips) {
  std::map<int, EngineSession> started;
  std::set<std::string> needed;
  for (const auto& s : open_slots) needed.insert(s.seats.begin(), s.seats.end());
  for (std::size_t e = 0; e < sh.config.engines.size(); ++e) {
    const auto& config = sh.config.engines[e].config;
    if (!needed.count(config.name)) continue;
    auto session =
        EngineSession::start(engines::spawn_spec_of(config), settings_of(config, sh.options));
    std::string line = "engine " + config.name + ": ";
    if (!session) {
      sh.excluded[config.name] = "cannot start: " + session.error();
      line += "cannot start: " + session.error();
      sh.summary.engines.push_back(line);
      continue;
    }
    const auto& id = session->identity();
    line += "id name '" + id.name + "'";
    // Games of the event it does not declare: their slots are decided here, once.
    std::string first_declared;
    for (const auto& spec : sh.config.games) {
      auto game = games::make_game(spec);
      if (!game) continue;
      if (session->declares(game->name())) {
        if (first_declared.empty()) first_declared = spec;
        line += "; plays " + game->name();
        continue;
      }
      std::vector<std::int64_t> slots;
      for (const auto& s : open_slots)
        if (s.game == spec &&
            std::find(s.seats.begin(), s.seats.end(), config.name) != s.seats.end())
          slots.push_back(s.slot);
      if (!slots.empty())
        skips.emplace_back(std::move(slots),
                           "engine '" + config.name + "' does not declare " + game->name());
      line += "; does not declare " + game->name();
    }
    // Options it rejects: its "error unsupported-option" replies come before the next readyok.
    if (!config.options.empty() && !first_declared.empty() && sh.options.keep_logs) {
      std::string detail;
      session->prepare(*games::make_game(first_declared), detail);
      std::string rejected;
      for (const auto& l : session->take_log())
        if (l.direction == '<' && l.text.rfind("error unsupported-option", 0) == 0)
          rejected += (rejected.empty() ? "" : ", ") + l.text.substr(25);
      if (!rejected.empty()) {
        line += "; options rejected: " + rejected;
        sh.summary.messages.push_back("engine '" + config.name + "' rejected options: " + rejected);
      }
    }
    sh.summary.engines.push_back(line);
    started.emplace(static_cast<int>(e), std::move(*session));
  }
  return started;
}

// Why the slots left are not played, one line per reason with its count.
void explain_not_played(Shared& sh, const std::vector<storage::SlotRecord>& slots) {
  std::map<std::string, std::int64_t> reasons;
  std::vector<std::string> order;
  auto add = [&](const std::string& r) {
    if (!reasons.count(r)) order.push_back(r);
    ++reasons[r];
  };
  for (const auto& s : slots) {
    if (s.state == "done") continue;
    if (s.state == "skipped") {
      add(s.reason);
      continue;
    }
    std::string why;
    for (const auto& n : s.seats)
      if (auto it = sh.excluded.find(n); it != sh.excluded.end()) {
        why = "engine '" + n + "' " + it->second;
        break;
      }
    if (why.empty()) {
      if (!sh.summary.storage_error.empty())
        why = "the event stopped on a storage failure";
      else if (sh.user_stop())
        why = "interrupted";
      else if (s.state == "claimed" && s.owner != sh.owner)
        why = "being played by another process";
      else
        why = "not played";
    }
    add(why);
  }
  for (const auto& r : order)
    sh.summary.not_played_reasons.push_back(std::to_string(reasons[r]) +
                                            (reasons[r] == 1 ? " game: " : " games: ") + r);
}

}  // namespace

Expected<RunSummary> run_tournament(const TournamentConfig& config, const RunOptions& options) {
  auto schedule = make_schedule(config);
  if (!schedule) return Error{schedule.error()};
  auto store = storage::Store::open(config.database, options.store_options);
  if (!store) return Error{store.error()};
  const std::string spec = event_spec(config);
  auto row = store->open_event(config.name, spec, schedule_fingerprint(config),
                               slot_records(config, *schedule));
  if (!row) return Error{row.error()};
  if (!row->created && row->spec != spec) {
    std::string changes = row->spec.empty()
                              ? std::string("its games, engines, cycles, seed or openings")
                              : spec_changes(row->spec, spec);
    if (!changes.empty())
      return Error{store->path() + ": event \"" + config.name +
                   "\" already exists with a different specification (" + changes +
                   "); give it a new name or use another database"};
  }
  storage::OwnerInfo me;
  me.name = "tournament " + config.name;
  me.host = engines::host_name();
  me.pid = engines::process_id();
  auto owner = store->register_owner(me);
  if (!owner) return Error{owner.error()};
  auto counts = store->slot_counts(row->id, *owner);
  if (!counts) return Error{counts.error()};
  auto all_slots = store->slots(row->id);
  if (!all_slots) return Error{all_slots.error()};
  std::vector<storage::SlotRecord> open_slots;
  for (const auto& s : *all_slots)
    if (s.state == "pending" || s.state == "claimed") open_slots.push_back(s);

  // Two-engine events show a running score over every finished game of the event.
  double prior[2] = {0, 0};
  if (config.engines.size() == 2) {
    storage::GameFilter f;
    f.tournament_id = row->id;
    auto finished = store->games(f);
    if (!finished) return Error{finished.error()};
    for (const auto& g : *finished) {
      if (g.ranks.size() != 2) continue;
      for (std::size_t s = 0; s < 2; ++s) {
        const int e = g.players[s] == config.engines[0].config.name ? 0 : 1;
        prior[e] += g.ranks[s] < g.ranks[1 - s] ? 1.0 : g.ranks[s] == g.ranks[1 - s] ? 0.5 : 0.0;
      }
    }
  }

  Shared* shared = nullptr;  // set below; the failure callback runs only after that
  storage::Recorder recorder(std::move(*store), std::chrono::milliseconds(2),
                             [&shared](const std::string&) {
                               if (shared) shared->halt = true;
                             });
  Shared sh(config, options, recorder);
  shared = &sh;
  sh.event = row->id;
  sh.owner = *owner;
  for (std::size_t e = 0; e < config.engines.size(); ++e)
    sh.engine_index[config.engines[e].config.name] = static_cast<int>(e);
  sh.consecutive_failures.assign(config.engines.size(), 0);
  sh.summary.tournament_id = row->id;
  sh.summary.scheduled = counts->total();
  sh.summary.already_done = counts->done;
  sh.two_engines = config.engines.size() == 2;
  sh.points[0] = prior[0];
  sh.points[1] = prior[1];

  // The engine check, before the first game.
  std::map<int, EngineSession> checked;
  if (!open_slots.empty()) {
    std::vector<std::pair<std::vector<std::int64_t>, std::string>> skips;
    checked = check_engines(sh, open_slots, skips);
    for (const auto& [slots, reason] : skips)
      recorder.call<int>([&](storage::Store& s) { return s.skip_slots(sh.event, slots, reason); });
    if (options.progress)
      for (const auto& l : sh.summary.engines) *options.progress << l << "\n";
    for (const auto& [n, why] : sh.excluded)
      sh.summary.messages.push_back("engine '" + n + "' " + why);
  }

  int threads = config.concurrency > 0
                    ? config.concurrency
                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads),
                                                   std::max<std::size_t>(1, open_slots.size())));
  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < threads; ++t) workers.push_back(std::make_unique<Worker>(sh));
  for (auto& [e, session] : checked) workers.front()->adopt(e, std::move(session));
  checked.clear();

  // The heartbeat: renews the claims every lease/4 and turns Ctrl-C into the halt.
  std::mutex beat_mutex;
  std::condition_variable beat_wake;
  bool workers_done = false;
  std::thread heartbeat([&] {
    const auto period = Millis(std::max<long>(1, options.lease_ms / 4));
    auto next_renewal = SteadyClock::now() + period;
    std::unique_lock lock(beat_mutex);
    while (!workers_done) {
      beat_wake.wait_for(lock, Millis(50), [&] { return workers_done; });
      if (sh.user_stop()) sh.halt = true;
      if (SteadyClock::now() >= next_renewal && !workers_done) {
        lock.unlock();
        recorder.call<int>(
            [&](storage::Store& s) { return s.renew_claims(sh.owner, options.lease_ms); });
        lock.lock();
        next_renewal = SteadyClock::now() + period;
      }
    }
  });

  if (!recorder.failed()) {
    std::vector<std::thread> pool;
    for (auto& w : workers) pool.emplace_back([&w] { w->run(); });
    for (auto& t : pool) t.join();
  }
  {
    std::lock_guard lock(beat_mutex);
    workers_done = true;
  }
  beat_wake.notify_one();
  heartbeat.join();
  workers.clear();  // engine sessions quit (round trips counted)

  recorder.call<Ok>([&](storage::Store& s) { return s.stop_owner(sh.owner); });
  recorder.flush();
  if (recorder.failed()) sh.summary.storage_error = recorder.first_error();
  auto final_slots = recorder.call<std::vector<storage::SlotRecord>>(
      [&](storage::Store& s) { return s.slots(sh.event); });
  std::int64_t done_now = sh.summary.already_done + sh.summary.played;
  if (final_slots) {
    done_now = 0;
    for (const auto& s : *final_slots) done_now += s.state == "done";
    explain_not_played(sh, *final_slots);
  }
  sh.summary.by_others =
      std::max<std::int64_t>(0, done_now - sh.summary.already_done - sh.summary.played);
  sh.summary.not_played =
      sh.summary.scheduled - sh.summary.already_done - sh.summary.played - sh.summary.by_others;
  sh.summary.interrupted = sh.user_stop() && !sh.summary.complete();
  if (options.progress && options.progress_is_tty && sh.games_started > 0)
    *options.progress << "\n";
  return sh.summary;
}

}  // namespace referee
