// Taking a JSON Lines export (storage/export.h) back into a database: `referee import`.
//
// Decisions:
// - A line is read back only when it is a whole record as the export writes it: every key present
//   with its type, no unknown key (a file from another program or a newer format is refused, not
//   guessed at), a canonical game string the rules know, one rank per player for a finished game,
//   none for the others, and moves that replay through the rules (verify_game). The per-seat time
//   controls, when present, are one canonical time control per seat, seat 1's the game's.
// - Ids are kept when they are free in the database (an export imported into an empty database
//   exports again byte for byte); a game or tournament whose id is taken gets a new one.
//   Tournaments are matched by name: games of a tournament already in the database join it.
//   An imported tournament is created "finished" (no specification: it is a record, never played).
// - The same game imported twice is recognised by its content: game string, start position,
//   opening, time control, players by seat, started_at and the moves (an index on started_at,
//   schema v8, finds the candidates). It is skipped and counted, whatever its id.
// - A finished game for a tournament slot that already has another finished game cannot be
//   stored (one result per slot): an error naming the slot and the game that holds it. Nor can a
//   game of an event scheduled in this database (its slots would be played again): an error.
// - Writes go through one transaction per batch (begin/commit); the caller decides the batches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::storage {

struct ImportedGame {
  GameRecord game;
  std::vector<MoveRecord> moves;
};

// The canonical text of a time control, or why the text is not one (the referee's parser,
// parse_time_control then to_string: storage does not parse time controls itself).
using TimeControlCanon = std::function<Expected<std::string>(const std::string&)>;

// One line of a JSON Lines export, checked as above (without the database). The error says what
// is wrong with the line ("missing key 'players'", "ply 7 '3': illegal move ..."); the caller adds
// the file and line. `canonical` checks the per-seat time controls (`time_controls`, present only
// when a seat's differs from `time_control`: one canonical time control per seat, seat 1's being
// `time_control`).
Expected<ImportedGame> parse_export_line(const std::string& line,
                                         const TimeControlCanon& canonical);

struct ImportAdd {
  bool added = false;   // false: the same game was already there (a duplicate)
  std::int64_t id = 0;  // the game's id in the database (the existing one for a duplicate)
};

class Importer {
 public:
  explicit Importer(Store& store);
  ~Importer();
  Importer(const Importer&) = delete;
  Importer& operator=(const Importer&) = delete;

  Status begin();  // a write transaction
  Status commit();
  void rollback();  // undoes what the open transaction wrote (nothing when none is open)
  // Stores one checked game (parse_export_line) inside the open transaction.
  Expected<ImportAdd> add(const ImportedGame& game);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace referee::storage
