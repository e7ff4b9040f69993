// Which stored games a ratings, crosstable, sprt or export command looks at: the filters --game,
// --tournament, --engine, --since/--until, --tc and --min-games. The commands apply them in SQL
// (game_query: storage/game_query.h); select_games is the same filter on records in memory.
//
// Decisions:
// - --game is canonicalised through the rules library ("oware" means oware with its default
//   parameters, players=2); stored game strings are canonicalised the same way before comparing,
//   so a string stored before a parameter was added still matches.
// - --engine given once selects the games that engine played; given several times, the games
//   among those engines only (every seat held by one of them).
// - --since / --until are dates (YYYY-MM-DD) or UTC times (YYYY-MM-DDTHH:MM[:SS][Z]) compared with
//   the game's finished_at; both ends are inclusive (--until 2026-05-01 includes that whole day).
// - --tc is canonicalised as the referee stores every time control (TimeControl::to_string:
//   "5+0" is "5", "10+0.100" is "10+0.1"); a malformed one is an error naming it. A game imported
//   with another spelling is matched as it was written.
// - A tournament, engine or time control that no stored game has is an error, not an empty table
//   (a typo must not look like "no games").
// - --min-games N drops engines with fewer than N pairwise games, and their games, until every
//   engine left has N (a fixpoint); the report applies it per table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::ratings {

struct GameSelection {
  std::string game;        // canonical game string; "" = every game
  std::string event_name;  // --tournament: one event by name; "" = any
  std::vector<std::string> engines;
  std::string since, until;
  std::string tc;
  int min_games = 0;
};

// Canonicalises the game and the time control and checks the dates and --min-games; errors name
// the option.
Status normalise_selection(GameSelection& selection);

// A tournament, engine or time control of the selection that no game of `all` has.
Status check_names(const GameSelection& selection, const std::vector<storage::GameRecord>& all);

// The canonical form of a stored game string (itself when the rules library no longer knows it).
std::string canonical_game(const std::string& stored);

// The selection as a database query: every filter but --min-games. `stored_games` are the stored
// game strings (storage::stored_game_strings), needed only with --game: the query keeps those
// whose canonical form is the selection's game.
storage::GameQuery game_query(const GameSelection& selection,
                              const std::vector<std::string>& stored_games = {});

// check_names against the database: the engines, tournament and time control of the selection
// must each be in some stored game. Returns the problem ("" when there is none), or an error when
// the database cannot be read.
Expected<std::string> name_problem(storage::Store& store, const GameSelection& selection);

// The selection as a database query, every filter but --min-games: normalise_selection, then
// name_problem, then --game as the stored strings it matches. On failure `error` is one line and
// `bad_option` tells a bad filter (a usage error) from a database that could not be read.
struct SelectionQuery {
  std::optional<storage::GameQuery> query;
  std::string error;
  bool bad_option = false;
};
SelectionQuery selection_query(storage::Store& store, GameSelection& selection);

// Every filter but --min-games (each distinct game string goes through the rules library once).
std::vector<const storage::GameRecord*> select_games(const std::vector<storage::GameRecord>& all,
                                                     const GameSelection& selection);

// Pairwise games per engine, counted the way the rating tables count them.
int pairwise_games(const storage::GameRecord& game, const std::string& engine);

// Drops engines with fewer than `min_games` pairwise games, and their games, to a fixpoint.
std::vector<const storage::GameRecord*> drop_rare_engines(
    std::vector<const storage::GameRecord*> games, int min_games);

}  // namespace referee::ratings
