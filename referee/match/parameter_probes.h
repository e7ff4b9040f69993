// What check-engine (compliance.cpp) needs to try a game's other parameter values: the values,
// the game with one of them, and lines of play where an engine that ignores it goes wrong.
//
// Contract: pure functions of the rules library; random play is seeded, so the same game gives
// the same lines.
//
// Decisions:
// - Tried: the game's own parameters and `first`. Not tried: `players` (check-engine checks one
//   target per declared number of players already), `nocapture` and `maxplies` (they only end
//   games). A choice parameter gives each other choice; a range the next value (the one before,
//   at its top).
// - A line tells when the game as given cannot follow it, or allows moves the variant forbids
//   at its end: an engine that plays the game as given instead of the variant then answers an
//   illegal move with some probability; the lines where most of its moves would be wrong come
//   first.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/expected.h"
#include "games/game.h"
#include "protocol/messages.h"

namespace referee::match {

// The game's parameter values, from its canonical string "name:key=value,...".
std::vector<std::pair<std::string, std::string>> parameters(const games::Game& game);

// Whether a declared spec accepts a value: "a|b|c" lists them; "min..max" is a range (integers).
bool spec_accepts(const std::string& spec, const std::string& value);

// A random playout from the start to the end (or `cap` plies), seeded by `seed`.
std::vector<std::string> random_playout(const games::Game& game, std::uint64_t seed, int cap);

// The game with `key` set to `value`, its other parameters as in `game`.
Expected<games::Game> with_parameter(const games::Game& game, const std::string& key,
                                     const std::string& value);

// Every other value to try (key, value) that the engine's declarations accept (a parameter they
// do not name accepts every value).
std::vector<std::pair<std::string, std::string>> other_values(
    const std::vector<protocol::GameDecl>& declarations, const games::Game& game);

// At most `count` lines of random play under `variant` after which an engine playing `base`
// goes wrong, the most telling first.
std::vector<std::vector<std::string>> telling_lines(const games::Game& variant,
                                                    const games::Game& base, std::size_t count);

}  // namespace referee::match
