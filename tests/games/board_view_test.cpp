// Board views (games/board_view.h): for every game, the view of the start position and of every
// position of seeded random playouts agrees with the position string, decoded here independently
// of the rules library (seeds per hole, blind holes, stores, pieces per point, scores, the player
// to move, marks), and its geometry is sane (cells and labels inside the box, no two cells on one
// spot, ids unique, board lines between points, permainan's arcs joining its circuits' ends, the
// hole order of rules.md §1). Then the JSON form (board_view_json.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "games/board_view_json.h"
#include "games/game.h"
#include "games/game_test_util.h"
#include "games/registry.h"

using namespace referee::games;
using referee::games::testing::after_moves;
using referee::games::testing::at;

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == sep)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// The ':'-separated fields of a position string.
std::vector<std::string> fields(const State& s) {
  return split(s.to_string(), ':');
}

// A mancala board field ("4,4/4,4", 'x' for a blind hole) as counts by hole number − 1, −1 blind.
std::vector<int> hole_counts(const std::string& field) {
  std::vector<int> out;
  for (const auto& block : split(field, '/'))
    for (const auto& n : split(block, ',')) out.push_back(n == "x" ? -1 : std::stoi(n));
  return out;
}

std::vector<double> numbers(const std::string& field) {
  std::vector<double> out;
  for (const auto& n : split(field, ',')) out.push_back(std::stod(n));
  return out;
}

// A grid field ("o-o-o/-ooo-/...", ranks from the top) as point name -> letter ('.' empty).
std::map<std::string, char> grid_points(const std::string& field) {
  std::map<std::string, char> out;
  const auto ranks = split(field, '/');
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const int rank = static_cast<int>(ranks.size() - r);
    int file = 0;
    for (char c : ranks[r]) {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        for (int k = 0; k < c - '0'; ++k, ++file)
          out[std::string(1, static_cast<char>('a' + file)) + std::to_string(rank)] = '.';
      } else {
        if (c != '-') out[std::string(1, static_cast<char>('a' + file)) + std::to_string(rank)] = c;
        ++file;
      }
    }
  }
  return out;
}

bool point_game(const std::string& name) {
  return name == "perali-kotuma" || name == "kotu-ellima" || name == "felli" || name == "permainan";
}

// rules.md §1: the owner of each hole.
int expected_owner(const Game& g, int hole, int holes) {
  const std::string& name = g.name();
  if (name == "oware") {
    const int k = static_cast<int>(g.params().number("players"));
    return (hole - 1) / (12 / k) + 1;
  }
  if (name == "lontu-holo") return hole <= 3 || hole >= 10 ? 1 : 2;
  return hole <= holes / 2 ? 1 : 2;
}

double sum(const std::vector<int>& counts, int first, int last) {
  double s = 0;
  for (int h = first; h <= last; ++h) s += counts[static_cast<std::size_t>(h - 1)];
  return s;
}

// The scores the view must show, from the position string alone.
std::vector<double> expected_scores(const Game& g, const State& s) {
  const auto f = fields(s);
  const std::string& name = g.name();
  if (point_game(name)) {
    std::vector<double> out(2, 0);
    for (auto [point, c] : grid_points(f[0]))
      if (c != '.') out[std::tolower(static_cast<unsigned char>(c)) == 'x' ? 0 : 1] += 1;
    return out;
  }
  const auto counts = hole_counts(f[0]);
  const int n = static_cast<int>(counts.size());
  if (name == "chongkak") return {sum(counts, 1, 7), sum(counts, 8, 14)};
  if (name == "mweso") return {sum(counts, 1, 16), sum(counts, 17, 32)};
  if (name == "lontu-holo") return {sum(counts, 1, 3) + sum(counts, 10, 12), sum(counts, 4, 9)};
  (void)n;
  return numbers(f[1]);  // captures, stores (kalaha) or reserves (pallankuli)
}

bool inside(const BoardView& v, double x, double y) {
  return x >= 0 && y >= 0 && x <= v.width && y <= v.height;
}

