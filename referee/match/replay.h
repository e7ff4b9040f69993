// Replays a stored game through the rules library and checks it against its record: every move
// legal, and for games ended by the rules, the same end and the same ranks. Archivists' guarantee
// that the database holds real games (design.md §6).
#pragma once

#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::match {

Status replay_check(const storage::GameRecord& game, const std::vector<storage::MoveRecord>& moves);

}  // namespace referee::match
