// `referee play GAME [options]`: options only; the console game itself is play_console()
// (play.h). Seats are people unless --south (player 1) or --north (player 2) names an engine
// command; the game is recorded in --db unless --no-db.
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>

#include "cli/cli.h"
#include "cli/options.h"
#include "engines/engine_config.h"
#include "match/play.h"

namespace referee::cli {

namespace {

// Starts the engine given as a command line; errors go to stderr.
std::optional<match::EngineSession> start_engine(const std::string& command_line, std::string& name,
                                                 match::DebugLog* debug) {
  auto words = engines::split_command_line(command_line);
  if (!words || words->empty()) {
    std::cerr << "referee play: bad engine command '" << command_line << "'"
              << (words ? "" : ": " + words.error()) << "\n";
    return std::nullopt;
  }
  engines::EngineConfig config;
  config.command = words->front();
  config.args.assign(words->begin() + 1, words->end());
  const auto slash = config.command.find_last_of('/');
  config.name = slash == std::string::npos ? config.command : config.command.substr(slash + 1);
  if (auto ok = engines::validate(config); !ok) {
    std::cerr << "referee play: " << ok.error() << "\n";
    return std::nullopt;
  }
  match::SessionSettings settings;
  settings.name = config.name;
  settings.debug = debug;
  auto session = match::EngineSession::start(engines::spawn_spec_of(config), settings);
  if (!session) {
    std::cerr << "referee play: engine '" << command_line << "' did not start: " << session.error()
              << "\n";
    return std::nullopt;
  }
  name = session->identity().name.empty() ? config.name : session->identity().name;
  return std::move(*session);
}

}  // namespace

int play(const Args& args) {
  std::string game_spec, north, south, tc_text = "movetime=1000", db = "referee.db", position;
  int first = 0;
  bool no_db = false, debug = false;
  po::options_description desc;
  desc.add_options()("south,s", po::value(&south)->value_name("CMD"),
                     "engine command for player 1 (SUD) (default: a person)")(
      "north,n", po::value(&north)->value_name("CMD"),
      "engine command for player 2 (NORD) (default: a person)")(
      "tc,t", po::value(&tc_text)->value_name("TC")->default_value(tc_text),
      "engines' time control: movetime=1000, 10+0.1, depth=6, ...")(
      "first,f", po::value(&first)->value_name("N"),
      "the player who starts (same as the game parameter first=)")(
      "position,p", po::value(&position)->value_name("P"),
      "start from this position string (default: the start)")(
      "db", po::value(&db)->value_name("DB")->default_value(db),
      "database the game is recorded in: a file or a postgresql:// URL")(
      "no-db", po::bool_switch(&no_db), "do not record the game")(
      "debug", po::bool_switch(&debug), "print every line exchanged with the engines to stderr");
  po::options_description hidden;
  hidden.add_options()("game", po::value(&game_spec));
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const CommandHelp help{
      "referee play GAME [options]",
      "A game at the console; GAME with its parameters, e.g. awale:grandslam=illegal.\n"
      "Type a move and Enter; ? lists the legal moves; 0 proposes to end the game; Ctrl-D stops."};
  if (auto done = parse_command(args, help, desc, vm, &hidden, &pos)) return *done;
  if (game_spec.empty()) {
    std::cerr << "usage: referee play GAME [options] (see referee games)\n";
    return 2;
  }
  if (first > 0)
    game_spec +=
        (game_spec.find(':') == std::string::npos ? ":first=" : ",first=") + std::to_string(first);
  auto game = games::make_game(game_spec);
  if (!game) {
    std::cerr << "referee play: " << game.error() << "\n";
    return 2;
  }
  auto tc = match::parse_time_control(tc_text);
  if (!tc) {
    std::cerr << "referee play: " << tc.error() << "\n";
    return 2;
  }
  if (game->num_players() < 2 && !north.empty()) {
    std::cerr << "referee play: " << game->name() << " has no player 2\n";
    return 2;
  }

  match::DebugLog debug_log(std::cerr);  // before the sessions, which write into it
  match::PlaySetup setup{*game, position, {}, *tc, nullptr, nullptr};
  setup.seats.assign(static_cast<std::size_t>(game->num_players()), match::PlaySeat{});
  std::vector<std::optional<match::EngineSession>> sessions(setup.seats.size());
  const std::string commands[2] = {south, north};
  for (std::size_t s = 0; s < 2 && s < setup.seats.size(); ++s) {
    if (commands[s].empty()) continue;
    sessions[s] = start_engine(commands[s], setup.seats[s].name, debug ? &debug_log : nullptr);
    if (!sessions[s]) return 1;
    setup.seats[s].engine = &*sessions[s];
  }

  std::optional<storage::Store> store;
  if (!no_db) {
    auto opened = storage::Store::open(db);
    if (!opened) {
      std::cerr << "referee play: " << opened.error() << "\n";
      return 1;
    }
    store = std::move(*opened);
    setup.store = &*store;
  }

  match::PlayResult result = match::play_console(setup, std::cin, std::cout);
  std::cout << std::flush;
  for (auto& s : sessions)
    if (s) s->quit();
  if (!result.db_error.empty()) std::cerr << "referee play: database: " << result.db_error << "\n";
  if (result.game_id)
    std::cerr << "referee play: game " << result.game_id << " recorded in " << db << " ("
              << (result.finished ? "finished" : "unfinished") << ", " << result.termination
              << ")\n";
  return result.not_started ? 1 : 0;
}

}  // namespace referee::cli
