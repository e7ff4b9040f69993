#include "service/api.h"

#include <cstdlib>
#include <tuple>

#include "base/input_limits.h"
#include "event/event_spec.h"
#include "event/rounds.h"
#include "ratings/opening_table.h"
#include "referee_version.h"
#include "service/auth.h"
#include "service/dashboard.h"
#include "service/http_router.h"
#include "service/roles.h"
#include "storage/work_queue.h"

namespace referee::service {

namespace {

constexpr std::int64_t kMaxId = std::int64_t{1} << 53;

bool content_type_is(const Request& req, std::initializer_list<const char*> types) {
  std::string type = req.get_header_value("Content-Type");
  type = type.substr(0, type.find(';'));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  for (auto& c : type)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (const char* t : types)
    if (type == t) return true;
  return false;
}

// The JSON object of a request body, or an error reply.
std::optional<Json> json_body(const Request& req, Response& res) {
  if (!content_type_is(req, {"application/json"})) {
    reply_error(res, 415, "the body must be JSON (Content-Type: application/json)");
    return std::nullopt;
  }
  if (auto nesting = limits::check_json_nesting(req.body, "request body"); !nesting) {
    reply_error(res, 400, nesting.error());
    return std::nullopt;
  }
  Json body;
  try {
    body = Json::parse(req.body);
  } catch (const Json::exception& e) {
    reply_error(
        res, 400,
        "request body: not valid JSON: " + limits::shortened(e.what(), limits::kMaxNameBytes));
    return std::nullopt;
  }
  if (!body.is_object()) {
    reply_error(res, 400, "request body: must be a JSON object");
    return std::nullopt;
  }
  return body;
}

// The request's access fields (auth.h).
AccessRequest access_of(const Request& req) {
  return {req.method,
          req.via_socket ? std::string() : req.remote_addr,
          req.get_header_value("Authorization"),
          req.get_header_value("Host"),
          req.get_header_value("Origin"),
          req.get_header_value("X-Forwarded-For"),
          req.via_socket};
}

void send(Response& res, const Reply& r) {
  reply(res, r.status, r.body);
}

// The id in the path, or a 400 naming it.
std::optional<std::int64_t> path_id(const Request& req, Response& res, const char* what) {
  const std::string text = req.matches[1];
  auto id = parse_id(text);
  if (!id) reply_error(res, 400, std::string("bad ") + what + " id '" + text + "'");
  return id;
}

// Each engine: "excluded" (with why), else "skipping" when this daemon skipped games because of
// it (with why and how many), else "ok".
Json engine_status(Core& core, std::int64_t id, const Json& summary) {
  Json out = Json::array();
  std::map<std::string, std::string> excluded;
  std::map<std::string, event::EventRoster::Skips> skips;
  {
    std::lock_guard lock(core.mutex);
    auto it = core.events.find(id);
    if (it != core.events.end()) {
      excluded = it->second.roster->exclusions();
      skips = it->second.roster->skips();
    }
  }
  for (const auto& name : summary["engines"]) {
    const std::string n = name.get<std::string>();
    const auto out_of = excluded.find(n);
    const auto skipped = skips.find(n);
    Json entry = {{"name", n}, {"status", "ok"}, {"reason", nullptr}};
    if (out_of != excluded.end()) {
      entry["status"] = "excluded";
      entry["reason"] = out_of->second;
    } else if (skipped != skips.end()) {
      entry["status"] = "skipping";
      entry["reason"] = skipped->second.why;
    }
    entry["skipped"] = skipped == skips.end() ? 0 : skipped->second.games;
    out.push_back(std::move(entry));
  }
  return out;
}

void health(Core& core, Response& res) {
  const int total = core.loop->threads(), busy = core.loop->busy();
  int running_events = 0;
  {
    std::lock_guard lock(core.mutex);
    for (const auto& [id, rt] : core.events)
      running_events +=
          rt.state == storage::EventState::Running || rt.state == storage::EventState::Queued;
  }
  const std::string failure = core.failed() ? core.loop->failure().message : std::string();
  const event::OwnerHealth owner = core.loop->health();
  const double uptime = std::chrono::duration<double>(SteadyClock::now() - core.started).count();
  Json body = {{"status", event::owner_state_name(owner.state)},
               {"version", kVersion},
               {"db", core.db_path},
               {"uptime_s", std::floor(uptime)},
               {"slots", {{"total", total}, {"busy", busy}}},
               {"events_running", running_events},
               {"stream_clients", core.stream.subscribers()},
               {"owner", core.owner()}};
  if (!failure.empty()) body["failure"] = failure;
  if (owner.state == event::OwnerState::Degraded) body["reason"] = owner.reason;
  body["disk"] = {{"free_bytes", owner.free_bytes < 0 ? Json(nullptr) : Json(owner.free_bytes)},
                  {"headroom_bytes", owner.headroom_bytes}};
  reply(res, 200, body);
}

// A failed storage call: the status of its kind (http_status).
void reply_storage_error(Response& res, const Error& error) {
  reply_error(res, http_status(error.kind), "storage: " + error.message);
}

void list_events(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"state", "kind", "limit", "offset"}); !bad.empty())
    return reply_error(res, 400, bad);
  std::string error;
  auto limit = int_param(req, "limit", 1, 1000, 100, error);
  auto offset = int_param(req, "offset", 0, 1LL << 40, 0, error);
  if (!limit || !offset) return reply_error(res, 400, error);
  storage::EventQuery query;
  query.limit = static_cast<int>(*limit);
  query.offset = static_cast<int>(std::min<long long>(*offset, 1 << 30));
  if (req.has_param("state")) {
    const std::string state = req.get_param_value("state");
    auto parsed = storage::event_state_from_text(state);
    if (!parsed)
      return reply_error(
          res, 400, "bad state '" + state + "' (queued, running, paused, cancelled, finished)");
    query.states = {*parsed};
  }
  if (req.has_param("kind")) {
    const std::string kind = req.get_param_value("kind");
    query.kind = storage::event_kind_from_text(kind);
    if (!query.kind)
      return reply_error(res, 400, "bad kind '" + kind + "' (tournament, ladder, sprt)");
  }
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  auto list = storage::work_queue::events(**store, query);
  if (!list) return reply_storage_error(res, list.failure());
  Json events = Json::array();
  for (const auto& e : list->events) events.push_back(summary_of(core, e));
  reply(res, 200, {{"events", std::move(events)}, {"total", list->total}});
}

