// The ladders: engines registered through the API, one standing event per game ("ladder
// <canonical game>", kind "ladder") where they play continuously, pairs appended by the rule of
// ladder.h while the ladder runs low on open games (see core.h).
//
// Decisions:
// - A ladder is created when the first engine registers for its game, with the daemon's ladder
//   time control, random opening plies and pace (--ladder-tc, --ladder-plies,
//   --ladder-concurrency, --ladder-interval-ms); it keeps them after (PATCH /api/events/{id}
//   changes the pace).
// - Open games per ladder: a small reserve (twice the game threads, at least 4), so that a newly
//   registered engine is in the next pairs appended, which happens at once on registration.
// - Each pair is one opening (random plies from the ladder's seed and the pair's number) played
//   twice with the seats swapped.
// - Retiring an engine (or registering it again without a game) takes it off those ladders: its
//   pending games there are skipped, it is never paired again; games under way finish. Its games
//   stay in the standings.
// - Engine names are [A-Za-z0-9_.+-], at most 64 characters (they appear in URLs); commands are
//   absolute paths on the server, or names looked up in PATH.
// - A registration may name a stored engine instead of a command (`"artifact": "mybot"` or
//   `"mybot@2"`): its entries are the versions it covers, each named by its label and kept in
//   step with the stored versions by ladder_artifacts.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <tuple>

#include "base/input_limits.h"
#include "event/artifact_engines.h"
#include "event/event_spec.h"
#include "event/schedule.h"
#include "ratings/ratings.h"
#include "service/core.h"
#include "service/ladder.h"
#include "service/roles.h"
#include "storage/engine_registry.h"
#include "storage/work_queue.h"

