// `referee egdb build|probe|info`: endgame tables (referee/games/egdb/EGDB.md). build solves and
// writes a table (progress on stderr, resumable), probe prints a position's value and best
// moves, info prints a table's game, seeds and checksum (what an event pins).
#include <algorithm>
#include <iostream>
#include <thread>

#include "cli/cli.h"
#include "cli/options.h"
#include "games/egdb/build.h"
#include "games/egdb/table.h"
#include "games/egdb/table_file.h"
#include "protocol/messages.h"

namespace referee::cli {

namespace {

constexpr const char* kUsage =
    "referee egdb build GAME --seeds N [--out FILE] [--threads T]\n"
    "       referee egdb probe GAME --position P [--moves M...] [--db FILE]\n"
    "       referee egdb info FILE\n"
    "Endgame tables of awale, awale-v1 and kalaha: the exact final margin of every position with\n"
    "at most N seeds on the board (referee/games/egdb/EGDB.md). build resumes an interrupted\n"
    "build of the same FILE and extends a table to more seeds.\n"
    "options";

int failure(const std::string& message, int status = 1) {
  std::cerr << "referee egdb: " << message << "\n";
  return status;
}

// The file a table of `game` goes to when no --out/--db is given: its game string, file-safe.
std::string default_file(const games::egdb::Model& m) {
  std::string name = m.key;
  std::replace(name.begin(), name.end(), ':', '_');
  std::replace(name.begin(), name.end(), ',', '_');
  std::replace(name.begin(), name.end(), '=', '-');
  return name + ".egdb";
}

std::string signed_text(int v) {
  return (v > 0 ? "+" : "") + std::to_string(v);
}

int build(const games::Game& game, const games::egdb::Model& m, int seeds, std::string out,
          int threads) {
  if (threads < 1) return failure("--threads must be at least 1", 2);
  if (out.empty()) out = default_file(m);
  games::egdb::BuildOptions o{seeds, out, threads,
                              [](const std::string& line) { std::cerr << line << "\n"; }};
  auto r = games::egdb::build_table(game, o);
  if (!r) return failure(r.error());
  for (const auto& f : r->solved)
    std::cout << "seeds " << f.seeds << ": " << f.positions << " positions, " << f.iterations
              << " iterations"
              << (f.converged_at >= 0 ? ", converged at " + std::to_string(f.converged_at)
                                      : ", stopped at the nocapture limit")
              << ", " << f.seconds << " s\n";
  std::cout << "table: " << out << " (" << m.key << ", up to " << r->seeds << " seeds, "
            << r->file_bytes << " bytes, checksum " << games::egdb::hex64(r->checksum) << ")\n";
  return 0;
}

int probe(const games::Game& game, const games::egdb::Model& m, const std::string& position,
          const std::vector<std::string>& moves, std::string db) {
  if (db.empty()) db = default_file(m);
  auto state = games::state_after(game, position, moves);
  if (!state) return failure(state.error());
  auto table = games::egdb::open_table(db);
  if (!table) return failure(table.error());
  auto p = games::egdb::probe(*table, game, *state);
  if (!p) return failure(db + ": " + p.error());
  std::cout << "position: " << state->to_string() << "\n";
  if (!*p) {
    if (state->is_terminal()) return failure("the game is over in " + state->to_string());
    return failure("more than " + std::to_string(table->seeds()) + " seeds on the board: not in " +
                   db);
  }
  const auto& v = **p;
  std::cout << "to move: player " << v.mover << "\n"
            << "value: " << signed_text(v.value) << " (the mover's margin from the board)\n"
            << "final: " << v.final_scores[0] << "-" << v.final_scores[1]
            << " (South-North), margin " << signed_text(v.margin) << " for player " << v.mover
            << "\n"
            << "best:";
  for (const auto& mv : v.best_moves) std::cout << " " << mv;
  std::cout << "\nexact: " << (v.exact ? "yes" : "no (EGDB.md, Cycles and exhaustion)") << "\n"
            << "table: " << db << " checksum " << games::egdb::hex64(table->checksum()) << "\n";
  return 0;
}

int info(const std::string& path) {
  auto table = games::egdb::open_table(path);
  if (!table) return failure(table.error());
  std::cout << "game: " << table->model().key << "\nseeds: " << table->seeds()
            << "\nchecksum: " << games::egdb::hex64(table->checksum()) << "\n";
  for (int n = 0; n <= table->seeds(); ++n)
    std::cout << "layer " << n << ": " << table->model().layer_size(n) << " positions, "
              << (table->converged_at(n) >= 0
                      ? "converged at iteration " + std::to_string(table->converged_at(n))
                      : std::string("stopped at the nocapture limit"))
              << "\n";
  return 0;
}

}  // namespace

int egdb(const Args& args) {
  std::vector<std::string> words, moves;
  std::string position, out, db;
  int seeds = -1;
  int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  po::options_description desc(kUsage);
  desc.add_options()("help,h", "show this help")("seeds", po::value(&seeds)->value_name("N"),
                                                 "build: the most seeds on the board")(
      "out", po::value(&out)->value_name("FILE"),
      "build: the table's file (default: from the game string, e.g. kalaha.egdb)")(
      "threads", po::value(&threads)->value_name("T")->default_value(threads),
      "build: threads solving each layer")("position,p", po::value(&position)->value_name("P"),
                                           "probe: the position string")(
      "moves,m", po::value(&moves)->multitoken()->zero_tokens()->value_name("M..."),
      "probe: moves played first from the position (or the start)")(
      "db", po::value(&db)->value_name("FILE"), "probe: the table (default: as for --out)");
  po::options_description hidden;
  hidden.add_options()("words", po::value(&words));
  po::positional_options_description positional;
  positional.add("words", -1);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm, &positional, &hidden)) return *done;
  const std::string action = words.empty() ? "" : words[0];
  if (action == "info") {
    if (words.size() != 2) return failure("give info FILE", 2);
    return info(words[1]);
  }
  if ((action != "build" && action != "probe") || words.size() != 2)
    return failure("give build GAME --seeds N, probe GAME --position P or info FILE", 2);
  auto game = games::make_game(words[1]);
  if (!game) return failure(game.error());
  auto m = games::egdb::model_for(*game);
  if (!m) return failure(m.error());
  if (action == "build") {
    if (!vm.count("seeds")) return failure("build needs --seeds N", 2);
    if (vm.count("position") || vm.count("moves") || vm.count("db"))
      return failure("--position, --moves and --db go with probe", 2);
    return build(*game, *m, seeds, out, threads);
  }
  if (vm.count("seeds") || vm.count("out")) return failure("--seeds and --out go with build", 2);
  std::vector<std::string> split_moves;
  for (const auto& word : moves)
    for (auto move : protocol::tokenize(word)) split_moves.emplace_back(move);
  return probe(*game, *m, position, split_moves, db);
}

}  // namespace referee::cli
