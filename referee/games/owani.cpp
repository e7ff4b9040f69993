#include "games/owani.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

using mancala::in_row_2x6;
int& at(std::vector<int>& holes, int h) {
  return holes[static_cast<std::size_t>(h - 1)];
}

}  // namespace

OwaniCore OwaniCore::start(const GameSetup& setup) {
  return OwaniCore{two_sided::start_position(12, 4, setup.first)};
}

Expected<OwaniCore> OwaniCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 6, 48);
  if (!p) return p.failure();
  return OwaniCore{std::move(*p)};
}

std::optional<two_sided::Turn> OwaniCore::turn(int hole) const {
  two_sided::Turn t{pos.holes};
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
      if (lapped && in_row_2x6(h, pos.mover)) continue;
      ++at(t.holes, h);
      --hand;
      if (!guard.drop()) return std::nullopt;
    }
    if (in_row_2x6(h, pos.mover)) {  // relay, even from a hole that was empty
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
  two_sided::row_moves(pos, out, [this](int h) { return turn(h).has_value(); });
}

Effect OwaniCore::play(Move hole) {
  if (hole == 0) return two_sided::end_turn(pos, 0);  // pass
  auto t = turn(hole);
  if (!t) return {};  // not legal: never reached through legal_move()
  pos.holes = std::move(t->holes);
  return two_sided::end_turn(pos, t->taken);
}

bool OwaniCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Outcome OwaniCore::result() const {
  return two_sided::relay_result(pos);
}

std::string OwaniCore::draw(BoardWords words) const {
  return mancala::draw_2x6(pos.holes, pos.captured[1], pos.captured[0], words);
}

BoardView OwaniCore::view() const {
  BoardView v = view::two_rows("2x6", pos.holes);
  v.score_label = "captured";
  return v;
}

}  // namespace referee::games
