// `referee serve`: the daemon (referee/service/). Parses its options, checks the address and the
// token before anything starts, opens the log, takes the database's daemon lock (a second
// daemon on the same database is refused), watches the signals, and runs it.
//
// Decisions:
// - The default address is 127.0.0.1:8410 (8410 is the port the client commands try by default).
// - There is always an operator token (service/auth.h: every change over TCP needs one): read from
//   --token-file, or from the default file, <database>.token next to a database file, or
//   $STATE_DIRECTORY/operator.token (the systemd unit's state directory) for a server database;
//   a missing file is created on first start with a random token, mode 0600, and the log says
//   where. An existing file is refused when empty, short or readable by every user.
// - The Host names accepted are the loopback's, localhost, the --listen address when it names one
//   host (not 0.0.0.0 or ::), and each --allowed-host.
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/service_setup.h"
#include "engines/interrupt.h"
#include "engines/system.h"
#include "match/time_control.h"
#include "service/auth.h"
#include "service/daemon.h"
#include "storage/daemon_lock.h"
#include "storage/database.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

// "HOST:PORT" or "[V6]:PORT" -> host, port; errors name the text.
bool parse_listen(const std::string& text, std::string& host, int& port, std::string& error) {
  std::string port_text;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      error = "--listen '" + text + "' must be HOST:PORT or [IPV6]:PORT";
      return false;
    }
    host = text.substr(1, close - 1);
    port_text = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || text.find(':') != colon) {
      error = "--listen '" + text + "' must be HOST:PORT or [IPV6]:PORT";
      return false;
    }
    host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
  }
  if (port_text.empty() || port_text.size() > 5 ||
      port_text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port_text) > 65535) {
    error = "--listen '" + text + "': the port must be a number from 0 to 65535";
    return false;
  }
  port = std::stoi(port_text);
  return true;
}

// The operator token file when none is given (see the header comment); "" when there is none.
std::string default_token_file(const std::string& db) {
  if (!storage::is_server_database(db)) return db + ".token";
  if (const char* state = std::getenv("STATE_DIRECTORY"); state && *state) {
    std::string dir = state;
    dir = dir.substr(0, dir.find(':'));  // several directories: the first
    return dir + "/operator.token";
  }
  return "";
}

}  // namespace

