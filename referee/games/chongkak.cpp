#include "games/chongkak.h"

#include <cstdio>
#include <numeric>

#include "games/board_words.h"
#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kSeeds = 98;

std::size_t at(int hole) {
  return static_cast<std::size_t>(hole - 1);
}
bool in_row(int hole, int player) {
  return player == 1 ? hole <= 7 : hole >= 8;
}

}  // namespace

ChongkakCore ChongkakCore::start(const GameSetup& setup) {
  ChongkakCore c;
  c.holes.fill(7);
  c.mover = setup.first;
  return c;
}

Expected<ChongkakCore> ChongkakCore::parse(const GameSetup& setup, std::string_view fields) {
  ChongkakCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 2) return Error{"expected 2 fields 'holes:player'"};
  auto holes = mancala::parse_blocks(parts[0], 2, 7, kSeeds);
  if (!holes) return holes.failure();
  auto player = mancala::parse_player(parts[1], 2);
  if (!player) return Error{"player to move must be 1 or 2"};
  std::copy(holes->begin(), holes->end(), c.holes.begin());
  c.mover = *player;
  const int total = std::accumulate(c.holes.begin(), c.holes.end(), 0);
  if (total > kSeeds) return Error{"at most 98 seeds, not " + std::to_string(total)};
  return c;
}

int ChongkakCore::row_sum(int player) const {
  const int first = player == 1 ? 0 : 7;
  return std::accumulate(holes.begin() + first, holes.begin() + first + 7, 0);
}

std::optional<ChongkakCore::Turn> ChongkakCore::sow(int hole) const {
  Turn t{holes};
  int origin = hole;
  int hand = t.holes[at(origin)];
  t.holes[at(origin)] = 0;
  mancala::RelayGuard guard;
  while (true) {
    if (!guard.enter(t.holes, hand, origin)) return std::nullopt;
    int h = origin;
    while (hand > 0) {
      h = mancala::ccw(h, 14);
      if (h == origin) continue;
      ++t.holes[at(h)];
      --hand;
      if (!guard.drop()) return std::nullopt;
    }
    const int n = t.holes[at(h)];
    if (n == 1) {  // the last seed fell into an empty hole
      if (in_row(h, mover)) {
        t.taken = t.holes[at(15 - h)];
        t.holes[at(15 - h)] = 0;
      }
      return t;
    }
    hand = n;  // relay: pick the hole up and sow on from the next hole
    t.holes[at(h)] = 0;
    origin = h;
  }
}

void ChongkakCore::moves(std::vector<Move>& out) const {
  if (row_sum(1) == 0 || row_sum(2) == 0) return;
  const int first = mover == 1 ? 1 : 8;
  for (int h = first; h < first + 7; ++h)
    if (holes[at(h)] > 0 && sow(h)) out.push_back(h);
}

bool ChongkakCore::over() const {
  if (row_sum(1) == 0 || row_sum(2) == 0) return true;
  const int first = mover == 1 ? 1 : 8;
  for (int h = first; h < first + 7; ++h)
    if (holes[at(h)] > 0 && sow(h)) return false;
  return true;  // every move breaks the relay guard
}

Effect ChongkakCore::play(Move hole) {
  auto t = sow(hole);
  if (!t) return {};  // never reached: only legal moves are played
  holes = t->holes;
  mover = 3 - mover;
  return {t->taken > 0, t->taken > 0};
}

Outcome ChongkakCore::result() const {
  const std::vector<double> scores{static_cast<double>(row_sum(1)),
                                   static_cast<double>(row_sum(2))};
  const int last = 3 - mover;  // the player who just moved
  if (row_sum(last) == 0) return win_for(last, 2, scores, "rules");
  if (row_sum(mover) == 0) return win_for(mover, 2, scores, "rules");
  Outcome o = exhausted();  // seeds on both sides but every move breaks the relay guard
  o.reason = "relay";
  return o;
}

Outcome ChongkakCore::exhausted() const {
  return rank_by_score({static_cast<double>(row_sum(1)), static_cast<double>(row_sum(2))}, "rules",
                       /*lower_wins=*/true);
}

std::string ChongkakCore::text() const {
  return mancala::join_blocks(std::vector<int>(holes.begin(), holes.end()), 7) + ":" +
         std::to_string(mover);
}

std::string ChongkakCore::draw(BoardWords words) const {
  // The seed's 2x6 layout widened to 7 holes: North's numbers 14..8 above his counts, South's
  // counts above his numbers 1..7, then the seeds left in each row (fewer is better). The number
  // lines are indented to the labels' width, as in mancala::draw_2x6.
  const std::size_t label = side_name_width(words);
  const std::string indent(label - 1, ' ');
  std::string out = indent;
  char cell[32];
  for (int h = 14; h >= 8; --h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  out += "\n" + side_label(words, 2, label);
  for (int h = 14; h >= 8; --h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[at(h)]);
    out += cell;
  }
  out += "\n" + side_label(words, 1, label);
  for (int h = 1; h <= 7; ++h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[at(h)]);
    out += cell;
  }
  out += "\n" + indent;
  for (int h = 1; h <= 7; ++h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  const char* in_row = words == BoardWords::Seed ? " dans sa rangée.\n" : " in its row.\n";
  out += "\n" + has_seeds(words, side_name(words, 2), row_sum(2)) + in_row;
  out += has_seeds(words, side_name(words, 1), row_sum(1)) + in_row;
  return out;
}

std::uint64_t ChongkakCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView ChongkakCore::view() const {
  BoardView v = view::two_rows("2x7", std::vector<int>(holes.begin(), holes.end()));
  v.scores = {static_cast<double>(row_sum(1)), static_cast<double>(row_sum(2))};
  v.score_label = "seeds in own row (fewer wins)";
  return v;
}

}  // namespace referee::games
