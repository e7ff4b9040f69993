// perali-kotuma and kotu-ellima — seed 000, made exact by rules.md §4.
//
// Board: 5×5 alquerque plus four triangles, 49 points, 96 edges, named on a 9×9 grid (files a..i
// west to east, ranks 1..9 south to north; player 1 = South = 'x' at the bottom, player 2 = North =
// 'o'). The edges are exactly the 24 lines of rules.md §4 (triangle cross lines c1-e1-g1, d2-e2-f2,
// c9-e9-g9, d8-e8-f8, a3-a5-a7, b4-b5-b6, i3-i5-i7, h4-h5-h6; ranks 3, 4, 6, 7 and files c, d, f, g
// of the square; the diagonals c3..g7 and c7..g3; rank 5 a5..i5; file e e1..e9; the four 7-point
// lines through the triangle apexes), consecutive points joined; no other edge.
// Start: perali-kotuma (23 each): South on the South and West triangles and ranks 3–4 of the
// square, North on the North and East triangles and ranks 6–7; d5 e5 f5 empty. kotu-ellima (24
// each): the same plus South on d5 and North on f5. South moves first unless `first=2`.
// - Step: one piece to an adjacent empty point along a line, any direction: `d4-d5`.
// - Capture: jump an adjacent enemy along a line onto the empty point just beyond, and keep jumping
//   with the same piece; jumped pieces are removed as they are jumped, direction may change, empty
//   points (the start point included) may be crossed or landed on again. Written as the landing
//   points: `c3xe5xg3`.
// - `huffing=off` (default, the seed's "strategic" rule): capture is compulsory and a chain must go
//   on while a jump exists (only complete chains are moves); any capturing piece and any branch may
//   be chosen — no majority rule.
// - `huffing=on` (the seed's traditional rule): capture is optional and every prefix of a chain is
// a
//   move (`c3xe5`, `c3xe5xg3`). When the previous opponent move left a capture undone (it was a
//   step while one of his pieces could capture, or its chain stopped while a jump remained), the
//   player to move may first remove ("huff") any one of the opponent's pieces that could capture at
//   the start of that move (after that move's own huff; found where it now stands — the moved piece
//   at its destination), written `!e5,` before his own move: `!e5,c3-c4`. A huff comes only with a
//   normal move after it; it is not a capture for the nocapture count. The huff rights belong to
//   the position (rules.md §0).
// - End: the player to move with no legal move (no piece included) loses. After `nocapture=20`
//   consecutive plies without a capture (the seed's 20-move rule) or at repetition/maxplies, more
//   pieces wins, equal is a draw.
// Decisions where rules.md is silent (ours): a huff and its move form one move and one ply; a huff
// makes the repetition history restart like a capture (the piece count only shrinks); a player
// whose moves all need a huff still has moves.
// Position fields: "<grid>:<player>:<huffable>" — the grid of protocol-survey.md §4.2 (ranks 9 to 1
// separated by '/', 'x'/'o' pieces, digits for runs of empty points, '-' for grid cells that are
// not points), the player to move, and the opponent pieces the player to move may huff, as points
// in grid order (rank 1 first, west to east) joined by ',', or '-' for none (always '-' with
// huffing=off). Start (perali-kotuma):
// "--o-o-o--/---ooo---/x-ooooo-o/-xoooooo-/xxx3ooo/-xxxxxxo-/x-xxxxx-o/---xxx---/--x-x-x--:1:-".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core.h"

namespace referee::games {

std::vector<ParamSpec> perali_params();

struct PeraliCore {
  static constexpr int kPoints = 49;
  struct Move {
    int huff = -1;                       // point of the piece huffed first, or -1
    bool capture = false;                // a chain of jumps, else a step
    int length = 0;                      // points in `path`
    std::array<std::int8_t, 26> path{};  // start, then the landing points (or the step's target)
  };

  std::array<std::int8_t, kPoints> board{};  // 0 empty, 1 South, 2 North
  int mover = 1;
  bool huffing = false;
  std::uint64_t huffable = 0;  // bit per point: opponent pieces the player to move may huff

  static PeraliCore start(const GameSetup& setup);
  static Expected<PeraliCore> parse(const GameSetup& setup, std::string_view fields);

  int players() const { return 2; }
  int to_move() const { return mover; }
  void moves(std::vector<Move>& out) const;
  // Parses and checks one move without listing them all (turns with huffs have many moves).
  std::optional<Move> legal_move(std::string_view text) const;
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
  bool operator==(const PeraliCore& o) const {
    return board == o.board && mover == o.mover && huffable == o.huffable;
  }

  int count(int player) const;
  // The moves without a huff on `b` for `player` (steps and chains as the parameter says).
  void normal_moves(const std::array<std::int8_t, kPoints>& b, int player,
                    std::vector<Move>& out) const;
};

}  // namespace referee::games
