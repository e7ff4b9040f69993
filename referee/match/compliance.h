// The protocol compliance checker behind `referee check-engine`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engines/process.h"
#include "match/debug_log.h"

namespace referee::match {

// Runs every step of an engine's life against it (compliance.cpp), printing "PASS ..." and
// "FAIL ...: detail" lines (a FAIL followed by a "hint:" line where one helps), then a summary
// naming the first failing step, to `out`. `game_specs` empty: every game the engine declares.
// `start_timeout_ms`: how long the handshake may take. `debug`: --debug. Returns the number of
// failed steps.
int check_engine_compliance(const engines::SpawnSpec& spec,
                            const std::vector<std::string>& game_specs, std::ostream& out,
                            long start_timeout_ms = 10000, DebugLog* debug = nullptr);

}  // namespace referee::match