bool near(double a, double b) {
  return std::abs(a - b) < 0.01;
}

const ViewCell& cell(const BoardView& v, const std::string& id) {
  const ViewCell* c = find_cell(v, id);
  INFO("cell " << id);
  REQUIRE(c != nullptr);
  return *c;
}

void check_geometry(const BoardView& v) {
  REQUIRE(v.width > 0);
  REQUIRE(v.height > 0);
  REQUIRE_FALSE(v.cells.empty());
  std::set<std::string> ids;
  for (const auto& c : v.cells) {
    INFO("cell " << c.id);
    CHECK(ids.insert(c.id).second);
    CHECK(c.w > 0);
    CHECK(c.h > 0);
    CHECK(inside(v, c.x - c.w / 2, c.y - c.h / 2));
    CHECK(inside(v, c.x + c.w / 2, c.y + c.h / 2));
    if (c.label_at) CHECK(inside(v, (*c.label_at)[0], (*c.label_at)[1]));
    if (c.kind == CellKind::point) {
      CHECK_FALSE(c.count.has_value());
      CHECK(c.owner == 0);
    } else {
      CHECK_FALSE(c.piece.has_value());
      CHECK(c.count.has_value() == (c.kind != CellKind::blind));
      CHECK(c.owner >= 1);
      CHECK(c.owner <= v.players);
    }
  }
  // No two cells overlap.
  for (std::size_t i = 0; i < v.cells.size(); ++i)
    for (std::size_t j = i + 1; j < v.cells.size(); ++j) {
      const auto& a = v.cells[i];
      const auto& b = v.cells[j];
      INFO(a.id << " and " << b.id);
      CHECK((std::abs(a.x - b.x) >= (a.w + b.w) / 2 - 1e-9 ||
             std::abs(a.y - b.y) >= (a.h + b.h) / 2 - 1e-9));
    }
  const bool points = v.cells.front().kind == CellKind::point;
  auto on_a_point = [&](double x, double y) {
    return std::any_of(v.cells.begin(), v.cells.end(),
                       [&](const ViewCell& c) { return near(c.x, x) && near(c.y, y); });
  };
  for (const auto& l : v.lines) {
    CHECK(inside(v, l[0], l[1]));
    CHECK(inside(v, l[2], l[3]));
    CHECK((l[0] != l[2] || l[1] != l[3]));
    if (points) {  // board lines run between points
      CHECK(on_a_point(l[0], l[1]));
      CHECK(on_a_point(l[2], l[3]));
    }
  }
  for (const auto& t : v.texts) CHECK(inside(v, t.x, t.y));
  for (const auto& a : v.arcs) {
    CHECK(a.to > a.from);
    CHECK(a.r > 0);
    CHECK(inside(v, a.cx - a.r, a.cy - a.r));
    CHECK(inside(v, a.cx + a.r, a.cy + a.r));
  }
}

