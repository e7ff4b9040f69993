#include "games/wali.h"

#include <numeric>

#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kSeeds = 48;
constexpr int kWinningCaptures = 25;

std::size_t at(int hole) {
  return static_cast<std::size_t>(hole - 1);
}
using mancala::in_row_2x6;

}  // namespace

std::vector<ParamSpec> wali_params() {
  return {{"anyrow",
           "always",
           {"always", "first"},
           0,
           0,
           "a move may start from either row on every turn, or only on each player's first move"}};
}

WaliCore WaliCore::start(const GameSetup& setup) {
  WaliCore c;
  c.holes.fill(4);
  c.mover = setup.first;
  c.any_row_first_only = setup.params.is("anyrow", "first");
  return c;
}

Expected<WaliCore> WaliCore::parse(const GameSetup& setup, std::string_view fields) {
  WaliCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 4) return Error{"expected 4 fields 'holes:captures:player:moved'"};
  auto holes = mancala::parse_blocks(parts[0], 2, 6, kSeeds);
  if (!holes) return holes.failure();
  auto caps = mancala::parse_list(parts[1], 2, kSeeds);
  if (!caps) return caps.failure();
  auto player = mancala::parse_player(parts[2], 2);
  if (!player) return Error{"player to move must be 1 or 2"};
  auto moved = mancala::parse_list(parts[3], 2, 1);
  if (!moved) return Error{"has-moved flags: " + moved.error()};
  std::copy(holes->begin(), holes->end(), c.holes.begin());
  c.captured = {(*caps)[0], (*caps)[1]};
  c.moved = {(*moved)[0], (*moved)[1]};
  c.mover = *player;
  const int total = std::accumulate(c.holes.begin(), c.holes.end(), c.captured[0] + c.captured[1]);
  if (total != kSeeds) return Error{"seeds must total 48, not " + std::to_string(total)};
  if (c.moved[at(c.mover)] == 1 && c.moved[at(3 - c.mover)] == 0)
    return Error{"the player to move cannot have moved while his opponent has not"};
  if (c.moved == std::array<int, 2>{0, 0} && c.captured != std::array<int, 2>{0, 0})
    return Error{"captures before anyone has moved"};
  return c;
}

void WaliCore::moves(std::vector<Move>& out) const {
  if (captured[0] >= kWinningCaptures || captured[1] >= kWinningCaptures) return;
  const bool any_row = !any_row_first_only || moved[at(mover)] == 0;
  for (int h = 1; h <= 12; ++h)
    if (holes[at(h)] > 0 && (any_row || in_row_2x6(h, mover))) out.push_back(h);
}

bool WaliCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Effect WaliCore::play(Move hole) {
  const int seeds = holes[at(hole)];
  holes[at(hole)] = 0;
  const int last = mancala::sow(holes, hole, seeds, [](int h) { return mancala::ccw(h, 12); });
  int taken = 0;
  const int n = holes[at(last)];
  if (in_row_2x6(last, 3 - mover) && (n == 2 || n == 3)) {
    taken = n;
    holes[at(last)] = 0;
    captured[at(mover)] += taken;
  }
  const bool first_move = moved[at(mover)] == 0;
  moved[at(mover)] = 1;
  mover = 3 - mover;
  return {taken > 0, taken > 0 || first_move};
}

Outcome WaliCore::exhausted() const {
  return mancala::rows_to_owners_2x6(holes, captured);
}

std::string WaliCore::text() const {
  return mancala::join_blocks(std::vector<int>(holes.begin(), holes.end()), 6) + ":" +
         std::to_string(captured[0]) + "," + std::to_string(captured[1]) + ":" +
         std::to_string(mover) + ":" + std::to_string(moved[0]) + "," + std::to_string(moved[1]);
}

std::string WaliCore::draw(BoardWords words) const {
  return mancala::draw_2x6(std::vector<int>(holes.begin(), holes.end()), captured[1], captured[0],
                           words);
}

std::uint64_t WaliCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add_all(captured);
  h.add_all(moved);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView WaliCore::view() const {
  BoardView v = view::two_rows("2x6", std::vector<int>(holes.begin(), holes.end()));
  v.score_label = "captured";
  if (any_row_first_only)
    for (int p = 1; p <= 2; ++p)
      if (!moved[static_cast<std::size_t>(p - 1)])
        v.notes.push_back("player " + std::to_string(p) + " may still sow from either row");
  return v;
}

}  // namespace referee::games
