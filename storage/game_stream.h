// Stored games one at a time, in the order they were scheduled, for exports of any size in flat
// memory.
//
// Order: by tournament (its id: the order events were created), then schedule slot, then game id;
// games outside any tournament come first, by id. This is the order of the games_by_tournament
// index, so SQLite never sorts. PostgreSQL sorts the joined moves of the whole selection before
// its first row (temporary files on the server for a big archive); StreamOptions::by_id avoids it.
//
// Decisions:
// - One read transaction for the whole pass (one consistent snapshot, even beside a running
//   tournament), and two ordered cursors: games joined with their players (one row per seat), and,
//   when moves are wanted, games joined with their moves (one row per ply), both in the same
//   order and with the same filter. They advance in step: no query per game, no game kept after
//   it was visited. Both are sql::Rows::Many: on PostgreSQL, server-side cursors read in chunks.
// - Players are LEFT JOINed: a damaged game with no player rows is still visited (verify must
//   see every game; it then has no players).
#pragma once

#include <functional>
#include <vector>

#include "base/expected.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::storage {

struct StreamOptions {
  bool moves = true;  // false: every game is visited with no moves (results only, faster)
  // true: by game id instead of schedule order. On PostgreSQL the moves then come from a merge of
  // the two primary keys (no sort of the whole moves table before the first row); verify uses it.
  bool by_id = false;
};

// Called once per game; an error stops the pass and is returned (a full disk while writing).
using GameVisitor = std::function<Status(const GameRecord&, const std::vector<MoveRecord>&)>;

Status for_each_game(Store& store, const GameQuery& query, const StreamOptions& options,
                     const GameVisitor& visit);

}  // namespace referee::storage
