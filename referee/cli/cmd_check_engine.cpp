// `referee check-engine`: the command line of the protocol compliance checker (match/compliance.h).
#include <iostream>
#include <optional>

#include "cli/cli.h"
#include "cli/options.h"
#include "engines/engine_config.h"
#include "games/core.h"
#include "match/compliance.h"

namespace referee {

namespace cli {

namespace {

// Shown by --help only: the options are parsed by hand, since every word from CMD on belongs to
// the engine, dashes included.
void print_check_engine_help() {
  namespace po = boost::program_options;
  po::options_description desc;
  desc.add_options()("game,g", po::value<std::string>()->value_name("G"),
                     "check this game; repeatable (default: every game the engine declares)")(
      "start-timeout", po::value<long>()->value_name("MS")->default_value(10000),
      "time allowed from ugi to ugiok")(
      "debug", "print every line exchanged with the engine to stderr, as it happens");
  print_help(std::cout,
             {"referee check-engine [options] CMD [ARGS...]",
              "Protocol compliance of one engine: PASS or FAIL per step, with the lines that\n"
              "failed. Exit status 1 when a step fails."},
             desc);
}

}  // namespace

int check_engine(const Args& args) {
  // Our options come first; everything from CMD on belongs to the engine, dashes included.
  std::vector<std::string> game_specs;
  long start_timeout_ms = 10000;
  bool debug = false;
  std::size_t i = 0;
  for (; i < args.size() && args[i].rfind("-", 0) == 0; ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      print_check_engine_help();
      return 0;
    }
    if (args[i] == "--version") {
      std::cout << version_line() << "\n";
      return 0;
    }
    if (args[i] == "--debug") {
      debug = true;
      continue;
    }
    if ((args[i] == "--game" || args[i] == "-g") && i + 1 < args.size()) {
      game_specs.push_back(args[++i]);
      continue;
    }
    if (args[i] == "--start-timeout" && i + 1 < args.size()) {
      auto ms = games::parse_count(args[++i], 3600000);
      if (!ms || *ms == 0) {
        std::cerr << "referee check-engine: --start-timeout must be from 1 to 3600000 ms\n";
        return 2;
      }
      start_timeout_ms = *ms;
      continue;
    }
    std::cerr << "referee check-engine: unknown option '" << text::printable(args[i]) << "'\n";
    return 2;
  }
  if (i == args.size()) {
    std::cerr << "referee check-engine: missing CMD (usage: referee check-engine [options] CMD "
                 "[ARGS...])\n";
    return 2;
  }
  engines::SpawnSpec spec;
  spec.command = args[i];
  spec.args.assign(args.begin() + static_cast<long>(i) + 1, args.end());
  std::optional<match::DebugLog> log;
  if (debug) log.emplace(std::cerr);
  return match::check_engine_compliance(spec, game_specs, std::cout, start_timeout_ms,
                                        log ? &*log : nullptr)
             ? 1
             : 0;
}

}  // namespace cli

}  // namespace referee
