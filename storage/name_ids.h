// Names numbered in the order they first appear (0, 1, 2, ...): the compact engine, game and
// termination ids of the result tables, the tallies and the game pairs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace referee::storage {

// The id of `name` in `names`, adding it at the end when new; `ids` (a map or unordered_map from
// name to id) is the index of `names`.
template <class Index>
std::uint32_t intern(Index& ids, std::vector<std::string>& names, const std::string& name) {
  auto [it, fresh] = ids.try_emplace(name, static_cast<std::uint32_t>(names.size()));
  if (fresh) names.push_back(name);
  return it->second;
}

}  // namespace referee::storage
