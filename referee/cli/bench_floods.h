// `referee bench --floods` (bench_floods.cpp): the referee's peak RSS while engines flood it in
// every phase.
#pragma once

#include <string>

namespace referee::cli {

// `mock` is the test engine (tests/support/mock_engine); returns the exit status.
int bench_floods(const std::string& mock, int concurrency);

}  // namespace referee::cli
