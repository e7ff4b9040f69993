#include "games/felli.h"

#include "games/board_graph.h"

namespace referee::games {

namespace {

const graph::Board& board_graph() {
  static const graph::Board b =
      graph::make_board(5, 5,
                        {"a1-c1-e1", "b2-c2-d2", "b4-c4-d4", "a5-c5-e5", "a1-b2-c3-d4-e5",
                         "e1-d2-c3-b4-a5", "c1-c2-c3-c4-c5"});
  return b;
}

std::size_t at(int p) {
  return static_cast<std::size_t>(p);
}
int owner(char c) {
  return c == 'x' || c == 'X' ? 1 : c == 'o' || c == 'O' ? 2 : 0;
}
bool is_king(char c) {
  return c == 'X' || c == 'O';
}
int far_rank(int player) {
  return player == 1 ? 4 : 0;
}

}  // namespace

FelliCore FelliCore::start(const GameSetup& setup) {
  const auto& g = board_graph();
  FelliCore c;
  c.mover = setup.first;
  for (int p = 0; p < g.size(); ++p) {
    const int y = g.ys[at(p)];
    c.board[at(p)] = y <= 1 ? 'x' : y >= 3 ? 'o' : '\0';
  }
  return c;
}

Expected<FelliCore> FelliCore::parse(const GameSetup& setup, std::string_view fields) {
  const auto& g = board_graph();
  FelliCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 4) return Error{"expected 4 fields 'grid:player:mark1:mark2'"};
  auto grid = graph::parse_grid(g, parts[0], "xoXO");
  if (!grid) return grid.failure();
  for (int p = 0; p < g.size(); ++p) c.board[at(p)] = (*grid)[at(p)];
  if (c.count(1) > 6 || c.count(2) > 6) return Error{"at most 6 pieces per player"};
  for (int p = 0; p < g.size(); ++p) {
    const char v = c.board[at(p)];
    if (v && !is_king(v) && g.ys[at(p)] == far_rank(owner(v)))
      return Error{"a man on its far row (" + graph::name(g, p) + ") would be a king"};
  }
  if (parts[1] != "1" && parts[1] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[1][0] - '0';
  for (int player = 1; player <= 2; ++player) {
    const auto field = parts[static_cast<std::size_t>(player + 1)];
    Mark& m = c.marks[static_cast<std::size_t>(player - 1)];
    if (field == "-") continue;
    auto ends = split(field, '-');
    if (ends.size() != 2) return Error{"a mark is 'P-Q' or '-', not '" + std::string(field) + "'"};
    m.from = graph::find(g, ends[0]);
    m.to = graph::find(g, ends[1]);
    if (m.from < 0 || m.to < 0) return Error{"bad mark '" + std::string(field) + "'"};
    bool on_line = false;
    for (const auto& ray : g.rays[at(m.to)])
      for (int p : ray) on_line |= p == m.from;
    if (!on_line) return Error{"mark '" + std::string(field) + "' is not along a line"};
    if (owner(c.board[at(m.to)]) != player)
      return Error{"mark '" + std::string(field) + "': no piece of player " +
                   std::to_string(player) + " on its second point"};
    if (owner(c.board[at(m.from)]) == player || (player != c.mover && c.board[at(m.from)]))
      return Error{"mark '" + std::string(field) + "': its first point cannot be occupied"};
  }
  return c;
}

int FelliCore::count(int player) const {
  int n = 0;
  for (char v : board) n += owner(v) == player;
  return n;
}

void FelliCore::moves(std::vector<Move>& out) const {
  const auto& g = board_graph();
  const int enemy = 3 - mover;
  const std::size_t first = out.size();
  for (int p = 0; p < g.size(); ++p) {  // captures
    const char v = board[at(p)];
    if (owner(v) != mover) continue;
    for (const auto& ray : g.rays[at(p)]) {
      std::size_t i = 0;
      if (is_king(v))
        while (i < ray.size() && !board[at(ray[i])]) ++i;
      if (i + 1 >= ray.size() || owner(board[at(ray[i])]) != enemy) continue;
      for (std::size_t k = i + 1; k < ray.size() && !board[at(ray[k])]; ++k) {
        out.push_back({p, ray[k], ray[i]});
        if (!is_king(v)) break;
      }
    }
  }
  if (out.size() > first) return;  // capture is compulsory
  const Mark& mark = marks[static_cast<std::size_t>(mover - 1)];
  for (int p = 0; p < g.size(); ++p) {  // steps and slides
    const char v = board[at(p)];
    if (owner(v) != mover) continue;
    for (const auto& ray : g.rays[at(p)]) {
      if (!is_king(v)) {
        const int dy = g.ys[at(ray[0])] - g.ys[at(p)];
        if (mover == 1 ? dy < 0 : dy > 0) continue;  // men never step back
      }
      for (std::size_t k = 0; k < ray.size() && !board[at(ray[k])]; ++k) {
        if (!(p == mark.to && ray[k] == mark.from)) out.push_back({p, ray[k], -1});
        if (!is_king(v)) break;
      }
    }
  }
}

Effect FelliCore::play(const Move& m) {
  const auto& g = board_graph();
  char v = board[at(m.from)];
  board[at(m.from)] = '\0';
  if (m.taken >= 0) {
    board[at(m.taken)] = '\0';
    Mark& theirs = marks[static_cast<std::size_t>(2 - mover)];
    if (theirs.to == m.taken) theirs = Mark{};
  }
  if (!is_king(v) && g.ys[at(m.to)] == far_rank(mover)) v = mover == 1 ? 'X' : 'O';
  board[at(m.to)] = v;
  marks[static_cast<std::size_t>(mover - 1)] = m.taken >= 0 ? Mark{} : Mark{m.from, m.to};
  mover = 3 - mover;
  return {m.taken >= 0, m.taken >= 0};
}

std::string FelliCore::move_text(const Move& m) const {
  const auto& g = board_graph();
  return graph::name(g, m.from) + (m.taken >= 0 ? "x" : "-") + graph::name(g, m.to);
}

bool FelliCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Outcome FelliCore::result() const {
  return win_for(3 - mover, 2, {static_cast<double>(count(1)), static_cast<double>(count(2))},
                 "rules");
}

Outcome FelliCore::exhausted() const {
  return rank_by_score({static_cast<double>(count(1)), static_cast<double>(count(2))}, "rules");
}

std::vector<double> FelliCore::material() const {
  return {static_cast<double>(count(1)), static_cast<double>(count(2))};
}

std::string FelliCore::text() const {
  const auto& g = board_graph();
  std::string s = graph::grid_text(g, [&](int p) { return board[at(p)]; });
  s += ':';
  s += std::to_string(mover);
  for (const Mark& m : marks) {
    s += ':';
    if (m.from < 0) {
      s += '-';
    } else {
      s += graph::name(g, m.from);
      s += '-';
      s += graph::name(g, m.to);
    }
  }
  return s;
}

std::string FelliCore::draw() const {
  const auto& g = board_graph();
  std::string s = graph::draw(g, [&](int p) { return board[at(p)]; });
  s += "x X (South, player 1): " + std::to_string(count(1)) +
       "   o O (North, player 2): " + std::to_string(count(2)) +
       "   to move: " + (mover == 1 ? "x" : "o") + "\n";
  for (int player = 1; player <= 2; ++player) {
    const Mark& m = marks[static_cast<std::size_t>(player - 1)];
    if (m.from >= 0)
      s += std::string(player == 1 ? "x" : "o") + " may not return " + graph::name(g, m.to) +
           " to " + graph::name(g, m.from) + "\n";
  }
  return s;
}

std::uint64_t FelliCore::hash() const {
  Hasher h;
  h.add_all(board);
  h.add(static_cast<std::uint64_t>(mover));
  for (const Mark& m : marks) {
    h.add(static_cast<std::uint64_t>(m.from + 1));
    h.add(static_cast<std::uint64_t>(m.to + 1));
  }
  return h.value();
}

BoardView FelliCore::view() const {
  const auto& g = board_graph();
  BoardView v = view::point_board(
      "felli", g,
      [&](int p) -> std::optional<ViewPiece> {
        if (!owner(board[at(p)])) return std::nullopt;
        return ViewPiece{owner(board[at(p)]), is_king(board[at(p)])};
      },
      9);
  for (int player = 1; player <= 2; ++player) {
    const Mark& m = marks[static_cast<std::size_t>(player - 1)];
    if (m.from < 0) continue;
    v.cells[at(m.to)].mark = true;
    v.notes.push_back("player " + std::to_string(player) + " may not return " +
                      graph::name(g, m.to) + " to " + graph::name(g, m.from));
  }
  v.legend = "may not step back to where it came from";
  v.score_label = "pieces";
  return v;
}

}  // namespace referee::games
