// Setup moves of the games with a setup phase (lontu-holo, mweso), rules.md §1 "Move strings":
// `=` and the counts of the player's holes in his sowing order, comma-separated, each a canonical
// non-negative decimal (zeros allowed), with a fixed number of counts and a fixed sum. Setups are
// checked by form, never listed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace referee::games {

// The counts a setup text names, or nothing when it is not `=` + `holes` counts summing to `sum`.
std::optional<std::vector<int>> parse_setup(std::string_view text, int holes, int sum);
// "=c1,c2,...".
std::string setup_text(const std::vector<int>& counts);
// A setup of `sum` seeds in `holes` holes, each seed dropped in a hole drawn from `seed`.
std::vector<int> random_setup(std::uint64_t seed, int holes, int sum);
// The description setup_form() returns: "=c1,...,cN: N counts for holes ... in this order, sum S".
std::string setup_description(const std::vector<int>& hole_numbers, int sum);

}  // namespace referee::games
