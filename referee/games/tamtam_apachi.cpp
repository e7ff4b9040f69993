#include "games/tamtam_apachi.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

bool own(int hole, int player) {
  return player == 1 ? hole <= 6 : hole >= 7;
}
int first_own(int player) {
  return player == 1 ? 1 : 7;
}
int& at(std::vector<int>& holes, int h) {
  return holes[static_cast<std::size_t>(h - 1)];
}

}  // namespace

TamtamApachiCore TamtamApachiCore::start(const GameSetup& setup) {
  TamtamApachiCore c;
  c.pos.holes.assign(12, 4);
  c.pos.mover = setup.first;
  return c;
}

Expected<TamtamApachiCore> TamtamApachiCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 6, 48);
  if (!p) return Error{p.error()};
  TamtamApachiCore c;
  c.pos = std::move(*p);
  return c;
}

std::optional<TamtamApachiCore::Turn> TamtamApachiCore::turn(int hole) const {
  Turn t{pos.holes};
  mancala::RelayGuard guard;
  int origin = hole;
  int hand = at(t.holes, origin);
  at(t.holes, origin) = 0;
  while (true) {
    if (!guard.enter(t.holes, hand, origin)) return std::nullopt;
    int h = origin;
    while (hand > 0) {
      h = mancala::ccw(h, 12);
      if (h == origin) continue;
      ++at(t.holes, h);
      --hand;
      if (!guard.drop()) return std::nullopt;
    }
    if (at(t.holes, h) == 1) {  // the hole was empty
      if (own(h, pos.mover)) {
        t.taken = at(t.holes, 13 - h);
        at(t.holes, 13 - h) = 0;
      }
      return t;
    }
    hand = at(t.holes, h);
    at(t.holes, h) = 0;
    origin = h;
  }
}

void TamtamApachiCore::moves(std::vector<Move>& out) const {
  const int first = first_own(pos.mover);
  if (two_sided::sum_holes(pos.holes, first, 6) == 0) {
    if (two_sided::sum_holes(pos.holes, 1, 12) > 0) out.push_back(0);
    return;
  }
  for (int h = first; h < first + 6; ++h)
    if (pos.holes[static_cast<std::size_t>(h - 1)] > 0 && turn(h)) out.push_back(h);
}

Effect TamtamApachiCore::play(Move hole) {
  int taken = 0;
  if (hole != 0) {
    auto t = turn(hole);
    if (!t) return {};  // not legal: never reached through legal_move()
    pos.holes = std::move(t->holes);
    taken = t->taken;
    pos.captured[static_cast<std::size_t>(pos.mover - 1)] += taken;
  }
  pos.mover = 3 - pos.mover;
  return {taken > 0, taken > 0};
}

bool TamtamApachiCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Outcome TamtamApachiCore::result() const {
  const bool empty = two_sided::sum_holes(pos.holes, 1, 12) == 0;
  return two_sided::captured_only(pos, empty ? "rules" : "relay");
}

std::string TamtamApachiCore::draw() const {
  return mancala::draw_2x6(pos.holes, pos.captured[1], pos.captured[0]);
}

}  // namespace referee::games
