// Commands that show one stored game to a bot author: `referee transcript GAME_ID` (every line
// exchanged with its engines, seats merged in time order) and `referee replay GAME_ID --ply K`
// (the board, drawn in English like `referee show`, the clocks and the exact position and go
// lines the engine to move was sent there).
// Both open the database read-only (stored_games.h).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/stored_games.h"
#include "games/core.h"
#include "match/match.h"
#include "match/ply_view.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

struct GameArgs {
  std::string db = "referee.db";
  std::string id_text;
  std::int64_t id = 0;
};

// Parses the options and GAME_ID: nullopt to go on, or the exit status (0 after --help).
std::optional<int> parse_game_args(const Args& args, const std::string& command,
                                   const CommandHelp& help, po::options_description& desc,
                                   GameArgs& a) {
  desc.add_options()("db", po::value(&a.db)->value_name("DB")->default_value(a.db),
                     "database: a file (opened read-only) or a postgresql:// URL");
  po::options_description hidden;
  hidden.add_options()("game", po::value(&a.id_text));
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  if (auto done = parse_command(args, help, desc, vm, &hidden, &pos)) return done;
  auto id = games::parse_count(a.id_text);
  if (!id || *id == 0) {
    std::cerr << "referee " << command << ": "
              << (a.id_text.empty() ? "give a game number (usage: " + help.usage + ")"
                                    : "GAME_ID must be a game number, not '" + a.id_text + "'")
              << "\n";
    return 2;
  }
  a.id = static_cast<std::int64_t>(*id);
  return std::nullopt;
}

std::string result_text(const storage::GameRecord& g) {
  if (g.status != storage::GameStatus::Finished)
    return storage::to_text(g.status) + (g.termination.empty() ? "" : " (" + g.termination + ")");
  std::string r;
  if (g.ranks.size() == 2)
    r = g.ranks[0] == g.ranks[1] ? "1/2-1/2" : g.ranks[0] < g.ranks[1] ? "1-0" : "0-1";
  else
    for (std::size_t i = 0; i < g.ranks.size(); ++i)
      r += (i ? "," : "ranks ") + std::to_string(g.ranks[i]);
  return r + " (" + g.termination + ")";
}

// The game's identity, players, result and reason (its lines after the first indented).
void print_header(const storage::GameRecord& g) {
  std::cout << "game " << g.id;
  if (!g.event.empty()) std::cout << " of tournament \"" << g.event << "\" (slot " << g.slot << ")";
  std::cout << ": " << g.game << "\nplayers:";
  for (std::size_t s = 0; s < g.players.size(); ++s)
    std::cout << (s ? ", " : " ") << s + 1 << " " << g.players[s];
  std::cout << "\nresult: " << result_text(g) << ", " << g.plies << " plies";
  if (!g.time_control.empty()) std::cout << ", time control " << g.time_control;
  std::cout << "\n";
  if (!g.reason.empty()) {
    std::string reason = g.reason;
    for (std::size_t at = 0; (at = reason.find('\n', at)) != std::string::npos; at += 9)
      reason.replace(at, 1, "\n        ");
    std::cout << "reason: " << reason << "\n";
  }
}

std::string seconds(long ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld.%03ld", ms / 1000, ms % 1000);
  return buf;
}

// "12.345678": seconds to the microsecond.
std::string micro_seconds(long ms, int us) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%ld.%03ld%03d", ms / 1000, ms % 1000, us);
  return buf;
}

std::string player_name(const storage::GameRecord& g, int player) {
  const auto i = static_cast<std::size_t>(player - 1);
  return "player " + std::to_string(player) +
         (i < g.players.size() ? " (" + g.players[i] + ")" : "");
}

}  // namespace

int transcript(const Args& args) {
  GameArgs a;
  int seat = 0;
  po::options_description desc;
  desc.add_options()("seat,s", po::value(&seat)->value_name("N"), "only this seat's lines");
  const CommandHelp help{
      "referee transcript GAME_ID [options]",
      "Every line exchanged with the engines of one stored game, in time order: seconds since\n"
      "the game began, seat and engine, '>' sent to the engine, '<' its stdout, '!' its stderr."};
  if (auto status = parse_game_args(args, "transcript", help, desc, a)) return *status;
  auto store = open_database_for_reading(a.db, "transcript");
  if (!store) return 1;
  auto game = store->game(a.id);
  if (!game) {
    std::cerr << "referee transcript: " << game.error() << "\n";
    return 1;
  }
  const int seats = static_cast<int>(game->players.size());
  if (seat != 0 && (seat < 1 || seat > seats)) {
    std::cerr << "referee transcript: --seat " << seat << ": game " << a.id << " has seats 1 to "
              << seats << "\n";
    return 2;
  }
  auto logs = store->logs(a.id);
  if (!logs) {
    std::cerr << "referee transcript: " << logs.error() << "\n";
    return 1;
  }
  print_header(*game);
  std::vector<storage::LogLine> lines;
  for (auto& l : *logs)
    if (seat == 0 || l.seat == seat) lines.push_back(std::move(l));
  if (lines.empty()) {
    std::cout << "no transcript stored" << (seat ? " for this seat" : "")
              << " (the game is still running, or it was played with logs off)\n";
    return 0;
  }
  // One seat's lines are in time order already; seats are merged by time (to the microsecond),
  // the lower seat first on a tie.
  std::stable_sort(lines.begin(), lines.end(),
                   [](const storage::LogLine& x, const storage::LogLine& y) {
                     if (x.at_ms != y.at_ms) return x.at_ms < y.at_ms;
                     return x.at_us != y.at_us ? x.at_us < y.at_us : x.seat < y.seat;
                   });
  std::size_t width = 0;
  for (const auto& p : game->players) width = std::max(width, p.size());
  for (const auto& l : lines) {
    const auto i = static_cast<std::size_t>(l.seat - 1);
    std::string who = i < game->players.size() ? game->players[i] : "?";
    who.resize(std::max(width, who.size()), ' ');
    char time[40];
    std::snprintf(time, sizeof time, "%12s", micro_seconds(l.at_ms, l.at_us).c_str());
    std::cout << time << "  " << l.seat << " " << who << " " << l.direction << " " << l.text
              << "\n";
  }
  return 0;
}

