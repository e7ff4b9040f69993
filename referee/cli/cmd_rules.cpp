// Subcommands that expose the rules library: games, rules, moves, perft, show (as text, or as JSON
// with the board view the dashboard draws: games/board_view_json.h). `show` draws in English
// (BoardWords::English): the seed's French words are for the seed's screen of `referee play`.
// `moves` is for scripts and bot authors (PROTOCOL.md §11): one "key: value" line per fact, the
// result in the words of `gameover`, and a status of its own (3) when the game is over.
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/options.h"
#include "games/board_view_json.h"
#include "games/registry.h"
#include "protocol/messages.h"

namespace referee::cli {

namespace {

// `referee moves` prints "key: value" lines, the same keys as the worked examples of the rules
// pages (protocol/rules/README.md), and exits with this status when the game is over.
constexpr int kGameOverStatus = 3;
constexpr const char* kMovesAbout =
    "Prints 'position: P' (after the moves), then while the game goes on 'player: K',\n"
    "'setup: FORM' (a setup move is expected), 'forced: M' (the referee plays M itself) and\n"
    "'legal: M1 M2 ...' (status 0); once it is over 'legal:' (empty), 'result: OUTCOME REASON'\n"
    "(as gameover says it) and 'scores: S1 S2 ...' (status 3)";

struct PositionArgs {
  std::string game;
  std::string position;
  std::vector<std::string> moves;
  int depth = 0;
  bool json = false;
  std::optional<int> done;  // set when --help or --version was printed: the exit status
};

// Parses "GAME [DEPTH] [--position P] [--moves M...]" (and --json when `with_json`).
PositionArgs parse_position_args(const Args& args, const CommandHelp& help, bool with_depth,
                                 bool with_json = false) {
  PositionArgs out;
  po::options_description desc;
  desc.add_options()("position,p", po::value(&out.position)->value_name("P"),
                     "start from this position string (default: the start)")(
      "moves,m", po::value(&out.moves)->multitoken()->zero_tokens()->value_name("M..."),
      "moves to play first, in canonical notation (none: the start)");
  if (with_json)
    desc.add_options()("json", po::bool_switch(&out.json),
                       "print the position and its board view as JSON (referee/service/"
                       "board_view.md)");
  po::options_description hidden;
  hidden.add_options()("game", po::value(&out.game))("depth", po::value(&out.depth));
  po::positional_options_description pos;
  pos.add("game", 1);
  if (with_depth) pos.add("depth", 1);
  po::variables_map vm;
  out.done = parse_command(args, help, desc, vm, &hidden, &pos);
  // Moves never hold whitespace: a list given as one word ("$MOVES", maybe empty) is split.
  std::vector<std::string> moves;
  for (const auto& word : out.moves)
    for (auto move : protocol::tokenize(word)) moves.emplace_back(move);
  out.moves = std::move(moves);
  return out;
}

// The state a position command works on, or an error printed on stderr.
std::optional<games::State> load_state(const PositionArgs& a, const char* command) {
  if (a.game.empty()) {
    std::cerr << "referee " << command << ": missing GAME (see referee games)\n";
    return std::nullopt;
  }
  auto game = games::make_game(a.game);
  if (!game) {
    std::cerr << "referee " << command << ": " << game.error() << "\n";
    return std::nullopt;
  }
  auto state = games::state_after(*game, a.position, a.moves);
  if (!state) {
    std::cerr << "referee " << command << ": " << state.error() << "\n";
    return std::nullopt;
  }
  return *state;
}

std::string param_line(const games::ParamSpec& p) {
  std::string values;
  if (p.choices.empty()) {
    values = std::to_string(p.min) + ".." + std::to_string(p.max);
  } else {
    for (const auto& c : p.choices) values += (values.empty() ? "" : "|") + c;
  }
  return p.key + "=" + values + " (default " + p.default_value + "): " + p.help;
}

}  // namespace

int games(const Args& args) {
  po::variables_map vm;
  if (auto done = parse_command(args, {"referee games", "The games and their titles."},
                                po::options_description(), vm))
    return *done;
  for (const auto& e : games::registry()) {
    std::string names = e.name;
    for (const auto& a : e.aliases) names += " (alias " + a + ")";
    std::cout << names << std::string(names.size() < 28 ? 28 - names.size() : 1, ' ') << e.title
              << "\n";
  }
  return 0;
}

int rules(const Args& args) {
  std::string spec;
  po::options_description hidden;
  hidden.add_options()("game", po::value(&spec));
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const CommandHelp help{"referee rules GAME",
                         "A game's canonical string, players, start position and parameters."};
  if (auto done = parse_command(args, help, po::options_description(), vm, &hidden, &pos))
    return *done;
  if (spec.empty()) {
    std::cerr << "referee rules: missing GAME (see referee games)\n";
    return 2;
  }
  auto game = games::make_game(spec);
  if (!game) {
    std::cerr << "referee rules: " << game.error() << "\n";
    return 1;
  }
  const auto* entry = games::find_entry(game->name());
  std::cout << entry->title << "\n"
            << game->canonical() << "\nplayers: " << game->num_players()
            << "\nstart: " << game->initial_state().to_string() << "\nparameters:\n";
  for (const auto& p : games::all_params(*entry)) std::cout << "  " << param_line(p) << "\n";
  return 0;
}

int moves(const Args& args) {
  auto a = parse_position_args(args, {"referee moves GAME [options]", kMovesAbout}, false);
  if (a.done) return *a.done;
  auto state = load_state(a, "moves");
  if (!state) return 1;
  std::cout << "position: " << state->to_string() << "\n";
  if (state->is_terminal()) {
    const auto o = state->outcome();
    std::cout << "legal:\nresult: " << protocol::outcome_word(o.ranks) << " " << o.reason
              << "\nscores:";
    for (double s : o.scores) std::cout << " " << s;
    std::cout << "\n";
    return kGameOverStatus;
  }
  std::cout << "player: " << state->current_player() << "\n";
  if (!state->setup_form().empty()) std::cout << "setup: " << state->setup_form() << "\n";
  const auto list = state->legal_moves();
  if (state->is_forced()) std::cout << "forced: " << list.front() << "\n";
  std::cout << "legal:";
  for (const auto& m : list) std::cout << " " << m;
  std::cout << "\n";
  return 0;
}

int perft(const Args& args) {
  auto a = parse_position_args(
      args,
      {"referee perft GAME DEPTH [options]",
       "Move-path counts from a position, one line per depth from 1 to DEPTH (at most 64)."},
      true);
  if (a.done) return *a.done;
  if (a.depth < 1 || a.depth > 64) {
    std::cerr << "referee perft: DEPTH must be from 1 to 64\n";
    return 2;
  }
  auto state = load_state(a, "perft");
  if (!state) return 1;
  if (!state->setup_form().empty()) {
    std::cerr << "referee perft: the position expects a setup move (" << state->setup_form()
              << "); play the setups with --moves first\n";
    return 1;
  }
  for (int d = 1; d <= a.depth; ++d) std::cout << d << " " << state->perft(d) << "\n" << std::flush;
  return 0;
}

// The JSON of `referee show --json`: the game, the position and the board view.
nlohmann::json show_json(const std::string& canonical, const games::State& state) {
  nlohmann::json out = {{"game", canonical},
                        {"position", state.to_string()},
                        {"ply", state.ply()},
                        {"to_move", state.current_player()},
                        {"terminal", state.is_terminal()},
                        {"outcome", nullptr},
                        {"view", state.view()}};
  if (state.is_terminal()) {
    const auto o = state.outcome();
    out["outcome"] = {{"ranks", o.ranks}, {"scores", o.scores}, {"reason", o.reason}};
  }
  return out;
}

int show(const Args& args) {
  auto a = parse_position_args(
      args,
      {"referee show GAME [options]",
       "Draws a position, with its string and who moves (or prints it as JSON with --json)."},
      false, true);
  if (a.done) return *a.done;
  auto state = load_state(a, "show");
  if (!state) return 1;
  if (a.json) {
    std::cout << show_json(games::make_game(a.game)->canonical(), *state).dump() << "\n";
    return 0;
  }
  std::cout << state->draw(games::BoardWords::English);
  std::cout << "position: " << state->to_string() << "\n";
  if (state->is_terminal()) {
    auto o = state->outcome();
    std::cout << "game over (" << o.reason << "), ranks:";
    for (int r : o.ranks) std::cout << " " << r;
    std::cout << "\n";
  } else {
    std::cout << "to move: player " << state->current_player() << "\n";
  }
  return 0;
}

}  // namespace referee::cli
