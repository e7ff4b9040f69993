#include "games/mefuhva.h"

#include "games/four_rows.h"

namespace referee::games {

MefuhvaCore MefuhvaCore::start(const GameSetup& setup) {
  return MefuhvaCore{two_sided::start_position(4 * kCols, 2, setup.first)};
}

Expected<MefuhvaCore> MefuhvaCore::parse(const GameSetup&, std::string_view fields) {
  auto p = two_sided::parse_position(fields, 2 * kCols, kSeeds);
  if (!p) return p.failure();
  return MefuhvaCore{std::move(*p)};
}

int MefuhvaCore::side(int player) const {
  return two_sided::block_sum(pos, kCols, player);
}

void MefuhvaCore::moves(std::vector<Move>& out) const {
  two_sided::block_moves(pos, kCols, out);
}

std::optional<MefuhvaCore::Move> MefuhvaCore::legal_move(std::string_view text) const {
  return two_sided::block_move(pos, kCols, text);
}

Effect MefuhvaCore::play(Move hole) {
  auto at = [&](int h) -> int& { return pos.holes[static_cast<std::size_t>(h - 1)]; };
  const int last = two_sided::sow_block(pos, kCols, hole);
  int taken = 0;
  if (four_rows::is_inner(kCols, last) && at(last) == 1) {
    taken = at(four_rows::facing(kCols, last));
    at(four_rows::facing(kCols, last)) = 0;
  }
  return two_sided::end_turn(pos, taken);
}

Outcome MefuhvaCore::exhausted() const {
  const auto m = material();
  return rank_by_score(m, "rules");
}

std::vector<double> MefuhvaCore::material() const {
  return two_sided::block_material(pos, kCols);
}

std::string MefuhvaCore::draw(BoardWords words) const {
  return four_rows::draw(kCols, pos.holes, pos.captured[1], pos.captured[0], words);
}

BoardView MefuhvaCore::view() const {
  BoardView v = view::four_by_n(pos.holes);
  v.scores = {static_cast<double>(pos.captured[0]), static_cast<double>(pos.captured[1])};
  v.score_label = "captured";
  return v;
}

}  // namespace referee::games