void post_event(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"priority", "base", "state"}); !bad.empty())
    return reply_error(res, 400, bad);
  const std::string state = req.has_param("state") ? req.get_param_value("state") : "queued";
  const auto initial = storage::event_state_from_text(state);
  if (initial != storage::EventState::Queued && initial != storage::EventState::Paused)
    return reply_error(res, 400, "state must be queued or paused (got '" + state + "')");
  const bool is_json = content_type_is(req, {"application/json"});
  if (!is_json && !content_type_is(req, {"application/toml", "text/toml", "application/x-toml"}))
    return reply_error(res, 415,
                       "a tournament file is TOML (Content-Type: application/toml) or JSON "
                       "(application/json)");
  std::string error;
  std::optional<int> priority;
  if (req.has_param("priority")) {
    auto p = int_param(req, "priority", -1000, 1000, 0, error);
    if (!p) return reply_error(res, 400, error);
    priority = static_cast<int>(*p);
  }
  std::string base = core.options.base_dir;
  if (req.has_param("base")) {
    base = req.get_param_value("base");
    if (base.empty() || base.front() != '/')
      return reply_error(res, 400, "base must be an absolute directory on the server");
  }
  send(res, submit_event(core, req.who, req.body, is_json, base, priority, *initial));
}

// A failed read of event `id`: 404 when there is no such event, else the status of the failure's
// kind (a lost connection is 503, not a missing event).
void reply_event_error(Response& res, std::int64_t id, const Error& error) {
  if (error.kind == ErrorKind::NotFound)
    return reply_error(res, 404, "no event " + std::to_string(id));
  reply_storage_error(res, error);
}

