// `referee check-engine`: the command line of the protocol compliance checker (match/compliance.h).
#include <iostream>

#include "cli/cli.h"
#include "games/core.h"
#include "match/compliance.h"

namespace referee {

namespace cli {

int check_engine(const Args& args) {
  // Our options come first; everything from CMD on belongs to the engine, dashes included.
  std::vector<std::string> game_specs;
  long start_timeout_ms = 10000;
  std::size_t i = 0;
  for (; i < args.size() && args[i].rfind("-", 0) == 0; ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << "usage: referee check-engine [--game G]... [--start-timeout MS] CMD [ARGS...]\n"
                   "  --game G              check this game (default: every game the engine "
                   "declares)\n"
                   "  --start-timeout MS    time allowed for ugi -> ugiok (default 10000)\n";
      return 0;
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
    std::cerr << "referee check-engine: unknown option '" << args[i] << "'\n";
    return 2;
  }
  if (i == args.size()) {
    std::cerr << "usage: referee check-engine [--game G]... CMD [ARGS...]\n";
    return 2;
  }
  engines::SpawnSpec spec;
  spec.command = args[i];
  spec.args.assign(args.begin() + static_cast<long>(i) + 1, args.end());
  return check_engine_compliance(spec, game_specs, std::cout, start_timeout_ms) ? 1 : 0;
}

}  // namespace cli

}  // namespace referee
