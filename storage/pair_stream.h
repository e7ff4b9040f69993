// The finished two-player games of a query, narrow and in schedule order: what game pairs are
// found from (referee/ratings/pairs.h) without holding a game record, so a crosstable of a million
// games is counted in bounded memory.
//
// Decisions:
// - Only games with exactly two seats (1 and 2), both ranked, are visited: the only games a pair
//   can be made of. Since schema v5 a game's seats, engines and ranks are read from its `results`
//   entry (one index lookup per game, about 0.5 s of SQLite for a million games); a file older
//   than v5 opened read-only is read through game_players.
// - Order: the schedule order of game_stream.h (tournament, slot, id; the games_by_tournament
//   index, so SQLite never sorts). Every tournament's games come together, so a reader can forget
//   a tournament's half pairs when the next one starts.
// - The opening is given as its stored JSON text: every writer stores it as nlohmann's dump of the
//   move list, so two games have the same text exactly when they have the same opening.
// - Game strings and engine names are interned: rows hold indices into the names, which grow as
//   the pass meets new ones.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::storage {

struct TwoPlayerNames {
  std::vector<std::string> games;    // stored game strings
  std::vector<std::string> engines;  // engine names
};

struct TwoPlayerResult {
  std::int64_t id = 0;
  std::int64_t event_id = -1;  // -1: outside any event
  std::int64_t slot = -1;
  std::uint32_t game = 0;                  // index into TwoPlayerNames::games
  std::string start_position;              // as stored ("" = the game's standard start)
  std::string opening;                     // as stored: a JSON array of moves
  std::array<std::uint32_t, 2> engines{};  // by seat, index into TwoPlayerNames::engines
  std::array<int, 2> ranks{};              // by seat
};

// Called once per game, in schedule order; an error stops the pass and is returned.
using TwoPlayerVisitor = std::function<Status(const TwoPlayerResult&)>;

// The query's finished two-player games (a query for unfinished games is refused: they have no
// result), in one read snapshot; `names` gets every name met, before the row that first uses it.
Status for_each_two_player_result(Store& store, const GameQuery& query, TwoPlayerNames& names,
                                  const TwoPlayerVisitor& visit);

}  // namespace referee::storage
