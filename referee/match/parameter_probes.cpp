#include "match/parameter_probes.h"

#include <algorithm>
#include <random>

#include "games/core.h"
#include "games/registry.h"

namespace referee::match {

std::vector<std::pair<std::string, std::string>> parameters(const games::Game& game) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string& text = game.canonical();
  auto colon = text.find(':');
  if (colon == std::string::npos) return out;
  std::size_t pos = colon + 1;
  while (pos <= text.size()) {
    auto end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string kv = text.substr(pos, end - pos);
    if (auto eq = kv.find('='); eq != std::string::npos)
      out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    pos = end + 1;
  }
  return out;
}

bool spec_accepts(const std::string& spec, const std::string& value) {
  if (auto dots = spec.find(".."); dots != std::string::npos) {
    auto lo = games::parse_count(spec.substr(0, dots));
    auto hi = games::parse_count(spec.substr(dots + 2));
    auto v = games::parse_count(value);
    return lo && hi && v && *lo <= *v && *v <= *hi;
  }
  std::size_t pos = 0;
  while (pos <= spec.size()) {
    auto end = spec.find('|', pos);
    if (end == std::string::npos) end = spec.size();
    if (spec.compare(pos, end - pos, value) == 0) return true;
    pos = end + 1;
  }
  return false;
}

std::vector<std::string> random_playout(const games::Game& game, std::uint64_t seed, int cap) {
  std::mt19937_64 rng(seed);
  auto state = game.initial_state();
  std::vector<std::string> moves;
  for (int i = 0; i < cap && !state.is_terminal(); ++i) {
    std::string move;
    if (!state.setup_form().empty()) {
      move = state.sample_setup(rng());
    } else {
      auto legal = state.legal_moves();
      if (legal.empty()) break;
      move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    }
    if (!state.apply(move)) break;
    moves.push_back(move);
  }
  return moves;
}

Expected<games::Game> with_parameter(const games::Game& game, const std::string& key,
                                     const std::string& value) {
  std::string spec = game.name();
  for (const auto& [k, v] : parameters(game))
    spec += (spec.size() == game.name().size() ? ":" : ",") + k + "=" + (k == key ? value : v);
  return games::make_game(spec);
}

std::vector<std::pair<std::string, std::string>> other_values(
    const std::vector<protocol::GameDecl>& declarations, const games::Game& game) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto* entry = games::find_entry(game.name());
  if (!entry) return out;
  const auto current = parameters(game);
  auto value_of = [&](const std::string& key) {
    for (const auto& [k, v] : current)
      if (k == key) return v;
    return std::string();
  };
  auto declared = [&](const std::string& key, const std::string& value) {
    for (const auto& decl : declarations)
      if (decl.name == game.name())
        for (const auto& [dkey, spec] : decl.params)
          if (dkey == key && !spec_accepts(spec, value)) return false;
    return true;
  };
  for (const auto& p : games::all_params(*entry)) {
    if (p.key == "players" || p.key == "nocapture" || p.key == "maxplies") continue;
    const std::string now = value_of(p.key);
    std::vector<std::string> others;
    if (!p.choices.empty()) {
      for (const auto& c : p.choices)
        if (c != now) others.push_back(c);
    } else if (auto n = games::parse_count(now)) {
      const long v = static_cast<long>(*n);
      if (v + 1 <= p.max)
        others.push_back(std::to_string(v + 1));
      else if (v - 1 >= p.min)
        others.push_back(std::to_string(v - 1));
    }
    for (const auto& o : others)
      if (declared(p.key, o) && (p.key != "first" || std::stol(o) <= game.num_players()))
        out.emplace_back(p.key, o);
  }
  return out;
}

std::vector<std::vector<std::string>> telling_lines(const games::Game& variant,
                                                    const games::Game& base, std::size_t count) {
  struct Found {
    double wrong;  // the share of base's legal moves that variant forbids; 2 when base refuses
    std::vector<std::string> line;
  };
  std::vector<Found> found;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto playout = random_playout(variant, seed, 300);
    auto v = variant.initial_state();
    auto b = base.initial_state();
    bool diverged = false;
    for (std::size_t i = 0; i <= playout.size() && !diverged; ++i) {
      if (v.is_terminal()) break;
      if (!v.is_forced() && v.setup_form().empty()) {
        const std::vector<std::string> line(playout.begin(),
                                            playout.begin() + static_cast<long>(i));
        if (b.is_terminal()) {
          found.push_back({2, line});
          break;
        }
        const auto vm = v.legal_moves();
        const auto bm = b.legal_moves();
        const auto wrong = std::count_if(bm.begin(), bm.end(), [&](const std::string& m) {
          return std::find(vm.begin(), vm.end(), m) == vm.end();
        });
        if (wrong > 0) found.push_back({double(wrong) / double(bm.size()), line});
      }
      if (i == playout.size()) break;
      if (!v.apply(playout[i])) break;
      if (!b.apply(playout[i])) {  // base cannot follow: asked after this move, it goes wrong
        const std::vector<std::string> line(playout.begin(),
                                            playout.begin() + static_cast<long>(i) + 1);
        if (!v.is_terminal() && !v.is_forced()) found.push_back({2, line});
        diverged = true;
      }
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Found& a, const Found& b) { return a.wrong > b.wrong; });
  std::vector<std::vector<std::string>> out;
  for (std::size_t i = 0; i < found.size() && out.size() < count; ++i) out.push_back(found[i].line);
  return out;
}

}  // namespace referee::match
