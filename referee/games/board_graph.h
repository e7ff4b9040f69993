// Board graphs for the games played on points and lines (alquerque family, felli, permainan):
// points named on the bounding grid of the board ("c3": file letter a.., rank number 1.. from
// South), the straight lines joining them, and what follows from the lines — neighbours, rays and
// jump targets (a jump from A over B lands on C = the point after B on the same line). Also the
// grid form of a position string (protocol-survey.md §4.2: ranks top to bottom separated by '/',
// one letter per piece, digits for runs of empty points, '-' for grid cells that are not points)
// and a readable text drawing with coordinates. Free functions over a plain value; no game rules.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"

namespace referee::games::graph {

// A jump from a point: over the next point of a ray, onto the one after it.
struct Jump {
  int over;
  int to;
};

struct Board {
  int width = 0;                        // files a.. (x = 0..width-1, west to east)
  int height = 0;                       // ranks 1.. (y = 0..height-1, south to north)
  std::vector<int> xs, ys;              // point id -> coordinates
  std::vector<int> cell;                // y * width + x -> point id, or -1
  std::vector<std::vector<int>> lines;  // point ids in order along each line
  // Per point, one ray per direction along each line through it: the points met going outward.
  std::vector<std::vector<std::vector<int>>> rays;
  std::vector<std::vector<int>> edges;  // per point, its neighbours (first point of each ray)
  std::vector<std::vector<Jump>> hops;  // per point, its jumps (see jumps())

  int size() const { return static_cast<int>(xs.size()); }
  int at(int x, int y) const {
    return x < 0 || y < 0 || x >= width || y >= height
               ? -1
               : cell[static_cast<std::size_t>(y * width + x)];
  }
};

// A board from its lines, each written as point names joined by '-' ("a1-c1-e1"); the points are
// every point named on a line, numbered in grid order (rank 1 first, west to east). Extra points
// (on no line) may be listed in `isolated`. The lines are trusted (they are constants).
Board make_board(int width, int height, const std::vector<std::string>& lines,
                 const std::vector<std::string>& isolated = {});

std::string name(const Board& b, int point);
// The point a name denotes ("c3"; canonical: no leading zero, no spaces), or -1.
int find(const Board& b, std::string_view text);

// Jump targets from `point`: (over, to) for each ray with at least two points.
const std::vector<Jump>& jumps(const Board& b, int point);

// The grid form of a position: `piece(point)` gives the letter on a point, or 0 when empty.
std::string grid_text(const Board& b, const std::function<char(int)>& piece);
// Parses the grid form into one char per point ('\0' = empty); letters must be in `letters`.
// Rejects wrong rank counts or lengths, '-' on a point, a piece or digit on a non-point, runs that
// cross a non-point or start with '0', and any other character.
Expected<std::vector<char>> parse_grid(const Board& b, std::string_view text,
                                       std::string_view letters);

// A readable drawing: points as their piece letter or '.', lines as '-', '|', '/', '\', ranks
// numbered on the left and files lettered below.
std::string draw(const Board& b, const std::function<char(int)>& piece);

}  // namespace referee::games::graph