int serve(const Args& args) {
  service::ServeOptions options;
  std::string listen = "127.0.0.1:8410", token_file, log_file, socket;
  double lease = 30;
  bool verbose = false;
  long commit_interval = 0;
  int max_artifact_mb = 64, min_upload_kib = 64;
  LimitFlags limit_flags;
  std::string ladder_tc = "10+0.1";
  po::options_description desc("referee serve [options]");
  desc.add_options()("help,h", "show this help")(
      "db", po::value(&options.db)->value_name("DB")->default_value(options.db),
      "database: a file or a postgresql:// URL")("listen",
                                                 po::value(&listen)->default_value(listen),
                                                 "address and port (port 0: any free port)")(
      "concurrency,c", po::value(&options.concurrency)->default_value(0),
      "game threads shared by every event (0 = number of cores)")(
      "artifact-cache", po::value(&options.artifact_cache)->value_name("DIR"),
      "where stored engines are extracted to run (default: engines/ARTIFACTS.md)")(
      "socket", po::value(&socket)->value_name("PATH"),
      "Unix socket for local control, mode 0660: whoever may open it is the operator (default: "
      "DB.sock beside a database file; none for a server database; 'none': no socket)")(
      "token-file", po::value(&token_file),
      "the operator token's file (Authorization: Bearer ...), created with a random token when "
      "missing (default: DB.token next to a database file; $STATE_DIRECTORY/operator.token)")(
      "allowed-host", po::value(&options.allowed_hosts)->composing()->value_name("NAME"),
      "a Host name clients may use besides the loopback's and localhost (repeatable)")(
      "behind-proxy", po::bool_switch(&options.behind_proxy),
      "a reverse proxy on this host forwards the requests: every request needs a token, and "
      "X-Forwarded-For names the client in the log")(
      "drain-seconds", po::value(&options.drain_seconds)->default_value(30),
      "on SIGTERM, how long running games may finish before they are interrupted")(
      "lease", po::value(&lease)->default_value(30),
      "seconds a claimed game stays reserved without a heartbeat")(
      "log", po::value(&log_file), "log to this file instead of stderr (SIGHUP reopens it)")(
      "verbose,v", po::bool_switch(&verbose), "one log line per game too")(
      "ladder-tc", po::value(&ladder_tc)->default_value(ladder_tc), "time control of new ladders")(
      "ladder-plies", po::value(&options.ladder_random_plies)->default_value(4),
      "random opening plies of new ladders' pairs")(
      "ladder-concurrency", po::value(&options.ladder_concurrency)->default_value(0),
      "the pace of new ladders: games at once (0: as many as the game threads)")(
      "ladder-interval-ms", po::value(&options.ladder_interval_ms)->default_value(0),
      "the pace of new ladders: least milliseconds between two game starts")(
      "max-streams", po::value(&options.max_stream_clients)->default_value(256),
      "live-stream clients at once (each holds a thread)")(
      "max-artifact-mb", po::value(&max_artifact_mb)->default_value(max_artifact_mb),
      "largest engine artifact uploaded (POST /api/artifacts), MiB")(
      "min-upload-kib", po::value(&min_upload_kib)->default_value(min_upload_kib),
      "least average rate of an upload after its first 5 s, KiB/s (slower: cut)")(
      "commit-interval", po::value(&commit_interval),
      "milliseconds between two commits of the moves played (default: 2 for a SQLite file, "
      "100 for a server database)");
  add_limit_options(desc, limit_flags);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm)) return *done;
  std::string error;
  if (!parse_listen(listen, options.host, options.port, error)) {
    std::cerr << "referee serve: " << error << "\n";
    return 2;
  }
  if (token_file.empty()) token_file = default_token_file(options.db);
  if (token_file.empty()) {
    std::cerr << "referee serve: give --token-file FILE: the operator token of a server database "
                 "is kept there (created when missing)\n";
    return 2;
  }
  if (socket.empty() && !storage::is_server_database(options.db)) socket = options.db + ".sock";
  if (socket != "none") options.socket = socket;
  bool token_created = false;
  if (auto token = service::ensure_token_file(token_file, token_created); token) {
    options.token = *token;
  } else {
    std::cerr << "referee serve: " << token.error() << "\n";
    return 2;
  }
  for (const auto& name : options.allowed_hosts)
    if (name.empty() || name.size() > 253 || name.find_first_of(" \t/:@[]") != std::string::npos) {
      std::cerr << "referee serve: --allowed-host '" << name << "' must be a host name\n";
      return 2;
    }
  if (options.host != "0.0.0.0" && options.host != "::")
    options.allowed_hosts.push_back(options.host);
  if (!(lease >= 0.2 && lease <= 86400)) {
    std::cerr << "referee serve: --lease must be from 0.2 to 86400 seconds\n";
    return 2;
  }
  options.lease_ms = static_cast<long>(lease * 1000);
  if (vm.count("commit-interval")) {
    if (commit_interval < 1 || commit_interval > kMaxCommitIntervalMs) {
      std::cerr << "referee serve: --commit-interval must be from 1 to " << kMaxCommitIntervalMs
                << " ms\n";
      return 2;
    }
    options.commit_interval_ms = commit_interval;
  }
  if (!(options.drain_seconds >= 0 && options.drain_seconds <= 86400)) {
    std::cerr << "referee serve: --drain-seconds must be from 0 to 86400\n";
    return 2;
  }
  if (options.concurrency < 0 || options.concurrency > 256) {
    std::cerr << "referee serve: --concurrency must be from 0 to 256\n";
    return 2;
  }
  if (max_artifact_mb < 1 || max_artifact_mb > 1024) {
    std::cerr << "referee serve: --max-artifact-mb must be from 1 to 1024\n";
    return 2;
  }
  if (min_upload_kib < 0 || min_upload_kib > 1 << 20) {
    std::cerr << "referee serve: --min-upload-kib must be from 0 to 1048576\n";
    return 2;
  }
  options.max_artifact_bytes = static_cast<std::size_t>(max_artifact_mb) << 20;
  options.min_upload_rate = static_cast<std::size_t>(min_upload_kib) * 1024;
  if (options.max_stream_clients < 1 || options.max_stream_clients > 4096) {
    std::cerr << "referee serve: --max-streams must be from 1 to 4096\n";
    return 2;
  }
  if (options.ladder_random_plies < 0 || options.ladder_random_plies > 100) {
    std::cerr << "referee serve: --ladder-plies must be from 0 to 100\n";
    return 2;
  }
  if (options.ladder_concurrency < 0 || options.ladder_concurrency > 256) {
    std::cerr << "referee serve: --ladder-concurrency must be from 0 to 256\n";
    return 2;
  }
  if (options.ladder_interval_ms < 0 || options.ladder_interval_ms > 86'400'000) {
    std::cerr << "referee serve: --ladder-interval-ms must be from 0 to 86400000\n";
    return 2;
  }
  if (auto tc = match::parse_time_control(ladder_tc); tc) {
    options.ladder_tc = *tc;
  } else {
    std::cerr << "referee serve: --ladder-tc: " << tc.error() << "\n";
    return 2;
  }
  if (auto limits = limits_of(limit_flags); limits) {
    options.limits = *limits;
  } else {
    std::cerr << "referee serve: " << limits.error() << "\n";
    return 2;
  }
  auto log = open_service_log(log_file, verbose);
  if (!log) {
    std::cerr << "referee serve: " << log.error() << "\n";
    return 1;
  }
  // One daemon per database, held until it exits (storage/daemon_lock.h).
  auto lock = storage::DaemonLock::acquire(options.db);
  if (!lock) {
    std::cerr << "referee serve: " << lock.error() << "\n";
    return 1;
  }
  (*log)->info(
      std::string(token_created ? "created the operator token file " : "operator token file: ") +
      token_file + " (clients: --token-file or $REFEREE_TOKEN_FILE)");
  engines::InterruptWatch watch(service_signals(/*hangup=*/true));
  return service::serve(options, **log, watch, std::cout);
}

}  // namespace referee::cli
