#include "games/game.h"

#include <algorithm>
#include <stdexcept>

#include "games/core.h"
#include "games/registry.h"

namespace referee::games {

const std::string& Params::text(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::out_of_range("undeclared game parameter '" + key + "'");
  return it->second;
}

long Params::number(const std::string& key) const {
  return std::stol(text(key));
}

Outcome rank_by_score(std::vector<double> scores, std::string reason, bool lower_wins) {
  Outcome o;
  o.ranks.resize(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    int better = 0;
    for (std::size_t j = 0; j < scores.size(); ++j)
      better += lower_wins ? scores[j] < scores[i] : scores[j] > scores[i];
    o.ranks[i] = better + 1;
  }
  o.scores = std::move(scores);
  o.reason = std::move(reason);
  return o;
}

Outcome win_for(int winner, int players, std::vector<double> scores, std::string reason) {
  Outcome o;
  o.ranks.assign(static_cast<std::size_t>(players), 2);
  o.ranks[static_cast<std::size_t>(winner - 1)] = 1;
  o.scores = std::move(scores);
  if (o.scores.empty()) o.scores.assign(static_cast<std::size_t>(players), 0.0);
  o.reason = std::move(reason);
  return o;
}

std::optional<long> parse_count(std::string_view text, long max) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  if (text.size() > 1 && text[0] == '0') return std::nullopt;
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

std::string join_counts(const std::vector<int>& values, char sep) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += sep;
    out += std::to_string(values[i]);
  }
  return out;
}

namespace detail {
Expected<PositionParts> split_position(std::string_view position) {
  auto last = position.rfind(':');
  if (last == std::string_view::npos)
    return Error{"position '" + std::string(position) +
                 "' lacks ':<quiet plies>:<ply>' at its end"};
  auto before = position.rfind(':', last == 0 ? 0 : last - 1);
  if (before == std::string_view::npos || before == last)
    return Error{"position '" + std::string(position) +
                 "' lacks ':<quiet plies>:<ply>' at its end"};
  auto quiet = parse_count(position.substr(before + 1, last - before - 1), 1000000);
  auto ply = parse_count(position.substr(last + 1), 1000000);
  if (!quiet || !ply)
    return Error{"position '" + std::string(position) +
                 "': the last two fields must be the plies " +
                 "without capture and the ply number"};
  return PositionParts{position.substr(0, before), static_cast<int>(*quiet),
                       static_cast<int>(*ply)};
}
}  // namespace detail

// ---- State forwarding ----
State::State(std::unique_ptr<detail::StateConcept> impl) : impl_(std::move(impl)) {}
State::State(const State& other) : impl_(other.impl_->clone()) {}
State& State::operator=(const State& other) {
  if (this != &other) impl_ = other.impl_->clone();
  return *this;
}
State::State(State&&) noexcept = default;
State& State::operator=(State&&) noexcept = default;
State::~State() = default;

int State::num_players() const {
  return impl_->num_players();
}
int State::current_player() const {
  return impl_->current_player();
}
bool State::is_terminal() const {
  return impl_->is_terminal();
}
std::vector<std::string> State::legal_moves() const {
  return impl_->legal_moves();
}
std::string State::setup_form() const {
  return impl_->setup_form();
}
bool State::is_forced() const {
  return impl_->is_forced();
}
Status State::apply(std::string_view move) {
  return impl_->apply(move);
}
Outcome State::outcome() const {
  return impl_->outcome();
}
Status State::agree_to_end() {
  if (impl_->is_terminal()) return Error{"the game is over"};
  if (!impl_->agree()) return Error{"this game has no agreed end"};
  return Ok{};
}
bool State::last_move_captured() const {
  return impl_->last_move_captured();
}
int State::ply() const {
  return impl_->ply();
}
int State::plies_without_capture() const {
  return impl_->plies_without_capture();
}
std::string State::to_string() const {
  return impl_->to_string();
}
std::string State::draw(BoardWords words) const {
  return impl_->draw(words);
}
std::uint64_t State::hash() const {
  return impl_->hash();
}
std::uint64_t State::perft(int depth) const {
  return impl_->perft(depth);
}
std::vector<double> State::material() const {
  return impl_->material();
}
std::string State::sample_setup(std::uint64_t seed) const {
  return impl_->sample_setup(seed);
}
int State::round() const {
  return impl_->round();
}
BoardView State::view() const {
  return impl_->view();
}
bool State::operator==(const State& other) const {
  return impl_->equals(*other.impl_);
}

