// What `referee serve` and `referee worker` set up alike before they run: the log (a file or
// stderr, journald's prefixes when stderr is the journal) and the signals (a second SIGINT or
// SIGTERM skips the drain instead of exiting; the log announces them).
#pragma once

#include <memory>
#include <string>

#include "base/expected.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "service/log.h"

namespace referee::cli {

// --commit-interval's largest value: a move is durable within this many milliseconds at worst.
constexpr long kMaxCommitIntervalMs = 10000;

inline Expected<std::unique_ptr<service::Log>> open_service_log(const std::string& file,
                                                                bool verbose) {
  service::LogOptions options;
  options.file = file;
  options.journal = engines::stderr_is_journal();
  options.verbose = verbose;
  return service::Log::open(options);
}

inline engines::InterruptOptions service_signals(bool hangup) {
  engines::InterruptOptions signals;
  signals.second_exits = false;  // a second signal skips the drain instead
  signals.announce = false;      // the log says it
  signals.hangup = hangup;       // SIGHUP reopens the log file
  return signals;
}

}  // namespace referee::cli
