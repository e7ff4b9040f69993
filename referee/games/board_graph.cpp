#include "games/board_graph.h"

#include <algorithm>
#include <cstdlib>

namespace referee::games::graph {

namespace {

// "c3" -> (2, 2); the names in the constant tables are trusted.
std::pair<int, int> coords(std::string_view text) {
  return {text[0] - 'a', std::atoi(std::string(text.substr(1)).c_str()) - 1};
}

std::vector<std::string_view> split_dash(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    auto dash = text.find('-', start);
    out.push_back(text.substr(start, dash - start));
    if (dash == std::string_view::npos) return out;
    start = dash + 1;
  }
}

}  // namespace

Board make_board(int width, int height, const std::vector<std::string>& lines,
                 const std::vector<std::string>& isolated) {
  Board b;
  b.width = width;
  b.height = height;
  b.cell.assign(static_cast<std::size_t>(width * height), -1);
  std::vector<std::vector<std::pair<int, int>>> line_coords;
  for (const auto& line : lines) {
    line_coords.emplace_back();
    for (auto n : split_dash(line)) {
      auto [x, y] = coords(n);
      line_coords.back().push_back({x, y});
      b.cell[static_cast<std::size_t>(y * width + x)] = 0;
    }
  }
  for (const auto& n : isolated) {
    auto [x, y] = coords(n);
    b.cell[static_cast<std::size_t>(y * width + x)] = 0;
  }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      auto& c = b.cell[static_cast<std::size_t>(y * width + x)];
      if (c < 0) continue;
      c = b.size();
      b.xs.push_back(x);
      b.ys.push_back(y);
    }
  b.rays.resize(static_cast<std::size_t>(b.size()));
  b.edges.resize(static_cast<std::size_t>(b.size()));
  for (const auto& lc : line_coords) {
    std::vector<int> ids;
    for (auto [x, y] : lc) ids.push_back(b.at(x, y));
    const int n = static_cast<int>(ids.size());
    for (int i = 0; i < n; ++i) {
      auto& rays = b.rays[static_cast<std::size_t>(ids[static_cast<std::size_t>(i)])];
      if (i + 1 < n) rays.emplace_back(ids.begin() + i + 1, ids.end());
      if (i > 0) rays.emplace_back(ids.rbegin() + (n - i), ids.rend());
    }
    b.lines.push_back(std::move(ids));
  }
  b.hops.resize(static_cast<std::size_t>(b.size()));
  for (int p = 0; p < b.size(); ++p)
    for (const auto& ray : b.rays[static_cast<std::size_t>(p)]) {
      b.edges[static_cast<std::size_t>(p)].push_back(ray.front());
      if (ray.size() >= 2) b.hops[static_cast<std::size_t>(p)].push_back({ray[0], ray[1]});
    }
  return b;
}

std::string name(const Board& b, int point) {
  const auto i = static_cast<std::size_t>(point);
  std::string s(1, static_cast<char>('a' + b.xs[i]));
  s += std::to_string(b.ys[i] + 1);
  return s;
}

int find(const Board& b, std::string_view text) {
  if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] >= 'a' + b.width) return -1;
  if (text[1] < '1' || text[1] > '9') return -1;
  int rank = text[1] - '0';
  if (text.size() == 3) {
    if (text[2] < '0' || text[2] > '9') return -1;
    rank = rank * 10 + (text[2] - '0');
  }
  return b.at(text[0] - 'a', rank - 1);
}

const std::vector<Jump>& jumps(const Board& b, int point) {
  return b.hops[static_cast<std::size_t>(point)];
}

std::string grid_text(const Board& b, const std::function<char(int)>& piece) {
  std::string out;
  for (int y = b.height - 1; y >= 0; --y) {
    int run = 0;
    auto flush = [&] {
      if (run) out += std::to_string(run);
      run = 0;
    };
    for (int x = 0; x < b.width; ++x) {
      const int p = b.at(x, y);
      if (p < 0) {
        flush();
        out += '-';
      } else if (char c = piece(p)) {
        flush();
        out += c;
      } else {
        ++run;
      }
    }
    flush();
    if (y > 0) out += '/';
  }
  return out;
}

