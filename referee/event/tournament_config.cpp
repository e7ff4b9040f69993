#include "event/tournament_config.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "games/game.h"

namespace referee {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// TOML is turned into JSON text by toml++'s own formatter, so one validator serves both formats.
Expected<json> parse_document(const std::string& text, bool is_json, const std::string& where) {
  try {
    if (is_json) return json::parse(text);
    toml::table table = toml::parse(text, where);
    std::stringstream as_json;
    as_json << toml::json_formatter{table};
    return json::parse(as_json.str());
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    return Error{where + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                 std::string(e.description())};
  } catch (const json::exception& e) {
    return Error{where + ": not valid JSON: " + e.what()};
  }
}

// Reads typed keys from one table, remembering which keys were used so unknown ones are errors.
class Table {
 public:
  Table(const json& j, std::string where) : j_(j), where_(std::move(where)) {}

  Status check_object() const {
    if (!j_.is_object()) return Error{where_ + " must be a table"};
    return Ok{};
  }
  bool has(const std::string& key) {
    used_.insert(key);
    return j_.contains(key);
  }
  Status text(const std::string& key, std::string& out) {
    if (!has(key)) return Ok{};
    if (!j_[key].is_string()) return Error{where_ + ": '" + key + "' must be a string"};
    out = j_[key].get<std::string>();
    return Ok{};
  }
  Status integer(const std::string& key, long long& out, long long min, long long max) {
    if (!has(key)) return Ok{};
    if (!j_[key].is_number_integer()) return Error{where_ + ": '" + key + "' must be an integer"};
    auto v = j_[key].get<long long>();
    if (v < min || v > max)
      return Error{where_ + ": '" + key + "' must be from " + std::to_string(min) + " to " +
                   std::to_string(max)};
    out = v;
    return Ok{};
  }
  Status boolean(const std::string& key, bool& out) {
    if (!has(key)) return Ok{};
    if (!j_[key].is_boolean()) return Error{where_ + ": '" + key + "' must be true or false"};
    out = j_[key].get<bool>();
    return Ok{};
  }
  Status strings(const std::string& key, std::vector<std::string>& out) {
    if (!has(key)) return Ok{};
    const auto& v = j_[key];
    if (v.is_string()) {
      out = {v.get<std::string>()};
      return Ok{};
    }
    if (!v.is_array()) return Error{where_ + ": '" + key + "' must be a list of strings"};
    out.clear();
    for (const auto& item : v) {
      if (!item.is_string()) return Error{where_ + ": '" + key + "' must be a list of strings"};
      out.push_back(item.get<std::string>());
    }
    return Ok{};
  }
  // A table of scalars rendered as strings (engine options, environment).
  Status scalars(const std::string& key, std::vector<std::pair<std::string, std::string>>& out) {
    if (!has(key)) return Ok{};
    const auto& v = j_[key];
    if (!v.is_object()) return Error{where_ + ": '" + key + "' must be a table"};
    for (auto it = v.begin(); it != v.end(); ++it) {
      const auto& x = it.value();
      std::string s;
      if (x.is_string())
        s = x.get<std::string>();
      else if (x.is_boolean())
        s = x.get<bool>() ? "true" : "false";
      else if (x.is_number())
        s = x.dump();
      else
        return Error{where_ + ": '" + key + "." + it.key() +
                     "' must be a string, number or boolean"};
      out.emplace_back(it.key(), s);
    }
    return Ok{};
  }
  const json* sub(const std::string& key) {
    if (!has(key)) return nullptr;
    return &j_[key];
  }
  Status no_unknown_keys() const {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!used_.count(it.key())) return Error{where_ + ": unknown key '" + it.key() + "'"};
    return Ok{};
  }

 private:
  const json& j_;
  std::string where_;
  std::set<std::string> used_;
};

#define TRY(expr)                                \
  do {                                           \
    auto status_ = (expr);                       \
    if (!status_) return Error{status_.error()}; \
  } while (false)

Expected<TournamentEngine> read_engine(const json& j, const std::string& where,
                                       const fs::path& base) {
  Table t(j, where);
  TRY(t.check_object());
  TournamentEngine e;
  auto& c = e.config;
  std::string command, tc, dir;
  std::vector<std::string> args;
  TRY(t.text("name", c.name));
  TRY(t.text("command", command));
  TRY(t.strings("args", args));
  TRY(t.text("dir", dir));
  TRY(t.text("tc", tc));
  std::vector<std::pair<std::string, std::string>> options, env;
  TRY(t.scalars("options", options));
  TRY(t.scalars("env", env));
  TRY(t.boolean("protocol0", c.protocol0));
  long long start_ms = c.start_timeout_ms, ready_ms = c.ready_timeout_ms, memory = 0, cpu = 0,
            procs = 0;
  TRY(t.integer("start_timeout_ms", start_ms, 1, 3600000));
  TRY(t.integer("ready_timeout_ms", ready_ms, 1, 3600000));
  TRY(t.integer("memory_mb", memory, 0, 1 << 20));
  TRY(t.integer("cpu_seconds", cpu, 0, 1 << 24));
  TRY(t.integer("processes", procs, 0, 1 << 16));
  TRY(t.no_unknown_keys());
  if (c.name.empty()) return Error{where + ": every engine needs a 'name'"};
  if (command.empty()) return Error{where + " (" + c.name + "): 'command' is missing"};
  auto split = engines::split_command_line(command);
  if (!split) return Error{where + " (" + c.name + "): " + split.error()};
  c.command = split->front();
  c.args.assign(split->begin() + 1, split->end());
  c.args.insert(c.args.end(), args.begin(), args.end());
  // A relative command with a '/' is relative to the tournament file, like the book.
  if (c.command.find('/') != std::string::npos && fs::path(c.command).is_relative())
    c.command = (base / c.command).lexically_normal().string();
  if (!dir.empty()) c.working_dir = fs::path(dir).is_relative() ? (base / dir).string() : dir;
  for (auto& [k, v] : options) c.options[k] = v;
  for (auto& [k, v] : env) c.env[k] = v;
  c.start_timeout_ms = start_ms;
  c.ready_timeout_ms = ready_ms;
  c.limits.memory_mb = static_cast<long>(memory);
  c.limits.cpu_seconds = static_cast<long>(cpu);
  c.limits.processes = static_cast<long>(procs);
  // What the process and protocol layers rely on: option names without blanks, no line breaks in
  // what is sent to the engine, environment names without '='.
  if (auto valid = engines::validate(c); !valid) return Error{where + ": " + valid.error()};
  if (!tc.empty()) {
    auto parsed = parse_time_control(tc);
    if (!parsed) return Error{where + " (" + c.name + "): " + parsed.error()};
    e.tc = *parsed;
  }
  return e;
}

