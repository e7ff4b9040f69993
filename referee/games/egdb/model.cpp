#include "games/egdb/model.h"

#include <numeric>

#include "games/awale.h"
#include "games/kalaha.h"

namespace referee::games::egdb {

namespace {

constexpr int kAwaleSeeds = 48;
constexpr int kWinningCaptures = 25;

}  // namespace

Expected<Model> model_for(const Game& game) {
  Model m;
  const std::string& name = game.name();
  if (name == "awale" || name == "awale-v1") {
    m.family = Family::Awale;
    m.capture_after = name == "awale";
    m.slam_illegal = game.params().is("grandslam", "illegal");
    m.nocapture = static_cast<int>(game.params().number("nocapture"));
    // The solver runs nocapture iterations and keeps iteration numbers in a byte (solver.h).
    if (m.nocapture > kMaxNocapture)
      return Error{"endgame tables of " + name + " take nocapture up to " +
                   std::to_string(kMaxNocapture) + ", not " + std::to_string(m.nocapture)};
    m.key = name + ":grandslam=" + game.params().text("grandslam") +
            ",nocapture=" + std::to_string(m.nocapture);
  } else if (name == "kalaha") {
    m.family = Family::Kalaha;
    m.nocapture = static_cast<int>(game.params().number("nocapture"));
    m.key = name;
  } else {
    return Error{"game '" + name + "' has no endgame tables (awale, awale-v1 and kalaha have)"};
  }
  return m;
}

int seeds_on(const Board& b) {
  return std::accumulate(b.begin(), b.end(), 0);
}

int rows_value(const Board& b) {
  return std::accumulate(b.begin(), b.begin() + 6, 0) - std::accumulate(b.begin() + 6, b.end(), 0);
}

Board turned(const Board& b) {
  Board t;
  for (std::size_t i = 0; i < 12; ++i) t[i] = b[(i + 6) % 12];
  return t;
}

std::uint64_t index_of(const Model& m, const Pos& pos, int seeds) {
  const std::uint64_t r = rank(pos.holes, seeds);
  if (m.family == Family::Kalaha) return r;
  // The mover's captured seeds run over [24 - n, 24] (both players below 25).
  const auto split = static_cast<std::uint64_t>(pos.mine - (kWinningCaptures - 1 - seeds));
  return split * boards(seeds) + r;
}

Pos position_at(const Model& m, std::uint64_t index, int seeds) {
  Pos p;
  const std::uint64_t n = boards(seeds);
  p.holes = unrank(index % n, seeds);
  if (m.family == Family::Awale) {
    p.mine = static_cast<int>(index / n) + kWinningCaptures - 1 - seeds;
    p.theirs = kAwaleSeeds - seeds - p.mine;
  }
  return p;
}

bool captured_out(const Model& m, const Pos& pos) {
  return m.family == Family::Awale &&
         (pos.mine >= kWinningCaptures || pos.theirs >= kWinningCaptures);
}

namespace {

void awale_children(const Model& m, const Pos& pos, std::vector<Child>& out,
                    std::vector<int>& moves) {
  AwaleCore core;
  core.holes = pos.holes;
  core.captured = {pos.mine, pos.theirs};
  core.mover = 1;
  core.capture_after = m.capture_after;
  core.slam_illegal = m.slam_illegal;
  moves.clear();
  core.moves(moves);
  for (int hole : moves) {
    AwaleCore after = core;
    (void)after.play(hole);
    const int gain = after.captured[0] - pos.mine;
    out.push_back({hole, gain, false, Pos{turned(after.holes), pos.theirs, pos.mine + gain}});
  }
}

void kalaha_children(const Pos& pos, std::vector<Child>& out, std::vector<int>& moves) {
  KalahaCore core;
  core.holes = pos.holes;
  core.mover = 1;
  moves.clear();
  core.moves(moves);
  for (int hole : moves) {
    KalahaCore after = core;
    (void)after.play(hole);
    const bool again = after.mover == 1;
    out.push_back(
        {hole, after.stores[0], again, Pos{again ? after.holes : turned(after.holes), 0, 0}});
  }
}

}  // namespace

void children(const Model& m, const Pos& pos, std::vector<Child>& out, std::vector<int>& scratch) {
  out.clear();
  if (m.family == Family::Awale)
    awale_children(m, pos, out, scratch);
  else
    kalaha_children(pos, out, scratch);
}

}  // namespace referee::games::egdb
