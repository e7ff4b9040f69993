// Helpers for two-player sowing games whose position is two blocks of holes and two capture counts
// (tamtam-apachi, kakua, owani on 2×6; mefuhva, katra on 4×n): the position text
// "south/north:captured1,captured2:player" and the relay guard of rules.md §0.
#pragma once

#include <array>
#include <cstdint>
#include <set>
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

// rules.md §0 "Relay guard": the state at the start of each sub-sowing of one turn (board, seeds
// in hand, hole sown from; these games sow one way only) must never repeat, and a turn may drop
// at most 10 000 seeds. A move that breaks either is not legal.
class RelayGuard {
 public:
  static constexpr long kMaxDrops = 10000;
  // Records a sub-sowing's starting state; false when the turn already met it.
  bool enter(const std::vector<int>& board, int hand, int origin) {
    std::vector<int> key(board);
    key.push_back(hand);
    key.push_back(origin);
    return seen_.insert(std::move(key)).second;
  }
  // Counts one dropped seed; false once the turn has dropped more than kMaxDrops.
  bool drop() { return ++dropped_ <= kMaxDrops; }

 private:
  std::set<std::vector<int>> seen_;
  long dropped_ = 0;
};

}  // namespace referee::games::two_sided