Status read_book(const std::string& path, OpeningSettings& openings) {
  std::ifstream in(path);
  if (!in) return Error{"cannot read opening book '" + path + "'"};
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> moves;
    for (std::string w; words >> w;) moves.push_back(w);
    if (!moves.empty()) openings.book_lines.push_back(std::move(moves));
  }
  if (openings.book_lines.empty()) return Error{"opening book '" + path + "' has no openings"};
  return Ok{};
}

}  // namespace

Expected<TournamentConfig> load_tournament_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{"cannot read tournament file '" + path + "'"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  const fs::path base =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  return load_tournament_text(buffer.str(), fs::path(path).extension() == ".json", path,
                              base.string());
}

Expected<TournamentConfig> load_tournament_text(const std::string& text, bool is_json,
                                                const std::string& path,
                                                const std::string& base_dir) {
  auto doc = parse_document(text, is_json, path);
  if (!doc) return Error{doc.error()};
  const fs::path base = base_dir.empty() ? fs::path(".") : fs::path(base_dir);
  TournamentConfig config;
  config.source = path;
  Table t(*doc, path);
  TRY(t.check_object());
  TRY(t.text("name", config.name));
  TRY(t.text("database", config.database));
  TRY(t.text("format", config.format));
  TRY(t.strings("games", config.games));
  TRY(t.text("tc", config.tc_text));
  long long cycles = config.cycles, concurrency = config.concurrency, seed = 1,
            crashes = config.max_crashes;
  TRY(t.integer("cycles", cycles, 1, 100000));
  TRY(t.integer("concurrency", concurrency, 0, 256));
  TRY(t.integer("seed", seed, 0, (1LL << 62)));
  TRY(t.integer("max_crashes", crashes, 1, 1000000));
  TRY(t.boolean("withdraw_on_time", config.withdraw_on_time));
  config.cycles = static_cast<int>(cycles);
  config.concurrency = static_cast<int>(concurrency);
  config.seed = static_cast<unsigned long long>(seed);
  config.max_crashes = static_cast<int>(crashes);
  if (const json* o = t.sub("openings")) {
    Table ot(*o, path + ": [openings]");
    TRY(ot.check_object());
    long long plies = 0, per = 1;
    TRY(ot.integer("random_plies", plies, 0, 1000));
    TRY(ot.integer("per_pairing", per, 1, 10000));
    TRY(ot.text("book", config.openings.book));
    TRY(ot.no_unknown_keys());
    config.openings.random_plies = static_cast<int>(plies);
    config.openings.per_pairing = static_cast<int>(per);
    if (!config.openings.book.empty()) {
      fs::path book = config.openings.book;
      if (book.is_relative()) book = base / book;
      TRY(read_book(book.string(), config.openings));
    }
  }
  const json* engines = t.sub("engine");
  TRY(t.no_unknown_keys());
  if (config.name.empty()) return Error{path + ": 'name' is missing"};
  if (config.format != "round-robin" && config.format != "gauntlet")
    return Error{path + ": 'format' must be round-robin or gauntlet, not '" + config.format + "'"};
  if (config.games.empty()) return Error{path + ": 'games' is missing or empty"};
  for (auto& g : config.games) {
    auto game = games::make_game(g);
    if (!game) return Error{path + ": " + game.error()};
    g = game->canonical();
  }
  if (config.tc_text.empty()) return Error{path + ": 'tc' (time control) is missing"};
  auto tc = parse_time_control(config.tc_text);
  if (!tc) return Error{path + ": " + tc.error()};
  config.tc = *tc;
  if (!engines || !engines->is_array()) return Error{path + ": needs [[engine]] tables"};
  std::set<std::string> names;
  for (std::size_t i = 0; i < engines->size(); ++i) {
    auto e = read_engine((*engines)[i], path + ": engine " + std::to_string(i + 1), base);
    if (!e) return Error{e.error()};
    if (!names.insert(e->config.name).second)
      return Error{path + ": two engines are named '" + e->config.name + "'"};
    config.engines.push_back(std::move(*e));
  }
  if (config.engines.size() < 2) return Error{path + ": a tournament needs at least two engines"};
  return config;
}

std::string schedule_fingerprint(const TournamentConfig& config) {
  json j;
  j["format"] = config.format;
  j["games"] = config.games;
  j["cycles"] = config.cycles;
  j["seed"] = config.seed;
  j["random_plies"] = config.openings.random_plies;
  j["per_pairing"] = config.openings.per_pairing;
  j["book"] = config.openings.book_lines;
  std::vector<std::string> names;
  for (const auto& e : config.engines) names.push_back(e.config.name);
  j["engines"] = names;
  return j.dump();
}

}  // namespace referee
