#include "ratings/report.h"

#include <map>

#include "ratings/ratings.h"

namespace referee {

std::string game_name(const std::string& canonical) {
  return canonical.substr(0, canonical.find(':'));
}

namespace {

std::string section(const std::string& title,
                    const std::vector<const storage::GameRecord*>& games) {
  std::vector<RatedGame> rated;
  std::map<std::string, int> terminations;
  for (const auto* g : games) {
    rated.push_back({g->players, g->ranks});
    ++terminations[g->termination];
  }
  std::string out = title + " (" + std::to_string(games.size()) + " games)\n";
  out += format_ratings(fit_elo(rated));
  out += "terminations:";
  for (const auto& [t, n] : terminations) out += " " + t + " " + std::to_string(n);
  return out + "\n";
}

}  // namespace

std::string ratings_report(const std::vector<storage::GameRecord>& games) {
  std::map<std::string, std::vector<const storage::GameRecord*>> by_game;
  std::vector<const storage::GameRecord*> all;
  for (const auto& g : games) {
    if (g.status != "finished" || g.ranks.size() != g.players.size()) continue;
    by_game[game_name(g.game)].push_back(&g);
    all.push_back(&g);
  }
  if (all.empty()) return "no finished games\n";
  std::string out;
  for (const auto& [name, list] : by_game) out += section(name, list) + "\n";
  if (by_game.size() > 1) out += section("all games", all);
  return out;
}

}  // namespace referee
