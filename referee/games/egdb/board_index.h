// Combinatorial ranks of 2x6 boards: every way of putting n seeds in 12 holes gets a rank in
// [0, boards(n)), with no gap, so a table of one byte per position has no hole either.
//
// The order is lexicographic on (hole 1, hole 2, ..., hole 12) of the board as the table stores
// it (the mover's row first: model.h). rank() costs 11 steps of two table look-ups; next()
// walks the boards in rank order, so a solver never unranks but once per slice.
#pragma once

#include <array>
#include <cstdint>

namespace referee::games::egdb {

using Board = std::array<int, 12>;

inline constexpr int kHoles = 12;
// The most seeds a board index is built for (tables stop well before: EGDB.md, Limits).
inline constexpr int kMaxIndexedSeeds = 48;

// C(n + 11, 11): the boards of exactly n seeds.
std::uint64_t boards(int seeds);
std::uint64_t rank(const Board& board, int seeds);
Board unrank(std::uint64_t rank, int seeds);
// The board of the next rank; false (board unchanged) after the last one.
bool next_board(Board& board);

}  // namespace referee::games::egdb
