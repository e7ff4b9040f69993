// The rules library's public face: a Game (immutable description built from "name:key=value,...")
// and a State (a copyable value). Only this library knows any game's rules; everything else in
// referee talks to games through these two types and canonical move/position strings.
// See ../../../shared/design.md §2 and rules.md §0.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "games/board_view.h"

namespace referee::games {

// Validated parameters of one game, keyed by name; every declared key is present.
class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  const std::string& text(const std::string& key) const;  // throws std::out_of_range if undeclared
  long number(const std::string& key) const;
  bool is(const std::string& key, std::string_view value) const { return text(key) == value; }
  const std::map<std::string, std::string>& all() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// One parameter a game accepts. `choices` empty means a decimal integer in [min, max].
struct ParamSpec {
  std::string key;
  std::string default_value;
  std::vector<std::string> choices;
  long min = 0;
  long max = 0;
  std::string help;
};

// How a game ended, for every player (index 0 is player 1).
struct Outcome {
  std::vector<double> scores;  // the game's own score (seeds, pieces); informative
  std::vector<int> ranks;      // 1 = best; equal ranks share a place (2 players, both 1 = draw)
  std::string reason;          // "rules", "repetition", "nocapture", "maxplies", "agreement", ...
};

// Ranks from scores: higher score is better unless `lower_wins`; equal scores share a rank.
Outcome rank_by_score(std::vector<double> scores, std::string reason, bool lower_wins = false);
// A decisive result: `winner` (1-based) ranks 1, everyone else 2.
Outcome win_for(int winner, int players, std::vector<double> scores, std::string reason);

// The words of State::draw. Seed is the seed's console screen (rules.md's "Display" sections, in
// French), kept byte for byte for `referee play`, where a human plays at the terminal as the seed
// specified; English is for every other screen (`referee show`, `referee replay`). Only the words
// differ: both draw the same board with the same numbers (board_words.h).
enum class BoardWords { Seed, English };

namespace detail {
struct StateConcept;
struct GameConcept;
}  // namespace detail

class State {
 public:
  explicit State(std::unique_ptr<detail::StateConcept> impl);
  State(const State& other);
  State& operator=(const State& other);
  State(State&&) noexcept;
  State& operator=(State&&) noexcept;
  ~State();

  int num_players() const;
  int current_player() const;  // 1..N; 0 once the game is over
  bool is_terminal() const;
  // Canonical strings of the legal moves, sorted bytewise, unique. Empty when terminal, and
  // empty in a setup phase (setups are checked by form, not listed): see setup_form().
  std::vector<std::string> legal_moves() const;
  // Non-empty while the player to move must play a setup move: a description of its form.
  std::string setup_form() const;
  // True when the player to move has exactly one move that the referee plays for him (a forced
  // `pass`, lontu-holo's mirrored setup): it is never asked of an engine.
  bool is_forced() const;
  // Plays one move given as text. Unparseable or illegal text leaves the state unchanged.
  Status apply(std::string_view move);
  Outcome outcome() const;  // meaningful only when terminal
  // End now by agreement (human play): scored as rules.md §0 says, or an error where the game
  // has no agreed end.
  Status agree_to_end();
  bool last_move_captured() const;
  int ply() const;
  int plies_without_capture() const;
  std::string to_string() const;             // the protocol's position string
  std::string draw(BoardWords words) const;  // human-readable board
  std::uint64_t hash() const;                // of the position, ply counters excluded
  std::uint64_t perft(int depth) const;
  // The game's running score per player (captured seeds, store, pieces on the board), for the
  // example engines' evaluation; index 0 is player 1.
  std::vector<double> material() const;
  // A valid setup move for the player to move (empty when no setup is expected), varied by seed.
  std::string sample_setup(std::uint64_t seed) const;
  // The round being played (1 for games of one round; pallankuli counts its rounds).
  int round() const;
  // The board as drawing data for the dashboard (board_view.h).
  BoardView view() const;
  // The same position (ply counters included) of the same game: states of two games never
  // compare equal, even when the games share their rules' code (awale and awale-v1) or differ
  // only in a parameter (awale:grandslam=illegal).
  bool operator==(const State& other) const;

 private:
  std::unique_ptr<detail::StateConcept> impl_;
};

class Game {
 public:
  explicit Game(std::shared_ptr<const detail::GameConcept> impl) : impl_(std::move(impl)) {}
  const std::string& name() const;
  // The full canonical "name:key=value,..." with every parameter, in declaration order.
  const std::string& canonical() const;
  const Params& params() const;
  int num_players() const;
  int max_plies() const;
  State initial_state() const;
  // Parses a position string (rules.md, PROTOCOL.md); the repetition history starts there.
  Expected<State> parse_state(std::string_view position) const;

 private:
  std::shared_ptr<const detail::GameConcept> impl_;
};

// Builds a game from "name" or "name:key=value,...". Unknown games and parameters are errors that
// name the culprit and list what is accepted.
Expected<Game> make_game(std::string_view spec);

// A state after playing `moves` from the start (or from `position` when non-empty).
Expected<State> state_after(const Game& game, std::string_view position,
                            const std::vector<std::string>& moves);

}  // namespace referee::games