// The view agrees with the position string.
void check_contents(const Game& g, const State& s) {
  INFO(g.canonical() << " at " << s.to_string());
  const BoardView v = s.view();
  check_geometry(v);
  CHECK(v.players == g.num_players());
  CHECK(v.to_move == s.current_player());
  CHECK(v.round == s.round());
  CHECK(v.scores == expected_scores(g, s));
  CHECK_FALSE(v.score_label.empty());
  const auto f = fields(s);
  if (point_game(g.name())) {
    const auto grid = grid_points(f[0]);
    CHECK(v.cells.size() == grid.size());
    for (auto [name, c] : grid) {
      INFO("point " << name);
      const ViewCell& cl = cell(v, name);
      CHECK(cl.kind == CellKind::point);
      if (c == '.') {
        CHECK_FALSE(cl.piece.has_value());
      } else {
        REQUIRE(cl.piece.has_value());
        CHECK(cl.piece->player == (std::tolower(static_cast<unsigned char>(c)) == 'x' ? 1 : 2));
        CHECK(cl.piece->king == (std::isupper(static_cast<unsigned char>(c)) != 0));
      }
    }
    return;
  }
  const auto counts = hole_counts(f[0]);
  const int holes = static_cast<int>(counts.size());
  int hole_cells = 0;
  for (const auto& c : v.cells) hole_cells += c.kind == CellKind::hole || c.kind == CellKind::blind;
  CHECK(hole_cells == holes);
  for (int h = 1; h <= holes; ++h) {
    INFO("hole " << h);
    const ViewCell& c = cell(v, std::to_string(h));
    const int n = counts[static_cast<std::size_t>(h - 1)];
    CHECK(c.kind == (n < 0 ? CellKind::blind : CellKind::hole));
    if (n >= 0) CHECK(c.count == n);
    CHECK(c.owner == expected_owner(g, h, holes));
    CHECK(c.label == std::to_string(h));
  }
  if (g.name() == "kalaha") {
    const auto stores = numbers(f[1]);
    CHECK(cell(v, "S1").count == static_cast<int>(stores[0]));
    CHECK(cell(v, "S2").count == static_cast<int>(stores[1]));
    CHECK(cell(v, "S1").kind == CellKind::store);
    CHECK(cell(v, "S1").owner == 1);
    CHECK(cell(v, "S2").owner == 2);
  } else {
    CHECK(static_cast<int>(v.cells.size()) == holes);
  }
  if (g.name() == "mweso" || g.name() == "lontu-holo")
    CHECK(v.phase == (f[1] == "play" ? "" : f[1]));
}

// Plays seeded random games (setups from sample_setup), checking the view at every ply.
void check_playouts(const std::string& spec, int playouts, int plies) {
  auto g = make_game(spec);
  REQUIRE(g.ok());
  std::mt19937_64 rng(20260412);
  for (int i = 0; i < playouts; ++i) {
    State s = g->initial_state();
    check_contents(*g, s);
    for (int ply = 0; ply < plies && !s.is_terminal(); ++ply) {
      std::string move;
      if (!s.setup_form().empty()) {
        move = s.sample_setup(rng());
      } else {
        const auto moves = s.legal_moves();
        REQUIRE_FALSE(moves.empty());
        move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      }
      REQUIRE(s.apply(move).ok());
      check_contents(*g, s);
    }
  }
}

}  // namespace

TEST_CASE("board view: every game's view agrees with its positions, start and random playouts") {
  std::vector<std::string> specs;
  for (const auto& e : registry()) specs.push_back(e.name);
  for (const char* extra : {"oware:players=3", "oware:players=4", "oware:players=6",
                            "perali-kotuma:huffing=on", "wali:anyrow=first", "awale:first=2"})
    specs.push_back(extra);
  for (const auto& spec : specs) {
    SECTION(spec) {
      check_playouts(spec, 3, 60);
    }
  }
}

TEST_CASE("board view: a finished game still has its board, with nobody to move") {
  // Kalaha: South's row empty, North's last seeds go home at the end.
  State s = at("kalaha", "0,0,0,0,0,1/0,0,0,0,0,1:35,35:1:0:0");
  REQUIRE(s.apply("6").ok());
  REQUIRE(s.is_terminal());
  const BoardView v = s.view();
  CHECK(v.to_move == 0);
  CHECK(cell(v, "S1").count == 36);
  check_contents(*make_game("kalaha"), s);
}

TEST_CASE("board view: at the end the view carries the result's scores, the seeds left counted") {
  // Kalaha's last ply: South's extra turn finds his row empty; North's seed left in hole 12 is
  // his in the count, not in his store. The board stays the position; final_scores is the count.
  State s = at("kalaha", "0,0,0,0,0,1/0,0,0,0,0,1:35,35:1:0:0");
  CHECK(s.view().final_scores.empty());
  REQUIRE(s.apply("6").ok());
  REQUIRE(s.is_terminal());
  const BoardView v = s.view();
  CHECK(v.scores == std::vector<double>{36, 35});
  CHECK(cell(v, "12").count == 1);
  CHECK(v.final_scores == s.outcome().scores);
  CHECK(v.final_scores == std::vector<double>{36, 36});
  CHECK(board_view_json(v)["final_scores"] == nlohmann::json::array({36.0, 36.0}));
  CHECK(board_view_json(make_game("kalaha")->initial_state().view())["final_scores"].is_null());
}

