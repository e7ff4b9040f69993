#include "event/tournament_config.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "base/input_limits.h"
#include "engines/engine_hash.h"
#include "event/adjudication_settings.h"
#include "event/all_openings.h"
#include "event/schedule.h"
#include "games/game.h"

namespace referee::event {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// What engines::validate checks of an engine: an artifact's engine before resolve_artifacts has
// no command yet (its version's is filled in from the database), so a stand-in takes its place.
engines::EngineConfig unresolved_checked(const TournamentEngine& e) {
  engines::EngineConfig c = e.config;
  if (c.command.empty() && !e.artifact_ref.empty()) c.command = "./artifact";
  return c;
}

// Files read whole: a tournament file or a book. Only regular files (not /dev/zero, not a
// directory), and at most kMaxFileBytes.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

Expected<std::string> read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return Error{"cannot read " + what + " '" + path + "'"};
  if (!fs::is_regular_file(status)) return Error{what + " '" + path + "' is not a regular file"};
  const auto size = fs::file_size(path, ec);
  if (!ec && size > kMaxFileBytes)
    return Error{what + " '" + path + "' has " + std::to_string(size) + " bytes; at most " +
                 std::to_string(kMaxFileBytes) + " are read"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read " + what + " '" + path + "'"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

// TOML is turned into JSON text by toml++'s own formatter, so one validator serves both formats.
Expected<json> parse_tournament_document(const std::string& text, bool is_json,
                                         const std::string& where) {
  if (auto nesting = is_json ? limits::check_json_nesting(text, where)
                             : limits::check_toml_nesting(text, where);
      !nesting)
    return nesting.failure();
  try {
    if (is_json) return json::parse(text);
    toml::table table = toml::parse(text, where);
    std::stringstream as_json;
    as_json << toml::json_formatter{table};
    return json::parse(as_json.str());
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    return Error{where + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                 text::printable(std::string(e.description()))};
  } catch (const json::exception& e) {
    return Error{where + ": not valid JSON: " +
                 limits::shortened(text::printable(e.what()), limits::kMaxNameBytes)};
  }
}

namespace {

#define TRY(expr)                           \
  do {                                      \
    auto status_ = (expr);                  \
    if (!status_) return status_.failure(); \
  } while (false)

// Reads typed keys from one table, remembering which keys were used so unknown ones are errors.
// No text it returns is longer than limits::kMaxTextBytes, or the shorter limit asked for (names,
// limits::kMaxNameBytes), so that the errors quoting them stay short lines.
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
  Status text(const std::string& key, std::string& out,
              std::size_t max_bytes = limits::kMaxTextBytes) {
    if (!has(key)) return Ok{};
    if (!j_[key].is_string()) return Error{where_ + ": '" + key + "' must be a string"};
    TRY(length(key, j_[key], max_bytes));
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
      TRY(length(key, v));
      out = {v.get<std::string>()};
      return Ok{};
    }
    if (!v.is_array()) return Error{where_ + ": '" + key + "' must be a list of strings"};
    out.clear();
    for (const auto& item : v) {
      if (!item.is_string()) return Error{where_ + ": '" + key + "' must be a list of strings"};
      TRY(length(key, item));
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
      TRY(limits::check_length(where_ + ": a name in '" + key + "'", it.key(),
                               limits::kMaxNameBytes));
      TRY(length(key + "." + text::printable(it.key()), x));
      std::string s;
      if (x.is_string())
        s = x.get<std::string>();
      else if (x.is_boolean())
        s = x.get<bool>() ? "true" : "false";
      else if (x.is_number())
        s = x.dump();
      else
        return Error{where_ + ": '" + key + "." + text::printable(it.key()) +
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
      if (!used_.count(it.key()))
        return Error{where_ + ": unknown key '" + text::printable(it.key()) + "'"};
    return Ok{};
  }

 private:
  // Strings only; other values are checked by type.
  Status length(const std::string& key, const json& value,
                std::size_t max_bytes = limits::kMaxTextBytes) const {
    if (!value.is_string()) return Ok{};
    return limits::check_length(where_ + ": '" + key + "'", value.get_ref<const std::string&>(),
                                max_bytes);
  }

  const json& j_;
  std::string where_;
  std::set<std::string> used_;
};

// A host command as written in the file into `c`: split into words, a relative path with a '/'
// ("./bot.js", "bots/x") made absolute against the tournament file's directory like the book, so
// the event's specification names the same file wherever the referee runs (normalized, "./bot.js"
// in "." would be "bot.js", looked up in PATH). A bare name is looked up in PATH.
Status read_host_command(engines::EngineConfig& c, const std::string& who,
                         const std::string& command, const std::vector<std::string>& args,
                         const std::string& dir, const fs::path& base) {
  if (command.empty()) return Error{who + ": 'command' (or 'artifact') is missing"};
  if (!c.sha256.empty() && !engines::is_sha256(c.sha256))
    return Error{who + ": 'sha256' must be 64 hexadecimal digits (sha256sum of the engine)"};
  for (char& ch : c.sha256) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto split = engines::split_command_line(command);
  if (!split) return Error{who + ": " + text::printable(split.error())};
  c.command = split->front();
  c.args.assign(split->begin() + 1, split->end());
  c.args.insert(c.args.end(), args.begin(), args.end());
  if (c.command.find('/') != std::string::npos && fs::path(c.command).is_relative())
    c.command = fs::absolute(base / c.command).lexically_normal().string();
  if (!dir.empty())
    c.working_dir =
        fs::path(dir).is_relative() ? fs::absolute(base / dir).lexically_normal().string() : dir;
  return Ok{};
}

Expected<TournamentEngine> read_engine(const json& j, const std::string& where,
                                       const fs::path& base) {
  Table t(j, where);
  TRY(t.check_object());
  TournamentEngine e;
  auto& c = e.config;
  std::string command, tc, dir;
  std::vector<std::string> args;
  TRY(t.text("name", c.name, limits::kMaxNameBytes));
  TRY(t.text("command", command));
  TRY(t.text("artifact", e.artifact_ref, limits::kMaxNameBytes));
  TRY(t.boolean("sandbox", c.sandbox));
  TRY(t.strings("args", args));
  TRY(t.text("dir", dir));
  TRY(t.text("tc", tc));
  std::vector<std::pair<std::string, std::string>> options, env;
  TRY(t.scalars("options", options));
  TRY(t.scalars("env", env));
  TRY(t.boolean("protocol0", c.protocol0));
  TRY(t.text("sha256", c.sha256));
  const bool has_games = t.has("games");
  TRY(t.strings("games", e.games));
  long long start_ms = c.start_timeout_ms, ready_ms = c.ready_timeout_ms, memory = 0, cpu = 0,
            procs = 0;
  TRY(t.integer("start_timeout_ms", start_ms, 1, 3600000));
  TRY(t.integer("ready_timeout_ms", ready_ms, 1, 3600000));
  TRY(t.integer("memory_mb", memory, 0, 1 << 20));
  TRY(t.integer("cpu_seconds", cpu, 0, 1 << 24));
  TRY(t.integer("processes", procs, 0, 1 << 16));
  TRY(t.no_unknown_keys());
  if (c.name.empty()) c.name = e.artifact_ref;  // `artifact = "mybot@2"` names it mybot@2
  if (c.name.empty()) return Error{where + ": every engine needs a 'name'"};
  const std::string who = where + " (" + text::printable(c.name) + ")";
  if (has_games && e.games.empty()) return Error{who + ": 'games' is empty (leave it out: all)"};
  if (!e.artifact_ref.empty()) {
    // A stored engine's command, files and hash are its version's (artifact_engines.h): the file
    // names none of them; its `args` follow the stored command's words.
    if (!command.empty() || !dir.empty() || !c.sha256.empty())
      return Error{who +
                   ": 'artifact' names a stored engine: leave out 'command', 'dir' and "
                   "'sha256'"};
    c.sandbox = true;
    c.args = args;
  } else {
    TRY(read_host_command(c, who, command, args, dir, base));
  }
  for (auto& [k, v] : options) c.options[k] = v;
  for (auto& [k, v] : env) c.env[k] = v;
  c.start_timeout_ms = start_ms;
  c.ready_timeout_ms = ready_ms;
  c.limits.memory_mb = static_cast<long>(memory);
  c.limits.cpu_seconds = static_cast<long>(cpu);
  c.limits.processes = static_cast<long>(procs);
  // What the process and protocol layers rely on: option names without blanks, no line breaks in
  // what is sent to the engine, environment names without '='.
  if (auto valid = engines::validate(unresolved_checked(e)); !valid)
    return Error{where + ": " + valid.error()};
  if (!tc.empty()) {
    auto parsed = match::parse_time_control(tc);
    if (!parsed) return Error{who + ": " + text::printable(parsed.error())};
    e.tc = *parsed;
  }
  return e;
}

// A move or line quoted in an error: printable, and cut short.
std::string quoted(const std::string& text, std::size_t max = 40) {
  const std::string shown = text::printable(text);
  return "'" + (shown.size() > max ? shown.substr(0, max) + "..." : shown) + "'";
}

// The first control byte of a book line (tab aside), if any.
std::optional<unsigned char> control_byte(const std::string& line) {
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) return u;
  }
  return std::nullopt;
}

// Replays one book line in one game: empty when it is a playable opening, else why not.
std::string replay_error(const games::Game& game, const std::vector<std::string>& moves) {
  games::State state = game.initial_state();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (state.is_terminal())
      return "the game " + game.canonical() + " is over after move " + std::to_string(i) + "; " +
             quoted(moves[i]) + " cannot follow";
    auto applied = state.apply(moves[i]);
    if (!applied)
      return "move " + std::to_string(i + 1) + " " + quoted(moves[i]) + " is illegal in " +
             game.canonical() + " (" + text::printable(applied.error()) + ")";
  }
  if (state.is_terminal())
    return "the line ends the game of " + game.canonical() + "; an opening must leave it going";
  return "";
}