void get_event(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto id = path_id(req, res, "event");
  if (!id) return;
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  auto info = storage::work_queue::event(**store, *id);
  if (!info) return reply_event_error(res, *id, info.failure());
  Json body = summary_of(core, *info);
  Json spec = Json::parse(info->spec, nullptr, false);
  body["spec"] = spec.is_discarded() ? Json(nullptr) : redact_env(std::move(spec));
  body["engine_status"] = engine_status(core, *id, body);
  auto reasons = storage::work_queue::skip_reasons(**store, *id);
  if (!reasons) return reply_storage_error(res, reasons.failure());
  Json why = Json::array();
  for (const auto& r : *reasons) why.push_back({{"reason", r.reason}, {"games", r.games}});
  body["skipped_reasons"] = std::move(why);
  reply(res, 200, body);
}

// A knockout's bracket or a Swiss event's rounds and standings (event/rounds.h): 404 for another
// kind of event, as for a missing one.
void event_rounds(Core& core, std::int64_t id, Response& res) {
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  auto info = storage::work_queue::event(**store, id);
  if (!info) return reply_event_error(res, id, info.failure());
  auto config = event::config_from_spec(info->spec);
  if (!config || !event::has_rounds(*config))
    return reply_error(res, 404,
                       "event " + std::to_string(id) + " is not a knockout or a Swiss event");
  auto view = event::read_rounds(**store, id, *config);
  if (!view) return reply_storage_error(res, view.failure());
  Json body = event::rounds_json(*config, *view);
  body["event_id"] = id;
  reply(res, 200, body);
}

void event_tables(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto id = path_id(req, res, "event");
  if (!id) return;
  const std::string what = req.matches[2];
  if (what == "rounds") return event_rounds(core, *id, res);
  if (what == "standings") {
    auto table = event_standings(core, *id);
    if (!table) return reply_event_error(res, *id, table.failure());
    return reply(res, 200, *table);
  }
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  if (auto info = storage::work_queue::event(**store, *id); !info)
    return reply_event_error(res, *id, info.failure());
  storage::GameFilter filter;
  filter.event_id = *id;
  auto games = (*store)->games(filter);
  if (!games) return reply_storage_error(res, games.failure());
  Json body = what == "crosstable" ? crosstable_json(*games)
              : what == "openings"
                  ? Json::parse(ratings::opening_table_json(ratings::opening_table(*games)))
                  : terminations_json(*games);
  body["event_id"] = *id;
  reply(res, 200, body);
}

void control(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto id = path_id(req, res, "event");
  if (!id) return;
  send(res, control_event(core, req.who, *id, req.matches[2]));
}

void patch_event(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto id = path_id(req, res, "event");
  if (!id) return;
  auto body = json_body(req, res);
  if (!body) return;
  if (!body->is_object() || body->empty())
    return reply_error(res, 400, "request body: priority, concurrency or interval_ms is missing");
  for (auto it = body->begin(); it != body->end(); ++it)
    if (it.key() != "priority" && it.key() != "concurrency" && it.key() != "interval_ms")
      return reply_error(
          res, 400,
          "request body: unknown key '" + it.key() + "' (priority, concurrency, interval_ms)");
  // Each key checked before anything changes.
  auto integer = [&](const char* key, long long lo, long long hi) -> std::optional<long long> {
    if (!body->contains(key)) return std::nullopt;
    const Json& v = (*body)[key];
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi) return lo - 1;
    return v.get<long long>();
  };
  const auto priority = integer("priority", -1000, 1000);
  const auto concurrency = integer("concurrency", 0, event::kMaxConcurrency);
  const auto interval = integer("interval_ms", 0, 86'400'000);
  if (priority && *priority < -1000)
    return reply_error(res, 400, "request body: 'priority' must be an integer from -1000 to 1000");
  if (concurrency && *concurrency < 0)
    return reply_error(res, 400,
                       "request body: 'concurrency' must be an integer from 0 to " +
                           std::to_string(event::kMaxConcurrency));
  if (interval && *interval < 0)
    return reply_error(res, 400,
                       "request body: 'interval_ms' must be an integer from 0 to 86400000");
  Reply reply;
  if (priority) reply = set_priority(core, req.who, *id, static_cast<int>(*priority));
  if ((!priority || reply.status == 200) && (concurrency || interval))
    reply =
        set_pace(core, req.who, *id,
                 concurrency ? std::optional<int>(static_cast<int>(*concurrency)) : std::nullopt,
                 interval ? std::optional<long>(static_cast<long>(*interval)) : std::nullopt);
  send(res, reply);
}

