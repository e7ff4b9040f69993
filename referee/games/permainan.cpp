#include "games/permainan.h"

#include <algorithm>

#include "games/board_graph.h"

namespace referee::games {

namespace {

// The drawn lines (ranks and files); diagonal steps and the circuits are rules, not lines.
const graph::Board& board_graph() {
  static const graph::Board b = graph::make_board(
      6, 6,
      {"a1-b1-c1-d1-e1-f1", "a2-b2-c2-d2-e2-f2", "a3-b3-c3-d3-e3-f3", "a4-b4-c4-d4-e4-f4",
       "a5-b5-c5-d5-e5-f5", "a6-b6-c6-d6-e6-f6", "a1-a2-a3-a4-a5-a6", "b1-b2-b3-b4-b5-b6",
       "c1-c2-c3-c4-c5-c6", "d1-d2-d3-d4-d5-d6", "e1-e2-e3-e4-e5-e6", "f1-f2-f3-f4-f5-f6"});
  return b;
}

std::size_t at(int p) {
  return static_cast<std::size_t>(p);
}
int pt(int x, int y) {
  return y * 6 + x;
}

struct Circuit {
  std::array<int, 24> points;  // in walking order
  // An arc joins points[i] and points[i+1 mod 24] exactly when i % 6 == 5.
};

// rules.md §6: four lines of 6 points walked in order, an arc after each line.
Circuit circuit(int near) {
  const int far = 5 - near;
  Circuit c{};
  for (int i = 0; i < 6; ++i) {
    c.points[at(i)] = pt(i, near);           // rank near+1, west to east
    c.points[at(6 + i)] = pt(far, i);        // file far, south to north
    c.points[at(12 + i)] = pt(5 - i, far);   // rank far+1, east to west
    c.points[at(18 + i)] = pt(near, 5 - i);  // file near, north to south
  }
  return c;
}

const std::array<Circuit, 2>& circuits() {
  static const std::array<Circuit, 2> both = {circuit(1), circuit(2)};
  return both;
}

}  // namespace

PermainanCore PermainanCore::start(const GameSetup& setup) {
  PermainanCore c;
  c.mover = setup.first;
  for (int p = 0; p < kPoints; ++p) c.board[at(p)] = p < 12 ? 1 : p >= 24 ? 2 : 0;
  return c;
}

Expected<PermainanCore> PermainanCore::parse(const GameSetup& setup, std::string_view fields) {
  PermainanCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 2) return Error{"expected 2 fields 'grid:player'"};
  auto grid = graph::parse_grid(board_graph(), parts[0], "xo");
  if (!grid) return grid.failure();
  for (int p = 0; p < kPoints; ++p)
    c.board[at(p)] = static_cast<std::int8_t>((*grid)[at(p)] == 'x'   ? 1
                                              : (*grid)[at(p)] == 'o' ? 2
                                                                      : 0);
  if (c.count(1) > 12 || c.count(2) > 12) return Error{"at most 12 pieces per player"};
  if (parts[1] != "1" && parts[1] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[1][0] - '0';
  return c;
}

int PermainanCore::count(int player) const {
  return static_cast<int>(std::count(board.begin(), board.end(), player));
}

std::array<bool, PermainanCore::kPoints> PermainanCore::targets(int p) const {
  std::array<bool, kPoints> found{};
  for (const Circuit& c : circuits())
    for (int k = 0; k < 24; ++k) {
      if (c.points[at(k)] != p) continue;
      for (int dir : {1, -1}) {
        int arcs = 0, i = k;
        for (int s = 1; s < 24; ++s) {
          const int next = (i + dir + 24) % 24;
          if ((dir == 1 ? i : next) % 6 == 5) ++arcs;
          i = next;
          const int q = c.points[at(i)];
          if (q == p || !board[at(q)]) continue;
          if (arcs > 0 && board[at(q)] == 3 - board[at(p)]) found[at(q)] = true;
          break;
        }
      }
    }
  return found;
}

void PermainanCore::moves(std::vector<Move>& out) const {
  if (over()) return;
  const std::size_t first = out.size();
  for (int p = 0; p < kPoints; ++p) {
    if (board[at(p)] != mover) continue;
    const int x = p % 6, y = p / 6;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if ((dx || dy) && nx >= 0 && nx < 6 && ny >= 0 && ny < 6 && !board[at(pt(nx, ny))])
          out.push_back({p, pt(nx, ny), false});
      }
    const auto found = targets(p);
    for (int q = 0; q < kPoints; ++q)
      if (found[at(q)]) out.push_back({p, q, true});
  }
  if (out.size() == first) out.push_back({});  // no move: pass
}

