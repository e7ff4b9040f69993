#include "match/replay.h"

#include "games/game.h"
#include "games/terminations.h"

namespace referee::match {

Status replay_check(const storage::GameRecord& rec, const std::vector<storage::MoveRecord>& moves) {
  const std::string where = "game " + std::to_string(rec.id);
  auto game = games::make_game(rec.game);
  if (!game) return Error{where + ": " + game.error()};
  auto start = rec.start_position.empty() ? Expected<games::State>(game->initial_state())
                                          : game->parse_state(rec.start_position);
  if (!start) return Error{where + ": " + start.error()};
  games::State state = std::move(*start);
  for (const auto& m : moves) {
    if (state.current_player() != m.player)
      return Error{where + " ply " + std::to_string(m.ply) + ": recorded for player " +
                   std::to_string(m.player) + " but player " +
                   std::to_string(state.current_player()) + " was to move"};
    auto st = state.apply(m.move);
    if (!st) return Error{where + " ply " + std::to_string(m.ply) + ": " + st.error()};
  }
  if (rec.status != storage::GameStatus::Finished) return Ok{};
  if (games::ended_by_moves(rec.termination)) {
    if (!state.is_terminal())
      return Error{where + ": recorded as over (" + rec.termination + ") but the game goes on"};
    auto o = state.outcome();
    if (o.reason != games::legacy_termination(rec.termination))
      return Error{where + ": ended by " + o.reason + ", recorded " + rec.termination};
    if (o.ranks != rec.ranks) return Error{where + ": ranks differ from the recorded result"};
  } else if (state.is_terminal()) {
    return Error{where + ": the game was over before the recorded " + rec.termination};
  }
  return Ok{};
}

}  // namespace referee::match