void list_games(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(
          req, {"event", "engine", "game", "result", "status", "limit", "offset", "after"});
      !bad.empty())
    return reply_error(res, 400, bad);
  storage::GamePageQuery query;
  std::string error;
  auto limit = int_param(req, "limit", 1, 500, 50, error);
  auto offset = int_param(req, "offset", 0, 1LL << 40, 0, error);
  if (!limit || !offset) return reply_error(res, 400, error);
  query.limit = static_cast<int>(*limit);
  query.offset = static_cast<int>(std::min<long long>(*offset, 1 << 30));
  if (req.has_param("event")) {
    auto id = parse_id(req.get_param_value("event"));
    if (!id) return reply_error(res, 400, "bad event id '" + req.get_param_value("event") + "'");
    query.event = *id;
  }
  if (req.has_param("after")) {
    auto id = parse_id(req.get_param_value("after"));
    if (!id) return reply_error(res, 400, "bad game id '" + req.get_param_value("after") + "'");
    query.after_id = *id;
    query.newest_first = false;
  }
  query.engine = req.get_param_value("engine");
  query.game_prefix = req.get_param_value("game");
  query.result = req.get_param_value("result");
  if (!query.result.empty() && query.result != "1-0" && query.result != "0-1" &&
      query.result != "1/2-1/2")
    return reply_error(res, 400, "bad result '" + query.result + "' (1-0, 0-1, 1/2-1/2)");
  const std::string status = req.get_param_value("status");
  if (!status.empty()) query.status = storage::game_status_from_text(status);
  if (!status.empty() && !query.status)
    return reply_error(res, 400, "bad status '" + status + "' (running, finished, unfinished)");
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  auto page = (*store)->game_page(query);
  if (!page) return reply_storage_error(res, page.failure());
  Json games = Json::array();
  for (const auto& g : page->games) games.push_back(game_summary(g));
  reply(res, 200,
        {{"games", std::move(games)},
         {"total", page->total},
         {"limit", query.limit},
         {"offset", query.offset}});
}

// The game of the path with its moves, or an error reply.
std::optional<std::pair<storage::GameRecord, std::vector<storage::MoveRecord>>> load_game(
    Core& core, const Request& req, Response& res) {
  auto id = path_id(req, res, "game");
  if (!id) return std::nullopt;
  auto store = core.reads->get();
  if (!store) {
    reply_storage_error(res, store.failure());
    return std::nullopt;
  }
  auto game = (*store)->game(*id);
  if (!game) {  // a lost connection is 503, not a missing game
    if (game.kind() == ErrorKind::NotFound)
      reply_error(res, 404, "no game " + std::to_string(*id));
    else
      reply_storage_error(res, game.failure());
    return std::nullopt;
  }
  auto moves = (*store)->moves(*id);
  if (!moves) {
    reply_storage_error(res, moves.failure());
    return std::nullopt;
  }
  return std::make_pair(std::move(*game), std::move(*moves));
}

void get_game(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto loaded = load_game(core, req, res);
  if (!loaded) return;
  const auto& [game, moves] = *loaded;
  Json body = game_summary(game);
  body["start_position"] = game.start_position;
  body["engine_hashes"] = seat_hashes_json(game.engine_hashes);
  Json list = Json::array();
  for (const auto& m : moves) list.push_back(move_json(m));
  body["moves"] = std::move(list);
  reply(res, 200, body);
}

void get_transcript(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto id = path_id(req, res, "game");
  if (!id) return;
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  if (auto game = (*store)->game(*id); !game) {
    if (game.kind() == ErrorKind::NotFound)
      return reply_error(res, 404, "no game " + std::to_string(*id));
    return reply_storage_error(res, game.failure());
  }
  auto lines = (*store)->logs(*id);
  if (!lines) return reply_storage_error(res, lines.failure());
  Json body = transcript_json(*lines);
  body["game_id"] = *id;
  reply(res, 200, body);
}

