// The protocol compliance checker behind `referee check-engine`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engines/process.h"

namespace referee {

// Runs every step against the engine, printing "PASS ..."/"FAIL ...: detail" lines to `out`.
// `game_specs` empty: every game the engine declares. `start_timeout_ms`: how long the handshake
// may take. Returns the number of failed steps.
int check_engine_compliance(const engines::SpawnSpec& spec,
                            const std::vector<std::string>& game_specs, std::ostream& out,
                            long start_timeout_ms = 10000);

}  // namespace referee
