// A board view: the geometry and contents of one position as plain drawing data, so that a
// renderer (the dashboard's board.js) draws every game family without knowing any position string.
// Only the rules library knows a game, so each core builds its own view (an optional `view()`
// member, see core.h) from the family helpers below; State::view() adds what every game shares
// (player to move, scores, round).
//
// Decisions:
// - One generic shape for all 18 games: cells (holes, stores, blind holes, points) placed in an
//   abstract box (`width` × `height`, x to the right, y DOWN as on a screen, North at the top),
//   straight board lines, circular arcs (permainan's circuits) and free texts (coordinates,
//   band names). Every cell lies wholly inside the box, its label too.
// - Units: one hole or point pitch is 10 units; a hole's well is 8.4 across.
// - A cell's `count` is set for holes and stores (seeds), absent for blind holes and points; a
//   point's `piece` is absent when it is empty.
// - `mark` highlights what the family's `legend` says (mweso's alokas, the pieces perali-kotuma
//   may huff, felli's pieces that may not step back); `notes` are lines of text for the rest.
// - Ids are the protocol's names: hole numbers "1".."64", stores "S1"/"S2", points "c3".
// The JSON form is in board_view_json.h and documented in referee/service/board_view.md.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace referee::games {

namespace graph {
struct Board;
}

enum class CellKind { hole, store, blind, point };
const char* cell_kind_name(CellKind kind);

struct ViewPiece {
  int player = 1;     // 1..N
  bool king = false;  // felli's kings
  bool operator==(const ViewPiece&) const = default;
};

struct ViewCell {
  std::string id;       // "7", "S1", "c3"
  std::string label;    // what is written next to it (hole number; a point's name)
  double x = 0, y = 0;  // centre
  double w = 0, h = 0;  // size of the well or of a piece on the point
  CellKind kind = CellKind::hole;
  std::optional<int> count;        // seeds (holes, stores)
  std::optional<ViewPiece> piece;  // the piece on a point
  int owner = 0;                   // the player owning the hole or store, 0 = nobody (points)
  bool mark = false;               // see BoardView::legend
  std::optional<std::array<double, 2>> label_at;  // where to write the label; none: not written
};

// A circular arc: centre, radius, from angle `from` to angle `to` in degrees, increasing (0 = +x,
// 90 = +y, i.e. clockwise on screen); `to` may exceed 360. `group` tells arcs of different
// circuits apart (permainan: 1 inner, 2 outer).
struct ViewArc {
  double cx = 0, cy = 0, r = 0, from = 0, to = 0;
  int group = 0;
};

struct ViewText {
  double x = 0, y = 0;
  std::string text;
  int player = 0;  // colour it as this player's (0: neutral)
};

struct BoardView {
  std::string family;  // "2x6", "2x6-stores", "2x7", "2x7-blind", "2x6-columns", "oware-ring",
                       // "4x8", "4x16", "alquerque", "felli", "permainan"
  double width = 0, height = 0;
  std::vector<ViewCell> cells;
  std::vector<std::array<double, 4>> lines;  // x1, y1, x2, y2
  std::vector<ViewArc> arcs;
  std::vector<ViewText> texts;
  int players = 2;
  int to_move = 0;             // 0 once the game is over
  std::vector<double> scores;  // per player, index 0 is player 1
  std::string score_label;     // what the scores are: "captured", "store", "reserve", "pieces", ...
  // Once the game is over: the scores its result counts (Outcome::scores), which may differ from
  // `scores` (kalaha's seeds left in a row go to their owner's store only in the count); empty
  // while the game goes on.
  std::vector<double> final_scores;
  int round = 1;
  std::string phase;   // "setup", "mirror" while setups are played; empty otherwise
  std::string legend;  // what a marked cell means; empty when no cell is ever marked
  std::vector<std::string> notes;
};

// The cell with this id, or nullptr.
const ViewCell* find_cell(const BoardView& view, const std::string& id);
ViewCell* find_cell(BoardView& view, const std::string& id);

namespace view {

constexpr double kPitch = 10.0;
constexpr double kWell = 8.4;

// Rows of holes, the top row first, each left to right, given as hole numbers; `counts` and
// `owners` are indexed by hole number − 1 (a count below 0 makes a blind hole). Labels go on the
// outer side of each player's rows: above the rows of the top half (the first half of `rows`),
// below those of the bottom half; a line is drawn between the halves when `divider`.
BoardView hole_rows(std::string family, const std::vector<std::vector<int>>& rows,
                    const std::vector<int>& counts, const std::vector<int>& owners,
                    bool divider = true);

// The 2×n board of rules.md §1 (2n = counts.size()): North's row n+1..2n on top from his left (2n
// above 1), South's row 1..n below, each row owned by its player.
BoardView two_rows(std::string family, const std::vector<int>& counts);

// The 4×n board of four_rows.h (4n = counts.size()): North's outer and inner rows on top, South's
// inner and outer rows below, family "4x<n>".
BoardView four_by_n(const std::vector<int>& counts);

// Adds a store spanning the rows on the left or right side of a hole_rows view, widening the box.
void add_store(BoardView& v, bool left, std::string id, int count, int owner);

// Twelve holes on a ring, counter-clockwise from hole 1 at the bottom left, with the bands of
// `bands` players (each 12/bands holes) named inside the ring.
BoardView hole_ring(const std::vector<int>& counts, int bands);

// A board of points and lines (board_graph.h): every point of `board` with the piece `piece(p)`
// gives it (none when empty), every line drawn from its first point to its last, the files
// lettered along the bottom and the ranks numbered on the left, `margin` units around the points.
BoardView point_board(std::string family, const graph::Board& board,
                      const std::function<std::optional<ViewPiece>(int)>& piece, double margin);

}  // namespace view

}  // namespace referee::games