Expected<std::vector<char>> parse_grid(const Board& b, std::string_view text,
                                       std::string_view letters) {
  std::vector<char> pieces(static_cast<std::size_t>(b.size()), '\0');
  std::vector<std::string_view> ranks;
  std::size_t start = 0;
  while (true) {
    auto slash = text.find('/', start);
    ranks.push_back(text.substr(start, slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (static_cast<int>(ranks.size()) != b.height)
    return Error{"the grid needs " + std::to_string(b.height) + " ranks separated by '/'"};
  for (int r = 0; r < b.height; ++r) {
    const int y = b.height - 1 - r;
    const std::string_view rank = ranks[static_cast<std::size_t>(r)];
    const std::string where = "rank " + std::to_string(y + 1) + " '" + std::string(rank) + "'";
    int x = 0;
    for (std::size_t i = 0; i < rank.size();) {
      const char c = rank[i];
      if (c >= '1' && c <= '9') {
        int run = 0;
        while (i < rank.size() && rank[i] >= '0' && rank[i] <= '9' && run < 100)
          run = run * 10 + (rank[i++] - '0');
        for (int k = 0; k < run; ++k, ++x)
          if (b.at(x, y) < 0) return Error{where + ": empty run crosses a non-point or the edge"};
        continue;
      }
      if (x >= b.width) return Error{where + ": too long"};
      const int p = b.at(x, y);
      if (c == '-') {
        if (p >= 0) return Error{where + ": '-' on the point " + name(b, p)};
      } else if (letters.find(c) != std::string_view::npos) {
        if (p < 0) return Error{where + ": a piece off the board"};
        pieces[static_cast<std::size_t>(p)] = c;
      } else {
        return Error{where + ": unexpected character '" + std::string(1, c) + "'"};
      }
      ++x;
      ++i;
    }
    if (x != b.width) return Error{where + ": needs " + std::to_string(b.width) + " cells"};
  }
  return pieces;
}

std::string draw(const Board& b, const std::function<char(int)>& piece) {
  const int cols = 4 * (b.width - 1) + 1, rows = 2 * (b.height - 1) + 1;
  std::vector<std::string> canvas(static_cast<std::size_t>(rows),
                                  std::string(static_cast<std::size_t>(cols), ' '));
  auto put = [&](int col, int row, char c) {
    char& cell = canvas[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
    cell = (cell == ' ' || cell == c) ? c : '*';
  };
  for (const auto& line : b.lines)
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      const auto p = static_cast<std::size_t>(line[i]), q = static_cast<std::size_t>(line[i + 1]);
      const int c1 = 4 * b.xs[p], r1 = 2 * (b.height - 1 - b.ys[p]);
      const int c2 = 4 * b.xs[q], r2 = 2 * (b.height - 1 - b.ys[q]);
      const int dc = (c2 > c1) - (c2 < c1), dr = (r2 > r1) - (r2 < r1);
      const char mark = dr == 0 ? '-' : dc == 0 ? '|' : (dc == dr ? '\\' : '/');
      if (dr == 0 || dc == 0) {
        for (int c = c1 + dc, r = r1 + dr; c != c2 || r != r2; c += dc, r += dr) put(c, r, mark);
      } else {  // diagonal: 4 columns for 2 rows per grid step; mark the half-steps
        const int steps = std::abs(b.xs[q] - b.xs[p]);
        for (int s = 0; s < 2 * steps - 1; ++s) put(c1 + dc * (2 + 2 * s), r1 + dr * (1 + s), mark);
      }
    }
  for (int p = 0; p < b.size(); ++p) {
    const char c = piece(p);
    canvas[static_cast<std::size_t>(2 * (b.height - 1 - b.ys[static_cast<std::size_t>(p)]))]
          [static_cast<std::size_t>(4 * b.xs[static_cast<std::size_t>(p)])] = c ? c : '.';
  }
  std::string out;
  for (int r = 0; r < rows; ++r) {
    std::string label = r % 2 == 0 ? std::to_string(b.height - r / 2) : "";
    out += std::string(3 - label.size(), ' ') + label + "  " + canvas[static_cast<std::size_t>(r)];
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  std::string files(static_cast<std::size_t>(cols), ' ');
  for (int x = 0; x < b.width; ++x)
    files[static_cast<std::size_t>(4 * x)] = static_cast<char>('a' + x);
  out += "     " + files + "\n";
  return out;
}

}  // namespace referee::games::graph
