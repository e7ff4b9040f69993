// permainan (alias surakarta) — seed 002, made exact by rules.md §6.
//
// Board: 6×6 intersections, files a..f, ranks 1..6. South (player 1, 'x') starts on ranks 1–2,
// North (player 2, 'o') on ranks 5–6, 12 pieces each. South moves first unless `first=2`.
// - Step: one piece to any of the 8 neighbouring intersections (diagonals too) that is empty; never
//   along the arcs. Written `b2-c3`.
// - Capture by replacement along a circuit. Inner circuit: rank 2 (a2→f2), arc, file e (e1→e6),
//   arc, rank 5 (f5→a5), arc, file b (b6→b1), arc back to a2. Outer circuit: rank 3 (a3→f3), arc,
//   file d (d1→d6), arc, rank 4 (f4→a4), arc, file c (c6→c1), arc back to a3. Each is a cycle of
//   24 steps with 4 arcs; a crossing point lies on it twice. Walking a circuit in either direction
//   from each occurrence of the piece, counting the arcs crossed, the walk stops at the first
//   occupied point other than the start (the start's other occurrence counts as empty), after at
//   most one lap (24 steps). If at least one arc was crossed and that point holds an enemy, it is
//   captured and the piece takes its place: `b2xe5`. Several paths to the same capture are one
//   move. Capture is optional; one per turn. The corner points a1 f1 a6 f6 lie on no circuit, so
//   they can neither capture nor be captured.
// - A player with no legal move plays `pass` (forced; the referee plays it).
// - End: a player with no piece loses. After `nocapture=20` plies without a capture, or at
//   repetition/maxplies, more pieces wins; equal is a draw.
// Position fields: "<grid>:<player>" — ranks 6 to 1 separated by '/', 'x'/'o', digits for runs of
// empty points (protocol-survey.md §4.2), and the player to move.
// Start: "oooooo/oooooo/6/6/xxxxxx/xxxxxx:1".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

struct PermainanCore {
  static constexpr int kPoints = 36;
  struct Move {
    int from = -1;  // -1: pass
    int to = -1;
    bool capture = false;
  };

  std::array<std::int8_t, kPoints> board{};  // index y*6+x; 0 empty, 1 South, 2 North
  int mover = 1;

  static PermainanCore start(const GameSetup& setup);
  static Expected<PermainanCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  // Parses and checks one move without listing them all.
  std::optional<Move> legal_move(std::string_view text) const;
  Effect play(const Move& move);
  std::string move_text(const Move& move) const;
  bool over() const { return count(1) == 0 || count(2) == 0; }
  Outcome result() const;
  Outcome exhausted() const;
  std::string text() const;
  std::string draw() const;
  BoardView view() const;
  std::vector<double> material() const;
  std::uint64_t hash() const;
  bool operator==(const PermainanCore& o) const { return board == o.board && mover == o.mover; }

  int count(int player) const;
  // The enemy points the piece on `p` can capture along the circuits.
  std::array<bool, kPoints> targets(int p) const;
};

}  // namespace referee::games
