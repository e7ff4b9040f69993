// The tournament schedule (design.md §5): every game of the event as a numbered slot, in a fixed
// order, so that a resumed run plays exactly the missing ones. Round-robin or gauntlet, any number
// of cycles; for k-player games every k-subset of engines in every seat rotation, so each engine
// plays each seat equally; each opening is played by every rotation (two players: seats swapped).
//
// The size of a schedule is computed from the counts before anything is built, and a schedule of
// more than kMaxScheduleSlots games is refused with its size: it would not fit in memory nor in a
// database at a sensible size (2 engines, 100000 cycles and 10000 openings per pairing would be
// 2 * 10^9 slots). An opening that cannot be made (random plies that end every game tried, a book
// line the game refuses) is an error too, never a silent fallback to no opening.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "event/tournament_config.h"
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

// The most games one event may schedule.
constexpr std::int64_t kMaxScheduleSlots = 1'000'000;

// The number of slots make_schedule would build, from the counts alone (saturating at INT64_MAX);
// an error when a game needs more engines than the event has or is not a game.
Expected<std::int64_t> schedule_size(const TournamentConfig& config);

// An error giving the computed size when the schedule would exceed kMaxScheduleSlots.
Status check_schedule_size(const TournamentConfig& config);

// Every slot; an error (naming the computed size) beyond kMaxScheduleSlots, or when an opening
// cannot be made.
Expected<std::vector<Slot>> make_schedule(const TournamentConfig& config);

// The opening for one pairing: book line (if any) then `random_plies` random moves (setups by
// sample_setup), drawn from `seed`; never an opening that ends the game. Up to 100 random lines
// are tried; an error when every one ends the game, or when the book line is illegal in `game`.
Expected<std::vector<std::string>> make_opening(const games::Game& game,
                                                const OpeningSettings& settings,
                                                std::size_t book_index, std::uint64_t seed);

// Whether `settings.random_plies` can be played in `game` after every book line without ending
// it: refused beyond the game's maxplies, or when trial openings from a few seeds fall short; the
// error states the largest count that works.
Status check_random_plies(const games::Game& game, const OpeningSettings& settings);

}  // namespace referee
