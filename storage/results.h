// Finished games reduced to what a rating table needs, counted: one entry per game pattern (game
// string, engines by seat, ranks by seat, termination) with the number of games that had it.
//
// A million games of 200 engines are about 240,000 patterns, read in one pass without ever
// holding a game record. The patterns keep everything the ratings use, including the per-game
// clustering of the cluster-robust error bars: the games of one pattern have identical pairwise
// results, so each is one cluster, counted `count` times (see ratings/elo_fit.h).
//
// Decisions:
// - SQLite counts: the `results` table of schema v5 (schema.cpp) holds one narrow row per
//   finished game, clustered by (kind, seats), and `GROUP BY kind, seats` walks it once in that
//   order. On a million games this is 0.1 s of CPU, where reading the games and their players
//   (3 rows and 230 bytes per game) cost 0.4 s in SQLite alone and a GROUP BY over their join
//   4.3 s.
// - Filters: tournament, game string and time control select kinds; since/until test the row's
//   finish time; the engine filter is applied to the counted patterns (exactly the games the SQL
//   of game_query.h selects, at no cost per game).
// - A file older than v5 opened read-only (no results table) is counted from its games instead.
// - Names are interned: patterns hold indices into `games`, `engines` and `terminations`. The
//   same pattern may appear twice; every use adds the counts up.
// - At most kMaxSeats players per game (oware has up to 6); a stored result with more, or with a
//   rank outside 1..players, is an error.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::storage {

constexpr std::size_t kMaxSeats = 8;

struct ResultPattern {
  std::uint32_t game = 0;         // index into ResultSet::games
  std::uint32_t termination = 0;  // index into ResultSet::terminations
  std::uint32_t players = 0;
  std::array<std::uint32_t, kMaxSeats> engines{};  // by seat, index into ResultSet::engines
  std::array<std::uint8_t, kMaxSeats> ranks{};     // by seat, 1..players
  std::int64_t count = 0;
};

struct ResultSet {
  std::vector<std::string> games;         // stored game strings
  std::vector<std::string> engines;       // engine names
  std::vector<std::string> terminations;  // as stored
  std::vector<ResultPattern> patterns;    // in no particular order
  std::int64_t total_games = 0;           // the sum of the counts
};

// The finished games of the query that have a rank for every seat (a query for unfinished games
// is refused: they have no result to count).
Expected<ResultSet> aggregate_results(Store& store, const GameQuery& query);

}  // namespace referee::storage