TEST_CASE("board view: every game played to its end has the result's scores, none before") {
  std::mt19937_64 rng(20261129);
  for (const auto& e : registry()) {
    SECTION(e.name) {
      auto g = make_game(e.name + ":maxplies=400");
      REQUIRE(g.ok());
      State s = g->initial_state();
      while (!s.is_terminal()) {
        CHECK(s.view().final_scores.empty());
        std::string move = s.setup_form().empty() ? "" : s.sample_setup(rng());
        if (move.empty()) {
          const auto moves = s.legal_moves();
          REQUIRE_FALSE(moves.empty());
          move = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
        }
        REQUIRE(s.apply(move).ok());
      }
      CHECK(s.view().final_scores == s.outcome().scores);
    }
  }
}

TEST_CASE("board view: 2x6 holes run counter-clockwise, 12 above 1, 7 above 6 (rules.md §1)") {
  const BoardView v = make_game("awale")->initial_state().view();
  CHECK(v.family == "2x6");
  for (int h = 1; h <= 6; ++h) {
    const ViewCell& south = cell(v, std::to_string(h));
    const ViewCell& north = cell(v, std::to_string(13 - h));
    CHECK(near(south.x, north.x));
    CHECK(north.y < south.y);
    CHECK((*north.label_at)[1] < north.y);  // North's numbers above his row, South's below
    CHECK((*south.label_at)[1] > south.y);
    if (h > 1) CHECK(south.x > cell(v, std::to_string(h - 1)).x);
  }
  CHECK(v.lines.size() == 1);  // the line between the two rows
}

TEST_CASE("board view: kalaha's stores, S2 on the left beside 12 and 1, S1 on the right") {
  const BoardView v = make_game("kalaha")->initial_state().view();
  CHECK(v.family == "2x6-stores");
  const ViewCell& s1 = cell(v, "S1");
  const ViewCell& s2 = cell(v, "S2");
  for (const auto& c : v.cells) {
    if (c.kind != CellKind::hole) continue;
    CHECK(s2.x < c.x);
    CHECK(s1.x > c.x);
  }
  CHECK(s1.h > cell(v, "6").y - cell(v, "7").y);  // a long well spanning both rows
  CHECK(s1.count == 0);
  CHECK(cell(v, "1").count == 6);
}

TEST_CASE("board view: 4xn holes by rows and columns as four_rows.h numbers them") {
  for (const auto& [spec, n] :
       std::vector<std::pair<std::string, int>>{{"katra", 8}, {"mefuhva", 16}}) {
    INFO(spec);
    const BoardView v = make_game(spec)->initial_state().view();
    CHECK(v.family == "4x" + std::to_string(n));
    for (int c = 0; c < n; ++c) {
      const ViewCell& s_outer = cell(v, std::to_string(1 + c));
      const ViewCell& s_inner = cell(v, std::to_string(2 * n - c));
      const ViewCell& n_inner = cell(v, std::to_string(3 * n + 1 + c));
      const ViewCell& n_outer = cell(v, std::to_string(3 * n - c));
      CHECK(near(s_outer.x, s_inner.x));
      CHECK(near(s_outer.x, n_inner.x));
      CHECK(near(s_outer.x, n_outer.x));
      CHECK(n_outer.y < n_inner.y);
      CHECK(n_inner.y < s_inner.y);
      CHECK(s_inner.y < s_outer.y);
      if (c > 0) CHECK(s_outer.x > cell(v, std::to_string(c)).x);
    }
  }
}

TEST_CASE("board view: mweso marks its eight alokas, and shows the setup phase") {
  const BoardView v = make_game("mweso")->initial_state().view();
  std::set<std::string> marked;
  for (const auto& c : v.cells)
    if (c.mark) marked.insert(c.id);
  CHECK((marked == std::set<std::string>{"1", "2", "15", "16", "17", "18", "31", "32"}));
  CHECK_FALSE(v.legend.empty());
  CHECK(v.phase == "setup");
}

