// Helpers for two-player sowing games whose position is two blocks of holes and two capture counts
// (tamtam-apachi, kakua, owani on 2×6; mefuhva, katra on 4×n): the position text
// "south/north:captured1,captured2:player". Their relay guard is mancala::RelayGuard.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games::two_sided {

// A two-player board: holes indexed by hole number − 1, South's block (holes 1..per_side) then
// North's, the seeds each player captured and the player to move.
struct Position {
  std::vector<int> holes;
  std::array<int, 2> captured{};
  int mover = 1;
};

// Parses "h1,...,hk/hk+1,...,h2k:c1,c2:p" (k = per_side): canonical counts, seeds totalling
// `total`, p 1 or 2. Never aborts.
Expected<Position> parse_position(std::string_view fields, int per_side, int total);
// The inverse of parse_position.
std::string position_text(const Position& p);
// Sum of holes [first, first + count) (hole numbers, 1-based).
int sum_holes(const std::vector<int>& holes, int first, int count);
// A hash of every field of the position.
std::uint64_t position_hash(const Position& p);
// Scores from the captured seeds only (tamtam-apachi, kakua, owani), higher wins.
Outcome captured_only(const Position& p, std::string reason);

}  // namespace referee::games::two_sided
