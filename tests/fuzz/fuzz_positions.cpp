// Fuzz target: game strings, position strings and moves of every game (referee/games/game.h).
// Input lines: 1) a game string; when the rules refuse it, the first byte picks a game from the
// registry instead, so every input plays some game; 2) a position string (empty: the start);
// 3...) moves as text, or a line "@..." whose every byte picks a legal move (or seeds a setup),
// to walk deep into games.
// Invariants, after the position and after every move: position strings round-trip
// (to_string, parse_state, to_string); legal moves are sorted, unique and each one applies; a
// game going on has a player to move and a move to play; a finished game has one rank per player.
// At most kMaxPlies plies per input.
#include <algorithm>

#include "games/game.h"
#include "games/registry.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using referee::games::Game;
using referee::games::State;

// `all_moves`: also apply a few of the legal moves to copies (a walk applies one move per ply
// anyway, so this is done for the last state only).
void check_state(const Game& game, const State& state, bool all_moves = false) {
  const std::string text = state.to_string();
  auto parsed = game.parse_state(text);
  FUZZ_CHECK(parsed.ok(),
             game.canonical() + " " + text + ": " + (parsed ? std::string() : parsed.error()));
  FUZZ_CHECK(parsed->to_string() == text,
             game.canonical() + " " + text + " -> " + parsed->to_string());
  FUZZ_CHECK(state.num_players() == game.num_players(), text);
  (void)state.hash();
  (void)state.material();
  if (state.is_terminal()) {
    FUZZ_CHECK(state.current_player() == 0, text);
    FUZZ_CHECK(state.legal_moves().empty(), text);
    const auto outcome = state.outcome();
    FUZZ_CHECK(static_cast<int>(outcome.ranks.size()) == game.num_players(), text);
    for (int r : outcome.ranks) FUZZ_CHECK(r >= 1 && r <= game.num_players(), text);
    return;
  }
  FUZZ_CHECK(state.current_player() >= 1 && state.current_player() <= game.num_players(), text);
  if (!state.setup_form().empty()) return;  // setups are checked by form, not listed
  const auto legal = state.legal_moves();
  FUZZ_CHECK(!legal.empty(), game.canonical() + " " + text + ": no legal move, not over");
  FUZZ_CHECK(std::is_sorted(legal.begin(), legal.end()), text);
  FUZZ_CHECK(std::adjacent_find(legal.begin(), legal.end()) == legal.end(), text);
  for (std::size_t i = 0; all_moves && i < legal.size(); i += 1 + legal.size() / 3) {
    State copy = state;
    auto applied = copy.apply(legal[i]);
    FUZZ_CHECK(applied.ok(), game.canonical() + " " + text + " move " + legal[i] + ": " +
                                 (applied ? std::string() : applied.error()));
  }
}

// One move: by text, unchanged state when refused.
void play_text(const Game& game, State& state, const std::string& move) {
  const std::string before = state.to_string();
  auto applied = state.apply(move);
  if (!applied) {
    FUZZ_CHECK(state.to_string() == before, "a refused move changed " + before);
    return;
  }
  check_state(game, state);
}

// Plies one input plays at most: deep enough, and fast enough to keep fuzzing.
constexpr int kMaxPlies = 300;

// Moves picked by the bytes of `choices`.
void walk(const Game& game, State& state, std::string_view choices, int& plies) {
  for (unsigned char c : choices) {
    if (state.is_terminal() || ++plies > kMaxPlies) return;
    std::string move;
    if (!state.setup_form().empty()) {
      move = state.sample_setup(c);
    } else {
      const auto legal = state.legal_moves();
      move = legal[c % legal.size()];
    }
    auto applied = state.apply(move);
    FUZZ_CHECK(applied.ok(), game.canonical() + " " + state.to_string() + " move " + move + ": " +
                                 (applied ? std::string() : applied.error()));
    check_state(game, state);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto lines = fuzz::lines_of(fuzz::text_of(data, size));
  auto made = referee::games::make_game(lines[0]);
  if (!made) {
    FUZZ_CHECK(!made.error().empty(), lines[0]);
    const auto& registry = referee::games::registry();
    made = referee::games::make_game(registry[data[0] % registry.size()].name);
    FUZZ_CHECK(made.ok(), made ? std::string() : made.error());
  } else {
    // A canonical string makes the same game again.
    auto again = referee::games::make_game(made->canonical());
    FUZZ_CHECK(again.ok() && again->canonical() == made->canonical(), made->canonical());
  }
  const Game game = *made;
  State state = game.initial_state();
  if (lines.size() > 1 && !lines[1].empty()) {
    auto parsed = game.parse_state(lines[1]);
    if (!parsed) {
      FUZZ_CHECK(!parsed.error().empty(), lines[1]);
      return 0;
    }
    state = *parsed;
  }
  check_state(game, state);
  int plies = 0;
  for (std::size_t i = 2; i < lines.size() && plies <= kMaxPlies; ++i) {
    if (!lines[i].empty() && lines[i][0] == '@')
      walk(game, state, std::string_view(lines[i]).substr(1), plies);
    else if (++plies <= kMaxPlies)
      play_text(game, state, lines[i]);
  }
  check_state(game, state, true);
  (void)state.draw(referee::games::BoardWords::Seed);
  (void)state.draw(referee::games::BoardWords::English);
  return 0;
}
