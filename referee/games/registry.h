// THE one table of games: name, aliases, title, parameters, factory. Adding a game is one row in
// registry.cpp plus its file pair.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "games/core.h"

namespace referee::games {

using Factory = std::shared_ptr<detail::GameConcept> (*)(GameSetup);

struct GameEntry {
  std::string name;
  std::vector<std::string> aliases;
  std::string title;
  // The game's own parameters; `first`, `nocapture` (default below) and `maxplies` are added to
  // every game after them.
  std::vector<ParamSpec> params;
  int nocapture_default = 100;
  int max_players = 2;  // upper bound for `first`; a game with a `players` parameter checks it
  Factory factory = nullptr;
};

const std::vector<GameEntry>& registry();
const GameEntry* find_entry(std::string_view name_or_alias);
// Every parameter of an entry, common ones included, in canonical order.
std::vector<ParamSpec> all_params(const GameEntry& entry);

}  // namespace referee::games
