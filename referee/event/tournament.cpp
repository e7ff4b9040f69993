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
#include "event/artifact_engines.h"
#include "event/event_spec.h"
#include "event/owner_loop.h"
#include "event/rounds.h"
#include "event/schedule.h"
#include "event/slot_player.h"
#include "event/sprt_event.h"
#include "match/engine_session.h"
#include "match/match.h"
#include "storage/recorder.h"
#include "storage/store.h"

namespace referee::event {

std::string duration_text(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

namespace {

using SteadyClock = std::chrono::steady_clock;

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

// State shared by the workers; every member behind `mutex` except the immutable ones.
// State shared by the game threads; every member behind `mutex` except the immutable ones.
struct Shared {
  Shared(const TournamentConfig& c, const RunOptions& o)
      : config(c),
        options(o),
        roster(std::make_shared<EventRoster>(c.engines, c.tc, c.max_crashes, c.withdraw_on_time,
                                             c.adjudication, c.egdb_table,
                                             c.egdb ? c.egdb->path : "")) {}
  const TournamentConfig& config;
  const RunOptions& options;
  std::shared_ptr<EventRoster> roster;  // the engines, withdrawals and exclusions
  OwnerLoop* loop = nullptr;
  std::int64_t event = 0;
  std::map<std::string, int> engine_index;

  std::mutex mutex;
  RunSummary summary;
  bool first_started = false;
  SteadyClock::time_point first_game{};
  SteadyClock::time_point last_print{};
  int games_started = 0;
  // Two-engine events: points of engine 0 and engine 1 over every finished game of the event.
  double points[2] = {0, 0};
  bool two_engines = false;
  // Events with an sprt table: the test after the last finished game, and whether it decided.
  std::string sprt_text;  // "LLR 1.23 (-2.94, 2.94) [0, 5]  Ptnml(0-2): [1, 4, 9, 5, 2]"
  bool sprt_decided = false;
  SprtThrottle sprt_throttle;
  // Knockout and Swiss events: the games of an engine in a game it does not declare (found by the
  // engine check), skipped as later rounds add them.
  std::vector<std::pair<std::string, std::string>> undeclared;  // engine, canonical game
  int added_untold = 0, skipped_untold = 0;  // games add_due added and skipped, for tell_added

  bool user_stop() const { return options.stop && options.stop->load(); }
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
    // Skipped games are settled too: they count towards the percentage, never the ETA.
    const auto settled = done + s.skipped;
    const auto left = std::max<std::int64_t>(0, s.scheduled - settled);
    const std::string skipped =
        s.skipped ? "  skipped " + std::to_string(s.skipped) : std::string();
    char tail[320];
    std::snprintf(tail, sizeof tail, "  [%lld/%lld] %.0f%%%s  %.2f games/s  ETA %s%s%s",
                  static_cast<long long>(done), static_cast<long long>(s.scheduled),
                  s.scheduled
                      ? 100.0 * static_cast<double>(settled) / static_cast<double>(s.scheduled)
                      : 100.0,
                  skipped.c_str(), rate,
                  rate > 0 ? duration_text(static_cast<double>(left) / rate).c_str() : "?",
                  sh.sprt_text.empty() ? "" : "  ", sh.sprt_text.c_str());
    // On a terminal the counter comes first: the line is cut to the terminal's width.
    line = sh.options.progress_is_tty ? std::string(tail + 2) + "  " + what : line + tail;
  }
  if (sh.options.progress_is_tty) {
    if (line.size() > 140) line.resize(140);
    *sh.options.progress << "\r\033[K" << line << std::flush;
  } else {
    *sh.options.progress << line << "\n" << std::flush;
  }
  sh.last_print = now;
}

std::string players_text(const std::vector<std::string>& seats) {
  std::string out;
  for (std::size_t s = 0; s < seats.size(); ++s) out += (s ? " vs " : "") + seats[s];
  return out;
}

// Knockout and Swiss events: the games now due (event/rounds.h) added on `s`, those of an engine
// in a game it does not declare skipped; how many were added, kept for tell_added. Runs on the
// writer: in the transaction that settles a slot (SlotHooks::settled), or alone (advance).
Expected<int> add_due(Shared& sh, storage::Store& s) {
  std::vector<std::pair<std::string, std::string>> undeclared;
  {
    std::lock_guard lock(sh.mutex);
    undeclared = sh.undeclared;
  }
  auto n = advance_rounds(s, sh.event, sh.config);
  if (!n || *n == 0) return n;
  int skipped = 0;
  if (!undeclared.empty()) {
    auto open = storage::work_queue::open_slots(s, sh.event);
    if (!open) return open.failure();
    for (const auto& [engine, game] : undeclared) {
      std::vector<std::int64_t> numbers;
      for (const auto& slot : *open)
        if (slot.state == storage::SlotState::Pending && slot.game == game &&
            std::find(slot.seats.begin(), slot.seats.end(), engine) != slot.seats.end())
          numbers.push_back(slot.slot);
      if (numbers.empty()) continue;
      auto k = storage::work_queue::skip_slots(
          s, sh.event, numbers,
          "engine '" + engine + "' does not declare " + games::make_game(game)->name());
      if (!k) return k.failure();
      skipped += *k;
    }
  }
  std::lock_guard lock(sh.mutex);
  sh.added_untold += *n;
  sh.skipped_untold += skipped;
  return n;
}

// The games add_due added since the last call: counted in the summary, a progress line, the idle
// threads woken; how many. Called without sh.mutex held.
int tell_added(Shared& sh) {
  int added = 0;
  {
    std::lock_guard lock(sh.mutex);
    added = sh.added_untold;
    if (added == 0) return 0;
    sh.summary.scheduled += added;
    sh.summary.skipped += sh.skipped_untold;
    sh.added_untold = sh.skipped_untold = 0;
    print_line(sh,
               sh.config.format == "swiss"
                   ? "swiss: the next round is paired (" + std::to_string(added) + " games)"
                   : "knockout: " + std::to_string(added) + " games added to the bracket",
               false);
  }
  sh.loop->wake();
  return added;
}

// add_due alone (a resumed run, a thread with nothing to claim), then tell_added.
int advance(Shared& sh) {
  if (!has_rounds(sh.config)) return 0;
  // A storage failure reaches the loop through the recorder: the run stops.
  (void)sh.loop->recorder().call<int>([&](storage::Store& s) { return add_due(sh, s); });
  return tell_added(sh);
}

// A game of the run is over: the SPRT, the summary and the progress line.
void report_finished(Shared& sh, const storage::SlotRecord& slot, SlotOutcome& out) {
  std::optional<SprtCheck> sprt;
  bool due = false;
  if (out.kind == SlotOutcome::Kind::Done && sh.config.sprt) {
    std::lock_guard lock(sh.mutex);
    due = sh.sprt_throttle.due(SteadyClock::now());
  }
  if (due) {
    const auto t0 = SteadyClock::now();
    auto check = sh.loop->recorder().call<SprtCheck>(
        [&](storage::Store& s) { return enforce_sprt(s, sh.event, sh.config); });
    if (check) sprt = std::move(*check);  // else a storage failure: the loop halts
    std::lock_guard lock(sh.mutex);
    if (sprt) sh.sprt_throttle.ran(sprt->tally.h.games.total(), t0, SteadyClock::now());
  }

  std::lock_guard lock(sh.mutex);
  if (sprt) {
    sh.sprt_text = sprt_progress(*sh.config.sprt, sprt->tally.state) + "  " +
                   ratings::ptnml_text(sprt->tally.h.pairs);
    if (!sprt->skip_reason.empty() && !sh.sprt_decided) {
      sh.sprt_decided = true;
      sh.loop->halt();  // no new game; this run's games in progress are cut
    }
  }
  for (auto& n : out.notices) sh.summary.messages.push_back(std::move(n));
  using Kind = SlotOutcome::Kind;
  if (out.kind == Kind::Skipped) {
    ++sh.summary.skipped;
    print_line(sh,
               "skipped  slot " + std::to_string(slot.slot) + ": " + players_text(slot.seats) +
                   " (" + out.message + ")",
               true);
    return;
  }
  if (out.kind == Kind::NotStarted) return;
  const match::MatchResult& result = out.result;
  sh.summary.plies += out.record.plies;
  for (const auto& m : result.moves) sh.summary.engine_moves += m.source == "engine";
  // The game's id first: what `transcript`, `replay` and `show` take. Slots are numbered from 0,
  // as the archive, the CSV and the API number them.
  const std::string head = "finished game " + std::to_string(out.record.id) + " (slot " +
                           std::to_string(slot.slot) + "): " + players_text(slot.seats) + " ";
  if (out.kind == Kind::StorageFailure) return;  // told once by the runner
  if ((out.kind == Kind::Lost || out.kind == Kind::Released) && sh.sprt_decided) {
    print_line(sh, head + "cut: the sprt test has decided (not counted)", false);
    return;
  }
  if (out.kind == Kind::Lost) {
    sh.summary.messages.push_back("slot " + std::to_string(slot.slot) + " (game " +
                                  std::to_string(out.record.id) +
                                  "): this process's claim expired and another process took "
                                  "it; the game was kept unfinished, not rated");
    print_line(sh, head + "not counted (claim lost)", false);
    return;
  }
  if (out.kind == Kind::Released) {
    print_line(sh, head + "interrupted (" + result.reason + ")", false);
    return;
  }
  ++sh.summary.played;
  std::string text = head + short_result(result.ranks) + " (" + result.termination;
  if (result.faulty_seat > 0) text += ": " + match::reason_headline(result.reason);
  text += ")";
  if (sh.two_engines && result.ranks.size() == 2) {
    for (std::size_t s = 0; s < 2; ++s) {
      const int other = result.ranks[1 - s];
      const double p = result.ranks[s] < other ? 1.0 : result.ranks[s] == other ? 0.5 : 0.0;
      sh.points[sh.engine_index[slot.seats[s]]] += p;
    }
    text += "  score " + sh.config.engines[0].config.name + " " + score_text(sh.points[0]) + " - " +
            score_text(sh.points[1]) + " " + sh.config.engines[1].config.name;
  }
  print_line(sh, text, true);
}

// A game of the run is over; a knockout or Swiss event may have games due.
void finished(Shared& sh, const storage::SlotRecord& slot, SlotOutcome& out) {
  report_finished(sh, slot, out);
  // The games its settling made due were added with it (SlotHooks::settled).
  tell_added(sh);
}

// The run's side of the owner loop: one event; progress lines; the SPRT after each game; a thread
// with nothing to claim ends once no other process holds a claim of the event.
WorkSource work_source(Shared& sh) {
  WorkSource source;
  source.candidates = [&sh] { return std::vector<Candidate>{{sh.event, sh.roster}}; };
  source.exhausted = [&sh] {
    if (advance(sh) > 0) return false;
    // Other processes' claims may still finish, or die and let their leases expire.
    auto counts = sh.loop->recorder().call<storage::SlotCounts>([&](storage::Store& s) {
      return storage::work_queue::slot_counts(s, sh.event, sh.loop->owner());
    });
    if (!counts) return true;
    // A knockout's or a Swiss event's games in play here may make the next ones: wait for them.
    if (has_rounds(sh.config) && counts->claimed_mine > 0) return false;
    return counts->claimed_others == 0;
  };
  source.watch = [&sh](const storage::Claim& claim) {
    GameWatch watch;
    watch.hooks.wait_for_id = false;  // started() does not use it
    watch.hooks.started = [&sh, slot = claim.slot](std::int64_t, const storage::GameRecord& rec) {
      std::lock_guard lock(sh.mutex);
      if (!sh.first_started) {
        sh.first_started = true;
        sh.first_game = SteadyClock::now();
      }
      ++sh.games_started;
      if (!sh.options.progress_is_tty)
        print_line(
            sh,
            "started  slot " + std::to_string(slot.slot) + ": " + players_text(slot.seats) + " (" +
                games::make_game(rec.game)->name() + ", round " + std::to_string(slot.round) +
                (slot.attempts > 1 ? ", attempt " + std::to_string(slot.attempts) : "") + ")",
            false);
    };
    // Knockout and Swiss events: the next games are added in the transaction that settles this
    // one, so that the event is never finished between two rounds (event/rounds.h).
    if (has_rounds(sh.config))
      watch.hooks.settled = [&sh](storage::Store& s) -> Status {
        if (auto n = add_due(sh, s); !n) return n.failure();
        return Ok{};
      };
    watch.finished = [&sh, slot = claim.slot](SlotOutcome& out) { finished(sh, slot, out); };
    return watch;
  };
  return source;
}

// Starts every engine that has games left, once, in the first game thread's player (whose games
// then use the sessions): handshake, declared games, rejected options.
void check_engines(Shared& sh, const std::vector<storage::SlotRecord>& open_slots,
                   std::vector<std::pair<std::vector<std::int64_t>, std::string>>& skips) {
  std::set<std::string> needed;
  for (const auto& s : open_slots) needed.insert(s.seats.begin(), s.seats.end());
  // A knockout's or Swiss event's later rounds are not made yet: every engine may play them.
  if (has_rounds(sh.config))
    for (const auto& e : sh.config.engines) needed.insert(e.config.name);
  for (std::size_t e = 0; e < sh.config.engines.size(); ++e) {
    const auto& config = sh.config.engines[e].config;
    if (!needed.count(config.name)) continue;
    std::string error;
    match::EngineSession* session = sh.loop->check_session(config, error);
    std::string line = "engine " + config.name + ": ";
    if (!session) {
      sh.roster->exclude(config.name, "cannot start: " + error);
      line += "cannot start: " + error;
      sh.summary.engines.push_back(line);
      continue;
    }
    const auto& id = session->identity();
    line += "id name '" + id.name + "'";
    // Games of the event it does not declare: their slots are decided here, once. Those its
    // `games` key leaves out have no slot of it.
    std::string first_declared;
    const auto& own = sh.config.engines[e].games;
    for (const auto& spec : own.empty() ? sh.config.games : own) {
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
      sh.undeclared.emplace_back(config.name, spec);
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
  }
}

// Why the slots left are not played, one line per reason with its count.
void explain_not_played(Shared& sh, const std::vector<storage::SlotRecord>& slots) {
  std::map<std::string, std::int64_t> reasons;
  std::vector<std::string> order;
  const auto exclusions = sh.roster->exclusions();
  auto add = [&](const std::string& r) {
    if (!reasons.count(r)) order.push_back(r);
    ++reasons[r];
  };
  for (const auto& s : slots) {
    if (s.state == storage::SlotState::Done) continue;
    if (s.state == storage::SlotState::Skipped) {
      add(s.reason);
      continue;
    }
    std::string why;
    for (const auto& n : s.seats)
      if (auto it = exclusions.find(n); it != exclusions.end()) {
        why = "engine '" + n + "' " + it->second;
        break;
      }
    if (why.empty()) {
      if (!sh.summary.storage_error.empty())
        why = "the event stopped on a storage failure";
      else if (sh.user_stop())
        why = "interrupted";
      else if (s.state == storage::SlotState::Claimed && s.owner != sh.loop->owner())
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

Expected<RunSummary> run_tournament(const TournamentConfig& file, const RunOptions& options) {
  // The schedule's size and games are checked before the database is opened; its slots are made
  // as they are stored.
  if (auto checked = slot_batches(file); !checked) return checked.failure();
  auto store = storage::Store::open(file.database, options.store_options);
  if (!store) return store.failure();
  TournamentConfig config = file;  // its artifacts pinned (artifact_engines.h)
  if (Status pinned = resolve_artifacts(*store, config.engines); !pinned)
    return Error{file.source + ": " + pinned.error(), pinned.kind()};
  // The seeds stored with the event when it was made; else the ratings now (event/rounds.h).
  if (Status seeded = fill_seeds(*store, config); !seeded) return seeded.failure();
  const std::string spec = event_spec(config);
  storage::NewEventOptions kind;
  kind.kind = config.sprt ? storage::EventKind::Sprt : storage::EventKind::Tournament;
  std::optional<Error> refused;
  auto opened =
      open_tournament_event(*store, config, spec, kind, OnOtherSpec::ReplaceUnplayed, refused);
  if (refused) {
    if (refused->kind == ErrorKind::Conflict)
      return Error{
          store->path() + ": " + refused->message + "; give it a new name or use another database",
          ErrorKind::Conflict};
    return *refused;
  }
  if (!opened) return opened.failure();
  if (opened->how == Opening::Respecified && options.progress)
    *options.progress << "event \"" << config.name << "\" had no game played: its specification"
                      << " is replaced (" << opened->changes << ")\n";
  const storage::EventRow row = opened->row;
  // A resumed sprt event that has decided (or decided as the last run was killed) plays nothing.
  std::string sprt_text;
  if (config.sprt) {
    auto check = enforce_sprt(*store, row.id, config);
    if (!check) return check.failure();
    sprt_text = sprt_progress(*config.sprt, check->tally.state) + "  " +
                ratings::ptnml_text(check->tally.h.pairs);
  }
  // A run killed after a round's last game and before the next round was added adds it now.
  if (has_rounds(config))
    if (auto added = advance_rounds(*store, row.id, config); !added) return added.failure();
  auto all_slots = storage::work_queue::slots(*store, row.id);
  if (!all_slots) return all_slots.failure();
  std::vector<storage::SlotRecord> open_slots;
  for (const auto& s : *all_slots)
    if (s.state == storage::SlotState::Pending || s.state == storage::SlotState::Claimed)
      open_slots.push_back(s);

  // Two-engine events show a running score over every finished game of the event.
  double prior[2] = {0, 0};
  if (config.engines.size() == 2) {
    storage::GameFilter f;
    f.event_id = row.id;
    auto finished_games = store->games(f);
    if (!finished_games) return finished_games.failure();
    for (const auto& g : *finished_games) {
      if (g.ranks.size() != 2) continue;
      for (std::size_t s = 0; s < 2; ++s) {
        const int e = g.players[s] == config.engines[0].config.name ? 0 : 1;
        prior[e] += g.ranks[s] < g.ranks[1 - s] ? 1.0 : g.ranks[s] == g.ranks[1 - s] ? 0.5 : 0.0;
      }
    }
  }

  OwnerSettings settings;
  settings.info.name = "tournament " + config.name;
  settings.info.host = engines::host_name();
  settings.info.pid = engines::process_id();
  settings.info.lease_ms = options.lease_ms;
  // concurrency = 0: one game thread per core (owner_loop.h), never more than the games left.
  // A knockout or Swiss round holds at most field / 2 pairings of a pair in each game.
  const std::size_t most_at_once =
      has_rounds(config) ? config.engines.size() / 2 * 2 * config.games.size() : open_slots.size();
  settings.threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(game_threads(config.concurrency)),
                            std::max<std::size_t>(1, most_at_once)));
  settings.keep_logs = options.keep_logs;
  settings.debug = options.debug;
  settings.pin_cpus = options.pin_cpus;
  settings.limits = options.limits;
  settings.limits.degrade = false;  // see RunOptions::limits
  settings.artifact_cache = options.artifact_cache;
  auto started = OwnerLoop::start(*store, settings);
  if (!started) return started.failure();
  OwnerLoop& loop = **started;
  auto counts = loop.recorder().call<storage::SlotCounts>(
      [&](storage::Store& s) { return storage::work_queue::slot_counts(s, row.id, loop.owner()); });
  if (!counts) return counts.failure();

  Shared sh(config, options);
  sh.loop = &loop;
  sh.event = row.id;
  for (std::size_t e = 0; e < config.engines.size(); ++e)
    sh.engine_index[config.engines[e].config.name] = static_cast<int>(e);
  sh.summary.event_id = row.id;
  sh.summary.scheduled = counts->total();
  sh.summary.already_done = counts->done;
  sh.summary.skipped = counts->skipped;
  sh.two_engines = config.engines.size() == 2;
  sh.points[0] = prior[0];
  sh.points[1] = prior[1];
  sh.sprt_text = sprt_text;
  if (config.sprt && options.progress) *options.progress << "sprt: " << sprt_text << "\n";

  // The engine check, before the first game. With pin_cpus, the engines it starts go to the
  // first game thread: they start on its CPU.
  if (!open_slots.empty()) {
    const std::vector<int> cpus = engines::allowed_cpus();
    if (options.pin_cpus) engines::pin_this_thread({cpus.front()});
    std::vector<std::pair<std::vector<std::int64_t>, std::string>> skips;
    check_engines(sh, open_slots, skips);
    if (options.pin_cpus) engines::pin_this_thread(cpus);
    std::vector<std::string> skipped_lines;
    for (const auto& skip : skips) {
      auto n = loop.recorder().call<int>(  // a failure reaches the loop: the run stops
          [&](storage::Store& s) {
            return storage::work_queue::skip_slots(s, sh.event, skip.first, skip.second);
          });
      if (!n || *n == 0) continue;
      sh.summary.skipped += *n;
      skipped_lines.push_back("skipped " + std::to_string(*n) + (*n == 1 ? " game: " : " games: ") +
                              skip.second);
    }
    if (options.progress) {
      for (const auto& l : sh.summary.engines) *options.progress << l << "\n";
      for (const auto& l : skipped_lines) *options.progress << l << "\n";
    }
    for (const auto& [n, why] : sh.roster->exclusions())
      sh.summary.messages.push_back("engine '" + n + "' " + why);
  }

  if (!loop.failed()) loop.run(work_source(sh));
  // Ctrl-C halts: the games in progress are interrupted, their slots released.
  while (!loop.wait_games(std::chrono::milliseconds(50)))
    if (sh.user_stop()) loop.halt();
  // A failed release is the run's storage failure; its claims wait for their leases.
  if (auto released = loop.stop(); !released && !loop.failed()) loop.fail(released.failure());
  if (loop.failed()) sh.summary.storage_error = loop.failure().message;
  const OwnerTotals totals = loop.totals();
  sh.summary.round_trips += totals.round_trips;
  sh.summary.game_threads_cpu = {totals.user_cpu, totals.system_cpu};
  storage::Recorder& recorder = loop.recorder();
  if (auto trips = recorder.call<storage::RoundTrips>(
          [](storage::Store& s) -> Expected<storage::RoundTrips> { return s.round_trips(); })) {
    sh.summary.db_statements = trips->statements;
    sh.summary.db_transactions = trips->transactions;
  }
  if (auto cpu = recorder.call<engines::Usage>(
          [](storage::Store&) -> Expected<engines::Usage> { return engines::thread_usage(); }))
    sh.summary.writer_cpu = {cpu->user_seconds, cpu->system_seconds};
  auto final_slots = recorder.call<std::vector<storage::SlotRecord>>(
      [&](storage::Store& s) { return storage::work_queue::slots(s, sh.event); });
  if (config.sprt) {
    // The test on what the database holds now: what `referee sprt` would print.
    auto tally = recorder.call<ratings::SprtTally>(
        [&](storage::Store& s) { return event_sprt(s, sh.event, config); });
    if (tally) sh.summary.sprt = SprtSummary{*config.sprt, std::move(*tally)};
  }
  if (has_rounds(config)) {
    auto view = recorder.call<RoundsView>(
        [&](storage::Store& s) { return read_rounds(s, sh.event, config); });
    sh.summary.rounds_open = !view || !view->complete;
    if (view) sh.summary.rounds_text = rounds_text(config, *view);
    if (final_slots) sh.summary.scheduled = static_cast<std::int64_t>(final_slots->size());
  }
  std::int64_t done_now = sh.summary.already_done + sh.summary.played;
  if (final_slots) {
    done_now = 0;
    for (const auto& s : *final_slots) done_now += s.state == storage::SlotState::Done;
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

}  // namespace referee::event