std::optional<PermainanCore::Move> PermainanCore::legal_move(std::string_view text) const {
  if (over()) return std::nullopt;
  if (text == "pass") {
    std::vector<Move> all;
    moves(all);
    if (all.size() == 1 && all[0].from < 0) return all[0];
    return std::nullopt;
  }
  const auto& g = board_graph();
  if (text.size() != 5 || (text[2] != '-' && text[2] != 'x')) return std::nullopt;
  const int from = graph::find(g, text.substr(0, 2)), to = graph::find(g, text.substr(3, 2));
  if (from < 0 || to < 0 || board[at(from)] != mover) return std::nullopt;
  if (text[2] == 'x') {
    if (!targets(from)[at(to)]) return std::nullopt;
    return Move{from, to, true};
  }
  const int dx = to % 6 - from % 6, dy = to / 6 - from / 6;
  if (board[at(to)] || dx < -1 || dx > 1 || dy < -1 || dy > 1) return std::nullopt;
  return Move{from, to, false};
}

Effect PermainanCore::play(const Move& m) {
  if (m.from >= 0) {
    board[at(m.to)] = board[at(m.from)];
    board[at(m.from)] = 0;
  }
  mover = 3 - mover;
  return {m.capture, m.capture};
}

std::string PermainanCore::move_text(const Move& m) const {
  if (m.from < 0) return "pass";
  const auto& g = board_graph();
  return graph::name(g, m.from) + (m.capture ? "x" : "-") + graph::name(g, m.to);
}

Outcome PermainanCore::result() const {
  return win_for(count(1) == 0 ? 2 : 1, 2,
                 {static_cast<double>(count(1)), static_cast<double>(count(2))}, "rules");
}

Outcome PermainanCore::exhausted() const {
  return rank_by_score({static_cast<double>(count(1)), static_cast<double>(count(2))}, "rules");
}

std::vector<double> PermainanCore::material() const {
  return {static_cast<double>(count(1)), static_cast<double>(count(2))};
}

std::string PermainanCore::text() const {
  return graph::grid_text(board_graph(),
                          [&](int p) {
                            return board[at(p)] == 1 ? 'x' : board[at(p)] == 2 ? 'o' : '\0';
                          }) +
         ":" + std::to_string(mover);
}

std::string PermainanCore::draw() const {
  std::string s = graph::draw(board_graph(), [&](int p) {
    return board[at(p)] == 1 ? 'x' : board[at(p)] == 2 ? 'o' : '\0';
  });
  s += "inner circuit: rank 2, file e, rank 5, file b; outer: rank 3, file d, rank 4, file c;\n"
       "arcs join them around the corners\n";
  s += "x (South, player 1): " + std::to_string(count(1)) +
       "   o (North, player 2): " + std::to_string(count(2)) +
       "   to move: " + (mover == 1 ? "x" : "o") + "\n";
  return s;
}

std::uint64_t PermainanCore::hash() const {
  Hasher h;
  std::uint64_t words[2] = {0, 0};  // two bits per point
  for (int p = 0; p < kPoints; ++p)
    words[p / 32] |= static_cast<std::uint64_t>(board[at(p)]) << (2 * (p % 32));
  h.add(words[0]);
  h.add(words[1]);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView PermainanCore::view() const {
  BoardView v = view::point_board(
      "permainan", board_graph(),
      [&](int p) -> std::optional<ViewPiece> {
        if (board[at(p)] == 0) return std::nullopt;
        return ViewPiece{board[at(p)], false};
      },
      26);
  // rules.md §6: an arc round each corner joins the circuits' lines, outside the board (angles
  // clockwise on screen from +x): inner circuit radius 1 pitch, outer 2.
  struct Corner {
    const char* point;
    double from;
  };
  for (const Corner& c :
       {Corner{"a1", 0}, Corner{"f1", 270}, Corner{"f6", 180}, Corner{"a6", 90}}) {
    const ViewCell* corner = find_cell(v, c.point);
    for (int group = 1; group <= 2; ++group)
      v.arcs.push_back({corner->x, corner->y, group * view::kPitch, c.from, c.from + 270, group});
  }
  v.score_label = "pieces";
  return v;
}

}  // namespace referee::games
