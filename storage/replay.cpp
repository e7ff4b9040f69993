// Re-verification of a stored game by the rules library (design.md §6: "every stored game replays
// through the rules library to its recorded result").
//
// Checks, in order: the game string builds a game; the start position parses; every move of
// move_sequence() is legal in turn; each recorded move's ply is its 1-based index in that sequence
// and its player is the player to move. Then: a game that ended by the rules (the final state is
// terminal) must be "finished" with exactly the rules' ranks; a game recorded as ended by the rules
// (games::ended_by_moves: rules, relay, repetition, nocapture, maxplies) must end in a terminal
// state. Games that ended otherwise
// (time, illegal move, crash, resign...) only need legal moves: their ranks are the referee's.
#include "games/game.h"
#include "games/terminations.h"
#include "storage/store.h"

namespace referee::storage {

namespace {

std::string join(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

}  // namespace

Status verify_game(const GameRecord& game, const std::vector<MoveRecord>& moves) {
  const std::string who = "game " + std::to_string(game.id);
  auto rules = games::make_game(game.game);
  if (!rules) return Error{who + ": " + rules.error()};
  games::State state = rules->initial_state();
  if (!game.start_position.empty()) {
    auto parsed = rules->parse_state(game.start_position);
    if (!parsed) return Error{who + ": start position: " + parsed.error()};
    state = std::move(*parsed);
  }
  const std::vector<std::string> sequence = move_sequence(game, moves);
  const std::size_t offset = sequence.size() - moves.size();  // opening moves not recorded
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    if (state.is_terminal())
      return Error{who + ": move " + std::to_string(i + 1) + " '" + sequence[i] +
                   "' after the game ended"};
    if (i >= offset) {
      const MoveRecord& m = moves[i - offset];
      if (m.ply != static_cast<int>(i + 1))
        return Error{who + ": move '" + m.move + "' recorded as ply " + std::to_string(m.ply) +
                     ", is ply " + std::to_string(i + 1)};
      if (m.player != state.current_player())
        return Error{who + ": ply " + std::to_string(i + 1) + " recorded for player " +
                     std::to_string(m.player) + ", player " +
                     std::to_string(state.current_player()) + " was to move"};
    }
    auto applied = state.apply(sequence[i]);
    if (!applied)
      return Error{who + ": ply " + std::to_string(i + 1) + " '" + sequence[i] +
                   "': " + applied.error()};
  }
  if (state.is_terminal()) {
    auto outcome = state.outcome();
    if (game.status != GameStatus::Finished)
      return Error{who + ": the rules ended it, but it is " + to_text(game.status)};
    if (outcome.ranks != game.ranks)
      return Error{who + ": recorded ranks " + join(game.ranks) + ", the rules give " +
                   join(outcome.ranks)};
  } else if (game.status == GameStatus::Finished && games::ended_by_moves(game.termination)) {
    return Error{who + ": recorded as ended by the rules (" + game.termination +
                 ") but the game is not over after " + std::to_string(sequence.size()) + " plies"};
  }
  return Ok{};
}

}  // namespace referee::storage
