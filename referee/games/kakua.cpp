#include "games/kakua.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

int& at(std::vector<int>& holes, int h) {
  return holes[static_cast<std::size_t>(h - 1)];
}

}  // namespace

KakuaCore KakuaCore::start(const GameSetup& setup) {
  KakuaCore c;
  c.pos.holes.assign(12, 4);
  c.pos.mover = setup.first;
  return c;
}

Expected<KakuaCore> KakuaCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 6, 48);
  if (!p) return Error{p.error()};
  KakuaCore c;
  c.pos = std::move(*p);
  return c;
}

void KakuaCore::moves(std::vector<Move>& out) const {
  if (over()) return;
  const int first = pos.mover == 1 ? 1 : 7;
  if (two_sided::sum_holes(pos.holes, first, 6) == 0) {
    out.push_back(0);
    return;
  }
  for (int h = first; h < first + 6; ++h)
    if (pos.holes[static_cast<std::size_t>(h - 1)] > 0) out.push_back(h);
}

Effect KakuaCore::play(Move hole) {
  if (hole == 0) {
    pos.mover = 3 - pos.mover;
    return {};
  }
  int taken = 0;
  int h = hole;
  while (at(pos.holes, h) > 0) {
    const int origin = h;
    const int seeds = at(pos.holes, origin);
    at(pos.holes, origin) = 0;
    const int last =
        mancala::sow(pos.holes, origin, seeds - 1, [](int x) { return mancala::ccw(x, 12); });
    ++taken;  // the last seed of the hand
    h = mancala::ccw(last, 12);
  }
  pos.captured[static_cast<std::size_t>(pos.mover - 1)] += taken;
  pos.mover = 3 - pos.mover;
  return {true, true};
}

std::string KakuaCore::draw() const {
  return mancala::draw_2x6(pos.holes, pos.captured[1], pos.captured[0]);
}

}  // namespace referee::games
