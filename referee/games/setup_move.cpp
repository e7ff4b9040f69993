#include "games/setup_move.h"

#include <random>

#include "games/core.h"

namespace referee::games {

std::optional<std::vector<int>> parse_setup(std::string_view text, int holes, int sum) {
  if (text.empty() || text[0] != '=') return std::nullopt;
  auto parts = split(text.substr(1), ',');
  if (static_cast<int>(parts.size()) != holes) return std::nullopt;
  std::vector<int> counts;
  int total = 0;
  for (auto part : parts) {
    auto n = parse_count(part, sum);
    if (!n) return std::nullopt;
    counts.push_back(static_cast<int>(*n));
    total += static_cast<int>(*n);
  }
  if (total != sum) return std::nullopt;
  return counts;
}

std::string setup_text(const std::vector<int>& counts) {
  std::string out(1, '=');
  out += join_counts(counts);
  return out;
}

std::vector<int> random_setup(std::uint64_t seed, int holes, int sum) {
  std::mt19937_64 rng(seed);
  std::vector<int> counts(static_cast<std::size_t>(holes), 0);
  std::uniform_int_distribution<int> pick(0, holes - 1);
  for (int i = 0; i < sum; ++i) ++counts[static_cast<std::size_t>(pick(rng))];
  return counts;
}

std::string setup_description(const std::vector<int>& hole_numbers, int sum) {
  std::string out = "=c1";
  if (hole_numbers.size() > 1) out += ",...,c" + std::to_string(hole_numbers.size());
  out += ": ";
  out += std::to_string(hole_numbers.size());
  out += " counts for holes ";
  out += join_counts(hole_numbers);
  out += " in this order, sum ";
  out += std::to_string(sum);
  return out;
}

}  // namespace referee::games