// ---- Game forwarding ----
const std::string& Game::name() const {
  return impl_->name;
}
const std::string& Game::canonical() const {
  return impl_->canonical;
}
const Params& Game::params() const {
  return impl_->setup.params;
}
int Game::num_players() const {
  return impl_->players;
}
int Game::max_plies() const {
  return impl_->setup.maxplies;
}
State Game::initial_state() const {
  return impl_->initial_state();
}
Expected<State> Game::parse_state(std::string_view position) const {
  return impl_->parse_state(position);
}

namespace {

std::string known_games() {
  std::string out;
  for (const auto& e : registry()) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

std::optional<std::string> check_value(const ParamSpec& spec, const std::string& value) {
  if (!spec.choices.empty()) {
    if (std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end())
      return std::nullopt;
    std::string list;
    for (const auto& c : spec.choices) list += (list.empty() ? "" : "|") + c;
    return "must be one of " + list;
  }
  auto n = parse_count(value);
  if (!n || *n < spec.min || *n > spec.max)
    return "must be an integer from " + std::to_string(spec.min) + " to " +
           std::to_string(spec.max);
  return std::nullopt;
}

}  // namespace

Expected<Game> make_game(std::string_view spec) {
  auto colon = spec.find(':');
  std::string name(spec.substr(0, colon));
  const GameEntry* entry = find_entry(name);
  if (!entry) return Error{"unknown game '" + name + "' (known: " + known_games() + ")"};
  auto specs = all_params(*entry);
  std::map<std::string, std::string> values;
  if (colon != std::string_view::npos) {
    for (auto item : split(spec.substr(colon + 1), ',')) {
      auto eq = item.find('=');
      std::string key(item.substr(0, eq));
      auto it = std::find_if(specs.begin(), specs.end(), [&](auto& p) { return p.key == key; });
      if (eq == std::string_view::npos || it == specs.end()) {
        std::string keys;
        for (const auto& p : specs) keys += (keys.empty() ? "" : ", ") + p.key;
        return Error{"game '" + entry->name + "': unknown parameter '" + std::string(item) +
                     "' (parameters: " + keys + ")"};
      }
      std::string value(item.substr(eq + 1));
      if (auto why = check_value(*it, value))
        return Error{"game '" + entry->name + "': parameter " + key + "=" + value + " " + *why};
      if (values.count(key))
        return Error{"game '" + entry->name + "': parameter " + key + " given twice"};
      values[key] = value;
    }
  }
  std::string canonical = entry->name;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto& v = values.try_emplace(specs[i].key, specs[i].default_value).first->second;
    canonical += (i ? "," : ":") + specs[i].key + "=" + v;
  }
  GameSetup setup;
  setup.name = entry->name;
  setup.params = Params(values);
  setup.first = static_cast<int>(setup.params.number("first"));
  setup.nocapture = static_cast<int>(setup.params.number("nocapture"));
  setup.maxplies = static_cast<int>(setup.params.number("maxplies"));
  auto model = entry->factory(setup);
  if (setup.first > model->players)
    return Error{"game '" + entry->name + "': first=" + std::to_string(setup.first) +
                 " but the game has " + std::to_string(model->players) + " players"};
  model->name = entry->name;
  model->canonical = canonical;
  model->identity = std::make_shared<const std::string>(canonical);
  return Game(std::shared_ptr<const detail::GameConcept>(std::move(model)));
}

Expected<State> state_after(const Game& game, std::string_view position,
                            const std::vector<std::string>& moves) {
  State state = game.initial_state();
  if (!position.empty()) {
    auto parsed = game.parse_state(position);
    if (!parsed) return parsed.failure();
    state = std::move(*parsed);
  }
  for (std::size_t i = 0; i < moves.size(); ++i) {
    auto status = state.apply(moves[i]);
    if (!status)
      return Error{"move " + std::to_string(i + 1) + " '" + moves[i] + "': " + status.error() +
                   " in " + state.to_string()};
  }
  return state;
}

}  // namespace referee::games
