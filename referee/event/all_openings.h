// Every opening of a given length (`[openings] all_plies = K`, TOURNAMENTS.md): the distinct
// positions reachable from a game's start in exactly K plies, each with the first line of moves
// that reaches it, so that an event plays each of them in every seating instead of random plies.
//
// Contract: all_openings() walks the legal moves level by level, ply 1 to K, keeping at each level
// one line per distinct position: a transposition (two lines to one position) is played once, by
// the line met first in the order of legal_moves(), so the list and its order depend on the game
// alone. Positions where the game has ended are dropped at every level: an opening never ends a
// game. A referee-played forced move (a pass) is a ply like any other.
//
// Decisions:
// - "The position" is the one of the repetition rule (rules.md §0): the whole state but its ply
//   counters, as State::hash() gives it. Two positions are taken as one when their 64-bit hashes
//   are equal: among a million positions the chance of a collision is below 10^-7.
// - A game that begins with a setup (its moves checked by form, not listed) has no list of
//   openings: refused, with its name.
// - A level of more than `max_count` positions stops the walk with an error giving the level: the
//   list could not be scheduled (kMaxScheduleSlots bounds it), and the walk's memory is one line
//   per position of a level.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/game.h"

namespace referee::event {

// The longest all_plies accepted: beyond it every game has more positions than a schedule holds.
inline constexpr int kMaxAllPlies = 30;

Expected<std::vector<std::vector<std::string>>> all_openings(const games::Game& game, int plies,
                                                             std::size_t max_count);

}  // namespace referee::event