TEST_CASE("board view: oware with 3, 4 and 6 players is a ring of bands, counter-clockwise") {
  for (int k : {3, 4, 6}) {
    INFO(k << " players");
    const BoardView v = make_game("oware:players=" + std::to_string(k))->initial_state().view();
    CHECK(v.family == "oware-ring");
    CHECK(v.players == k);
    CHECK(v.scores == std::vector<double>(static_cast<std::size_t>(k), 0));
    const double cx = v.width / 2, cy = v.height / 2;
    const double radius = std::hypot(cell(v, "1").x - cx, cell(v, "1").y - cy);
    for (int h = 1; h <= 12; ++h) {
      const ViewCell& a = cell(v, std::to_string(h));
      const ViewCell& b = cell(v, std::to_string(h % 12 + 1));
      CHECK(std::hypot(a.x - cx, a.y - cy) == Approx(radius));
      // Counter-clockwise on a screen whose y grows downward: a negative cross product.
      CHECK((a.x - cx) * (b.y - cy) - (a.y - cy) * (b.x - cx) < 0);
    }
    // One name per band, in its owner's colour.
    int names = 0;
    for (const auto& t : v.texts) names += t.player >= 1 && t.player <= k;
    CHECK(names == k);
  }
  CHECK(make_game("oware")->initial_state().view().family == "2x6");
}

TEST_CASE("board view: pallankuli's blind holes have no count") {
  State s = at("pallankuli", "2,6,6,6,6,6,6/6,6,6,2,x,x,x:26,0:1:2:1:0:0");
  const BoardView v = s.view();
  CHECK(v.family == "2x7-blind");
  for (int h : {12, 13, 14}) {
    CHECK(cell(v, std::to_string(h)).kind == CellKind::blind);
    CHECK_FALSE(cell(v, std::to_string(h)).count.has_value());
  }
  CHECK(cell(v, "11").count == 2);
  CHECK(v.round == 2);
  CHECK(v.scores == std::vector<double>{26, 0});
  check_contents(*make_game("pallankuli"), s);
}

TEST_CASE("board view: lontu-holo's holes belong to their column halves") {
  State s = make_game("lontu-holo")->initial_state();
  CHECK(s.view().phase == "setup");
  REQUIRE(s.apply("=4,4,4,4,4,4").ok());
  CHECK(s.view().phase == "mirror");
  REQUIRE(s.apply("=4,4,4,4,4,4").ok());
  const BoardView v = s.view();
  CHECK(v.phase.empty());
  CHECK(v.family == "2x6-columns");
  for (const char* id : {"1", "2", "3", "10", "11", "12"}) CHECK(cell(v, id).owner == 1);
  for (const char* id : {"4", "5", "6", "7", "8", "9"}) CHECK(cell(v, id).owner == 2);
  // One vertical line between the halves.
  REQUIRE(v.lines.size() == 1);
  CHECK(v.lines[0][0] == v.lines[0][2]);
  CHECK(v.lines[0][0] > cell(v, "3").x);
  CHECK(v.lines[0][0] < cell(v, "4").x);
}