#define TRY_ASSIGN(var, expr) \
  auto var = (expr);          \
  if (!var) return Error {    \
      var.error()             \
    }

}  // namespace

Expected<std::vector<std::string>> canonical_games(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (auto n = limits::check_length("a game", specs[i], limits::kMaxNameBytes); !n)
      return n.failure();
    auto game = games::make_game(specs[i]);
    if (!game) return Error{text::printable(game.error())};
    for (std::size_t j = 0; j < out.size(); ++j)
      if (out[j] == game->canonical())
        return Error{"games " + quoted(specs[j], 200) + " and " + quoted(specs[i], 200) +
                     " are the same game (" + game->canonical() + ")"};
    out.push_back(game->canonical());
  }
  return out;
}

Expected<std::vector<std::vector<std::string>>> read_book(const std::string& path,
                                                          const std::vector<std::string>& specs) {
  TRY_ASSIGN(text, read_text_file(path, "opening book"));
  std::vector<games::Game> games;
  for (const auto& spec : specs) {
    TRY_ASSIGN(game, games::make_game(spec));
    games.push_back(*game);
  }
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(*text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (auto byte = control_byte(line)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(*byte));
      return Error{where + "not a line of text (control byte " + hex + ")"};
    }
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> moves;
    for (std::string w; words >> w;) moves.push_back(w);
    if (moves.empty()) continue;
    for (const auto& game : games)
      if (auto why = replay_error(game, moves); !why.empty()) return Error{where + why};
    lines.push_back(std::move(moves));
  }
  if (lines.empty()) return Error{"opening book '" + path + "' has no openings"};
  return lines;
}

