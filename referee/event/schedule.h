// The tournament schedule (design.md §5): every game of the event as a numbered slot, in a fixed
// order, so that a resumed run plays exactly the missing ones. Round-robin or gauntlet, any number
// of cycles; for k-player games every k-subset of engines in every seat rotation, so each engine
// plays each seat equally; each opening is played by every rotation (two players: seats swapped).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "event/tournament_config.h"
#include "games/expected.h"
#include "games/game.h"

namespace referee {

struct Slot {
  std::int64_t index = 0;
  std::string game;                  // canonical game string
  std::vector<int> seats;            // engine indices by seat
  std::vector<std::string> opening;  // moves from the start, played by the referee
  int cycle = 0;
  int round = 0;  // 1-based round number shown in exports
};

Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config);

// The opening for one pairing: book line (if any) then `random_plies` random moves (setups by
// sample_setup), drawn from `seed`; never an opening that already ends the game.
std::vector<std::string> make_opening(const games::Game& game, const OpeningSettings& settings,
                                      std::size_t book_index, std::uint64_t seed);

}  // namespace referee
