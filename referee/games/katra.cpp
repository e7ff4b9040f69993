#include "games/katra.h"

#include "games/four_rows.h"
#include "games/mancala.h"

namespace referee::games {

KatraCore KatraCore::start(const GameSetup& setup) {
  KatraCore c;
  c.pos.holes.assign(4 * kCols, 2);
  c.pos.mover = setup.first;
  return c;
}

Expected<KatraCore> KatraCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 2 * kCols, kSeeds);
  if (!p) return Error{p.error()};
  KatraCore c;
  c.pos = std::move(*p);
  return c;
}

int KatraCore::side(int player) const {
  return two_sided::sum_holes(pos.holes, four_rows::first_hole(kCols, player), 2 * kCols);
}

void KatraCore::moves(std::vector<Move>& out) const {
  const int first = four_rows::first_hole(kCols, pos.mover);
  for (int h = first; h < first + 2 * kCols; ++h)
    if (pos.holes[static_cast<std::size_t>(h - 1)] > 0) out.push_back(h);
}

std::optional<KatraCore::Move> KatraCore::legal_move(std::string_view text) const {
  const auto h = parse_count(text, 4 * kCols);
  if (!h || *h < 1 || four_rows::owner(kCols, static_cast<int>(*h)) != pos.mover)
    return std::nullopt;
  if (pos.holes[static_cast<std::size_t>(*h - 1)] == 0) return std::nullopt;
  return static_cast<int>(*h);
}

Effect KatraCore::play(Move hole) {
  auto at = [&](int h) -> int& { return pos.holes[static_cast<std::size_t>(h - 1)]; };
  const int seeds = at(hole);
  at(hole) = 0;
  const int last =
      mancala::sow(pos.holes, hole, seeds, [](int h) { return four_rows::ccw(kCols, h); });
  int taken = 0;
  const int facing = four_rows::facing(kCols, last);
  if (four_rows::is_inner(kCols, last) && at(facing) > 0 && at(facing) < at(last)) {
    taken = at(facing);
    at(four_rows::facing(kCols, last)) = 0;
  }
  pos.captured[static_cast<std::size_t>(pos.mover - 1)] += taken;
  pos.mover = 3 - pos.mover;
  return {taken > 0, taken > 0};
}

Outcome KatraCore::exhausted() const {
  const auto m = material();
  return rank_by_score(m, "rules");
}

std::vector<double> KatraCore::material() const {
  return {static_cast<double>(pos.captured[0] + side(1)),
          static_cast<double>(pos.captured[1] + side(2))};
}

std::string KatraCore::draw() const {
  return four_rows::draw(kCols, pos.holes, pos.captured[1], pos.captured[0]);
}

}  // namespace referee::games