bool has_rounds(const TournamentConfig& config) {
  return config.format == "knockout" || config.format == "swiss";
}

namespace {

// What knockout and swiss events require beyond the rest (see the header of event/pairing.h).
Status check_rounds_format(const TournamentConfig& config) {
  const std::string& f = config.format;
  if (!has_rounds(config)) return Ok{};
  for (const auto& spec : config.games) {
    TRY_ASSIGN(game, games::make_game(spec));
    if (game->num_players() != 2)
      return Error{"format " + f + " is for two-player games; " + game->name() + " has " +
                   std::to_string(game->num_players()) + " players here"};
  }
  if (config.cycles != 1)
    return Error{"format " + f + " plays no cycles (its rounds are " +
                 (f == "swiss" ? std::string("'[swiss] rounds'") : "the bracket's") + ")"};
  if (config.openings.per_pairing != 1)
    return Error{"format " + f + " plays one opening per game pair: per_pairing must be 1" +
                 (f == "knockout" ? " (a match's length is '[knockout] pairs')" : "")};
  if (config.sprt) return Error{"format " + f + " has no sprt test"};
  if (config.openings.all_plies > 0)
    return Error{"format " + f +
                 " draws each game pair's opening: all_plies is for round-robin "
                 "and gauntlet events"};
  for (const auto& e : config.engines)
    if (!e.games.empty())
      return Error{"engine " + quoted(e.config.name) + ": 'games' is not allowed in format " + f +
                   " (every engine plays every game of the event)"};
  if (f == "swiss") {
    if (config.swiss.rounds < 1 || config.swiss.rounds > kMaxSwissRounds)
      return Error{"[swiss] rounds must be from 1 to " + std::to_string(kMaxSwissRounds) +
                   ", not " + std::to_string(config.swiss.rounds)};
    return Ok{};
  }
  const auto& k = config.knockout;
  if (k.seeding != "file" && k.seeding != "rating")
    return Error{"[knockout] seeding must be file or rating, not " + quoted(k.seeding)};
  if (k.pairs < 1 || k.pairs > kMaxMatchPairs)
    return Error{"[knockout] pairs must be from 1 to " + std::to_string(kMaxMatchPairs) + ", not " +
                 std::to_string(k.pairs)};
  if (k.tiebreak_pairs < 0 || k.tiebreak_pairs > kMaxMatchPairs)
    return Error{"[knockout] tiebreak_pairs must be from 0 to " + std::to_string(kMaxMatchPairs) +
                 ", not " + std::to_string(k.tiebreak_pairs)};
  if (!k.seeds.empty()) {
    std::vector<std::string> a = k.seeds, b;
    for (const auto& e : config.engines) b.push_back(e.config.name);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) return Error{"the knockout's seeds are not the event's engines"};
  }
  return Ok{};
}

}  // namespace

