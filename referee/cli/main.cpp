// referee: a referee and tournament runner for traditional board games. See README.md.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/options.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const referee::cli::Args&);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"games", referee::cli::games, "list the games and their parameters"},
    {"rules", referee::cli::rules, "GAME: the canonical game string and its parameters"},
    {"moves", referee::cli::moves, "GAME [--position P] [--moves M...]: position and legal moves"},
    {"perft", referee::cli::perft, "GAME DEPTH [--position P] [--moves M...]: move-path counts"},
    {"show", referee::cli::show, "GAME [--position P] [--moves M...] [--json]: draw a position"},
    {"tournament", referee::cli::tournament, "FILE: run or resume a tournament file"},
    {"match", referee::cli::match, "--engine NAME=CMD --engine ... --game G: a match from flags"},
    {"ratings", referee::cli::ratings, "[--game G] [filters]: Elo tables from the database"},
    {"crosstable", referee::cli::crosstable, "[--game G] [filters]: head-to-head results"},
    {"bracket", referee::cli::bracket, "EVENT: a knockout's bracket, a Swiss event's standings"},
    {"sprt", referee::cli::sprt, "--engine A --engine B --elo0 E0 --elo1 E1: SPRT on stored games"},
    {"export", referee::cli::export_games, "--format pgn|jsonl|csv: export stored games"},
    {"import", referee::cli::import_games, "FILE.jsonl [--db DB]: take a JSON Lines export back"},
    {"verify", referee::cli::verify, "replay every stored game through the rules"},
    {"transcript", referee::cli::transcript, "GAME_ID: the lines exchanged with the engines"},
    {"replay", referee::cli::replay, "GAME_ID [--ply K]: a stored game at one ply, its go line"},
    {"check-engine", referee::cli::check_engine, "CMD [ARGS...]: protocol compliance check"},
    {"bench", referee::cli::bench, "speed figures (referee CPU per ply, perft speed)"},
    {"egdb", referee::cli::egdb, "build GAME --seeds N | probe GAME --position P: endgame tables"},
    {"play", referee::cli::play, "GAME [--south CMD] [--north CMD]: play at the console"},
    {"serve", referee::cli::serve, "[--db F] [--listen ADDR:PORT]: the daemon (HTTP API)"},
    {"worker", referee::cli::worker, "--db DB [--concurrency N]: play the stored events' games"},
    {"submit", referee::cli::submit, "FILE [--server URL]: submit a tournament to the daemon"},
    {"status", referee::cli::status, "[ID] [--server URL]: the daemon's events, or one"},
    {"pause", referee::cli::pause, "ID [--server URL]: pause an event of the daemon"},
    {"resume", referee::cli::resume, "ID [--server URL]: resume it"},
    {"cancel", referee::cli::cancel, "ID [--server URL]: cancel it"},
    {"watch", referee::cli::watch, "ID [--server URL]: live progress of an event"},
    {"token", referee::cli::token, "add NAME | list | revoke NAME [--db DB]: author tokens"},
    {"engine", referee::cli::engine, "add NAME PATH | list | show | export | retire: artifacts"},
};

void usage(std::ostream& out) {
  out << "usage: referee COMMAND [ARGS...]   (referee COMMAND --help for its "
         "options)\n       referee --version\n\ncommands:\n";
  for (const auto& c : kCommands)
    out << "  " << c.name << std::string(14 - std::strlen(c.name), ' ') << c.summary << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << referee::cli::version_line() << "\n";
    return 0;
  }
  for (const auto& c : kCommands) {
    if (name == c.name) {
      try {
        return c.run(referee::cli::Args(argv + 2, argv + argc));
      } catch (const std::exception& e) {
        std::cerr << "referee " << name << ": " << e.what() << "\n";
        return 2;
      }
    }
  }
  std::cerr << "referee: unknown command '" << name << "'\n";
  usage(std::cerr);
  return 2;
}
