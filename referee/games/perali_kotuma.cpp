#include "games/perali_kotuma.h"

#include <algorithm>

#include "games/board_graph.h"

namespace referee::games {

namespace {

using Cells = std::array<std::int8_t, PeraliCore::kPoints>;

// rules.md §4: the 24 lines, consecutive points joined.
const graph::Board& board_graph() {
  static const graph::Board b = graph::make_board(9, 9,
                                                  {"c1-e1-g1",
                                                   "d2-e2-f2",
                                                   "c9-e9-g9",
                                                   "d8-e8-f8",
                                                   "a3-a5-a7",
                                                   "b4-b5-b6",
                                                   "i3-i5-i7",
                                                   "h4-h5-h6",
                                                   "c3-d3-e3-f3-g3",
                                                   "c4-d4-e4-f4-g4",
                                                   "c6-d6-e6-f6-g6",
                                                   "c7-d7-e7-f7-g7",
                                                   "c3-c4-c5-c6-c7",
                                                   "d3-d4-d5-d6-d7",
                                                   "f3-f4-f5-f6-f7",
                                                   "g3-g4-g5-g6-g7",
                                                   "c3-d4-e5-f6-g7",
                                                   "c7-d6-e5-f4-g3",
                                                   "a5-b5-c5-d5-e5-f5-g5-h5-i5",
                                                   "e1-e2-e3-e4-e5-e6-e7-e8-e9",
                                                   "a3-b4-c5-d6-e7-f8-g9",
                                                   "a7-b6-c5-d4-e3-f2-g1",
                                                   "c1-d2-e3-f4-g5-h6-i7",
                                                   "c9-d8-e7-f6-g5-h4-i3"});
  return b;
}

std::size_t at(int p) {
  return static_cast<std::size_t>(p);
}
std::uint64_t bit(int p) {
  return std::uint64_t{1} << p;
}

// Every chain of jumps for the piece on `from` (already lifted from `b`); `all_prefixes` records
// every prefix, else only the chains that cannot go on.
void chains(const graph::Board& g, Cells& b, int player, PeraliCore::Move& m, bool all_prefixes,
            std::vector<PeraliCore::Move>& out) {
  const int here = m.path[at(m.length - 1)];
  bool extended = false;
  for (auto j : graph::jumps(g, here)) {
    if (b[at(j.over)] != 3 - player || b[at(j.to)] != 0) continue;
    extended = true;
    b[at(j.over)] = 0;
    m.path[at(m.length++)] = static_cast<std::int8_t>(j.to);
    if (all_prefixes) out.push_back(m);
    chains(g, b, player, m, all_prefixes, out);
    --m.length;
    b[at(j.over)] = static_cast<std::int8_t>(3 - player);
  }
  if (!extended && !all_prefixes && m.length > 1) out.push_back(m);
}

bool can_jump(const graph::Board& g, const Cells& b, int p, int player) {
  for (auto j : graph::jumps(g, p))
    if (b[at(j.over)] == 3 - player && b[at(j.to)] == 0) return true;
  return false;
}

// The pieces of `player` that could capture on `b`, as a bit set.
std::uint64_t capturers(const graph::Board& g, const Cells& b, int player) {
  std::uint64_t set = 0;
  for (int p = 0; p < g.size(); ++p)
    if (b[at(p)] == player && can_jump(g, b, p, player)) set |= bit(p);
  return set;
}

}  // namespace

std::vector<ParamSpec> perali_params() {
  return {{"huffing",
           "off",
           {"off", "on"},
           0,
           0,
           "off: capture and full chains compulsory; on: optional, prefixes are moves, huffs"}};
}

PeraliCore PeraliCore::start(const GameSetup& setup) {
  const auto& g = board_graph();
  PeraliCore c;
  c.mover = setup.first;
  c.huffing = setup.params.is("huffing", "on");
  const bool kotu = setup.name == "kotu-ellima";
  for (int p = 0; p < g.size(); ++p) {
    const int x = g.xs[at(p)], y = g.ys[at(p)];
    const bool square = x >= 2 && x <= 6 && y >= 2 && y <= 6;
    std::int8_t owner = 0;
    if (y <= 1 || (x <= 1) || (square && y <= 3) || (x == 2 && y == 4)) owner = 1;
    if (y >= 7 || (x >= 7) || (square && y >= 5) || (x == 6 && y == 4)) owner = 2;
    if (kotu && x == 3 && y == 4) owner = 1;
    if (kotu && x == 5 && y == 4) owner = 2;
    c.board[at(p)] = owner;
  }
  return c;
}

Expected<PeraliCore> PeraliCore::parse(const GameSetup& setup, std::string_view fields) {
  const auto& g = board_graph();
  PeraliCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'grid:player:huffable'"};
  auto grid = graph::parse_grid(g, parts[0], "xo");
  if (!grid) return grid.failure();
  for (int p = 0; p < g.size(); ++p)
    c.board[at(p)] = static_cast<std::int8_t>((*grid)[at(p)] == 'x'   ? 1
                                              : (*grid)[at(p)] == 'o' ? 2
                                                                      : 0);
  const int most = setup.name == "kotu-ellima" ? 24 : 23;
  if (c.count(1) > most || c.count(2) > most)
    return Error{"at most " + std::to_string(most) + " pieces per player"};
  if (parts[1] != "1" && parts[1] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[1][0] - '0';
  c.huffable = 0;
  if (parts[2] != "-") {
    if (!c.huffing) return Error{"huff rights exist only with huffing=on"};
    int last = -1;
    for (auto name : split(parts[2], ',')) {
      const int p = graph::find(g, name);
      if (p < 0) return Error{"bad huffable point '" + std::string(name) + "'"};
      if (p <= last) return Error{"huffable points must be listed once, in grid order"};
      if (c.board[at(p)] != 3 - c.mover)
        return Error{"huffable point " + std::string(name) + " holds no opponent piece"};
      c.huffable |= bit(p);
      last = p;
    }
  }
  return c;
}

int PeraliCore::count(int player) const {
  int n = 0;
  for (auto v : board) n += v == player;
  return n;
}

void PeraliCore::normal_moves(const Cells& b, int player, std::vector<Move>& out) const {
  const auto& g = board_graph();
  const std::size_t first = out.size();
  Cells work = b;
  for (int p = 0; p < g.size(); ++p) {
    if (b[at(p)] != player) continue;
    Move m;
    m.capture = true;
    m.length = 1;
    m.path[0] = static_cast<std::int8_t>(p);
    work[at(p)] = 0;
    chains(g, work, player, m, huffing, out);
    work[at(p)] = static_cast<std::int8_t>(player);
  }
  if (!huffing && out.size() > first) return;  // capture is compulsory
  for (int p = 0; p < g.size(); ++p) {
    if (b[at(p)] != player) continue;
    for (int n : g.edges[at(p)]) {
      if (b[at(n)] != 0) continue;
      Move m;
      m.length = 2;
      m.path[0] = static_cast<std::int8_t>(p);
      m.path[1] = static_cast<std::int8_t>(n);
      out.push_back(m);
    }
  }
}

void PeraliCore::moves(std::vector<Move>& out) const {
  normal_moves(board, mover, out);
  for (int h = 0; h < kPoints; ++h) {
    if (!(huffable & bit(h))) continue;
    Cells b = board;
    b[at(h)] = 0;
    const std::size_t first = out.size();
    normal_moves(b, mover, out);
    for (std::size_t i = first; i < out.size(); ++i) out[i].huff = h;
  }
}

Effect PeraliCore::play(const Move& m) {
  const auto& g = board_graph();
  if (m.huff >= 0) board[at(m.huff)] = 0;
  const std::uint64_t could = huffing ? capturers(g, board, mover) : 0;
  const int from = m.path[0], to = m.path[at(m.length - 1)];
  board[at(from)] = 0;
  if (m.capture)
    for (int i = 1; i < m.length; ++i) {
      const int a = m.path[at(i - 1)], c = m.path[at(i)];
      // Points are evenly spaced along every line, so the jumped point is the grid midpoint.
      const int over = g.at((g.xs[at(a)] + g.xs[at(c)]) / 2, (g.ys[at(a)] + g.ys[at(c)]) / 2);
      board[at(over)] = 0;
    }
  board[at(to)] = static_cast<std::int8_t>(mover);
  huffable = 0;
  if (huffing && could) {
    const bool undone = m.capture ? can_jump(g, board, to, mover) : true;
    if (undone) huffable = (could & bit(from)) ? ((could & ~bit(from)) | bit(to)) : could;
  }
  mover = 3 - mover;
  return {m.capture, m.capture || m.huff >= 0};
}

std::string PeraliCore::move_text(const Move& m) const {
  const auto& g = board_graph();
  std::string s;
  if (m.huff >= 0) {
    s += '!';
    s += graph::name(g, m.huff);
    s += ',';
  }
  s += graph::name(g, m.path[0]);
  for (int i = 1; i < m.length; ++i) {
    s += m.capture ? 'x' : '-';
    s += graph::name(g, m.path[at(i)]);
  }
  return s;
}

std::optional<PeraliCore::Move> PeraliCore::legal_move(std::string_view text) const {
  const auto& g = board_graph();
  const std::string_view original = text;
  Move m;
  Cells b = board;
  if (!text.empty() && text[0] == '!') {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const int h = graph::find(g, text.substr(1, comma - 1));
    if (h < 0 || !(huffable & bit(h))) return std::nullopt;
    m.huff = h;
    b[at(h)] = 0;
    text = text.substr(comma + 1);
  }
  char sep = 0;
  for (std::size_t i = 0;;) {  // points joined by '-' or 'x' ('x' is no file letter here)
    std::size_t j = i + 1;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    if (i >= text.size() || m.length == static_cast<int>(m.path.size())) return std::nullopt;
    const int p = graph::find(g, text.substr(i, j - i));
    if (p < 0) return std::nullopt;
    m.path[at(m.length++)] = static_cast<std::int8_t>(p);
    if (j == text.size()) break;
    if ((text[j] != '-' && text[j] != 'x') || (sep && text[j] != sep)) return std::nullopt;
    sep = text[j];
    i = j + 1;
  }
  const int from = m.path[0];
  if (m.length < 2 || b[at(from)] != mover) return std::nullopt;
  if (sep == '-') {
    const int to = m.path[1];
    const auto& next = g.edges[at(from)];
    if (m.length != 2 || b[at(to)] != 0 || std::find(next.begin(), next.end(), to) == next.end())
      return std::nullopt;
    if (!huffing && capturers(g, b, mover)) return std::nullopt;
  } else {
    m.capture = true;
    b[at(from)] = 0;
    for (int i = 1; i < m.length; ++i) {
      const int here = m.path[at(i - 1)], to = m.path[at(i)];
      bool found = false;
      for (auto jump : graph::jumps(g, here))
        if (jump.to == to && b[at(jump.over)] == 3 - mover && b[at(to)] == 0) {
          b[at(jump.over)] = 0;
          found = true;
        }
      if (!found) return std::nullopt;
    }
    if (!huffing && can_jump(g, b, m.path[at(m.length - 1)], mover)) return std::nullopt;
  }
  if (move_text(m) != original) return std::nullopt;
  return m;
}

namespace {

bool any_move(const graph::Board& g, const Cells& b, int player) {
  for (int p = 0; p < g.size(); ++p) {
    if (b[at(p)] != player) continue;
    if (can_jump(g, b, p, player)) return true;
    for (int n : g.edges[at(p)])
      if (b[at(n)] == 0) return true;
  }
  return false;
}

}  // namespace

bool PeraliCore::over() const {
  const auto& g = board_graph();
  if (any_move(g, board, mover)) return false;
  for (int h = 0; h < kPoints; ++h) {
    if (!(huffable & bit(h))) continue;
    Cells b = board;
    b[at(h)] = 0;
    if (any_move(g, b, mover)) return false;
  }
  return true;
}

Outcome PeraliCore::result() const {
  return win_for(3 - mover, 2, {static_cast<double>(count(1)), static_cast<double>(count(2))},
                 "rules");
}

Outcome PeraliCore::exhausted() const {
  return rank_by_score({static_cast<double>(count(1)), static_cast<double>(count(2))}, "rules");
}

std::vector<double> PeraliCore::material() const {
  return {static_cast<double>(count(1)), static_cast<double>(count(2))};
}

std::string PeraliCore::text() const {
  const auto& g = board_graph();
  std::string s = graph::grid_text(g, [&](int p) {
    return board[at(p)] == 1 ? 'x' : board[at(p)] == 2 ? 'o' : '\0';
  });
  s += ':';
  s += std::to_string(mover);
  s += ':';
  if (!huffable) s += '-';
  bool first = true;
  for (int p = 0; p < kPoints; ++p) {
    if (!(huffable & bit(p))) continue;
    if (!first) s += ',';
    s += graph::name(g, p);
    first = false;
  }
  return s;
}

std::string PeraliCore::draw() const {
  const auto& g = board_graph();
  std::string s = graph::draw(g, [&](int p) {
    return board[at(p)] == 1 ? 'x' : board[at(p)] == 2 ? 'o' : '\0';
  });
  s += "x (South, player 1): " + std::to_string(count(1)) +
       "   o (North, player 2): " + std::to_string(count(2)) +
       "   to move: " + (mover == 1 ? "x" : "o") + "\n";
  if (huffable) {
    std::string list;
    for (int p = 0; p < kPoints; ++p)
      if (huffable & bit(p)) {
        list += ' ';
        list += graph::name(g, p);
      }
    s += "may huff:" + list + "\n";
  }
  return s;
}

std::uint64_t PeraliCore::hash() const {
  Hasher h;
  std::uint64_t words[2] = {0, 0};  // two bits per point
  for (int p = 0; p < kPoints; ++p)
    words[p / 32] |= static_cast<std::uint64_t>(board[at(p)]) << (2 * (p % 32));
  h.add(words[0]);
  h.add(words[1]);
  h.add(static_cast<std::uint64_t>(mover));
  h.add(huffable);
  return h.value();
}

BoardView PeraliCore::view() const {
  BoardView v = view::point_board(
      "alquerque", board_graph(),
      [&](int p) -> std::optional<ViewPiece> {
        if (board[at(p)] == 0) return std::nullopt;
        return ViewPiece{board[at(p)], false};
      },
      9);
  for (int p = 0; p < kPoints; ++p) v.cells[at(p)].mark = (huffable & bit(p)) != 0;
  v.legend = "may be huffed by the player to move";
  v.score_label = "pieces";
  return v;
}

}  // namespace referee::games
