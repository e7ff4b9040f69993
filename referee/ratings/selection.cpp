#include "ratings/selection.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "games/game.h"
#include "match/time_control.h"

namespace referee::ratings {

namespace {

bool digits(const std::string& s, std::size_t at, std::size_t count, int lo, int hi) {
  if (at + count > s.size()) return false;
  int value = 0;
  for (std::size_t k = at; k < at + count; ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
    value = value * 10 + (s[k] - '0');
  }
  return value >= lo && value <= hi;
}

// YYYY-MM-DD, optionally THH:MM or THH:MM:SS, optionally Z. Returns it without the Z.
Expected<std::string> check_time(const std::string& option, std::string text) {
  const Error bad{"--" + option + " '" + text +
                  "' must be a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MM[:SS]"};
  if (!text.empty() && text.back() == 'Z') text.pop_back();
  const bool date = text.size() >= 10 && digits(text, 0, 4, 0, 9999) && text[4] == '-' &&
                    digits(text, 5, 2, 1, 12) && text[7] == '-' && digits(text, 8, 2, 1, 31);
  if (!date) return bad;
  if (text.size() == 10) return text;
  const bool minutes = text.size() >= 16 && text[10] == 'T' && digits(text, 11, 2, 0, 23) &&
                       text[13] == ':' && digits(text, 14, 2, 0, 59);
  if (minutes && text.size() == 16) return text;
  if (minutes && text.size() == 19 && text[16] == ':' && digits(text, 17, 2, 0, 60)) return text;
  return bad;
}

}  // namespace

std::string canonical_game(const std::string& stored) {
  auto game = games::make_game(stored);
  return game ? game->canonical() : stored;
}

Status normalise_selection(GameSelection& s) {
  if (!s.game.empty()) {
    auto game = games::make_game(s.game);
    if (!game) return Error{"--game: " + game.error()};
    s.game = game->canonical();
  }
  for (auto [option, value] : {std::pair{"since", &s.since}, std::pair{"until", &s.until}}) {
    if (value->empty()) continue;
    auto checked = check_time(option, *value);
    if (!checked) return checked.failure();
    *value = *checked;
  }
  if (!s.since.empty() && !s.until.empty() && s.until < s.since.substr(0, s.until.size()))
    return Error{"--until " + s.until + " is before --since " + s.since};
  if (!s.tc.empty()) {
    auto tc = match::parse_time_control(s.tc);
    if (!tc) return Error{"--tc '" + s.tc + "': " + tc.error()};
    s.tc = tc->to_string();  // as every game is stored
  }
  if (s.min_games < 0) return Error{"--min-games must be 0 or more"};
  return Ok{};
}

Status check_names(const GameSelection& s, const std::vector<storage::GameRecord>& all) {
  std::set<std::string> engines, tournaments, tcs;
  for (const auto& g : all) {
    engines.insert(g.players.begin(), g.players.end());
    tournaments.insert(g.event);
    tcs.insert(g.time_control);
  }
  for (const auto& e : s.engines)
    if (!engines.count(e)) return Error{"--engine: no stored game has an engine named '" + e + "'"};
  if (!s.event_name.empty() && !tournaments.count(s.event_name))
    return Error{"--tournament: no stored game belongs to a tournament named '" + s.event_name +
                 "'"};
  if (!s.tc.empty() && !tcs.count(s.tc))
    return Error{"--tc: no stored game has the time control '" + s.tc + "'"};
  return Ok{};
}

storage::GameQuery game_query(const GameSelection& s,
                              const std::vector<std::string>& stored_games) {
  storage::GameQuery q;
  q.event_name = s.event_name;
  q.engines = s.engines;
  q.since = s.since;
  q.until = s.until;
  q.time_control = s.tc;
  if (!s.game.empty()) {
    q.game_strings.emplace();
    for (const auto& stored : stored_games)
      if (canonical_game(stored) == s.game) q.game_strings->push_back(stored);
  }
  return q;
}

Expected<std::string> name_problem(storage::Store& store, const GameSelection& s) {
  for (const auto& e : s.engines) {
    auto found = storage::has_engine(store, e);
    if (!found) return found.failure();
    if (!*found) return "--engine: no stored game has an engine named '" + e + "'";
  }
  if (!s.event_name.empty()) {
    auto found = storage::has_event_named(store, s.event_name);
    if (!found) return found.failure();
    if (!*found)
      return "--tournament: no stored game belongs to a tournament named '" + s.event_name + "'";
  }
  if (!s.tc.empty()) {
    auto found = storage::has_time_control(store, s.tc);
    if (!found) return found.failure();
    if (!*found) return "--tc: no stored game has the time control '" + s.tc + "'";
  }
  return std::string();
}

SelectionQuery selection_query(storage::Store& store, GameSelection& s) {
  SelectionQuery out;
  auto fail = [&](const std::string& error, bool bad_option) {
    out.error = error;
    out.bad_option = bad_option;
    return out;
  };
  if (auto ok = normalise_selection(s); !ok) return fail(ok.error(), true);
  auto problem = name_problem(store, s);
  if (!problem) return fail(problem.error(), false);
  if (!problem->empty()) return fail(*problem, true);
  std::vector<std::string> stored;
  if (!s.game.empty()) {
    auto strings = storage::stored_game_strings(store);
    if (!strings) return fail(strings.error(), false);
    stored = std::move(*strings);
  }
  out.query = game_query(s, stored);
  return out;
}

std::vector<const storage::GameRecord*> select_games(const std::vector<storage::GameRecord>& all,
                                                     const GameSelection& s) {
  std::map<std::string, std::string> canonical;
  const std::set<std::string> engines(s.engines.begin(), s.engines.end());
  std::vector<const storage::GameRecord*> out;
  for (const auto& g : all) {
    if (!s.event_name.empty() && g.event != s.event_name) continue;
    if (!s.tc.empty() && g.time_control != s.tc) continue;
    if (!s.since.empty() && g.finished_at < s.since) continue;
    if (!s.until.empty() && g.finished_at.substr(0, s.until.size()) > s.until) continue;
    if (engines.size() == 1 &&
        std::find(g.players.begin(), g.players.end(), *engines.begin()) == g.players.end())
      continue;
    if (engines.size() > 1 && !std::all_of(g.players.begin(), g.players.end(),
                                           [&](const auto& p) { return engines.count(p) > 0; }))
      continue;
    if (!s.game.empty()) {
      auto it = canonical.find(g.game);
      if (it == canonical.end()) it = canonical.emplace(g.game, canonical_game(g.game)).first;
      if (it->second != s.game) continue;
    }
    out.push_back(&g);
  }
  return out;
}

int pairwise_games(const storage::GameRecord& game, const std::string& engine) {
  int count = 0;
  for (const auto& a : game.players)
    if (a == engine)
      for (const auto& b : game.players) count += b != engine;
  return count;
}

std::vector<const storage::GameRecord*> drop_rare_engines(
    std::vector<const storage::GameRecord*> games, int min_games) {
  if (min_games <= 0) return games;
  while (true) {
    std::map<std::string, int> count;
    for (const auto* g : games)
      for (const auto& name : std::set<std::string>(g->players.begin(), g->players.end()))
        count[name] += pairwise_games(*g, name);
    std::set<std::string> rare;
    for (const auto& [name, n] : count)
      if (n < min_games) rare.insert(name);
    if (rare.empty()) return games;
    std::erase_if(games, [&](const storage::GameRecord* g) {
      return std::any_of(g->players.begin(), g->players.end(),
                         [&](const auto& p) { return rare.count(p) > 0; });
    });
  }
}

}  // namespace referee::ratings
