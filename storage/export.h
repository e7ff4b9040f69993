// Exports written one game at a time (flat memory, whatever the number of games): PGN for the
// rating tools, JSON Lines (the faithful, whole record, the form an archive keeps), CSV.
// The formats and their decisions are described at the top of export.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::storage {

enum class ExportFormat { kPgn, kJsonl, kCsv };

struct ExportOptions {
  bool moves = true;      // PGN: the movetext (false: tags and result only)
  bool clocks = true;     // PGN: [%emt] and [%clk] in the move comments
  bool pairwise = false;  // PGN, CSV: a game of N > 2 players as one game (row) per pair of seats
};

class ExportWriter {
 public:
  ExportWriter(std::ostream& out, ExportFormat format, const ExportOptions& options);
  ~ExportWriter();
  ExportWriter(const ExportWriter&) = delete;
  ExportWriter& operator=(const ExportWriter&) = delete;

  // Formats the game; the text reaches `out` in blocks of 64 KiB. An error once `out` fails.
  Status write(const GameRecord& game, const std::vector<MoveRecord>& moves);
  // Writes what is left and flushes.
  Status finish();
  // Games of more than two players left out of a PGN without `pairwise`.
  std::int64_t skipped() const { return skipped_; }
  std::int64_t written() const { return written_; }

 private:
  Status flush_if_full();
  bool standard_start(const GameRecord& game);
  std::ostream& out_;
  ExportFormat format_;
  ExportOptions options_;
  std::string buffer_;
  std::int64_t skipped_ = 0, written_ = 0;
  bool header_done_ = false;
  std::map<std::string, std::string> starts_;  // game string → its standard start position
};

// A whole export as one string (for small sets and tests): moves[i] are the moves of games[i].
std::string export_text(ExportFormat format, const ExportOptions& options,
                        const std::vector<GameRecord>& games,
                        const std::vector<std::vector<MoveRecord>>& moves);

// The PGN [Termination] value of a stored game: normal, time forfeit, rules infraction,
// abandoned, adjudication or unterminated.
std::string pgn_termination(const GameRecord& game);

// Seat `seat`'s (0-based) time control: its own when the game recorded every seat's, else the
// game's time_control.
std::string seat_time_control(const GameRecord& game, std::size_t seat);

// Whether some seat's time control differs from the game's time_control: only then do the
// exports carry the per-seat controls (so archives of games without them are as they were).
bool has_seat_time_controls(const GameRecord& game);

// The game's reason with the seat that starts it ("p2 lost on time") replaced by the engine's
// name ("beta lost on time").
std::string reason_with_names(const GameRecord& game);

}  // namespace referee::storage
