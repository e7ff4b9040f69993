#include "games/owani.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

bool own(int hole, int player) {
  return player == 1 ? hole <= 6 : hole >= 7;
}
int& at(std::vector<int>& holes, int h) {
  return holes[static_cast<std::size_t>(h - 1)];
}

}  // namespace

OwaniCore OwaniCore::start(const GameSetup& setup) {
  OwaniCore c;
  c.pos.holes.assign(12, 4);
  c.pos.mover = setup.first;
  return c;
}

Expected<OwaniCore> OwaniCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 6, 48);
  if (!p) return Error{p.error()};
  OwaniCore c;
  c.pos = std::move(*p);
  return c;
}

std::optional<OwaniCore::Turn> OwaniCore::turn(int hole) const {
  Turn t{pos.holes};
  mancala::RelayGuard guard;
  int origin = hole;
  int hand = at(t.holes, origin);
  at(t.holes, origin) = 0;
  while (true) {
    if (!guard.enter(t.holes, hand, origin)) return std::nullopt;
    int h = origin;
    bool lapped = false;
    while (hand > 0) {
      h = mancala::ccw(h, 12);
      if (h == origin) {
        lapped = true;
        continue;
      }
      if (lapped && own(h, pos.mover)) continue;
      ++at(t.holes, h);
      --hand;
      if (!guard.drop()) return std::nullopt;
    }
    if (own(h, pos.mover)) {  // relay, even from a hole that was empty
      hand = at(t.holes, h);
      at(t.holes, h) = 0;
      origin = h;
      continue;
    }
    const int held = at(t.holes, h) - 1;
    if (held == 1 || held == 2) {
      t.taken = at(t.holes, h);
      at(t.holes, h) = 0;
    }
    return t;
  }
}

void OwaniCore::moves(std::vector<Move>& out) const {
  const int first = pos.mover == 1 ? 1 : 7;
  if (two_sided::sum_holes(pos.holes, first, 6) == 0) {
    if (two_sided::sum_holes(pos.holes, 1, 12) > 0) out.push_back(0);
    return;
  }
  for (int h = first; h < first + 6; ++h)
    if (pos.holes[static_cast<std::size_t>(h - 1)] > 0 && turn(h)) out.push_back(h);
}

Effect OwaniCore::play(Move hole) {
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

bool OwaniCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Outcome OwaniCore::result() const {
  const bool empty = two_sided::sum_holes(pos.holes, 1, 12) == 0;
  return two_sided::captured_only(pos, empty ? "rules" : "relay");
}

std::string OwaniCore::draw() const {
  return mancala::draw_2x6(pos.holes, pos.captured[1], pos.captured[0]);
}

}  // namespace referee::games
