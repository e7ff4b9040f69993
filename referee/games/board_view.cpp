#include "games/board_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "games/board_graph.h"
#include "games/four_rows.h"

namespace referee::games {

const char* cell_kind_name(CellKind kind) {
  switch (kind) {
    case CellKind::hole:
      return "hole";
    case CellKind::store:
      return "store";
    case CellKind::blind:
      return "blind";
    case CellKind::point:
      return "point";
  }
  return "hole";
}

const ViewCell* find_cell(const BoardView& view, const std::string& id) {
  for (const auto& c : view.cells)
    if (c.id == id) return &c;
  return nullptr;
}

ViewCell* find_cell(BoardView& view, const std::string& id) {
  for (auto& c : view.cells)
    if (c.id == id) return &c;
  return nullptr;
}

namespace view {

namespace {

constexpr double kEdge = 1.0;       // empty border around the drawing
constexpr double kLabelRoom = 4.0;  // a row's hole numbers, above or below it
constexpr double kHalfGap = 2.0;    // between the two players' halves of a hole board
constexpr double kPiece = 7.2;      // a piece's diameter on a point board
constexpr double kStoreWidth = 12.0;

ViewCell hole_cell(int hole, double x, double y, const std::vector<int>& counts,
                   const std::vector<int>& owners, double label_y) {
  const auto i = static_cast<std::size_t>(hole - 1);
  ViewCell c;
  c.id = std::to_string(hole);
  c.label = c.id;
  c.x = x;
  c.y = y;
  c.w = c.h = kWell;
  c.owner = owners[i];
  if (counts[i] < 0) {
    c.kind = CellKind::blind;
  } else {
    c.kind = CellKind::hole;
    c.count = counts[i];
  }
  c.label_at = std::array<double, 2>{x, label_y};
  return c;
}

}  // namespace

BoardView hole_rows(std::string family, const std::vector<std::vector<int>>& rows,
                    const std::vector<int>& counts, const std::vector<int>& owners, bool divider) {
  BoardView v;
  v.family = std::move(family);
  std::size_t columns = 0;
  for (const auto& r : rows) columns = std::max(columns, r.size());
  v.width = 2 * kEdge + kPitch * static_cast<double>(columns);
  const std::size_t top_rows = rows.size() / 2;
  double y = kEdge;
  double middle = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool top = r < top_rows;
    if (r == top_rows && r > 0) {
      middle = y + kHalfGap / 2;
      y += kHalfGap;
    }
    if (top) y += kLabelRoom;
    const double centre = y + kPitch / 2;
    const double label_y =
        top ? centre - kPitch / 2 - kLabelRoom / 2 : centre + kPitch / 2 + kLabelRoom / 2;
    // A shorter row is centred under the longer ones.
    const double offset = kPitch * static_cast<double>(columns - rows[r].size()) / 2;
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const double x = kEdge + offset + kPitch * (static_cast<double>(c) + 0.5);
      v.cells.push_back(hole_cell(rows[r][c], x, centre, counts, owners, label_y));
    }
    y += kPitch;
    if (!top) y += kLabelRoom;
  }
  v.height = y + kEdge;
  if (divider && top_rows > 0) v.lines.push_back({kEdge + 1, middle, v.width - kEdge - 1, middle});
  return v;
}

BoardView two_rows(std::string family, const std::vector<int>& counts) {
  const int n = static_cast<int>(counts.size()) / 2;
  std::vector<int> north, south, owners;
  for (int c = 0; c < n; ++c) {
    north.push_back(2 * n - c);
    south.push_back(1 + c);
  }
  for (int h = 1; h <= 2 * n; ++h) owners.push_back(h <= n ? 1 : 2);
  return hole_rows(std::move(family), {north, south}, counts, owners);
}

BoardView four_by_n(const std::vector<int>& counts) {
  const int n = static_cast<int>(counts.size()) / 4;
  std::vector<std::vector<int>> rows(4);
  std::vector<int> owners;
  for (int c = 0; c < n; ++c) {
    rows[0].push_back(four_rows::outer_hole(n, 2, c));
    rows[1].push_back(four_rows::inner_hole(n, 2, c));
    rows[2].push_back(four_rows::inner_hole(n, 1, c));
    rows[3].push_back(four_rows::outer_hole(n, 1, c));
  }
  for (int h = 1; h <= 4 * n; ++h) owners.push_back(four_rows::owner(n, h));
  return hole_rows("4x" + std::to_string(n), rows, counts, owners);
}

