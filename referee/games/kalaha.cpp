#include "games/kalaha.h"

#include <numeric>

#include "games/board_words.h"
#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kSeeds = 72;
constexpr int kStore = 0;  // the mover's store, in the sowing path below

std::size_t at(int hole) {
  return static_cast<std::size_t>(hole - 1);
}

}  // namespace

KalahaCore KalahaCore::start(const GameSetup& setup) {
  KalahaCore c;
  c.holes.fill(6);
  c.mover = setup.first;
  return c;
}

Expected<KalahaCore> KalahaCore::parse(const GameSetup& setup, std::string_view fields) {
  KalahaCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:stores:player'"};
  auto holes = mancala::parse_blocks(parts[0], 2, 6, kSeeds);
  if (!holes) return holes.failure();
  auto stores = mancala::parse_list(parts[1], 2, kSeeds);
  if (!stores) return stores.failure();
  auto player = mancala::parse_player(parts[2], 2);
  if (!player) return Error{"player to move must be 1 or 2"};
  std::copy(holes->begin(), holes->end(), c.holes.begin());
  c.stores = {(*stores)[0], (*stores)[1]};
  c.mover = *player;
  int total = std::accumulate(c.holes.begin(), c.holes.end(), c.stores[0] + c.stores[1]);
  if (total != kSeeds) return Error{"seeds must total 72, not " + std::to_string(total)};
  return c;
}

int KalahaCore::row_sum(int player) const {
  return mancala::row_sum_2x6(holes, player);
}

void KalahaCore::moves(std::vector<Move>& out) const {
  const int first = mancala::first_hole_2x6(mover);
  for (int h = first; h < first + 6; ++h)
    if (holes[at(h)] > 0) out.push_back(h);
}

Effect KalahaCore::play(Move hole) {
  const int own_last = mover == 1 ? 6 : 12;
  auto next = [&](int h) {
    if (h == own_last) return kStore;
    if (h == kStore) return mancala::ccw(own_last, 12);
    return mancala::ccw(h, 12);
  };
  int seeds = holes[at(hole)];
  holes[at(hole)] = 0;
  int& store = stores[static_cast<std::size_t>(mover - 1)];
  int h = hole;
  int held = 0;  // the last hole's count just before the last seed
  while (seeds > 0) {
    h = next(h);
    if (h == hole) continue;  // skipping the origin on a full lap
    int& cell = h == kStore ? store : holes[at(h)];
    held = cell;
    ++cell;
    --seeds;
  }
  int taken = 0;
  if (h == kStore) return {false, true};  // extra turn: the same player moves again
  if (mancala::in_row_2x6(h, mover) && held == 0) {
    taken = holes[at(13 - h)];
    holes[at(13 - h)] = 0;
    store += taken;
  }
  mover = 3 - mover;
  return {taken > 0, true};  // see the header: no position can recur
}

Outcome KalahaCore::exhausted() const {
  return mancala::rows_to_owners_2x6(holes, stores);
}

std::string KalahaCore::text() const {
  return mancala::join_blocks(std::vector<int>(holes.begin(), holes.end()), 6) + ":" +
         std::to_string(stores[0]) + "," + std::to_string(stores[1]) + ":" + std::to_string(mover);
}

std::string KalahaCore::draw(BoardWords words) const {
  // The seed's 2x6 board; its score lines are the stores (S2 left of 12, S1 right of 6).
  return mancala::draw_2x6(std::vector<int>(holes.begin(), holes.end()), stores[1], stores[0],
                           words) +
         "S2 (" + std::string(side_name(words, 2)) + ") [" + std::to_string(stores[1]) + "]  S1 (" +
         std::string(side_name(words, 1)) + ") [" + std::to_string(stores[0]) + "]\n";
}

std::uint64_t KalahaCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add_all(stores);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView KalahaCore::view() const {
  BoardView v = view::two_rows("2x6-stores", std::vector<int>(holes.begin(), holes.end()));
  view::add_store(v, true, "S2", stores[1], 2);
  view::add_store(v, false, "S1", stores[0], 1);
  v.score_label = "store";
  return v;
}

}  // namespace referee::games
