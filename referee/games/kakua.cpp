#include "games/kakua.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

int& at(std::vector<int>& holes, int h) {
  return holes[static_cast<std::size_t>(h - 1)];
}

}  // namespace

KakuaCore KakuaCore::start(const GameSetup& setup) {
  return KakuaCore{two_sided::start_position(12, 4, setup.first)};
}

Expected<KakuaCore> KakuaCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 6, 48);
  if (!p) return p.failure();
  return KakuaCore{std::move(*p)};
}

void KakuaCore::moves(std::vector<Move>& out) const {
  two_sided::row_moves(pos, out, [](int) { return true; });
}

Effect KakuaCore::play(Move hole) {
  if (hole == 0) return two_sided::end_turn(pos, 0);  // pass
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
  return two_sided::end_turn(pos, taken);  // taken >= 1: a capture
}

std::string KakuaCore::draw(BoardWords words) const {
  return mancala::draw_2x6(pos.holes, pos.captured[1], pos.captured[0], words);
}

BoardView KakuaCore::view() const {
  BoardView v = view::two_rows("2x6", pos.holes);
  v.score_label = "captured";
  return v;
}

}  // namespace referee::games
