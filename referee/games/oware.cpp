#include "games/oware.h"

#include <cstdio>
#include <numeric>

#include "games/board_words.h"
#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kSeeds = 48;

std::size_t at(int hole) {
  return static_cast<std::size_t>(hole - 1);
}
std::size_t idx(int player) {
  return static_cast<std::size_t>(player - 1);
}

}  // namespace

std::vector<ParamSpec> oware_params() {
  return {{"players",
           "2",
           {"2", "3", "4", "6"},
           0,
           0,
           "number of players; each owns a band of 12/players holes"}};
}

OwareCore OwareCore::start(const GameSetup& setup) {
  OwareCore c;
  c.holes.fill(4);
  c.k = static_cast<int>(setup.params.number("players"));
  c.mover = setup.first;
  return c;
}

Expected<OwareCore> OwareCore::parse(const GameSetup& setup, std::string_view fields) {
  OwareCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:captures:player'"};
  auto holes = mancala::parse_blocks(parts[0], c.k, c.width(), kSeeds);
  if (!holes) return holes.failure();
  auto caps = mancala::parse_list(parts[1], c.k, kSeeds);
  if (!caps) return caps.failure();
  auto player = mancala::parse_player(parts[2], c.k);
  if (!player) return Error{"player to move must be 1.." + std::to_string(c.k)};
  std::copy(holes->begin(), holes->end(), c.holes.begin());
  std::copy(caps->begin(), caps->end(), c.captured.begin());
  c.mover = *player;
  int total = c.in_play();
  for (int n : *caps) {
    if (n % 4 != 0) return Error{"captures are fours: " + std::to_string(n) + " is not"};
    total += n;
  }
  if (total != kSeeds) return Error{"seeds must total 48, not " + std::to_string(total)};
  if (c.in_play() == 4) return Error{"exactly 4 seeds in play: the last capture takes them"};
  return c;
}

int OwareCore::band_sum(int player) const {
  const int first = (player - 1) * width();
  return std::accumulate(holes.begin() + first, holes.begin() + first + width(), 0);
}

int OwareCore::in_play() const {
  return std::accumulate(holes.begin(), holes.end(), 0);
}

std::optional<OwareCore::Turn> OwareCore::sow(int hole) const {
  Turn t{holes, captured};
  int origin = hole;
  int hand = t.holes[at(origin)];
  t.holes[at(origin)] = 0;
  int in_play = std::accumulate(t.holes.begin(), t.holes.end(), hand);
  mancala::RelayGuard guard;
  // A capture of the four in `h` by `taker`; true when it ends the game (last-four rule).
  auto take = [&](int h, int taker) {
    t.holes[at(h)] = 0;
    t.captured[idx(taker)] += 4;
    t.took = true;
    in_play -= 4;
    if (in_play != 4) return in_play == 0;
    t.captured[idx(taker)] += 4;
    t.holes.fill(0);
    hand = 0;
    return true;
  };
  while (true) {
    if (!guard.enter(t.holes, hand, origin)) return std::nullopt;
    int h = origin;
    while (hand > 0) {
      h = mancala::ccw(h, 12);
      if (h == origin) continue;
      ++t.holes[at(h)];
      --hand;
      if (!guard.drop()) return std::nullopt;
      if (hand > 0 && t.holes[at(h)] == 4 && take(h, owner(h))) return t;
    }
    const int n = t.holes[at(h)];
    if (n == 1) return t;  // the last seed fell into an empty hole
    if (n == 4) {
      take(h, mover);
      return t;
    }
    hand = n;  // relay: pick the hole up and sow on from the next hole
    t.holes[at(h)] = 0;
    origin = h;
  }
}

void OwareCore::moves(std::vector<Move>& out) const {
  if (in_play() == 0) return;
  if (band_sum(mover) == 0) {
    out.push_back(0);
    return;
  }
  const int first = (mover - 1) * width() + 1;
  for (int h = first; h < first + width(); ++h)
    if (holes[at(h)] > 0 && sow(h)) out.push_back(h);
}

bool OwareCore::over() const {
  if (in_play() == 0) return true;
  if (band_sum(mover) == 0) return false;  // a pass
  const int first = (mover - 1) * width() + 1;
  for (int h = first; h < first + width(); ++h)
    if (holes[at(h)] > 0 && sow(h)) return false;
  return true;  // every move breaks the relay guard
}

Effect OwareCore::play(Move hole) {
  if (hole != 0) {
    auto t = sow(hole);
    if (!t) return {};  // never reached: only legal moves are played
    holes = t->holes;
    captured = t->captured;
    mover = mover % k + 1;
    return {t->took, t->took};
  }
  mover = mover % k + 1;
  return {};
}

Outcome OwareCore::result() const {
  if (in_play() > 0) {  // seeds left but every move breaks the relay guard
    Outcome o = exhausted();
    o.reason = "relay";
    return o;
  }
  std::vector<double> scores;
  for (int p = 1; p <= k; ++p) scores.push_back(captured[idx(p)]);
  return rank_by_score(std::move(scores), "rules");
}

Outcome OwareCore::exhausted() const {
  std::vector<double> scores;
  for (int p = 1; p <= k; ++p) scores.push_back(captured[idx(p)] + band_sum(p));
  return rank_by_score(std::move(scores), "rules");
}

std::vector<double> OwareCore::material() const {
  return std::vector<double>(captured.begin(), captured.begin() + k);
}

std::string OwareCore::text() const {
  std::vector<int> caps(captured.begin(), captured.begin() + k);
  return mancala::join_blocks(std::vector<int>(holes.begin(), holes.end()), width()) + ":" +
         join_counts(caps) + ":" + std::to_string(mover);
}

std::string OwareCore::draw(BoardWords words) const {
  if (k == 2)
    return mancala::draw_2x6(std::vector<int>(holes.begin(), holes.end()), captured[1], captured[0],
                             words);
  // The same 2x6 layout, each count followed by its owner's number, then every player's captures.
  std::string out = "   ";
  char cell[48];
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, "%7d", h);
    out += cell;
  }
  out += "\n   ";
  for (int h = 12; h >= 7; --h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[at(h)]);
    out += cell + player_name(words, owner(h));
  }
  out += "\n   ";
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, " [%2d]", holes[at(h)]);
    out += cell + player_name(words, owner(h));
  }
  out += "\n   ";
  for (int h = 1; h <= 6; ++h) {
    std::snprintf(cell, sizeof cell, "%7d", h);
    out += cell;
  }
  out += "\n";
  for (int p = 1; p <= k; ++p)
    out += has_seeds(words, player_name(words, p), captured[idx(p)]) + ".\n";
  return out;
}

std::uint64_t OwareCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add_all(captured);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView OwareCore::view() const {
  const std::vector<int> counts(holes.begin(), holes.end());
  BoardView v = k == 2 ? view::two_rows("2x6", counts) : view::hole_ring(counts, k);
  v.score_label = "captured";
  return v;
}

}  // namespace referee::games
