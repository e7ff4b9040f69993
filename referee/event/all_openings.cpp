// Every opening of K plies (all_openings.h).
#include "event/all_openings.h"

#include <unordered_set>

namespace referee::event {

Expected<std::vector<std::vector<std::string>>> all_openings(const games::Game& game, int plies,
                                                             std::size_t max_count) {
  if (plies < 1 || plies > kMaxAllPlies)
    return Error{"all_plies must be 1 to " + std::to_string(kMaxAllPlies) + ", not " +
                 std::to_string(plies)};
  const games::State start = game.initial_state();
  if (!start.setup_form().empty())
    return Error{"all_plies: " + game.canonical() +
                 " begins with a setup, whose moves are not listed: play it with random_plies"};
  struct Line {
    games::State state;
    std::vector<std::string> moves;
  };
  std::vector<Line> level{{start, {}}};
  for (int ply = 1; ply <= plies; ++ply) {
    std::vector<Line> next;
    std::unordered_set<std::uint64_t> seen;
    for (const Line& line : level) {
      if (!line.state.setup_form().empty())
        return Error{"all_plies: " + game.canonical() + " reaches a setup after " +
                     std::to_string(ply - 1) + " plies: play it with random_plies"};
      for (const std::string& move : line.state.legal_moves()) {
        games::State after = line.state;
        if (auto applied = after.apply(move); !applied) return applied.failure();
        if (after.is_terminal() || !seen.insert(after.hash()).second) continue;
        if (next.size() == max_count)
          return Error{"all_plies " + std::to_string(plies) + ": " + game.canonical() +
                       " has more than " + std::to_string(max_count) +
                       " distinct positions after " + std::to_string(ply) +
                       " plies; an event holds at most " + std::to_string(max_count) +
                       " openings (use fewer plies)"};
        std::vector<std::string> moves = line.moves;
        moves.push_back(move);
        next.push_back(Line{std::move(after), std::move(moves)});
      }
    }
    level = std::move(next);
  }
  if (level.empty())
    return Error{"all_plies " + std::to_string(plies) + ": every line of " + game.canonical() +
                 " ends the game within " + std::to_string(plies) + " plies"};
  std::vector<std::vector<std::string>> openings;
  openings.reserve(level.size());
  for (Line& line : level) openings.push_back(std::move(line.moves));
  return openings;
}

}  // namespace referee::event
