// A stored game seen at one ply, for `referee replay`: the position after K plies, each player's
// clock at that moment, the move played from there and by whom, and the exact `position` and `go`
// lines the engine to move was sent, so that a bot author can paste them into the engine.
//
// Decisions:
// - "Ply K" is the position after K plies (0 = the start position), as in a position string's
//   ply field; the move played there is the stored move K + 1.
// - The lines are rebuilt with the referee's own formatting (protocol/messages, go_for) from the
//   stored moves, their times and the game's time control, by replaying each player's clock, then
//   looked up in the stored transcript of the seat to move. The transcript is what was sent: when
//   it holds the position line, its lines are shown, and a go line that differs from the rebuilt
//   one is reported (a per-engine time control, which the game record does not keep, does that).
// - No engine was asked at a forced or opening move, nor at the end of a game the rules ended; at
//   the end of a game an engine forfeited, the engine to move was asked and failed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/game.h"
#include "storage/store.h"

namespace referee::match {

struct PlyView {
  int ply = 0;          // K: plies played
  int total_plies = 0;  // plies of the stored game
  std::optional<games::State> state;
  int to_move = 0;           // 0 once the game is over
  std::vector<long> clocks;  // each player's clock before the move from here; empty: no clock
  std::string time_control;  // as stored
  std::optional<storage::MoveRecord> next;  // the move played from here (stored ply K + 1)
  bool asked = false;                       // an engine was asked for a move here
  std::string position_line;                // what it was sent (when asked)
  std::string go_line;
  enum class Source { Transcript, Rebuilt } source = Source::Rebuilt;
  std::string rebuilt_go;  // the rebuilt go line, when the transcript's differs from it
};

// The view of `game` at ply `ply` (0..total plies). Errors name the game and the ply: a ply out of
// range, a stored move the rules refuse.
Expected<PlyView> view_at(const storage::GameRecord& game,
                          const std::vector<storage::MoveRecord>& moves,
                          const std::vector<storage::LogLine>& logs, int ply);

}  // namespace referee::match