TEST_CASE("board view: point boards have their points, lines and coordinates") {
  struct Expect {
    std::string spec, family;
    std::size_t points, lines;
  };
  for (const auto& e : std::vector<Expect>{{"perali-kotuma", "alquerque", 49, 24},
                                           {"kotu-ellima", "alquerque", 49, 24},
                                           {"felli", "felli", 13, 7},
                                           {"permainan", "permainan", 36, 12}}) {
    INFO(e.spec);
    const BoardView v = make_game(e.spec)->initial_state().view();
    CHECK(v.family == e.family);
    CHECK(v.cells.size() == e.points);
    CHECK(v.lines.size() == e.lines);
    // Files go east, ranks north, one pitch apart.
    const ViewCell& c3 = cell(v, "c3");
    const ViewCell& d4 = cell(v, "d4");
    CHECK(d4.x - c3.x == Approx(view::kPitch));
    CHECK(c3.y - d4.y == Approx(view::kPitch));
    std::set<std::string> texts;
    for (const auto& t : v.texts) texts.insert(t.text);
    CHECK(texts.count("a"));
    CHECK(texts.count("1"));
  }
  // Felli's bow-tie: the two diagonals cross at c3.
  const BoardView felli = make_game("felli")->initial_state().view();
  CHECK_FALSE(cell(felli, "c3").piece.has_value());
  CHECK(find_cell(felli, "b1") == nullptr);
  CHECK((cell(felli, "a1").piece == ViewPiece{1, false}));
  CHECK((cell(felli, "e5").piece == ViewPiece{2, false}));
  // kotu-ellima has 24 each, d5 and f5 filled.
  const BoardView kotu = make_game("kotu-ellima")->initial_state().view();
  CHECK((cell(kotu, "d5").piece == ViewPiece{1, false}));
  CHECK((cell(kotu, "f5").piece == ViewPiece{2, false}));
  CHECK(kotu.scores == std::vector<double>{24, 24});
}

TEST_CASE("board view: permainan's arcs join the ends of its circuits round the corners") {
  const BoardView v = make_game("permainan")->initial_state().view();
  REQUIRE(v.arcs.size() == 8);
  const double kDegree = std::acos(-1.0) / 180;
  auto end_at = [&](const ViewArc& a, double angle) {
    const double x = a.cx + a.r * std::cos(angle * kDegree);
    const double y = a.cy + a.r * std::sin(angle * kDegree);
    for (const auto& c : v.cells)
      if (near(c.x, x) && near(c.y, y)) return c.id;
    return std::string("?");
  };
  std::set<std::set<std::string>> inner, outer;
  const ViewCell& a1 = cell(v, "a1");
  const ViewCell& f6 = cell(v, "f6");
  for (const auto& a : v.arcs) {
    CHECK(a.to - a.from == Approx(270));  // three quarters, round the outside
    const double mid = (a.from + a.to) / 2 * kDegree;
    const double mx = a.cx + a.r * std::cos(mid), my = a.cy + a.r * std::sin(mid);
    CHECK((mx < a1.x || mx > f6.x || my > a1.y || my < f6.y));
    (a.group == 1 ? inner : outer).insert({end_at(a, a.from), end_at(a, a.to)});
  }
  using Pairs = std::set<std::set<std::string>>;
  CHECK((inner == Pairs{{"b1", "a2"}, {"e1", "f2"}, {"f5", "e6"}, {"a5", "b6"}}));
  CHECK((outer == Pairs{{"c1", "a3"}, {"d1", "f3"}, {"f4", "d6"}, {"a4", "c6"}}));
}

TEST_CASE("board view: perali-kotuma marks the pieces that may be huffed") {
  const std::string spec = "perali-kotuma:huffing=on";
  // Play until a position offers a huff, then compare the marks with the position's list.
  auto g = make_game(spec);
  std::mt19937_64 rng(7);
  bool seen = false;
  for (int game = 0; game < 40 && !seen; ++game) {
    State s = g->initial_state();
    for (int ply = 0; ply < 80 && !s.is_terminal(); ++ply) {
      const auto f = fields(s);
      if (f[2] != "-") {
        const BoardView v = s.view();
        std::set<std::string> marked;
        for (const auto& c : v.cells)
          if (c.mark) marked.insert(c.id);
        const auto listed = split(f[2], ',');
        CHECK(marked == std::set<std::string>(listed.begin(), listed.end()));
        for (const auto& id : marked) CHECK(cell(v, id).piece.has_value());
        seen = true;
        break;
      }
      // No huffs, so that undone captures pile up.
      std::vector<std::string> steps;
      for (const auto& m : s.legal_moves())
        if (m[0] != '!') steps.push_back(m);
      if (steps.empty()) break;
      REQUIRE(s.apply(steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)])
                  .ok());
    }
  }
  CHECK(seen);
  for (const auto& c : make_game(spec)->initial_state().view().cells) CHECK_FALSE(c.mark);
}