Status check_tournament(const TournamentConfig& config) {
  if (config.name.empty()) return Error{"the event has no name"};
  TRY(limits::check_length("the event's 'name'", config.name, limits::kMaxNameBytes));
  TRY(limits::check_length("'database'", config.database, limits::kMaxTextBytes));
  TRY(limits::check_length("the opening book's path", config.openings.book, limits::kMaxTextBytes));
  if (config.format != "round-robin" && config.format != "gauntlet" && !has_rounds(config))
    return Error{"format must be round-robin, gauntlet, knockout or swiss, not " +
                 quoted(config.format)};
  if (config.database.empty() || text::printable(config.database) != config.database)
    return Error{"bad database path " + quoted(config.database, 200)};
  if (config.games.empty()) return Error{"no games"};
  TRY(canonical_games(config.games));
  auto range = [](const char* what, long long v, long long lo, long long hi) -> Status {
    if (v >= lo && v <= hi) return Ok{};
    return Error{std::string(what) + " must be from " + std::to_string(lo) + " to " +
                 std::to_string(hi) + ", not " + std::to_string(v)};
  };
  TRY(range("cycles", config.cycles, 1, kMaxCycles));
  TRY(range("concurrency", config.concurrency, 0, kMaxConcurrency));
  TRY(range("max_crashes", config.max_crashes, 1, 1000000));
  TRY(range("random_plies", config.openings.random_plies, 0, kMaxRandomPlies));
  TRY(range("per_pairing", config.openings.per_pairing, 1, kMaxPerPairing));
  TRY(range("all_plies", config.openings.all_plies, 0, kMaxAllPlies));
  if (config.openings.all_plies > 0 &&
      (config.openings.random_plies > 0 || !config.openings.book_lines.empty() ||
       !config.openings.book.empty() || config.openings.per_pairing != 1))
    return Error{"all_plies plays every opening: it excludes random_plies, book and per_pairing"};
  if (config.engines.size() < 2) return Error{"a tournament needs at least two engines"};
  std::set<std::string> names;
  for (const auto& e : config.engines) {
    TRY(engines::validate(unresolved_checked(e)));
    if (!names.insert(e.config.name).second)
      return Error{"two engines are named " + quoted(e.config.name)};
    for (const auto& game : e.games)
      if (std::find(config.games.begin(), config.games.end(), game) == config.games.end())
        return Error{"engine " + quoted(e.config.name) + ": 'games' lists " + quoted(game, 200) +
                     ", not one of the event's games"};
  }
  // After the engines: match's event name is made of their names.
  if (text::printable(config.name) != config.name)
    return Error{"the event's name " + quoted(config.name) + " holds a control character"};
  if (config.sprt) {
    if (config.engines.size() != 2)
      return Error{"an sprt event needs exactly two engines, not " +
                   std::to_string(config.engines.size())};
    if (auto ok = ratings::validate_sprt(*config.sprt); !ok) return Error{"sprt: " + ok.error()};
  }
  TRY(check_rounds_format(config));
  TRY(match::check_adjudication(config.adjudication, 2));
  for (const auto& spec : config.games) {
    TRY_ASSIGN(game, games::make_game(spec));
    if (config.adjudication.any() && game->num_players() != 2)
      return Error{"adjudication is for two-player games; " + game->canonical() + " has " +
                   std::to_string(game->num_players()) + " players"};
  }
  TRY(check_schedule_size(config));
  for (const auto& spec : config.games) {
    TRY_ASSIGN(game, games::make_game(spec));
    TRY(check_random_plies(*game, config.openings));
  }
  return Ok{};
}