int replay(const Args& args) {
  GameArgs a;
  int ply = -1;
  po::options_description desc;
  desc.add_options()("ply,p", po::value(&ply)->value_name("K"),
                     "the position after K plies (0 = the start; default: the last)");
  const CommandHelp help{
      "referee replay GAME_ID [options]",
      "A stored game at one ply: the board, the clocks, the move played there and the exact\n"
      "position and go lines its engine was sent (paste them into the engine)."};
  if (auto status = parse_game_args(args, "replay", help, desc, a)) return *status;
  auto store = open_database_for_reading(a.db, "replay");
  if (!store) return 1;
  auto game = store->game(a.id);
  auto moves =
      game ? store->moves(a.id) : Expected<std::vector<storage::MoveRecord>>(game.failure());
  auto logs = moves ? store->logs(a.id) : Expected<std::vector<storage::LogLine>>(moves.failure());
  if (!logs) {
    std::cerr << "referee replay: " << logs.error() << "\n";
    return 1;
  }
  const int total = static_cast<int>(storage::move_sequence(*game, *moves).size());
  if (ply == -1) ply = total;
  if (ply < 0 || ply > total) {
    std::cerr << "referee replay: --ply " << ply << ": game " << a.id << " has " << total
              << " plies (0 to " << total << ")\n";
    return 2;
  }
  auto view = match::view_at(*game, *moves, *logs, ply);
  if (!view) {
    std::cerr << "referee replay: " << view.error() << "\n";
    return 1;
  }
  const auto& v = *view;
  print_header(*game);
  std::cout << "\nply " << v.ply << " of " << v.total_plies << ": "
            << (v.to_move ? player_name(*game, v.to_move) + " to move" : "the game is over") << "\n"
            << v.state->draw(games::BoardWords::English) << "position: " << v.state->to_string()
            << "\n";
  if (!v.clocks.empty()) {
    std::cout << "clocks:";
    for (std::size_t p = 0; p < v.clocks.size(); ++p)
      std::cout << (p ? ", " : " ") << "p" << p + 1 << " " << seconds(v.clocks[p]) << " s";
    std::cout << "\n";
  }
  if (v.next) {
    const auto& m = *v.next;
    std::cout << "played: " << m.move << " by " << player_name(*game, m.player);
    if (m.source != "engine")
      std::cout << " (" << m.source << ", played by the referee: no engine was asked)";
    else if (m.time_ms >= 0)
      std::cout << " in " << m.time_ms << " ms"
                << (m.clock_ms >= 0 ? ", clock after it " + seconds(m.clock_ms) + " s" : "");
    std::cout << "\n";
    if (!m.info.empty()) std::cout << "its last info: " << m.info << "\n";
  } else if (v.to_move == 0) {
    const auto o = v.state->outcome();
    std::cout << "the rules ended the game here (" << o.reason << ")\n";
  } else if (v.state->is_forced()) {
    std::cout << "the referee plays the forced move here: no engine is asked\n";
  } else {
    std::cout << "no move was played here: "
              << (game->reason.empty() ? game->termination : match::reason_headline(game->reason))
              << "\n";
  }
  if (!v.asked) return 0;
  std::cout << "sent to " << player_name(*game, v.to_move)
            << (v.source == match::PlyView::Source::Transcript
                    ? " (as stored in its transcript):\n"
                    : " (rebuilt from the stored moves and clocks: its transcript does not have "
                      "them):\n")
            << "  " << v.position_line << "\n";
  if (!v.go_line.empty()) std::cout << "  " << v.go_line << "\n";
  if (!v.rebuilt_go.empty())
    std::cout << "(the go line rebuilt from the game's time control differs: " << v.rebuilt_go
              << ")\n";
  return 0;
}

}  // namespace referee::cli