void add_store(BoardView& v, bool left, std::string id, int count, int owner) {
  double top = v.height, bottom = 0;
  for (const auto& c : v.cells) {
    top = std::min(top, c.y - c.h / 2);
    bottom = std::max(bottom, c.y + c.h / 2);
  }
  if (left) {
    for (auto& c : v.cells) {
      c.x += kStoreWidth;
      if (c.label_at) (*c.label_at)[0] += kStoreWidth;
    }
    for (auto& l : v.lines) {
      l[0] += kStoreWidth;
      l[2] += kStoreWidth;
    }
    for (auto& t : v.texts) t.x += kStoreWidth;
  }
  ViewCell s;
  s.id = std::move(id);
  s.label = s.id;
  s.kind = CellKind::store;
  s.count = count;
  s.owner = owner;
  s.x = left ? kEdge + kStoreWidth / 2 : v.width - kEdge + kStoreWidth / 2;
  s.y = (top + bottom) / 2;
  s.w = kStoreWidth - 1.6;
  s.h = bottom - top;
  s.label_at = std::array<double, 2>{s.x, bottom + kLabelRoom / 2};
  v.width += kStoreWidth;
  v.cells.push_back(std::move(s));
}

BoardView hole_ring(const std::vector<int>& counts, int bands) {
  constexpr double kRadius = 24;
  constexpr double kLabelRadius = 31;
  constexpr double kSize = 72;
  constexpr double kCentre = kSize / 2;
  const double degree = std::numbers::pi / 180;
  BoardView v;
  v.family = "oware-ring";
  v.width = v.height = kSize;
  const int per_band = 12 / bands;
  // Counter-clockwise on screen (y down): the angle grows in the mathematical sense and y = −sin.
  auto at = [&](double radius, double angle) {
    return std::array<double, 2>{kCentre + radius * std::cos(angle * degree),
                                 kCentre - radius * std::sin(angle * degree)};
  };
  auto hole_angle = [](double h) { return 195 + 30 * (h - 1); };
  for (int h = 1; h <= 12; ++h) {
    const auto i = static_cast<std::size_t>(h - 1);
    const auto p = at(kRadius, hole_angle(h));
    ViewCell c;
    c.id = std::to_string(h);
    c.label = c.id;
    c.x = p[0];
    c.y = p[1];
    c.w = c.h = kWell;
    c.count = counts[i];
    c.owner = (h - 1) / per_band + 1;
    c.label_at = at(kLabelRadius, hole_angle(h));
    v.cells.push_back(std::move(c));
  }
  for (int b = 1; b <= bands; ++b) {
    const double first = (b - 1) * per_band + 1, last = b * per_band;
    const auto name = at(13, hole_angle((first + last) / 2));
    v.texts.push_back({name[0], name[1], "P" + std::to_string(b), b});
    const auto inner = at(17, hole_angle(last + 0.5));
    const auto outer = at(33, hole_angle(last + 0.5));
    v.lines.push_back({inner[0], inner[1], outer[0], outer[1]});
  }
  return v;
}

BoardView point_board(std::string family, const graph::Board& board,
                      const std::function<std::optional<ViewPiece>(int)>& piece, double margin) {
  BoardView v;
  v.family = std::move(family);
  v.width = 2 * margin + kPitch * (board.width - 1);
  v.height = 2 * margin + kPitch * (board.height - 1);
  auto x_of = [&](int file) { return margin + kPitch * file; };
  auto y_of = [&](int rank) { return margin + kPitch * (board.height - 1 - rank); };
  for (int p = 0; p < board.size(); ++p) {
    const auto i = static_cast<std::size_t>(p);
    ViewCell c;
    c.id = graph::name(board, p);
    c.label = c.id;
    c.kind = CellKind::point;
    c.x = x_of(board.xs[i]);
    c.y = y_of(board.ys[i]);
    c.w = c.h = kPiece;
    c.piece = piece(p);
    v.cells.push_back(std::move(c));
  }
  for (const auto& line : board.lines) {
    const auto a = static_cast<std::size_t>(line.front());
    const auto b = static_cast<std::size_t>(line.back());
    v.lines.push_back({x_of(board.xs[a]), y_of(board.ys[a]), x_of(board.xs[b]), y_of(board.ys[b])});
  }
  const double edge = std::min(3.0, margin / 2);
  for (int f = 0; f < board.width; ++f)
    v.texts.push_back({x_of(f), v.height - edge, std::string(1, static_cast<char>('a' + f)), 0});
  for (int r = 0; r < board.height; ++r)
    v.texts.push_back({edge, y_of(r), std::to_string(r + 1), 0});
  return v;
}

}  // namespace view

}  // namespace referee::games