namespace referee::service {

namespace {

const std::string kRetired = "retired";

Reply error_reply(int status, const std::string& text) {
  return {status, Json{{"error", text}}};
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '+' &&
        c != '-')
      return false;
  return true;
}

Json engine_json(const storage::RegisteredEngine& e) {
  return {{"name", e.name},
          {"command", e.command},
          {"artifact", artifact_of(e).empty() ? Json(nullptr) : Json(artifact_of(e))},
          {"args", e.args},
          {"options", e.options},
          {"ladders", e.games},
          {"id_name", e.id_name},
          {"id_author", e.id_author},
          {"games", e.finished_games},
          {"registered", !e.registered_at.empty()},
          {"registered_at", e.registered_at.empty() ? Json(nullptr) : Json(e.registered_at)},
          {"retired", !e.retired_at.empty()},
          {"retired_at", e.retired_at.empty() ? Json(nullptr) : Json(e.retired_at)},
          {"submitted_by", e.submitted_by.empty() ? Json(nullptr) : Json(e.submitted_by)}};
}

// The registered engine (not retired) of that name, as stored.
Expected<storage::RegisteredEngine> registered(Core& core, const std::string& name) {
  auto store = core.reads->get();
  if (!store) return store.failure();
  auto all = storage::engine_registry::engines(**store);
  if (!all) return all.failure();
  for (auto& e : *all)
    if (e.name == name && !e.registered_at.empty() && e.retired_at.empty()) return std::move(e);
  return Error{"no registered engine '" + name + "' (GET /api/engines lists them)",
               ErrorKind::Invalid};
}

// A word of a command line as split_command_line reads it back: single-quoted.
std::string quoted_word(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

event::TournamentEngine tournament_engine(const storage::RegisteredEngine& e) {
  event::TournamentEngine t;
  auto& c = t.config;
  c.name = e.name;
  c.command = e.command;
  c.args = e.args;
  c.options = e.options;
  const Json s = Json::parse(e.settings, nullptr, false);
  if (s.is_object()) {
    c.working_dir = s.value("dir", "");
    if (s.contains("env") && s["env"].is_object())
      for (auto it = s["env"].begin(); it != s["env"].end(); ++it)
        if (it.value().is_string()) c.env[it.key()] = it.value().get<std::string>();
    c.protocol0 = s.value("protocol0", false);
    c.limits.memory_mb = s.value("memory_mb", 0L);
    c.limits.cpu_seconds = s.value("cpu_seconds", 0L);
    c.limits.processes = s.value("processes", 0L);
    c.start_timeout_ms = s.value("start_timeout_ms", c.start_timeout_ms);
    c.ready_timeout_ms = s.value("ready_timeout_ms", c.ready_timeout_ms);
  }
  return t;
}

// The ladder of `game` (canonical): created when missing; its runtime loaded. Returns its id.
Expected<std::int64_t> ensure_ladder(Core& core, const std::string& game) {
  event::TournamentConfig config;
  config.name = ladder_name(game);
  config.database.clear();
  config.games = {game};
  config.tc = core.options.ladder_tc;
  config.openings.random_plies = core.options.ladder_random_plies;
  config.concurrency = core.options.ladder_concurrency;
  // The pace's interval is a key of the daemon's under "run" (set_pace), not a file's.
  Json spec = Json::parse(event::event_spec(config));
  if (core.options.ladder_interval_ms > 0)
    spec["run"]["interval_ms"] = core.options.ladder_interval_ms;
  storage::NewEventOptions options;
  options.kind = storage::EventKind::Ladder;
  options.state = storage::EventState::Running;
  auto row = core.recorder().call<storage::EventRow>([&](storage::Store& s) {
    return storage::work_queue::open_event(s, config.name, dump(spec), "", {}, options);
  });
  if (!row) return row.failure();
  {
    std::lock_guard lock(core.mutex);
    if (core.events.count(row->id)) return row->id;
  }
  auto store = core.reads->get();
  if (!store) return store.failure();
  auto info = storage::work_queue::event(**store, row->id);
  if (!info) return info.failure();
  if (info->kind != storage::EventKind::Ladder)
    return Error{"an event named \"" + config.name + "\" exists and is not a ladder"};
  auto rt = runtime_of(core, *info);
  if (!rt) return rt.failure();
  std::lock_guard lock(core.mutex);
  core.events.emplace(row->id, std::move(*rt));
  if (row->created) core.log->info("ladder " + std::to_string(row->id) + " created for " + game);
  return row->id;
}

// Ladder runtimes: id -> (roster, config), of running ladders only when `running_only`.
std::vector<std::tuple<std::int64_t, std::shared_ptr<event::EventRoster>, event::TournamentConfig>>
ladders(Core& core, bool running_only) {
  std::vector<
      std::tuple<std::int64_t, std::shared_ptr<event::EventRoster>, event::TournamentConfig>>
      out;
  std::lock_guard lock(core.mutex);
  for (const auto& [id, rt] : core.events)
    if (rt.kind == storage::EventKind::Ladder &&
        (!running_only || rt.state == storage::EventState::Running))
      out.emplace_back(id, rt.roster, rt.config);
  return out;
}

// The reply refusing a registration of `artifact` (one line: unknown 400, retired 409), or none.
std::optional<Reply> check_artifact(Core& core, const event::TournamentEngine& te,
                                    const std::string& artifact) {
  std::vector<event::TournamentEngine> probe(1, te);
  probe.front().artifact_ref = artifact;
  auto store = core.reads->get();
  if (!store) return error_reply(http_status(store.kind()), "storage: " + store.error());
  Status resolved = event::resolve_artifacts(**store, probe);
  if (resolved) return std::nullopt;
  switch (resolved.kind()) {
    case ErrorKind::NotFound:
    case ErrorKind::Invalid:
      return error_reply(400, "request body: " + resolved.error());
    case ErrorKind::Conflict:
      return error_reply(409, "request body: " + resolved.error());
    default:
      return error_reply(http_status(resolved.kind()), "storage: " + resolved.error());
  }
}

// Every text of an engine's registration within its limit (base/input_limits.h): the name and
// game strings, option and env names kMaxNameBytes, the command, dir, args and option and env
// values kMaxTextBytes (engines::validate holds the same limits for every engine).
Status check_text_lengths(const Json& body) {
  using limits::kMaxNameBytes, limits::kMaxTextBytes;
  auto check = [](const std::string& field, const Json& value, std::size_t max) -> Status {
    if (!value.is_string()) return Ok{};
    return limits::check_length("request body: " + field, value.get_ref<const std::string&>(), max);
  };
  for (const auto& [key, max] :
       {std::pair{"name", kMaxNameBytes}, {"command", kMaxTextBytes}, {"dir", kMaxTextBytes}})
    if (body.contains(key))
      if (auto ok = check(std::string("'") + key + "'", body[key], max); !ok) return ok;
  for (const auto& [key, max] : {std::pair{"args", kMaxTextBytes}, {"games", kMaxNameBytes}})
    if (body.contains(key) && body[key].is_array())
      for (const auto& item : body[key])
        if (auto ok = check(std::string("an item of '") + key + "'", item, max); !ok) return ok;
  for (const char* key : {"options", "env"})
    if (body.contains(key) && body[key].is_object())
      for (auto it = body[key].begin(); it != body[key].end(); ++it) {
        const std::string what = std::string("a name in '") + key + "'";
        if (auto ok = limits::check_length("request body: " + what, it.key(), kMaxNameBytes); !ok)
          return ok;
        if (auto ok = check(std::string("a value in '") + key + "'", it.value(), kMaxTextBytes);
            !ok)
          return ok;
      }
  return Ok{};
}

}  // namespace

void skip_pending(Core& core, std::int64_t id, const std::string& name, const std::string& why) {
  auto store = core.reads->get();
  if (!store) return;
  auto open = storage::work_queue::open_slots(**store, id);
  if (!open) return;
  std::vector<std::int64_t> slots;
  for (const auto& s : *open)
    if (s.state == storage::SlotState::Pending &&
        std::find(s.seats.begin(), s.seats.end(), name) != s.seats.end())
      slots.push_back(s.slot);
  if (slots.empty()) return;
  // A failure reaches Core::fail (on_failure).
  (void)core.recorder().call<int>(
      [&](storage::Store& s) { return storage::work_queue::skip_slots(s, id, slots, why); });
}

void resume_ladder(Core& core, std::int64_t id) {
  bool loaded = false;
  {
    std::lock_guard lock(core.mutex);
    loaded = core.events.count(id) > 0;
  }
  if (!loaded) {
    auto store = core.reads->get();
    if (!store) return;  // the next refresh loads it
    auto info = storage::work_queue::event(**store, id);
    if (!info) return;
    auto rt = runtime_of(core, *info);
    if (!rt) return;
    std::lock_guard lock(core.mutex);
    core.events.emplace(id, std::move(*rt));
  }
  top_up_ladders(core);
}

std::string ladder_name(const std::string& canonical_game) {
  return "ladder " + canonical_game;
}

Expected<std::vector<event::TournamentEngine>> ladder_engines(Core& core, const std::string& game) {
  auto store = core.reads->get();
  if (!store) return store.failure();
  auto all = storage::engine_registry::engines(**store);
  if (!all) return all.failure();
  std::vector<event::TournamentEngine> out;
  std::set<std::string> names;
  for (const auto& e : *all) {
    if (e.registered_at.empty() || !e.retired_at.empty() ||
        std::find(e.games.begin(), e.games.end(), game) == e.games.end())
      continue;
    if (artifact_of(e).empty()) {
      if (names.insert(e.name).second) out.push_back(tournament_engine(e));
      continue;
    }
    auto entries = artifact_entries(**store, e, tournament_engine(e));
    if (!entries) return entries.failure();
    for (auto& t : *entries)
      if (names.insert(t.config.name).second) out.push_back(std::move(t));
  }
  return out;
}

Status fill_registered_engines(Core& core, Json& document) {
  if (!document.contains("engine") || !document["engine"].is_array()) return Ok{};
  for (auto& table : document["engine"]) {
    if (!table.is_object() || !table.contains("name") || !table["name"].is_string()) continue;
    // A stored engine is resolved with the event (resolve_artifacts), as in a file.
    if (table.contains("artifact")) continue;
    auto e = registered(core, table["name"].get<std::string>());
    if (!e) return Error{"request body: " + e.error(), e.kind()};
    const event::TournamentEngine te = tournament_engine(*e);
    const auto& c = te.config;
    std::string command = quoted_word(c.command);
    for (const auto& a : c.args) command += " " + quoted_word(a);
    // A registration of a stored engine: the version its reference names when the event is made.
    Json def = artifact_of(*e).empty() ? Json{{"name", c.name}, {"command", command}}
                                       : Json{{"name", c.name}, {"artifact", artifact_of(*e)}};
    if (!c.working_dir.empty()) def["dir"] = c.working_dir;
    if (!c.env.empty()) def["env"] = c.env;
    Json options = c.options;
    if (table.contains("options") && table["options"].is_object())
      for (auto it = table["options"].begin(); it != table["options"].end(); ++it)
        options[it.key()] = it.value();
    if (!options.empty()) def["options"] = options;
    if (c.protocol0) def["protocol0"] = true;
    if (c.limits.memory_mb > 0) def["memory_mb"] = c.limits.memory_mb;
    if (c.limits.cpu_seconds > 0) def["cpu_seconds"] = c.limits.cpu_seconds;
    if (c.limits.processes > 0) def["processes"] = c.limits.processes;
    def["start_timeout_ms"] = c.start_timeout_ms;
    def["ready_timeout_ms"] = c.ready_timeout_ms;
    if (table.contains("tc")) def["tc"] = table["tc"];
    table = std::move(def);
  }
  return Ok{};
}

Reply register_engine(Core& core, const Principal& who, const Json& body_in) {
  if (!body_in.is_object()) return error_reply(400, "request body: an engine must be an object");
  std::optional<std::string> existing_submitter;
  if (body_in.contains("name") && body_in["name"].is_string()) {
    auto store = core.reads->get();
    if (!store) return error_reply(http_status(store.kind()), "storage: " + store.error());
    auto all = storage::engine_registry::engines(**store);
    if (!all) return error_reply(http_status(all.kind()), "storage: " + all.error());
    for (const auto& e : *all)
      if (e.name == body_in["name"].get<std::string>()) existing_submitter = e.submitted_by;
  }
  if (auto may = may_register_engine(who, body_in, existing_submitter); !may)
    return error_reply(403, may.error());
  Json body = body_in;
  if (body.contains("engine") && body.contains("artifact"))
    return error_reply(400, "request body: give 'engine' or 'artifact', not both");
  if (body.contains("engine")) {
    // An entry of a registered engine: its definition, under this entry's name and games.
    if (!body["engine"].is_string())
      return error_reply(400, "request body: 'engine' must be the name of a registered engine");
    for (const char* key : {"command", "args", "dir", "env", "protocol0", "memory_mb",
                            "cpu_seconds", "processes", "start_timeout_ms", "ready_timeout_ms"})
      if (body.contains(key))
        return error_reply(400, std::string("request body: '") + key +
                                    "' comes from the registered engine named by 'engine'");
    auto base = registered(core, body["engine"].get<std::string>());
    if (!base)
      return error_reply(base.kind() == ErrorKind::Invalid ? 400 : http_status(base.kind()),
                         "request body: " + base.error());
    if (artifact_of(*base).empty()) {  // else its settings give the artifact
      body["command"] = base->command;
      body["args"] = base->args;
    }
    Json options = base->options;
    if (body.contains("options") && body["options"].is_object())
      for (auto it = body["options"].begin(); it != body["options"].end(); ++it)
        options[it.key()] = it.value();
    body["options"] = options;
    const Json settings = Json::parse(base->settings, nullptr, false);
    if (settings.is_object())
      for (auto it = settings.begin(); it != settings.end(); ++it) body[it.key()] = it.value();
    body.erase("engine");
  }
  static const std::set<std::string> kKeys = {"name",
                                              "artifact",
                                              "command",
                                              "args",
                                              "options",
                                              "games",
                                              "dir",
                                              "env",
                                              "protocol0",
                                              "memory_mb",
                                              "cpu_seconds",
                                              "processes",
                                              "start_timeout_ms",
                                              "ready_timeout_ms"};
  for (auto it = body.begin(); it != body.end(); ++it)
    if (!kKeys.count(it.key()))
      return error_reply(400, "request body: unknown key '" +
                                  limits::shortened(it.key(), limits::kMaxNameBytes) + "'");
  // Lengths before anything is read: the errors below quote names, the command and game strings.
  if (auto lengths = check_text_lengths(body); !lengths) return error_reply(400, lengths.error());
  auto text = [&](const char* key, std::string& out) -> std::optional<Reply> {
    if (!body.contains(key)) return std::nullopt;
    if (!body[key].is_string())
      return error_reply(400, std::string("request body: '") + key + "' must be a string");
    out = body[key].get<std::string>();
    return std::nullopt;
  };
  storage::RegisteredEngine e;
  std::string dir;
  if (auto bad = text("name", e.name)) return *bad;
  if (auto bad = text("command", e.command)) return *bad;
  if (auto bad = text("dir", dir)) return *bad;
  std::string artifact;
  if (auto bad = text("artifact", artifact)) return *bad;
  if (!valid_name(e.name))
    return error_reply(
        400, "request body: 'name' must be 1 to 64 letters, digits or _.+- (got '" + e.name + "')");
  if (body.contains("artifact")) {
    // A stored engine brings its own command; it runs in the sandbox, never in a host directory.
    if (artifact.empty()) return error_reply(400, "request body: 'artifact' is empty");
    for (const char* key : {"command", "args", "dir", "env"})
      if (body.contains(key))
        return error_reply(400, std::string("request body: '") + key +
                                    "' comes from the stored engine named by 'artifact'");
  } else if (e.command.empty()) {
    return error_reply(400, "request body: 'command' is missing");
  }
  if (e.command.find('/') != std::string::npos && e.command.front() != '/')
    return error_reply(400,
                       "request body: 'command' must be an absolute path on the server (or "
                       "a name looked up in PATH), not '" +
                           e.command + "'");
  if (body.contains("args")) {
    if (!body["args"].is_array()) return error_reply(400, "request body: 'args' must be a list");
    for (const auto& a : body["args"]) {
      if (!a.is_string()) return error_reply(400, "request body: 'args' must be a list of strings");
      e.args.push_back(a.get<std::string>());
    }
  }
  if (body.contains("options")) {
    if (!body["options"].is_object())
      return error_reply(400, "request body: 'options' must be an object");
    for (auto it = body["options"].begin(); it != body["options"].end(); ++it) {
      const Json& v = it.value();
      if (v.is_string())
        e.options[it.key()] = v.get<std::string>();
      else if (v.is_boolean())
        e.options[it.key()] = v.get<bool>() ? "true" : "false";
      else if (v.is_number())
        e.options[it.key()] = v.dump();
      else
        return error_reply(
            400, "request body: option '" + it.key() + "' must be a string, number or boolean");
    }
  }
  if (!body.contains("games") || !body["games"].is_array() || body["games"].empty())
    return error_reply(400, "request body: 'games' must be a non-empty list of game strings");
  for (const auto& g : body["games"]) {
    if (!g.is_string()) return error_reply(400, "request body: 'games' must be a list of strings");
    auto game = games::make_game(g.get<std::string>());
    if (!game) return error_reply(400, "request body: " + game.error());
    if (std::find(e.games.begin(), e.games.end(), game->canonical()) == e.games.end())
      e.games.push_back(game->canonical());
  }
  Json settings = Json::object();
  if (!dir.empty()) settings["dir"] = dir;
  if (body.contains("env")) {
    if (!body["env"].is_object()) return error_reply(400, "request body: 'env' must be an object");
    for (auto it = body["env"].begin(); it != body["env"].end(); ++it)
      if (!it.value().is_string())
        return error_reply(400, "request body: env '" + it.key() + "' must be a string");
    settings["env"] = body["env"];
  }
  if (body.contains("protocol0")) {
    if (!body["protocol0"].is_boolean())
      return error_reply(400, "request body: 'protocol0' must be true or false");
    settings["protocol0"] = body["protocol0"];
  }
  for (const char* key :
       {"memory_mb", "cpu_seconds", "processes", "start_timeout_ms", "ready_timeout_ms"}) {
    if (!body.contains(key)) continue;
    if (!body[key].is_number_integer() || body[key].get<long long>() < 0 ||
        body[key].get<long long>() > 100000000)
      return error_reply(
          400, std::string("request body: '") + key + "' must be an integer from 0 to 100000000");
    settings[key] = body[key];
  }
  if (!artifact.empty()) settings["artifact"] = artifact;
  e.settings = dump(settings);
  e.submitted_by = submitter_name(who);
  const event::TournamentEngine te = tournament_engine(e);
  if (artifact.empty()) {
    if (auto valid = engines::validate(te.config); !valid)
      return error_reply(400, "request body: " + valid.error());
  } else if (auto refused = check_artifact(core, te, artifact); refused) {
    return *refused;
  }

  auto stored = core.recorder().call<storage::RegisteredEngine>(
      [&](storage::Store& s) { return storage::engine_registry::register_engine(s, e); });
  if (!stored) return error_reply(http_status(stored.kind()), "storage: " + stored.error());
  for (const auto& game : e.games) {
    auto id = ensure_ladder(core, game);
    if (!id) return error_reply(http_status(id.kind()), "ladder for " + game + ": " + id.error());
  }
  // Join the ladders of its games (again, when re-registered); leave the others.
  for (auto& [id, roster, config] : ladders(core, false)) {
    const std::string& game = config.games.front();
    const bool plays = std::find(e.games.begin(), e.games.end(), game) != e.games.end();
    if (plays && !artifact.empty()) {
      // Its versions join through the top-up below (sync_ladder_rosters).
    } else if (plays) {
      auto excluded = roster->exclusions();
      roster->clear_exclusions();
      for (const auto& [name, why] : excluded)
        if (name != e.name) roster->exclude(name, why);
      roster->set_engine(te);
    } else if (auto names = roster->names();
               std::find(names.begin(), names.end(), e.name) != names.end()) {
      roster->exclude(e.name, kRetired);
      skip_pending(core, id, e.name, "engine '" + e.name + "' left the ladder");
    }
    std::lock_guard lock(core.mutex);
    if (auto it = core.events.find(id); it != core.events.end()) it->second.dirty = true;
  }
  core.log->info("engine " + e.name + " registered for " + std::to_string(e.games.size()) +
                 " ladder(s): " + (artifact.empty() ? e.command : "artifact " + artifact));
  top_up_ladders(core);
  core.wake();
  return {201, engine_json(*stored)};
}

Reply retire_engine(Core& core, const Principal& who, const std::string& name) {
  auto store = core.reads->get();
  if (!store) return error_reply(http_status(store.kind()), "storage: " + store.error());
  auto all = storage::engine_registry::engines(**store);
  if (!all) return error_reply(http_status(all.kind()), "storage: " + all.error());
  const storage::RegisteredEngine* found = nullptr;
  for (const auto& e : *all)
    if (e.name == name && !e.registered_at.empty()) found = &e;
  if (!found) return error_reply(404, "no registered engine '" + name + "'");
  if (auto may = may_control(who, found->submitted_by); !may)
    return error_reply(403, "engine '" + name + "': " + may.error());
  auto changed = core.recorder().call<bool>(
      [&](storage::Store& s) { return storage::engine_registry::retire_engine(s, name); });
  if (!changed) return error_reply(http_status(changed.kind()), "storage: " + changed.error());
  if (!*changed) return error_reply(409, "engine '" + name + "' is already retired");
  all = storage::engine_registry::engines(**store);  // as retired
  if (!all) return error_reply(http_status(all.kind()), "storage: " + all.error());
  for (const auto& e : *all)
    if (e.name == name) found = &e;
  for (auto& [id, roster, config] : ladders(core, false)) {
    roster->exclude(name, kRetired);
    skip_pending(core, id, name, "engine '" + name + "' retired");
    std::lock_guard lock(core.mutex);
    if (auto it = core.events.find(id); it != core.events.end()) it->second.dirty = true;
  }
  sync_ladder_rosters(core);  // the versions it covered, unless another registration does
  core.log->info("engine " + name + " retired");
  core.wake();
  return {200, engine_json(*found)};
}

void top_up_ladders(Core& core) {
  std::lock_guard one(core.ladder_mutex);
  sync_ladder_rosters(core);  // stored engines' versions added or retired since the last look
  int slots = 0;
  {
    std::lock_guard lock(core.mutex);
    slots = core.loop->threads();
  }
  const int reserve = std::max(4, 2 * slots);
  for (auto& [id, roster, config] : ladders(core, true)) {
    auto store = core.reads->get();
    if (!store) return;
    auto open = storage::work_queue::open_slots(**store, id);
    if (!open) continue;
    int pending = 0;
    std::map<EnginePair, int> open_pairs;
    for (const auto& s : *open) {
      pending += s.state == storage::SlotState::Pending;
      if (s.seats.size() == 2) ++open_pairs[std::minmax(s.seats[0], s.seats[1])];
    }
    if (pending >= reserve) continue;
    const auto excluded = roster->exclusions();
    std::vector<std::string> active;
    for (const auto& n : roster->names())
      if (!excluded.count(n)) active.push_back(n);
    if (active.size() < 2) continue;
    storage::GameFilter filter;
    filter.event_id = id;
    auto finished = (*store)->games(filter);
    if (!finished) continue;
    std::vector<ratings::RatedGame> rated;
    for (const auto& g : *finished)
      if (g.ranks.size() == g.players.size()) rated.push_back({g.players, g.ranks, g.game});
    std::map<std::string, ratings::Rating> by_name;
    for (const auto& group : ratings::rate(rated, ratings::RatingOptions{}).groups)
      for (const auto& r : group.ratings) by_name[r.name] = r;
    // Each engine's load (ladder.h): every finished game, against any engine.
    std::map<std::string, int> played;
    std::map<EnginePair, int> pair_games;
    for (const auto& g : rated) {
      for (const auto& p : g.players) ++played[p];
      if (g.players.size() == 2) ++pair_games[std::minmax(g.players[0], g.players[1])];
    }
    std::vector<LadderEntrant> entrants;
    for (const auto& n : active) {
      LadderEntrant e;
      e.name = n;
      e.games = played[n];
      if (auto it = by_name.find(n); it != by_name.end()) {
        // A bound (all won or all lost so far) or no rating: as uncertain as a new engine.
        if (it->second.bound == ratings::Bound::kNone) {
          e.elo = it->second.elo;
          e.error95 = it->second.error;
        } else if (it->second.bound != ratings::Bound::kUnrated) {
          e.elo = it->second.elo;
        }
      }
      entrants.push_back(e);
    }
    auto info = storage::work_queue::event(**store, id);
    if (!info) continue;
    auto game = games::make_game(config.games.front());
    if (!game) continue;
    const int wanted = (reserve - pending + 1) / 2;
    std::vector<storage::SlotRecord> add;
    std::int64_t serial = info->total() / 2;
    for (const auto& [a, b] : choose_pairs(entrants, open_pairs, wanted, pair_games)) {
      const auto opening = event::make_opening(
          *game, config.openings, 0, config.seed * 1000003ULL + static_cast<std::uint64_t>(serial));
      if (!opening) {
        core.log->error("ladder " + std::to_string(id) + ": " + opening.error());
        break;
      }
      for (int swap = 0; swap < 2; ++swap) {
        storage::SlotRecord s;
        s.game = config.games.front();
        s.seats = swap ? std::vector<std::string>{b, a} : std::vector<std::string>{a, b};
        s.opening = *opening;
        s.round = static_cast<int>(serial + 1);
        s.pair = static_cast<int>(serial);
        add.push_back(std::move(s));
      }
      ++serial;
    }
    if (add.empty()) continue;
    auto appended =
        core.recorder().call<std::vector<std::int64_t>>([&, event = id](storage::Store& s) {
          return storage::work_queue::append_slots(s, event, add);
        });
    if (!appended) {
      core.log->error("ladder " + std::to_string(id) + ": " + appended.error());
      continue;
    }
    {
      std::lock_guard lock(core.mutex);
      if (auto it = core.events.find(id); it != core.events.end()) it->second.retry_at = {};
    }
    core.log->debug("ladder " + std::to_string(id) + ": " + std::to_string(add.size()) +
                    " games added");
    core.wake();
  }
}

Json ladders_json(Core& core) {
  Json out = Json::array();
  auto store = core.reads->get();
  if (!store) return {{"ladders", out}};
  storage::EventQuery query;
  query.kind = storage::EventKind::Ladder;
  query.limit = 10000;
  auto list = storage::work_queue::events(**store, query);
  if (!list) return {{"ladders", out}};
  for (const auto& info : list->events) {
    Json summary = summary_of(core, info);
    auto standings = event_standings(core, info.id);
    Json entry = {{"id", info.id},
                  {"game", summary["games"].empty() ? Json(nullptr) : summary["games"][0]},
                  {"state", storage::to_text(info.state)},
                  {"engines", summary["engines"]},
                  {"standings", standings ? (*standings)["tables"] : Json::array()},
                  {"summary", summary}};
    out.push_back(std::move(entry));
  }
  return {{"ladders", std::move(out)}};
}

Expected<Json> engines_json(Core& core) {
  auto store = core.reads->get();
  if (!store) return store.failure();
  auto all = storage::engine_registry::engines(**store);
  if (!all) return all.failure();
  Json out = Json::array();
  for (const auto& e : *all) out.push_back(engine_json(e));
  return Json{{"engines", std::move(out)}};
}

}  // namespace referee::service
