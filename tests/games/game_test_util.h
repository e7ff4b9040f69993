// Helpers every game test shares: states parsed from position strings or reached by moves (each
// REQUIREs success and reports the library's error when it fails), perft against golden counts,
// and the usual bad-input checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/game.h"

namespace referee::games::testing {

using Moves = std::vector<std::string>;

// The start state of the game `spec` names.
State start(const std::string& spec);

// The state `position` describes in the game `spec` names.
State at(const std::string& spec, const std::string& position);

// That state after `move`.
State after(const std::string& spec, const std::string& position, const std::string& move);

// The state after `moves`, played from `position`, or from the start when `position` is empty.
State after_moves(const std::string& spec, const std::string& position, const Moves& moves);

// Checks s.perft(d) == counts[d] for every depth d from 0.
void check_perft(const State& s, const std::vector<std::uint64_t>& counts);

// Checks that the game `spec` names refuses to parse every one of `positions`.
void check_bad_positions(const std::string& spec, const std::vector<std::string>& positions);

// Checks that `s` refuses every one of `moves` and that its ply has not moved.
void check_bad_moves(State& s, const Moves& moves);

}  // namespace referee::games::testing
