// Which stored games a read command looks at, as SQL: the filters of `ratings`, `crosstable`,
// `sprt` and `export` (referee/ratings/selection.h turns the command-line options into a
// GameQuery), and the checks that make a name that matches nothing an error instead of an empty
// table.
//
// Decisions:
// - The game filter is a list of stored game strings: canonicalising needs the rules library, so
//   the referee layer canonicalises the few distinct stored strings (stored_game_strings) and
//   passes the ones that match.
// - --engine once: the games that engine played; several times: the games among those engines
//   only (every seat held by one of them).
// - since/until compare with finished_at as text (ISO 8601 UTC): since inclusive, until inclusive
//   on its own length, so "2026-05-01" includes that whole day.
// - Only the clauses in use are written into the SQL (an unused filter costs nothing), and the
//   status test is kept off the status index (`+g.status`): nearly every game is finished, and a
//   million index lookups cost more than the scan they would replace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::storage {

struct GameQuery {
  std::optional<std::int64_t> event_id;                  // one event by id (a runner's own report)
  std::string event_name;                                // one event by name; "" = any
  std::optional<std::vector<std::string>> game_strings;  // stored strings; nullopt = any
  std::vector<std::string> engines;
  std::string since, until;  // on finished_at, as above; "" = open
  std::string time_control;  // as stored; "" = any
  bool finished_only = true;
  std::vector<std::int64_t> ids;  // only these game ids (a few: one parameter each); {} = any
};

// The distinct game strings stored (with a game string filter, the caller canonicalises these).
Expected<std::vector<std::string>> stored_game_strings(Store& store);

// Whether any stored game has this engine, belongs to this tournament, has this time control.
Expected<bool> has_engine(Store& store, const std::string& name);
Expected<bool> has_event_named(Store& store, const std::string& name);
Expected<bool> has_time_control(Store& store, const std::string& time_control);
Expected<bool> has_game(Store& store, std::int64_t id);

// The finished games of the query with players, ranks and scores but no moves, in schedule order
// (game_stream.h), for the commands that need whole records (crosstable, sprt).
Expected<std::vector<GameRecord>> query_games(Store& store, const GameQuery& query);

}  // namespace referee::storage
