// felli — seed 003, made exact by rules.md §5.
//
// Board: 13 points on a 5×5 grid (files a..e, ranks 1..5): a1 c1 e1, b2 c2 d2, c3, b4 c4 d4,
// a5 c5 e5. Lines: a1-c1-e1, b2-c2-d2, b4-c4-d4, a5-c5-e5, a1-b2-c3-d4-e5, e1-d2-c3-b4-a5,
// c1-c2-c3-c4-c5 (consecutive points joined). Start: South (player 1, men 'x', kings 'X') on ranks
// 1–2, North (player 2, 'o'/'O') on ranks 4–5, c3 empty. South moves first unless `first=2`.
// - Men step to an adjacent empty point forward (South: rank up; North: rank down) or sideways
//   (along the rank lines 1, 2, 4, 5), never back. Kings slide any distance along one line, any
//   direction, over empty points. Written `c2-c3`.
// - Captures: a man jumps an adjacent enemy, in any direction, onto the empty point just beyond
//   and stops; a king flies along one line over empty points, one enemy, and lands on any empty
//   point beyond it before the next piece. Exactly one capture per turn; capture is compulsory;
//   any capture may be chosen. Written `b2xd4` (start and landing point).
// - Promotion: a man ending its move (step or capture) on the far row (a5 c5 e5 for South, a1 c1
//   e1 for North) becomes a king; a man capturing backwards onto its own back row is not promoted.
// - No going back: a piece that stepped or slid from P to Q may not end a step or slide on P on
//   its owner's next turn (sliding over P is allowed; the mark stays when the man was promoted on
//   Q). Captures are never restricted. A player whose only moves are forbidden returns has none.
// - End: the player to move with no piece or no legal move loses. After `nocapture=20` plies
// without
//   a capture, or at repetition/maxplies, more pieces wins (a king counts one); equal is a draw.
// - The seed's opening (first player to the centre, then two forced captures) follows from these
//   rules: felli_test.cpp checks it.
// Decisions where rules.md is unclear (ours): a player's no-return mark is cleared when he captures
// (captures set no mark) and when the marked piece is captured, so a dead mark never tells two
// equal positions apart.
// Position fields: "<grid>:<player>:<mark of player 1>:<mark of player 2>" — the grid of
// protocol-survey.md §4.2 (ranks 5 to 1 separated by '/', x o X O, digits for runs of empty points,
// '-' for non-points), the player to move, and each player's no-return mark written as his last
// step or slide "P-Q" (the piece on Q may not return to P), or '-' for none.
// Start: "o-o-o/-ooo-/--1--/-xxx-/x-x-x:1:-:-".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct FelliCore {
  static constexpr int kPoints = 13;
  struct Move {
    int from = 0;
    int to = 0;
    int taken = -1;  // the captured point, or -1 for a step or slide
  };
  struct Mark {
    int from = -1;  // P: the point the piece may not return to; -1 = no mark
    int to = -1;    // Q: where the piece stands
    bool operator==(const Mark&) const = default;
  };

  std::array<char, kPoints> board{};  // '\0' empty, 'x' 'X' South, 'o' 'O' North
  int mover = 1;
  std::array<Mark, 2> marks{};

  static FelliCore start(const GameSetup& setup);
  static Expected<FelliCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  std::optional<Move> legal_move(std::string_view text) const { return find_move(*this, text); }
  Effect play(const Move& move);
  std::string move_text(const Move& move) const;
  bool over() const;
  Outcome result() const;
  Outcome exhausted() const;
  std::string text() const;
  std::string draw() const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const FelliCore& o) const {
    return board == o.board && mover == o.mover && marks == o.marks;
  }

  int count(int player) const;
};

}  // namespace referee::games
