// Which stored games form a pair: the two games of one opening with seats swapped between the
// same two engines (design.md §5: every opening is played by every seating). The one place that
// decides it, so it can switch to a stored pair column later.
//
// Today the schedule puts the two games of a pair in consecutive slots of one tournament, but the
// slot alone does not say where a pair starts (a game's block of slots may start at an odd slot
// after a 3-player game), so the rule is on content: same tournament, same game string, same start
// position and opening, the same two engines in swapped seats. Within such a set, games are
// matched in slot order, each with the earliest unmatched game of the opposite seating. Two games
// of one opening with swapped seats are a valid pair whichever slots they came from, so a missing
// game never pairs games of different openings. Only two-player finished games are paired; the
// rest are unpaired.
#pragma once

#include <vector>

#include "storage/store.h"

namespace referee {

struct GamePair {
  const storage::GameRecord* first;  // the earlier slot
  const storage::GameRecord* second;
};

struct Pairing {
  std::vector<GamePair> pairs;
  std::vector<const storage::GameRecord*> unpaired;  // two-player games without a partner
};

Pairing pair_games(const std::vector<const storage::GameRecord*>& games);

// A two-player game's score for `engine`: 1, ½ or 0 (the game must have both ranks).
double score_of(const storage::GameRecord& game, const std::string& engine);

}  // namespace referee