void get_position(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"ply"}); !bad.empty()) return reply_error(res, 400, bad);
  auto loaded = load_game(core, req, res);
  if (!loaded) return;
  const auto& [game, moves] = *loaded;
  const auto sequence = storage::move_sequence(game, moves);
  std::string error;
  auto ply = int_param(req, "ply", 0, static_cast<long long>(sequence.size()),
                       static_cast<long long>(sequence.size()), error);
  if (!ply) return reply_error(res, 400, error);
  auto rules = games::make_game(game.game);
  if (!rules)
    return reply_error(res, 500, "game " + std::to_string(game.id) + ": " + rules.error());
  const std::vector<std::string> prefix(sequence.begin(),
                                        sequence.begin() + static_cast<std::ptrdiff_t>(*ply));
  auto state = games::state_after(*rules, game.start_position, prefix);
  if (!state)
    return reply_error(res, 500,
                       "game " + std::to_string(game.id) + " does not replay: " + state.error());
  // Each player's clock after their last move up to this ply (null before it or without one).
  std::vector<long> clocks(static_cast<std::size_t>(rules->num_players()), -1);
  const std::size_t offset = sequence.size() - moves.size();  // opening moves not recorded
  for (std::size_t i = 0; i < moves.size() && offset + i < static_cast<std::size_t>(*ply); ++i)
    if (moves[i].clock_ms >= 0 && moves[i].player >= 1 &&
        static_cast<std::size_t>(moves[i].player) <= clocks.size())
      clocks[static_cast<std::size_t>(moves[i].player - 1)] = moves[i].clock_ms;
  Json clock_list = Json::array();
  for (long c : clocks) clock_list.push_back(c < 0 ? Json(nullptr) : Json(c));
  reply(res, 200,
        {{"game_id", game.id},
         {"ply", *ply},
         {"plies", sequence.size()},
         {"position", state->to_string()},
         {"to_move", state->is_terminal() ? Json(nullptr) : Json(state->current_player())},
         {"clocks_ms", std::move(clock_list)},
         {"view", board_view_json(*state)}});
}

void get_engines(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto list = engines_json(core);
  if (!list) return reply_storage_error(res, list.failure());
  reply(res, 200, *list);
}

// Every owner not stopped, and those stopped in the last `stopped_hours` (default 24).
void get_workers(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"stopped_hours", "limit"}); !bad.empty())
    return reply_error(res, 400, bad);
  long hours = 24, limit = 200;
  for (auto [name, value, top] :
       {std::tuple<const char*, long*, long>{"stopped_hours", &hours, 24 * 365},
        {"limit", &limit, 1000}}) {
    if (!req.has_param(name)) continue;
    const std::string text = req.get_param_value(name);
    if (text.empty() || text.size() > 6 ||
        text.find_first_not_of("0123456789") != std::string::npos || std::stol(text) > top)
      return reply_error(
          res, 400,
          std::string("'") + name + "' must be an integer from 0 to " + std::to_string(top));
    *value = std::stol(text);
  }
  auto store = core.reads->get();
  if (!store) return reply_storage_error(res, store.failure());
  auto owners = storage::work_queue::owners(**store, hours * 3600 * 1000, static_cast<int>(limit));
  if (!owners) return reply_storage_error(res, owners.failure());
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  Json list = Json::array();
  for (const auto& o : *owners) {
    Json w = worker_json(o, now);
    w["this_daemon"] = o.id == core.owner();
    list.push_back(std::move(w));
  }
  reply(res, 200, Json{{"workers", std::move(list)}});
}

void post_engine(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  auto body = json_body(req, res);
  if (!body) return;
  send(res, register_engine(core, req.who, *body));
}

void retire(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  send(res, retire_engine(core, req.who, req.matches[1]));
}

void static_file(const std::string& path, Response& res) {
  // Only embedded names exist; still, no traversal-looking path is looked up at all.
  if (path.empty() || path.find("..") != std::string::npos || path.front() == '/' ||
      path.find('\\') != std::string::npos || path.find('\0') != std::string::npos)
    return reply_error(res, 404, "no such file: /static/" + path);
  auto file = find_dashboard_file(path);
  if (!file) return reply_error(res, 404, "no such file: /static/" + path);
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  res.set_content(std::string(file->bytes), std::string(file->content_type).c_str());
}

}  // namespace

void reply(Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(dump(body), "application/json");
}

void reply_error(Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_content(error_body(text), "application/json");
  if (status == 401) res.set_header("WWW-Authenticate", "Bearer");
}

