#include "games/egdb/board_index.h"

namespace referee::games::egdb {

namespace {

constexpr int kRows = kMaxIndexedSeeds + kHoles + 1;

// binomial[a][b] = C(a, b) for b <= 12.
struct Binomials {
  std::uint64_t c[kRows][kHoles + 1]{};
  constexpr Binomials() {
    for (int a = 0; a < kRows; ++a) {
      c[a][0] = 1;
      for (int b = 1; b <= kHoles && b <= a; ++b)
        c[a][b] = c[a - 1][b - 1] + (b <= a - 1 ? c[a - 1][b] : 0);
    }
  }
};

constexpr Binomials kBinomials;

// The boards of `seeds` seeds over `holes` holes: C(seeds + holes - 1, holes - 1).
std::uint64_t spread(int seeds, int holes) {
  return kBinomials.c[seeds + holes - 1][holes - 1];
}

}  // namespace

std::uint64_t boards(int seeds) {
  return spread(seeds, kHoles);
}

// Boards before `board` = for each hole i, the boards sharing holes 0..i-1 whose hole i holds
// fewer seeds; by the hockey-stick identity, a difference of two binomials.
std::uint64_t rank(const Board& board, int seeds) {
  std::uint64_t r = 0;
  int rest = seeds;
  for (int i = 0; i < kHoles - 1; ++i) {
    const int k = kHoles - 1 - i;  // holes after hole i
    const int after = rest - board[static_cast<std::size_t>(i)];
    r += kBinomials.c[rest + k][k] - kBinomials.c[after + k][k];
    rest = after;
  }
  return r;
}

Board unrank(std::uint64_t r, int seeds) {
  Board b{};
  int rest = seeds;
  for (int i = 0; i < kHoles - 1; ++i) {
    const int k = kHoles - 1 - i;
    int v = 0;
    // Skip the blocks of boards whose hole i holds v seeds while the rank lies beyond them.
    while (r >= spread(rest - v, k)) {
      r -= spread(rest - v, k);
      ++v;
    }
    b[static_cast<std::size_t>(i)] = v;
    rest -= v;
  }
  b[kHoles - 1] = rest;
  return b;
}

bool next_board(Board& b) {
  // Lexicographic successor: raise the last hole before the end that has seeds after it, and
  // put what remains after it into the last hole.
  int suffix = b[kHoles - 1];
  for (int i = kHoles - 2; i >= 0; --i) {
    if (suffix > 0) {
      ++b[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < kHoles; ++j) b[static_cast<std::size_t>(j)] = 0;
      b[kHoles - 1] = suffix - 1;
      return true;
    }
    suffix += b[static_cast<std::size_t>(i)];
  }
  return false;
}

}  // namespace referee::games::egdb
