// What `referee serve` and `referee worker` set up alike before they run: the log (a file or
// stderr, journald's prefixes when stderr is the journal) and the signals (a second SIGINT or
// SIGTERM skips the drain instead of exiting; the log announces them).
#pragma once

#include <boost/program_options.hpp>
#include <memory>
#include <string>

#include "base/expected.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "event/owner_loop.h"
#include "service/log.h"

namespace referee::cli {

// --commit-interval's largest value: a move is durable within this many milliseconds at worst.
constexpr long kMaxCommitIntervalMs = 10000;

// The owner loop's guards of the disk as command-line options (serve and worker alike).
struct LimitFlags {
  long output_mb = 64;  // per engine per window; 0: no budget
  long output_window_s = 3600;
  long min_free_mb = 256;  // headroom; 0: no check
  double space_check_s = 5;
};

inline void add_limit_options(boost::program_options::options_description& desc, LimitFlags& f) {
  namespace po = boost::program_options;
  desc.add_options()("engine-output-mb", po::value(&f.output_mb)->default_value(f.output_mb),
                     "MiB of its own output (transcripts, info lines) an engine may have stored "
                     "per window, across games; past it, its output is dropped (0 = no budget)")(
      "engine-output-window", po::value(&f.output_window_s)->default_value(f.output_window_s),
      "seconds of the engines' output budget's window")(
      "min-free-mb", po::value(&f.min_free_mb)->default_value(f.min_free_mb),
      "free MiB the database's disk keeps: below it no new game starts (degraded) until there "
      "is room again (0 = no check)")(
      "space-check", po::value(&f.space_check_s)->default_value(f.space_check_s),
      "seconds between two looks at the free space (and, degraded, for room again)");
}

// The limits of the flags, or an error naming the flag.
inline Expected<event::OwnerLimits> limits_of(const LimitFlags& f) {
  if (f.output_mb < 0 || f.output_mb > (1L << 20))
    return Error{"--engine-output-mb must be from 0 to 1048576"};
  if (f.output_window_s < 1 || f.output_window_s > 31L * 86400)
    return Error{"--engine-output-window must be from 1 to 2678400 seconds"};
  if (f.min_free_mb < 0 || f.min_free_mb > (1L << 30))
    return Error{"--min-free-mb must be from 0 to 1073741824"};
  if (!(f.space_check_s >= 0.05 && f.space_check_s <= 3600))
    return Error{"--space-check must be from 0.05 to 3600 seconds"};
  event::OwnerLimits limits;
  limits.engine_output.bytes = static_cast<std::int64_t>(f.output_mb) << 20;
  limits.engine_output.window = std::chrono::seconds(f.output_window_s);
  limits.headroom_bytes = static_cast<std::int64_t>(f.min_free_mb) << 20;
  limits.space_check = std::chrono::milliseconds(static_cast<long>(f.space_check_s * 1000));
  return limits;
}

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
