#include "games/awale.h"

#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kWinningCaptures = 25;

using mancala::in_row_2x6;
using mancala::row_sum_2x6;

}  // namespace

std::vector<ParamSpec> awale_params() {
  return {{"grandslam", "nocapture", {"nocapture", "illegal"}, 0, 0,
           "a capture of the opponent's whole row captures nothing, or is illegal"}};
}

AwaleCore AwaleCore::start(const GameSetup& setup) {
  AwaleCore c;
  c.holes.fill(4);
  c.mover = setup.first;
  c.capture_after = setup.name == "awale";
  c.slam_illegal = setup.params.is("grandslam", "illegal");
  return c;
}

Expected<AwaleCore> AwaleCore::parse(const GameSetup& setup, std::string_view fields) {
  AwaleCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:captures:player'"};
  auto rows = split(parts[0], '/');
  if (rows.size() != 2) return Error{"expected two rows separated by '/'"};
  int total = 0;
  for (int r = 0; r < 2; ++r) {
    auto counts = split(rows[static_cast<std::size_t>(r)], ',');
    if (counts.size() != 6) return Error{"each row needs 6 hole counts"};
    for (int i = 0; i < 6; ++i) {
      auto n = parse_count(counts[static_cast<std::size_t>(i)], 48);
      if (!n) return Error{"bad hole count '" + std::string(counts[static_cast<std::size_t>(i)]) + "'"};
      c.holes[static_cast<std::size_t>(r * 6 + i)] = static_cast<int>(*n);
      total += static_cast<int>(*n);
    }
  }
  auto caps = split(parts[1], ',');
  if (caps.size() != 2) return Error{"expected two capture counts"};
  for (int p = 0; p < 2; ++p) {
    auto n = parse_count(caps[static_cast<std::size_t>(p)], 48);
    if (!n) return Error{"bad capture count"};
    c.captured[static_cast<std::size_t>(p)] = static_cast<int>(*n);
    total += static_cast<int>(*n);
  }
  if (total != 48) return Error{"seeds must total 48, not " + std::to_string(total)};
  if (parts[2] != "1" && parts[2] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[2][0] - '0';
  return c;
}

AwaleCore::Sowing AwaleCore::sow(int hole) const {
  Sowing s{holes};
  const int opponent = 3 - mover;
  int seeds = s.holes[static_cast<std::size_t>(hole - 1)];
  s.holes[static_cast<std::size_t>(hole - 1)] = 0;
  const int last = mancala::sow(
      s.holes, hole, seeds, [](int h) { return mancala::ccw(h, 12); }, true,
      [&](int h, bool) { s.feeds |= in_row_2x6(h, opponent); });
  auto takes = [&](int h) {
    int n = s.holes[static_cast<std::size_t>(h - 1)];
    return in_row_2x6(h, opponent) && (n == 2 || n == 3);
  };
  if (!takes(last)) return s;
  std::vector<int> taken{last};
  for (int h = last - 1; h >= 1 && takes(h); --h) taken.push_back(h);
  if (capture_after)
    for (int h = last + 1; h <= 12 && takes(h); ++h) taken.push_back(h);
  int sum = 0;
  for (int h : taken) sum += s.holes[static_cast<std::size_t>(h - 1)];
  if (sum == row_sum_2x6(s.holes, opponent)) {
    s.slam = true;
    return s;
  }
  for (int h : taken) s.holes[static_cast<std::size_t>(h - 1)] = 0;
  s.taken = sum;
  return s;
}

void AwaleCore::moves(std::vector<Move>& out) const {
  if (captured[0] >= kWinningCaptures || captured[1] >= kWinningCaptures) return;
  const bool must_feed = row_sum_2x6(holes, 3 - mover) == 0;
  const int first = mancala::first_hole_2x6(mover);
  for (int h = first; h < first + 6; ++h) {
    if (holes[static_cast<std::size_t>(h - 1)] == 0) continue;
    if (must_feed || slam_illegal) {
      Sowing s = sow(h);
      if (must_feed && !s.feeds) continue;
      if (slam_illegal && s.slam) continue;
    }
    out.push_back(h);
  }
}

Effect AwaleCore::play(Move hole) {
  Sowing s = sow(hole);
  holes = s.holes;
  captured[static_cast<std::size_t>(mover - 1)] += s.taken;
  mover = 3 - mover;
  return {s.taken > 0, s.taken > 0};
}

bool AwaleCore::over() const {
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

Outcome AwaleCore::exhausted() const {
  return mancala::rows_to_owners_2x6(holes, captured);
}

std::string AwaleCore::text() const {
  std::vector<int> south(holes.begin(), holes.begin() + 6), north(holes.begin() + 6, holes.end());
  return join_counts(south) + "/" + join_counts(north) + ":" + std::to_string(captured[0]) + "," +
         std::to_string(captured[1]) + ":" + std::to_string(mover);
}

std::string AwaleCore::draw(BoardWords words) const {
  return mancala::draw_2x6(std::vector<int>(holes.begin(), holes.end()), captured[1], captured[0],
                           words);
}

std::uint64_t AwaleCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add_all(captured);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView AwaleCore::view() const {
  BoardView v = view::two_rows("2x6", std::vector<int>(holes.begin(), holes.end()));
  v.score_label = "captured";
  return v;
}

}  // namespace referee::games
