#include "games/two_sided.h"

#include <numeric>

#include "games/four_rows.h"
#include "games/mancala.h"

namespace referee::games::two_sided {

Position start_position(int holes, int per_hole, int first) {
  Position p;
  p.holes.assign(static_cast<std::size_t>(holes), per_hole);
  p.mover = first;
  return p;
}

Expected<Position> parse_position(std::string_view fields, int per_side, int total) {
  Position p;
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:captures:player'"};
  auto rows = split(parts[0], '/');
  if (rows.size() != 2) return Error{"expected two blocks of holes separated by '/'"};
  int sum = 0;
  for (const auto& row : rows) {
    auto counts = split(row, ',');
    if (counts.size() != static_cast<std::size_t>(per_side))
      return Error{"each block needs " + std::to_string(per_side) + " hole counts"};
    for (const auto& text : counts) {
      auto n = parse_count(text, total);
      if (!n) return Error{"bad hole count '" + std::string(text) + "'"};
      p.holes.push_back(static_cast<int>(*n));
      sum += static_cast<int>(*n);
    }
  }
  auto caps = split(parts[1], ',');
  if (caps.size() != 2) return Error{"expected two capture counts"};
  for (std::size_t i = 0; i < 2; ++i) {
    auto n = parse_count(caps[i], total);
    if (!n) return Error{"bad capture count '" + std::string(caps[i]) + "'"};
    p.captured[i] = static_cast<int>(*n);
    sum += static_cast<int>(*n);
  }
  if (sum != total)
    return Error{"seeds must total " + std::to_string(total) + ", not " + std::to_string(sum)};
  if (parts[2] != "1" && parts[2] != "2") return Error{"player to move must be 1 or 2"};
  p.mover = parts[2][0] - '0';
  return p;
}

std::string position_text(const Position& p) {
  const auto half = static_cast<std::ptrdiff_t>(p.holes.size() / 2);
  std::vector<int> south(p.holes.begin(), p.holes.begin() + half);
  std::vector<int> north(p.holes.begin() + half, p.holes.end());
  return join_counts(south) + "/" + join_counts(north) + ":" + std::to_string(p.captured[0]) + "," +
         std::to_string(p.captured[1]) + ":" + std::to_string(p.mover);
}

int sum_holes(const std::vector<int>& holes, int first, int count) {
  return std::accumulate(holes.begin() + (first - 1), holes.begin() + (first - 1 + count), 0);
}

std::uint64_t position_hash(const Position& p) {
  Hasher h;
  h.add_all(p.holes);
  h.add_all(p.captured);
  h.add(static_cast<std::uint64_t>(p.mover));
  return h.value();
}

Outcome captured_only(const Position& p, std::string reason) {
  return rank_by_score({static_cast<double>(p.captured[0]), static_cast<double>(p.captured[1])},
                       std::move(reason));
}

std::vector<double> captured_material(const Position& p) {
  return {static_cast<double>(p.captured[0]), static_cast<double>(p.captured[1])};
}

Effect end_turn(Position& p, int taken) {
  p.captured[static_cast<std::size_t>(p.mover - 1)] += taken;
  p.mover = 3 - p.mover;
  return {taken > 0, taken > 0};
}

Outcome relay_result(const Position& p) {
  const bool empty = sum_holes(p.holes, 1, 12) == 0;
  return captured_only(p, empty ? "rules" : "relay");
}

int block_sum(const Position& p, int n, int player) {
  return sum_holes(p.holes, four_rows::first_hole(n, player), 2 * n);
}

void block_moves(const Position& p, int n, std::vector<int>& out) {
  const int first = four_rows::first_hole(n, p.mover);
  for (int h = first; h < first + 2 * n; ++h)
    if (p.holes[static_cast<std::size_t>(h - 1)] > 0) out.push_back(h);
}

std::optional<int> block_move(const Position& p, int n, std::string_view text) {
  const auto h = parse_count(text, 4 * n);
  if (!h || *h < 1 || four_rows::owner(n, static_cast<int>(*h)) != p.mover) return std::nullopt;
  if (p.holes[static_cast<std::size_t>(*h - 1)] == 0) return std::nullopt;
  return static_cast<int>(*h);
}

int sow_block(Position& p, int n, int hole) {
  const int seeds = p.holes[static_cast<std::size_t>(hole - 1)];
  p.holes[static_cast<std::size_t>(hole - 1)] = 0;
  return mancala::sow(p.holes, hole, seeds, [n](int h) { return four_rows::ccw(n, h); });
}

std::vector<double> block_material(const Position& p, int n) {
  return {static_cast<double>(p.captured[0] + block_sum(p, n, 1)),
          static_cast<double>(p.captured[1] + block_sum(p, n, 2))};
}

}  // namespace referee::games::two_sided
