#include "event/event_spec.h"
#include "event/adjudication_settings.h"
#include "event/rounds.h"
#include "storage/work_queue.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace referee::event {

namespace {

using nlohmann::json;

json engine_json(const TournamentEngine& e) {
  const auto& c = e.config;
  json j;
  j["name"] = c.name;
  j["command"] = c.command;
  j["args"] = c.args;
  j["dir"] = c.working_dir;
  j["env"] = c.env;
  j["options"] = c.options;
  j["protocol0"] = c.protocol0;
  j["limits"] = {{"memory_mb", c.limits.memory_mb},
                 {"cpu_seconds", c.limits.cpu_seconds},
                 {"processes", c.limits.processes}};
  j["tc"] = e.tc ? e.tc->to_string() : "";
  j["run"] = {{"start_timeout_ms", c.start_timeout_ms},
              {"ready_timeout_ms", c.ready_timeout_ms},
              {"setgame_timeout_ms", c.setgame_timeout_ms}};
  if (!c.sha256.empty()) j["sha256"] = c.sha256;  // absent when not pinned: older specs unchanged
  // Both absent for a host command outside the sandbox: older specifications read the same.
  if (!c.artifact.empty()) j["artifact"] = {{"sha256", c.artifact}, {"ref", e.artifact_ref}};
  if (c.sandbox) j["sandbox"] = true;
  if (!e.games.empty()) j["games"] = e.games;  // absent when it plays every game: the same
  return j;
}

json without_run(json j) {
  if (j.is_object()) {
    j.erase("run");
    for (auto& [key, value] : j.items()) value = without_run(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_run(value);
  }
  return j;
}

// A stored specification's relative engine paths (a command with a '/', a dir) made absolute
// against the current directory. A tournament file's are absolute (resolved against the file's
// directory); an event stored with relative ones, resumed from the directory it was run in,
// names the same files and is the same event.
json with_absolute_paths(json spec) {
  if (!spec.contains("engines") || !spec["engines"].is_array()) return spec;
  namespace fs = std::filesystem;
  for (auto& e : spec["engines"]) {
    if (!e.is_object() || e.contains("artifact")) continue;  // an artifact's command is in its root
    for (const char* key : {"command", "dir"}) {
      if (!e.contains(key) || !e[key].is_string()) continue;
      const std::string path = e[key].get<std::string>();
      const bool is_path = std::string(key) == "dir" || path.find('/') != std::string::npos;
      if (path.empty() || !is_path || !fs::path(path).is_relative()) continue;
      std::error_code ec;
      const fs::path absolute = fs::absolute(path, ec);
      if (!ec) e[key] = absolute.lexically_normal().string();
    }
  }
  return spec;
}

std::string names_of(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

std::string event_spec(const TournamentConfig& config) {
  json j;
  j["name"] = config.name;
  j["format"] = config.format;
  j["games"] = config.games;
  j["cycles"] = config.cycles;
  j["seed"] = config.seed;
  j["tc"] = config.tc.to_string();
  j["openings"] = {{"random_plies", config.openings.random_plies},
                   {"per_pairing", config.openings.per_pairing},
                   {"book_lines", config.openings.book_lines}};
  // Only when set: older specifications read the same.
  if (config.openings.all_plies > 0) j["openings"]["all_plies"] = config.openings.all_plies;
  j["engines"] = json::array();
  for (const auto& e : config.engines) j["engines"].push_back(engine_json(e));
  j["run"] = {{"concurrency", config.concurrency},
              {"max_crashes", config.max_crashes},
              {"withdraw_on_time", config.withdraw_on_time}};
  // Only for these formats, so that the specifications of other events stay as they were.
  if (config.format == "knockout") {
    std::vector<std::string> seeds = config.knockout.seeds;
    if (seeds.empty())
      for (const auto& e : config.engines) seeds.push_back(e.config.name);
    j["knockout"] = {{"seeding", config.knockout.seeding},
                     {"pairs", config.knockout.pairs},
                     {"tiebreak_pairs", config.knockout.tiebreak_pairs},
                     {"seeds", seeds}};
  }
  if (config.format == "swiss") j["swiss"] = {{"rounds", config.swiss.rounds}};
  // Only when there is one, so that the specifications of other events stay as they were.
  if (config.sprt)
    j["sprt"] = {{"elo0", config.sprt->elo0},
                 {"elo1", config.sprt->elo1},
                 {"alpha", config.sprt->alpha},
                 {"beta", config.sprt->beta},
                 {"model", ratings::model_name(config.sprt->model)}};
  // Likewise: a worker and a resume play under the stored rules.
  if (config.adjudication.any()) j["adjudication"] = adjudication_json(config.adjudication);
  if (config.egdb)
    j["adjudication"]["egdb"] = {{"path", config.egdb->path},
                                 {"checksum", checksum_text(config.egdb->checksum)}};
  return j.dump();
}

Expected<TournamentConfig> config_from_spec(const std::string& spec) {
  try {
    const json j = json::parse(spec);
    TournamentConfig c;
    c.database.clear();
    c.name = j.at("name").get<std::string>();
    c.format = j.at("format").get<std::string>();
    c.games = j.at("games").get<std::vector<std::string>>();
    c.cycles = j.at("cycles").get<int>();
    c.seed = j.at("seed").get<unsigned long long>();
    auto tc = match::parse_time_control(j.at("tc").get<std::string>());
    if (!tc) return Error{"stored event '" + c.name + "': " + tc.error()};
    c.tc = *tc;
    const json& o = j.at("openings");
    c.openings.random_plies = o.at("random_plies").get<int>();
    c.openings.per_pairing = o.at("per_pairing").get<int>();
    c.openings.book_lines = o.at("book_lines").get<std::vector<std::vector<std::string>>>();
    c.openings.all_plies = o.value("all_plies", 0);
    for (const json& e : j.at("engines")) {
      TournamentEngine te;
      auto& ec = te.config;
      ec.name = e.at("name").get<std::string>();
      ec.command = e.at("command").get<std::string>();
      ec.args = e.at("args").get<std::vector<std::string>>();
      ec.working_dir = e.at("dir").get<std::string>();
      ec.env = e.at("env").get<std::map<std::string, std::string>>();
      ec.options = e.at("options").get<std::map<std::string, std::string>>();
      ec.protocol0 = e.at("protocol0").get<bool>();
      ec.limits.memory_mb = e.at("limits").at("memory_mb").get<long>();
      ec.limits.cpu_seconds = e.at("limits").at("cpu_seconds").get<long>();
      ec.limits.processes = e.at("limits").at("processes").get<long>();
      ec.start_timeout_ms = e.at("run").at("start_timeout_ms").get<long>();
      ec.ready_timeout_ms = e.at("run").at("ready_timeout_ms").get<long>();
      ec.setgame_timeout_ms = e.at("run").at("setgame_timeout_ms").get<long>();
      if (e.contains("sha256")) ec.sha256 = e.at("sha256").get<std::string>();
      if (e.contains("artifact")) {
        ec.artifact = e.at("artifact").at("sha256").get<std::string>();
        te.artifact_ref = e.at("artifact").at("ref").get<std::string>();
      }
      if (e.contains("sandbox")) ec.sandbox = e.at("sandbox").get<bool>();
      if (e.contains("games")) te.games = e.at("games").get<std::vector<std::string>>();
      const auto etc = e.at("tc").get<std::string>();
      if (!etc.empty()) {
        auto parsed = match::parse_time_control(etc);
        if (!parsed)
          return Error{"stored event '" + c.name + "': engine " + ec.name + ": " + parsed.error()};
        te.tc = *parsed;
      }
      c.engines.push_back(std::move(te));
    }
    const json& run = j.at("run");
    c.concurrency = run.at("concurrency").get<int>();
    c.max_crashes = run.at("max_crashes").get<int>();
    c.withdraw_on_time = run.at("withdraw_on_time").get<bool>();
    if (j.contains("knockout")) {
      const json& k = j.at("knockout");
      c.knockout.seeding = k.at("seeding").get<std::string>();
      c.knockout.pairs = k.at("pairs").get<int>();
      c.knockout.tiebreak_pairs = k.at("tiebreak_pairs").get<int>();
      c.knockout.seeds = k.at("seeds").get<std::vector<std::string>>();
    }
    if (j.contains("swiss")) c.swiss.rounds = j.at("swiss").at("rounds").get<int>();
    if (j.contains("sprt")) {
      auto sprt = ratings::parse_sprt_config(j.at("sprt"), "stored event '" + c.name + "': sprt");
      if (!sprt) return sprt.failure();
      c.sprt = *sprt;
    }
    if (j.contains("adjudication")) {
      auto rules =
          parse_adjudication(j.at("adjudication"), "stored event '" + c.name + "': adjudication");
      if (!rules) return rules.failure();
      c.adjudication = *rules;
      if (const json& a = j.at("adjudication"); a.contains("egdb")) {
        const auto checksum = parse_checksum(a.at("egdb").at("checksum").get<std::string>());
        if (!checksum)
          return Error{"stored event '" + c.name +
                       "': adjudication.egdb.checksum is not 16 hex digits"};
        c.egdb = EgdbPin{a.at("egdb").at("path").get<std::string>(), *checksum};
      }
    }
    return c;
  } catch (const json::exception& e) {
    return Error{std::string("stored event specification is not readable: ") + e.what()};
  }
}

std::string spec_changes(const std::string& stored, const std::string& wanted) {
  const json a = json::parse(stored, nullptr, false), b = json::parse(wanted, nullptr, false);
  if (a.is_discarded() || !a.is_object()) return "the stored specification is missing";
  if (b.is_discarded() || !b.is_object()) return "the new specification is not readable";
  const json x = without_run(with_absolute_paths(a)), y = without_run(b);
  std::vector<std::string> changes;
  std::vector<std::string> keys;
  for (auto& [k, v] : x.items()) keys.push_back(k);
  for (auto& [k, v] : y.items())
    if (!x.contains(k)) keys.push_back(k);
  for (const auto& k : keys) {
    if (k == "engines") continue;
    if (!x.contains(k) || !y.contains(k) || x[k] != y[k]) changes.push_back(k);
  }
  // Engines: by name, what was added, removed, reordered or changed.
  const json ex = x.value("engines", json::array()), ey = y.value("engines", json::array());
  std::vector<std::string> nx, ny;
  for (const auto& e : ex) nx.push_back(e.value("name", ""));
  for (const auto& e : ey) ny.push_back(e.value("name", ""));
  for (const auto& n : nx)
    if (std::find(ny.begin(), ny.end(), n) == ny.end())
      changes.push_back("engine '" + n + "' removed");
  for (const auto& n : ny)
    if (std::find(nx.begin(), nx.end(), n) == nx.end())
      changes.push_back("engine '" + n + "' added");
  for (std::size_t i = 0; i < ey.size(); ++i) {
    auto it = std::find(nx.begin(), nx.end(), ny[i]);
    if (it == nx.end()) continue;
    const json& old = ex[static_cast<std::size_t>(it - nx.begin())];
    std::vector<std::string> fields;
    for (auto& [k, v] : ey[i].items())
      if (!old.contains(k) || old[k] != v) fields.push_back(k);
    if (!fields.empty()) changes.push_back("engine '" + ny[i] + "': " + names_of(fields));
  }
  if (changes.empty() && nx != ny) changes.push_back("order of the engines");
  std::string out;
  for (const auto& c : changes) out += (out.empty() ? "" : "; ") + c;
  return out;
}

namespace {

// Slots to slots rows in schedule order, counting `pair` as the opening groups go by: a new
// group starts where the game, cycle, round, opening or set of engines differs from the slot
// before. Holds the slot before, nothing more.
class SlotRecorder {
 public:
  explicit SlotRecorder(const TournamentConfig& config) : config_(config) {}

  storage::SlotRecord record(const Slot& s) {
    seated_ = s.seats;
    std::sort(seated_.begin(), seated_.end());
    const bool same = have_previous_ && previous_.game == s.game && previous_.cycle == s.cycle &&
                      previous_.round == s.round && previous_.opening == s.opening &&
                      previous_seated_ == seated_;
    if (!same) ++pair_;
    have_previous_ = true;
    previous_ = s;
    previous_seated_.swap(seated_);
    storage::SlotRecord r;
    r.slot = s.index;
    r.game = s.game;
    for (int e : s.seats)
      r.seats.push_back(config_.engines[static_cast<std::size_t>(e)].config.name);
    r.opening = s.opening;
    r.cycle = s.cycle;
    r.round = s.round;
    r.pair = pair_;
    return r;
  }

 private:
  const TournamentConfig& config_;
  int pair_ = -1;
  bool have_previous_ = false;
  Slot previous_;
  std::vector<int> previous_seated_, seated_;
};

}  // namespace

std::vector<storage::SlotRecord> slot_records(const TournamentConfig& config,
                                              const std::vector<Slot>& schedule) {
  std::vector<storage::SlotRecord> out;
  out.reserve(schedule.size());
  SlotRecorder recorder(config);
  for (const Slot& s : schedule) out.push_back(recorder.record(s));
  return out;
}

Expected<storage::SlotBatches> slot_batches(const TournamentConfig& config,
                                            std::size_t batch_size) {
  if (has_rounds(config)) {
    // The first round only: the others are added as results come (event/rounds.h).
    if (auto checked = check_schedule_size(config); !checked) return checked.failure();
    auto first = first_round(config);
    if (!first) return first.failure();
    auto pending = std::make_shared<std::vector<storage::SlotRecord>>(std::move(*first));
    return storage::SlotBatches([pending](std::vector<storage::SlotRecord>& batch) -> Status {
      batch.swap(*pending);  // all at once: a round is at most a few thousand games
      return Ok{};
    });
  }
  auto gen = ScheduleGenerator::start(config);
  if (!gen) return gen.failure();
  // The batches outlive this call (a std::function is copied): the state is shared, and holds
  // its own copy of the configuration for the engines' names.
  struct State {
    State(const TournamentConfig& c, ScheduleGenerator g)
        : config(c), gen(std::move(g)), recorder(config) {}
    TournamentConfig config;
    ScheduleGenerator gen;
    SlotRecorder recorder;  // refers to `config`: the state stays where it was made
    Slot slot;
  };
  auto state = std::make_shared<State>(config, std::move(*gen));
  const std::size_t size = std::max<std::size_t>(batch_size, 1);
  return storage::SlotBatches([state, size](std::vector<storage::SlotRecord>& batch) -> Status {
    while (batch.size() < size) {
      auto more = state->gen.next(state->slot);
      if (!more) return more.failure();
      if (!*more) break;
      batch.push_back(state->recorder.record(state->slot));
    }
    return Ok{};
  });
}

namespace {

// The schedule's batches, each failure of which is also kept in `refused`: the event's fault.
storage::SlotBatches watched_batches(storage::SlotBatches batches, std::optional<Error>& refused) {
  return [batches = std::move(batches), &refused](std::vector<storage::SlotRecord>& batch) {
    auto made = batches(batch);
    if (!made) refused = made.failure();
    return made;
  };
}

}  // namespace

Expected<OpenedEvent> open_tournament_event(storage::Database& db, const TournamentConfig& config,
                                            const std::string& spec,
                                            const storage::NewEventOptions& options,
                                            OnOtherSpec on_other_spec,
                                            std::optional<Error>& refused) {
  refused.reset();
  auto batches = slot_batches(config);
  if (!batches) {
    refused = batches.failure();
    return OpenedEvent{};
  }
  const std::string fingerprint = schedule_fingerprint(config);
  auto row = storage::work_queue::open_event_in_batches(
      db, config.name, spec, fingerprint, watched_batches(*batches, refused), options);
  if (!row) {
    if (refused) return OpenedEvent{};
    return row.failure();
  }
  OpenedEvent opened{*row, row->created ? Opening::Created : Opening::Resumed, ""};
  if (row->created) return opened;
  if (row->kind != options.kind) {
    refused = Error{"an event named \"" + config.name + "\" already exists (a " +
                        storage::to_text(row->kind) + ")",
                    ErrorKind::Conflict};
    return OpenedEvent{};
  }
  if (row->spec == spec) return opened;
  // A v2 event (no specification stored) says nothing finer than what a schedule is made of.
  std::string changes = row->spec.empty() ? "its games, engines, cycles, seed or openings"
                                          : spec_changes(row->spec, spec);
  if (changes.empty()) return opened;  // the same event, written differently
  if (on_other_spec == OnOtherSpec::ReplaceUnplayed) {
    auto again = slot_batches(config);
    if (!again) {
      refused = again.failure();
      return OpenedEvent{};
    }
    auto replaced = storage::work_queue::respecify_unplayed_event(db, row->id, spec, fingerprint,
                                                                  watched_batches(*again, refused),
                                                                  options.kind, options.state);
    if (!replaced) {
      if (refused) return OpenedEvent{};
      return replaced.failure();
    }
    if (*replaced) {
      opened.how = Opening::Respecified;
      opened.row.spec = spec;
      opened.row.config = fingerprint;
      opened.row.state = options.state;
      opened.changes = std::move(changes);
      return opened;
    }
  }
  refused = Error{"event \"" + config.name + "\" already exists with a different specification (" +
                      changes + ")",
                  ErrorKind::Conflict};
  return OpenedEvent{};
}

}  // namespace referee::event
