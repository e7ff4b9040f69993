// Results by opening (`referee crosstable --by-opening`, GET /api/events/{id}/openings): for each
// game string and opening (the moves the referee played first), the games, who won them by seat,
// and each engine's points. What a runner of `[openings] all_plies` reads to see which openings
// favour a side or an engine.
//
// Decisions:
// - Two-player games only: "who won by seat" is the question an opening raises, and the game pairs
//   of two-player events are what all_plies schedules. Games of more players are counted in
//   `skipped`, which every output states.
// - An opening is keyed by its moves joined by spaces ("" when the game began without one); the
//   table holds one row per (game string, opening) met: its memory is the openings', not the
//   games'.
// - Rows in the order of game string, then opening moves compared as numbers where both are
//   ("2 10" after "2 9"); each row's engines by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/game_query.h"
#include "storage/store.h"

namespace referee::ratings {

struct OpeningEngine {
  std::string name;
  std::int64_t games = 0;
  double points = 0;  // 1 a win, 0.5 a draw
};

struct OpeningRow {
  std::string game;                  // the stored game string
  std::vector<std::string> opening;  // moves from the start
  std::int64_t games = 0;
  std::int64_t seat_wins[2] = {0, 0};  // won by the engine on seat 1 (South), seat 2 (North)
  std::int64_t draws = 0;
  std::vector<OpeningEngine> engines;  // by name
};

struct OpeningTable {
  std::vector<OpeningRow> rows;
  std::int64_t skipped = 0;  // finished games of more than two players, not in the table
};

// Builds the table one finished game at a time.
class OpeningTally {
 public:
  // `ranks` by seat (1 = first); a game whose seats are not two is counted as skipped.
  void add(const std::string& game, const std::vector<std::string>& opening,
           const std::vector<std::string>& engines, const std::vector<int>& ranks);
  OpeningTable table() const;

 private:
  struct Row {
    std::int64_t games = 0, draws = 0, seat_wins[2] = {0, 0};
    std::map<std::string, OpeningEngine> engines;
  };
  std::map<std::pair<std::string, std::vector<std::string>>, Row> rows_;
  std::int64_t skipped_ = 0;
};

// The table of the query's finished games, read in one pass (storage/pair_stream.h for the
// two-player games; the others are counted as skipped from the query's count).
Expected<OpeningTable> opening_table(storage::Store& store, const storage::GameQuery& query);

// The table of these games (a live event's, for the daemon).
OpeningTable opening_table(const std::vector<storage::GameRecord>& games);

std::string opening_table_text(const OpeningTable& table);
std::string opening_table_csv(const OpeningTable& table);
std::string opening_table_json(const OpeningTable& table);

}  // namespace referee::ratings