Expected<TournamentConfig> load_tournament_file(const std::string& path) {
  TRY_ASSIGN(text, read_text_file(path, "tournament file"));
  return parse_tournament(*text, path);
}

Expected<TournamentConfig> parse_tournament(const std::string& text, const std::string& path) {
  const fs::path base =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  return load_tournament_text(text, fs::path(path).extension() == ".json", path, base.string());
}

Expected<TournamentConfig> load_tournament_text(const std::string& text, bool is_json,
                                                const std::string& path,
                                                const std::string& base_dir) {
  TRY_ASSIGN(doc, parse_tournament_document(text, is_json, path));
  const fs::path base = base_dir.empty() ? fs::path(".") : fs::path(base_dir);
  TournamentConfig config;
  config.source = path;
  Table t(*doc, path);
  TRY(t.check_object());
  TRY(t.text("name", config.name, limits::kMaxNameBytes));
  TRY(t.text("database", config.database));
  TRY(t.text("format", config.format));
  TRY(t.strings("games", config.games));
  std::string tc_text;
  TRY(t.text("tc", tc_text));
  long long cycles = config.cycles, concurrency = config.concurrency, seed = 1,
            crashes = config.max_crashes;
  TRY(t.integer("cycles", cycles, 1, kMaxCycles));
  TRY(t.integer("concurrency", concurrency, 0, kMaxConcurrency));
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
    long long plies = 0, per = 1, all = 0;
    TRY(ot.integer("random_plies", plies, 0, kMaxRandomPlies));
    TRY(ot.integer("per_pairing", per, 1, kMaxPerPairing));
    TRY(ot.integer("all_plies", all, 1, kMaxAllPlies));
    TRY(ot.text("book", config.openings.book));
    TRY(ot.no_unknown_keys());
    config.openings.random_plies = static_cast<int>(plies);
    config.openings.per_pairing = static_cast<int>(per);
    config.openings.all_plies = static_cast<int>(all);
  }
  if (const json* table = t.sub("sprt")) {
    auto sprt = ratings::parse_sprt_config(*table, path + ": sprt");
    if (!sprt) return sprt.failure();
    config.sprt = *sprt;
  }
  const json* knockout = t.sub("knockout");
  if (knockout) {
    Table kt(*knockout, path + ": [knockout]");
    TRY(kt.check_object());
    long long pairs = 1, extra = 0;
    TRY(kt.text("seeding", config.knockout.seeding));
    TRY(kt.integer("pairs", pairs, 1, kMaxMatchPairs));
    TRY(kt.integer("tiebreak_pairs", extra, 0, kMaxMatchPairs));
    TRY(kt.no_unknown_keys());
    if (config.knockout.seeding != "file" && config.knockout.seeding != "rating")
      return Error{path + ": [knockout]: 'seeding' must be file or rating, not '" +
                   text::printable(config.knockout.seeding) + "'"};
    config.knockout.pairs = static_cast<int>(pairs);
    config.knockout.tiebreak_pairs = static_cast<int>(extra);
  }
  const json* swiss = t.sub("swiss");
  if (swiss) {
    Table st(*swiss, path + ": [swiss]");
    TRY(st.check_object());
    long long rounds = 0;
    if (!st.has("rounds")) return Error{path + ": [swiss]: 'rounds' is missing"};
    TRY(st.integer("rounds", rounds, 1, kMaxSwissRounds));
    TRY(st.no_unknown_keys());
    config.swiss.rounds = static_cast<int>(rounds);
  }
  if (const json* table = t.sub("adjudication")) {
    auto rules = parse_adjudication(*table, path + ": adjudication");
    if (!rules) return rules.failure();
    config.adjudication = *rules;
    TRY_ASSIGN(egdb, read_egdb_key(*table, path + ": adjudication"));
    if (*egdb) {
      fs::path file = **egdb;
      if (file.is_relative()) file = base / file;
      auto pinned = pin_table(fs::absolute(file).lexically_normal().string());
      if (!pinned) return Error{path + ": adjudication.egdb: " + pinned.error(), pinned.kind()};
      config.egdb = pinned->first;
      config.egdb_table = pinned->second;
    }
  }
  long long max_games = 0;
  TRY(t.integer("max_games", max_games, 1, kMaxScheduleSlots));
  const json* engines = t.sub("engine");
  TRY(t.no_unknown_keys());
  if (max_games > 0 && !config.sprt)
    return Error{path + ": 'max_games' goes with an 'sprt' table (other events play 'cycles')"};
  if (max_games > 0 && t.has("cycles"))
    return Error{path + ": give 'cycles' or 'max_games', not both"};
  if (config.name.empty()) return Error{path + ": 'name' is missing"};
  if (config.format != "round-robin" && config.format != "gauntlet" && !has_rounds(config))
    return Error{path + ": 'format' must be round-robin, gauntlet, knockout or swiss, not '" +
                 text::printable(config.format) + "'"};
  if (has_rounds(config) && t.has("cycles"))
    return Error{path + ": 'cycles' is not a key of format " + config.format};
  if (knockout && config.format != "knockout")
    return Error{path + ": '[knockout]' goes with format = \"knockout\""};
  if (swiss && config.format != "swiss")
    return Error{path + ": '[swiss]' goes with format = \"swiss\""};
  if (config.format == "swiss" && !swiss)
    return Error{path + ": format swiss needs '[swiss] rounds'"};
  if (config.games.empty()) return Error{path + ": 'games' is missing or empty"};
  auto games = canonical_games(config.games);
  if (!games) return Error{path + ": " + games.error()};
  config.games = *games;
  // The book is replayed through the games, so it is read once they are known.
  if (!config.openings.book.empty()) {
    fs::path book = config.openings.book;
    if (book.is_relative()) book = base / book;
    TRY_ASSIGN(lines, read_book(book.string(), config.games));
    config.openings.book_lines = std::move(*lines);
  }
  if (tc_text.empty()) return Error{path + ": 'tc' (time control) is missing"};
  auto tc = match::parse_time_control(tc_text);
  if (!tc) return Error{path + ": " + text::printable(tc.error())};
  config.tc = *tc;
  if (!engines || !engines->is_array()) return Error{path + ": needs [[engine]] tables"};
  std::set<std::string> names;
  for (std::size_t i = 0; i < engines->size(); ++i) {
    auto e = read_engine((*engines)[i], path + ": engine " + std::to_string(i + 1), base);
    if (!e) return e.failure();
    if (!names.insert(e->config.name).second)
      return Error{path + ": two engines are named '" + e->config.name + "'"};
    if (!e->games.empty()) {
      auto own = canonical_games(e->games);
      if (!own)
        return Error{path + ": engine " + std::to_string(i + 1) + " (" +
                     text::printable(e->config.name) + "): 'games': " + own.error()};
      e->games = *own;
    }
    config.engines.push_back(std::move(*e));
  }
  if (config.engines.size() < 2) return Error{path + ": a tournament needs at least two engines"};
  if (max_games > 0) {
    // The cycles that hold at least max_games games (a cycle plays every opening twice).
    TournamentConfig one = config;
    one.cycles = 1;
    auto per_cycle = schedule_size(one);
    if (!per_cycle) return Error{path + ": " + per_cycle.error()};
    if (*per_cycle > 0)
      config.cycles = static_cast<int>(
          std::min<long long>(kMaxCycles, (max_games + *per_cycle - 1) / *per_cycle));
  }
  if (auto checked = check_tournament(config); !checked)
    return Error{path + ": " + checked.error()};
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
  if (config.openings.all_plies > 0) j["all_plies"] = config.openings.all_plies;  // only then:
  // the fingerprints of other events unchanged
  std::vector<std::string> names;
  json own = json::object();
  for (const auto& e : config.engines) {
    names.push_back(e.config.name);
    if (!e.games.empty()) own[e.config.name] = e.games;
  }
  j["engines"] = names;
  // Only for these formats: the fingerprints of the others unchanged.
  if (config.format == "knockout")
    j["knockout"] = {{"pairs", config.knockout.pairs},
                     {"tiebreak_pairs", config.knockout.tiebreak_pairs},
                     {"seeding", config.knockout.seeding}};
  if (config.format == "swiss") j["swiss"] = {{"rounds", config.swiss.rounds}};
  if (!own.empty()) j["engine_games"] = own;  // only then: the fingerprints of others unchanged
  // Only then too: it decides how games end, so a resume under other rules is another event.
  if (config.adjudication.any()) j["adjudication"] = adjudication_json(config.adjudication);
  if (config.egdb)
    j["adjudication"]["egdb"] = {{"path", config.egdb->path},
                                 {"checksum", checksum_text(config.egdb->checksum)}};
  return j.dump();
}

}  // namespace referee::event