std::string check_params(const Request& req, std::initializer_list<const char*> known,
                         std::initializer_list<const char*> repeatable) {
  for (auto it = req.params.begin(); it != req.params.end(); ++it) {
    if (it->first == "_") continue;
    bool ok = false, repeats = false;
    for (const char* k : known) ok = ok || it->first == k;
    for (const char* k : repeatable) repeats = repeats || it->first == k;
    if (!ok) return "unknown query parameter '" + it->first + "'";
    if (!repeats && req.params.count(it->first) > 1)
      return "query parameter '" + it->first + "' given twice";
  }
  return "";
}

std::optional<std::int64_t> parse_id(const std::string& text) {
  if (text.empty() || text.size() > 16) return std::nullopt;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < 1 || v > kMaxId) return std::nullopt;
  return v;
}

std::optional<long long> int_param(const Request& req, const char* name, long long min,
                                   long long max, long long fallback, std::string& error) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  bool negative = !text.empty() && text.front() == '-';
  const std::string digits = negative ? text.substr(1) : text;
  long long v = 0;
  bool ok = !digits.empty() && digits.size() <= 15;
  for (char c : digits) {
    if (c < '0' || c > '9') ok = false;
    if (ok) v = v * 10 + (c - '0');
  }
  if (negative) v = -v;
  if (!ok || v < min || v > max) {
    error = std::string("bad ") + name + " '" + text + "' (an integer from " + std::to_string(min) +
            " to " + std::to_string(max) + ")";
    return std::nullopt;
  }
  return v;
}

http::Handler api_handler(Core& core) {
  auto router = std::make_shared<http::Router>();
  auto bind = [&core](void (*handler)(Core&, const Request&, Response&)) {
    return [&core, handler](const Request& req, Response& res) { handler(core, req, res); };
  };
  router->get("/api/health", [&core](const Request& req, Response& res) {
    if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
    health(core, res);
  });
  router->get("/api/events", bind(list_events));
  router->post("/api/events", bind(post_event));
  router->get(R"(/api/events/([^/]+))", bind(get_event));
  router->patch(R"(/api/events/([^/]+))", bind(patch_event));
  router->get(R"(/api/events/([^/]+)/(standings|crosstable|terminations|openings|rounds))",
              bind(event_tables));
  router->post(R"(/api/events/([^/]+)/(pause|resume|cancel))", bind(control));
  router->get("/api/games", bind(list_games));
  router->get(R"(/api/games/([^/]+))", bind(get_game));
  router->get(R"(/api/games/([^/]+)/transcript)", bind(get_transcript));
  router->get(R"(/api/games/([^/]+)/position)", bind(get_position));
  router->get("/api/engines", bind(get_engines));
  router->get("/api/workers", bind(get_workers));
  router->post("/api/engines", bind(post_engine));
  router->post(R"(/api/engines/([^/]+)/retire)", bind(retire));
  router->get("/api/ladder", [&core](const Request& req, Response& res) {
    if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
    reply(res, 200, ladders_json(core));
  });
  install_stream_routes(*router, core);
  install_artifact_routes(*router, core);
  router->get("/", [](const Request&, Response& res) { static_file("index.html", res); });
  router->get("/index.html", [](const Request&, Response& res) { static_file("index.html", res); });
  router->get(R"(/static/(.*))",
              [](const Request& req, Response& res) { static_file(req.matches[1], res); });

  return [&core, router](Request& req, Response& res) {
    // Decided once, before routing; the handlers act on req.who.
    const AccessDecision d = check_access(access_policy(core), access_of(req));
    if (!d.allowed()) {
      core.log->refused(req.method, req.target, d.client, d.error);
      return reply_error(res, d.status, d.error);
    }
    req.who = d.who;
    if (req.phase == http::Phase::Head) return admit_upload(core, req, res);
    try {
      if (!router->dispatch(req, res))
        reply_error(res, 404, "no such endpoint: " + req.method + " " + req.path);
    } catch (const std::exception& e) {
      core.log->error("internal error on " + req.method + " " + req.path + ": " + e.what());
      res = Response{};
      reply_error(res, 500, std::string("internal error: ") + e.what());
    }
  };
}

}  // namespace referee::service