TEST_CASE("board view: felli marks the piece that may not step back, with a note") {
  State s = make_game("felli")->initial_state();
  REQUIRE(s.apply("c2-c3").ok());
  const BoardView v = s.view();
  CHECK(cell(v, "c3").mark);
  CHECK((cell(v, "c3").piece == ViewPiece{1, false}));
  int marks = 0;
  for (const auto& c : v.cells) marks += c.mark;
  CHECK(marks == 1);
  REQUIRE(v.notes.size() == 1);
  CHECK(v.notes[0] == "player 1 may not return c3 to c2");
}

TEST_CASE("board view: felli's kings are drawn as kings") {
  const State s = at("felli", "O-1-1/-1x1-/--1--/-1X1-/1-1-x:2:-:-:0:0");
  const BoardView v = s.view();
  CHECK((cell(v, "a5").piece == ViewPiece{2, true}));
  CHECK((cell(v, "c2").piece == ViewPiece{1, true}));
  CHECK((cell(v, "c4").piece == ViewPiece{1, false}));
  CHECK(v.to_move == 2);
}

TEST_CASE("board view JSON: the documented shape, nulls for what a cell does not have") {
  const auto awale = board_view_json(make_game("awale")->initial_state().view());
  CHECK(awale["family"] == "2x6");
  CHECK(awale["cells"].size() == 12);
  CHECK(awale["to_move"] == 1);
  CHECK(awale["players"] == 2);
  CHECK(awale["scores"] == nlohmann::json::array({0.0, 0.0}));
  CHECK(awale["score_label"] == "captured");
  CHECK(awale["round"] == 1);
  CHECK(awale["phase"] == "");
  const auto& hole = awale["cells"][0];
  for (const char* key :
       {"id", "label", "x", "y", "w", "h", "kind", "count", "piece", "owner", "mark", "label_at"})
    CHECK(hole.contains(key));
  CHECK(hole["kind"] == "hole");
  CHECK(hole["count"] == 4);
  CHECK(hole["piece"].is_null());
  CHECK(hole["owner"].is_number());
  CHECK(hole["label_at"].size() == 2);
  CHECK(awale["lines"][0].size() == 4);

  const auto felli = board_view_json(make_game("felli")->initial_state().view());
  for (const auto& c : felli["cells"]) {
    CHECK(c["kind"] == "point");
    CHECK(c["count"].is_null());
    CHECK(c["owner"].is_null());
  }
  const auto& a1 = *std::find_if(felli["cells"].begin(), felli["cells"].end(),
                                 [](const nlohmann::json& c) { return c["id"] == "a1"; });
  CHECK(a1["piece"] == nlohmann::json({{"player", 1}, {"king", false}}));

  const auto perm = board_view_json(make_game("permainan")->initial_state().view());
  REQUIRE(perm["arcs"].size() == 8);
  for (const char* key : {"cx", "cy", "r", "from", "to", "group"})
    CHECK(perm["arcs"][0].contains(key));

  const auto pall =
      board_view_json(at("pallankuli", "2,6,6,6,6,6,6/6,6,6,2,x,x,x:26,0:1:2:1:0:0").view());
  const auto& blind = *std::find_if(pall["cells"].begin(), pall["cells"].end(),
                                    [](const nlohmann::json& c) { return c["id"] == "14"; });
  CHECK(blind["kind"] == "blind");
  CHECK(blind["count"].is_null());

  // Coordinates are rounded to 0.01 (the ring's cosines would print 17 digits).
  const auto ring = board_view_json(make_game("oware:players=3")->initial_state().view());
  for (const auto& c : ring["cells"]) {
    const double x = c["x"];
    CHECK(std::abs(x * 100 - std::round(x * 100)) < 1e-6);
  }
  nlohmann::json implicit = make_game("awale")->initial_state().view();
  CHECK(implicit == awale);
}
