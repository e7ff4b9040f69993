// `referee worker`: plays the games of the events stored in a database beside other workers and
// daemons (referee/service/worker.h). Parses its options, opens the log, watches the signals.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/service_setup.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "service/worker.h"

namespace referee::cli {

namespace po = boost::program_options;

int worker(const Args& args) {
  service::WorkerOptions options;
  std::string log_file;
  double lease = 30, idle_max = 8;
  bool verbose = false, no_logs = false;
  long commit_interval = 0;
  LimitFlags limit_flags;
  po::options_description desc("referee worker --db DB [options]");
  desc.add_options()("help,h", "show this help")(
      "db", po::value(&options.db)->default_value(options.db),
      "database the events are stored in (shared with the daemon and other workers); on "
      "PostgreSQL, URL parameters such as ?tcp_user_timeout=10000&connect_timeout=5 bound how "
      "long a silent network cut goes unnoticed (default about 30 s; storage/SCALING.md)")(
      "concurrency,c", po::value(&options.concurrency)->default_value(1), "games at once")(
      "artifact-cache", po::value(&options.artifact_cache)->value_name("DIR"),
      "where stored engines are extracted to run (default: engines/ARTIFACTS.md)")(
      "name", po::value(&options.name), "name shown in the daemon's workers (default: host name)")(
      "lease", po::value(&lease)->default_value(30),
      "seconds a claimed game stays reserved without a heartbeat")(
      "drain-seconds", po::value(&options.drain_seconds)->default_value(30),
      "on SIGTERM, how long running games may finish before they are interrupted")(
      "idle-max", po::value(&idle_max)->default_value(8),
      "seconds between two looks for work, at most, while there is none")(
      "queue", po::value(&options.queue),
      "queue this tournament file's event in the database first")(
      "exit-when-done", po::bool_switch(&options.exit_when_done),
      "stop once no queued or running event is left")("no-logs", po::bool_switch(&no_logs),
                                                      "do not store the engines' transcripts")(
      "log", po::value(&log_file), "log to this file instead of stderr")(
      "verbose,v", po::bool_switch(&verbose), "one log line per game too")(
      "commit-interval", po::value(&commit_interval),
      "milliseconds between two commits of the moves played (default: 2 for a SQLite file, "
      "100 for a server database)");
  add_limit_options(desc, limit_flags);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm)) return *done;
  if (options.concurrency < 1 || options.concurrency > 256) {
    std::cerr << "referee worker: --concurrency must be from 1 to 256\n";
    return 2;
  }
  if (!(lease >= 0.2 && lease <= 86400)) {
    std::cerr << "referee worker: --lease must be from 0.2 to 86400 seconds\n";
    return 2;
  }
  if (!(idle_max >= 1 && idle_max <= 3600)) {
    std::cerr << "referee worker: --idle-max must be from 1 to 3600 seconds\n";
    return 2;
  }
  if (!(options.drain_seconds >= 0 && options.drain_seconds <= 86400)) {
    std::cerr << "referee worker: --drain-seconds must be from 0 to 86400\n";
    return 2;
  }
  if (vm.count("commit-interval")) {
    if (commit_interval < 1 || commit_interval > kMaxCommitIntervalMs) {
      std::cerr << "referee worker: --commit-interval must be from 1 to " << kMaxCommitIntervalMs
                << " ms\n";
      return 2;
    }
    options.commit_interval_ms = commit_interval;
  }
  options.lease_ms = static_cast<long>(lease * 1000);
  options.idle_max_ms = static_cast<long>(idle_max * 1000);
  options.keep_logs = !no_logs;
  if (auto limits = limits_of(limit_flags); limits) {
    options.limits = *limits;
  } else {
    std::cerr << "referee worker: " << limits.error() << "\n";
    return 2;
  }
  auto log = open_service_log(log_file, verbose);
  if (!log) {
    std::cerr << "referee worker: " << log.error() << "\n";
    return 1;
  }
  engines::InterruptWatch watch(service_signals(/*hangup=*/false));
  return service::work(options, **log, watch, std::cout);
}

}  // namespace referee::cli
