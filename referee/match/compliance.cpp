// `referee check-engine CMD [ARGS...]`: walks an engine through its whole life one step at a time
// and prints PASS or FAIL for each, with the offending line and, on a FAIL, a hint of what to fix.
// It drives the engine through the same EngineSession the tournaments use.
//
// The life: the handshake; for each game (those given with --game, else every game the engine
// declares, one per declared number of players): setgame and isready, moves from the start with
// clocks, after moves and from a position string within movetime, go depth 1, the turn of each
// player with 3 or more players, a position after a forced move, a setup followed by play, a game
// played to its end and gameover, the game with other parameter values, then a second game in the
// same process (uginewgame); then go infinite and stop (a bestmove before the stop FAILs), a stop
// while idle (ignored), quit; and a second process that must exit at end of input.
//
// Decisions:
// - A game the engine declares is checked only with values it declares ("game oware players=2"
//   is never sent players=3); a --game outside the declaration FAILs without being sent; a
//   declared game the engine then refuses (error unsupported-game) FAILs.
// - The games played to their end are played by the engine on every seat from a position some
//   plies before the end of a random playout (a few seconds at most per game, whatever the
//   engine); if it has not ended after kEndgamePlies engine moves, the referee ends it with
//   random moves, so that gameover always follows a real end.
// - Each game is also played with every other value of its own parameters and of `first` that
//   the engine declares (or all of them when it declares the game without values): the engine
//   is asked where that value changes the legal moves, found by random play under it and
//   compared move by move with the game as given. An engine that ignores setgame's parameters
//   then plays a move they forbid. `nocapture` and `maxplies` only end games: not tried.
// - The summary line names the first failing step: later failures often follow from it.
#include "match/compliance.h"

#include <algorithm>
#include <iostream>
#include <random>

#include "games/core.h"
#include "games/registry.h"
#include "match/engine_session.h"
#include "match/parameter_probes.h"

namespace referee::match {

namespace {

constexpr int kEndgamePlies = 40;         // engine moves at most in the game played to its end
constexpr int kEndgameLead = 12;          // it starts this many plies before a random playout's end
constexpr long kMovetime = 200;           // ms, for the movetime steps
constexpr long kMargin = 1000;            // ms beyond movetime before a reply is late
constexpr long kQuickMovetime = 20;       // ms, for the moves of the games played to their end
constexpr long kInfiniteStopAfter = 300;  // ms of go infinite before stop
constexpr std::size_t kParameterProbes = 6;  // positions asked with each other parameter value

class Report {
 public:
  explicit Report(std::ostream& out) : out_(out) {}
  bool step(bool ok, const std::string& what, const std::string& detail = "",
            const std::string& hint = "") {
    out_ << (ok ? "PASS " : "FAIL ") << what;
    if (!detail.empty()) out_ << ": " << detail;
    out_ << "\n";
    if (!ok) {
      if (!hint.empty()) out_ << "     hint: " << hint << "\n";
      if (failures_++ == 0) first_failure_ = what;
    }
    ++steps_;
    return ok;
  }
  void skip(const std::string& what, const std::string& why) {
    out_ << "SKIP " << what << ": " << why << "\n";
  }
  int failures() const { return failures_; }
  void summary() {
    if (failures_)
      out_ << "FAILED: " << failures_ << " of " << steps_
           << " step(s); the first failing step: " << first_failure_ << "\n";
    else
      out_ << "ALL PASSED (" << steps_ << " steps)\n";
  }

 private:
  std::ostream& out_;
  int failures_ = 0, steps_ = 0;
  std::string first_failure_;
};

const char* const kFlushHint =
    "flush stdout after every line (C: fflush(stdout); C++: std::endl or std::flush; Python: "
    "print(..., flush=True) or sys.stdout.flush()): a buffered answer never reaches the referee";

std::string handshake_hint(const StartReport& how) {
  if (!how.spawned) return "check the command: the path of an executable file, then its arguments";
  if (how.nothing_read) return kFlushHint;
  return "after 'ugi' print the 'id' and 'game' lines, then 'ugiok' (PROTOCOL.md §3); --debug "
         "shows what was exchanged";
}

// What a bot author would do about a failed request.
std::string hint_for(const MoveReply& reply, bool nothing_read, const games::Game& game,
                     const games::State& state) {
  if (nothing_read) return kFlushHint;
  switch (reply.fault) {
    case Fault::Illegal:
      return "`referee moves " + game.canonical() + " --position " + state.to_string() +
             "` lists the legal moves there; the player to move is " +
             std::to_string(state.current_player()) +
             " (the go line's 'player' says so; turns go 1, 2, ..., k, 1)";
    case Fault::Timeout:
      return "answer every go in time: movetime is the time for this move, p<i>time the clock "
             "of player i; run with --debug to see when each line came";
    case Fault::Crash:
      return "the stderr line naming the error is quoted above; run with --debug to see every "
             "line exchanged, then feed the same lines to the engine by hand";
    case Fault::Protocol:
      return "run with --debug to see every line exchanged (PROTOCOL.md §7 lists the replies)";
    case Fault::Resign:
      return "an engine resigns only when it means to; check-engine asks for a move in "
             "positions that are not lost";
    default:
      return "";
  }
}

// Empty when the engine's declaration of the game accepts its parameters, else why not.
std::string outside_declaration(const EngineIdentity& id, const games::Game& game) {
  for (const auto& decl : id.games) {
    if (decl.name != game.name()) continue;
    for (const auto& [key, value] : parameters(game))
      for (const auto& [dkey, spec] : decl.params)
        if (dkey == key && !spec_accepts(spec, value))
          return key + "=" + value + " is not among the declared " + key + "=" + spec;
    return "";
  }
  return "";
}

// Game strings to check when none are given: every declared game; one per declared number of
// players when the engine declares several.
std::vector<std::string> declared_targets(const EngineIdentity& id) {
  std::vector<std::string> out;
  for (const auto& decl : id.games) {
    std::string players;
    for (const auto& [key, spec] : decl.params)
      if (key == "players") players = spec;
    if (players.empty() || players.find("..") != std::string::npos) {
      out.push_back(decl.name);
      continue;
    }
    std::size_t pos = 0;
    while (pos <= players.size()) {
      auto end = players.find('|', pos);
      if (end == std::string::npos) end = players.size();
      out.push_back(decl.name + ":players=" + players.substr(pos, end - pos));
      pos = end + 1;
    }
  }
  return out;
}

// The first `plies` moves of a random playout that has not ended by then.
std::vector<std::string> random_line(const games::Game& game, int plies, std::uint64_t seed) {
  auto moves = random_playout(game, seed, plies + 1);
  auto state = game.initial_state();
  std::vector<std::string> line;
  for (const auto& m : moves) {
    if (static_cast<int>(line.size()) == plies) break;
    auto next = state;
    if (!next.apply(m) || next.is_terminal()) break;
    state = next;
    line.push_back(m);
  }
  return line;
}

MoveReply illegal(MoveReply reply) {
  reply.fault = Fault::Illegal;
  return reply;
}

class Checker {
 public:
  Checker(Report& report, EngineSession& session) : report_(report), session_(session) {}

  // Asks for a move and checks it is legal; `move_out` gets the move when given.
  bool move(const games::Game& game, const std::string& start,
            const std::vector<std::string>& moves, const protocol::Go& go, Millis budget,
            const std::string& what, std::string* move_out = nullptr) {
    auto state = games::state_after(game, start, moves);
    if (!state) return report_.step(false, what, "internal: " + state.error());
    if (state->is_forced()) {  // the referee never asks for forced moves
      report_.skip(what, "forced position");
      return true;
    }
    auto reply = session_.request(start, moves, go, budget, nullptr);
    return judge(reply, game, *state, what, move_out);
  }

  // Asks for a move, without judging it.
  MoveReply ask(const std::vector<std::string>& moves, const protocol::Go& go, Millis budget) {
    return session_.request("", moves, go, budget, nullptr);
  }
  Report& report() { return report_; }
  const EngineIdentity& identity() const { return session_.identity(); }

  // `hint`: what to fix when the move is illegal, instead of the usual hint.
  bool judge(const MoveReply& reply, const games::Game& game, const games::State& state,
             const std::string& what, std::string* move_out = nullptr,
             const std::string& hint = "") {
    if (reply.fault != Fault::None)
      return report_.step(false, what,
                          fault_name(reply.fault) + ": " + reply.detail +
                              (reply.move.empty() ? "" : " (line: '" + reply.move + "')"),
                          reply.fault == Fault::Illegal && !hint.empty()
                              ? hint
                              : hint_for(reply, session_.nothing_read(), game, state));
    auto copy = state;
    if (!copy.apply(reply.move))
      return report_.step(false, what,
                          "bestmove '" + reply.move + "' is illegal in " + state.to_string(),
                          hint.empty() ? hint_for(illegal(reply), false, game, state) : hint);
    if (move_out) *move_out = reply.move;
    return report_.step(
        true, what,
        "bestmove " + reply.move + " in " + std::to_string(reply.elapsed.count()) + " ms");
  }

  bool prepare(const games::Game& game, const std::string& what) {
    std::string detail;
    Fault f = session_.prepare(game, detail);
    std::string hint;
    if (f == Fault::Unsupported) {
      detail = "the engine declares 'game " + game.name() + "' but refused it: " + detail;
      hint =
          "declare only the values the engine plays (e.g. 'game oware players=2|3'); the "
          "referee sends a game only to engines that declare it";
    } else if (f != Fault::None && session_.nothing_read()) {
      hint = kFlushHint;
    } else if (f != Fault::None) {
      hint = "answer 'isready N' with 'readyok N' once every earlier command is handled";
    }
    return report_.step(f == Fault::None, what, detail, hint);
  }

  // The engine plays every seat from some plies before the end of a random playout to the end;
  // then gameover. False when a step failed.
  bool play_to_end(const games::Game& game, const std::string& label) {
    auto playout = random_playout(game, 7, 5000);
    const auto lead = std::min<std::size_t>(kEndgameLead, playout.size());
    std::vector<std::string> moves(playout.begin(), playout.end() - static_cast<long>(lead));
    auto state = games::state_after(game, "", moves);
    if (!state) return report_.step(false, label + ": a game to its end", state.error());
    int asked = 0;
    while (!state->is_terminal() && asked < kEndgamePlies) {
      std::string m;
      if (state->is_forced()) {
        m = state->legal_moves().front();
      } else {
        protocol::Go go;
        go.player = state->current_player();
        go.movetime = kQuickMovetime;
        auto reply = session_.request("", moves, go, Millis(kQuickMovetime + kMargin), nullptr);
        ++asked;
        auto probe = *state;
        if (reply.fault != Fault::None || !probe.apply(reply.move))
          return judge(reply, game, *state,
                       label + ": a game to its end: move " + std::to_string(asked) + " (ply " +
                           std::to_string(moves.size() + 1) + ")");
        m = reply.move;
      }
      if (!state->apply(m)) return report_.step(false, label + ": a game to its end", m);
      moves.push_back(m);
    }
    std::mt19937_64 rng(11);
    const bool ended_by_engine = state->is_terminal();
    while (!state->is_terminal()) {  // the referee ends it
      auto legal = state->legal_moves();
      if (legal.empty()) break;
      const auto m = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      if (!state->apply(m)) break;
      moves.push_back(m);
    }
    const auto outcome = state->outcome();
    const std::string over = protocol::format(protocol::RefereeMessage{
        protocol::GameOver{protocol::outcome_word(outcome.ranks), outcome.reason}});
    session_.send(over);
    return report_.step(true, label + ": a game to its end, then gameover",
                        std::to_string(asked) + " moves by the engine" +
                            (ended_by_engine ? "" : " (then the referee ended it)") + ", '" + over +
                            "'");
  }

 private:
  Report& report_;
  EngineSession& session_;
};

// The game with each other value of its parameters the engine declares: where that value
// changes the legal moves, the engine must play by it.
void check_parameters(Checker& check, const games::Game& game, const std::string& label) {
  Report& report = check.report();
  const auto current = parameters(game);
  for (const auto& [key, value] : other_values(check.identity().games, game)) {
    auto variant = with_parameter(game, key, value);
    if (!variant) continue;
    const std::string vlabel = label + " with " + key + "=" + value;
    const auto lines = telling_lines(*variant, game, kParameterProbes);
    if (lines.empty()) {
      report.skip(vlabel, "no position found where it changes the legal moves");
      continue;
    }
    if (!check.prepare(*variant, vlabel + ": setgame, uginewgame, isready -> readyok")) continue;
    std::size_t asked = 0;
    for (const auto& line : lines) {
      auto state = games::state_after(*variant, "", line);
      if (!state) break;
      protocol::Go go;
      go.player = state->current_player();
      go.movetime = kQuickMovetime;
      auto reply = check.ask(line, go, Millis(kQuickMovetime + kMargin));
      auto probe = *state;
      if (reply.fault != Fault::None || !probe.apply(reply.move)) {
        std::string before;
        for (const auto& [k, v] : current)
          if (k == key) before = v;
        check.judge(reply, *variant, *state,
                    vlabel + ": legal bestmoves where " + key + "=" + value +
                        " changes the legal moves (ply " + std::to_string(line.size() + 1) + ")",
                    nullptr,
                    "play by the parameters 'setgame' gives: the legal moves with " + key + "=" +
                        value + " are not those with " + key + "=" + before + " (`referee moves " +
                        variant->canonical() + " --position " + state->to_string() +
                        "` lists them)");
        break;
      }
      ++asked;
    }
    if (asked == lines.size())
      report.step(
          true,
          vlabel + ": legal bestmoves where " + key + "=" + value + " changes the legal moves",
          std::to_string(asked) + " positions");
  }
}

void check_game(Checker& check, const games::Game& game, const std::string& label) {
  if (!check.prepare(game, label + ": game 1: setgame, uginewgame, isready -> readyok <token>"))
    return;
  const int players = game.num_players();
  protocol::Go timed;
  for (int p = 0; p < players; ++p) {
    timed.time_ms.push_back(10000);
    timed.inc_ms.push_back(100);
  }
  auto initial = game.initial_state();
  timed.player = initial.current_player();
  check.move(game, "", {}, timed, Millis(11000),
             label + ": legal bestmove from startpos with clocks");

  auto line = random_line(game, 7, 42);
  auto mid = games::state_after(game, "", line);
  if (mid && !mid->is_terminal()) {
    protocol::Go go;
    go.player = mid->current_player();
    go.movetime = kMovetime;
    const std::string within = " (movetime " + std::to_string(kMovetime) + ", answered within " +
                               std::to_string(kMovetime + kMargin) + " ms)";
    check.move(game, "", line, go, Millis(kMovetime + kMargin),
               label + ": legal bestmove after startpos moves" + within);
    check.move(game, mid->to_string(), {}, go, Millis(kMovetime + kMargin),
               label + ": legal bestmove from position fen" + within);
    protocol::Go depth;
    depth.player = mid->current_player();
    depth.depth = 1;
    check.move(game, mid->to_string(), {}, depth, Millis(5000), label + ": go depth 1");
  }

  // The setup phase, then play: the engine plays every seat from the start until play has
  // begun and each player has moved once.
  if (!initial.setup_form().empty()) {
    auto state = initial;
    std::vector<std::string> moves;
    int after_setup = 0;
    bool ok = true;
    while (ok && !state.is_terminal() && after_setup < players && moves.size() < 40) {
      if (state.setup_form().empty()) ++after_setup;
      protocol::Go go;
      go.player = state.current_player();
      go.movetime = kQuickMovetime;
      std::string m;
      if (state.is_forced()) {
        m = state.legal_moves().front();
      } else {
        ok = check.move(game, "", moves, go, Millis(kQuickMovetime + kMargin),
                        label + ": setup, then play: ply " + std::to_string(moves.size() + 1) +
                            (state.setup_form().empty() ? "" : " (setup)"),
                        &m);
      }
      if (ok && !state.apply(m)) ok = false;
      moves.push_back(m);
    }
  }

  // With 3 or more players: each one's turn in order, from one line of play.
  if (players >= 3) {
    auto turns = random_line(game, players, 5);
    auto state = initial;
    for (std::size_t n = 0; n < turns.size(); ++n) {
      std::vector<std::string> prefix(turns.begin(), turns.begin() + static_cast<long>(n) + 1);
      if (!state.apply(turns[n])) break;
      protocol::Go go;
      go.player = state.current_player();
      go.movetime = kQuickMovetime;
      if (!check.move(game, "", prefix, go, Millis(kQuickMovetime + kMargin),
                      label + ": turn order: player " + std::to_string(state.current_player()) +
                          " to move after " + std::to_string(n + 1) + " plies"))
        break;
    }
  }

  // A position right after a forced move (a pass where the rules have one), from random play.
  bool found = false;
  for (std::uint64_t seed = 1; seed <= 40 && !found; ++seed) {
    auto playout = random_playout(game, seed, 400);
    auto state = initial;
    for (std::size_t i = 0; i < playout.size(); ++i) {
      const bool forced = state.is_forced();
      if (!state.apply(playout[i])) break;
      if (forced && !state.is_terminal() && !state.is_forced()) {
        protocol::Go go;
        go.player = state.current_player();
        go.movetime = kQuickMovetime;
        std::vector<std::string> prefix(playout.begin(),
                                        playout.begin() + static_cast<long>(i) + 1);
        check.move(game, "", prefix, go, Millis(kQuickMovetime + kMargin),
                   label + ": a position after a forced move ('" + playout[i] + "' at ply " +
                       std::to_string(i + 1) + ")");
        found = true;
        break;
      }
    }
  }

  check.play_to_end(game, label);
  check_parameters(check, game, label);

  // The same process, a second game.
  if (check.prepare(game, label + ": game 2 in the same process: uginewgame, isready"))
    check.move(game, "", {}, timed, Millis(11000),
               label + ": game 2: legal bestmove from startpos");
}

// go infinite, then stop: the bestmove must come after the stop, however soon the engine is
// done (PROTOCOL.md §6); then a stop while idle, which must be ignored (§8).
void check_infinite(Report& report, Checker& check, EngineSession& session,
                    const games::Game& game) {
  auto line = random_line(game, 3, 9);
  auto state = games::state_after(game, "", line);
  if (!state || state->is_forced() || state->is_terminal()) return;
  protocol::Go go;
  go.player = state->current_player();
  go.infinite = true;
  const std::string what = "stop: go infinite, then stop -> bestmove";
  auto reply = session.request_and_stop("", line, go, Millis(kInfiniteStopAfter), Millis(2000));
  // request_and_stop writes stop only once kInfiniteStopAfter has passed without a bestmove.
  if (reply.fault == Fault::None && reply.elapsed < Millis(kInfiniteStopAfter)) {
    report.step(false, what,
                "'bestmove " + reply.move + "' after " + std::to_string(reply.elapsed.count()) +
                    " ms, before any stop",
                "under 'go infinite' keep the bestmove until 'stop' comes, however soon the "
                "search is done (PROTOCOL.md §6); the SDKs do it for you");
    session.send("stop");
  } else if (!check.judge(reply, game, *state, what)) {
    return;
  }
  // The engine is idle now: a stop gets no reply, and the next command is answered as usual.
  session.send("stop");
  std::string detail;
  const Fault f = session.prepare(game, detail);
  report.step(f == Fault::None, "stop while idle: ignored, then uginewgame, isready -> readyok",
              f == Fault::None ? "" : fault_name(f) + ": " + detail,
              "'stop' when no search runs gets no answer at all (PROTOCOL.md §8): never a second "
              "bestmove");
}

}  // namespace

int check_engine_compliance(const engines::SpawnSpec& spec,
                            const std::vector<std::string>& game_specs, std::ostream& out,
                            long start_timeout_ms, DebugLog* debug) {
  Report report(out);
  SessionSettings settings;
  settings.start_timeout = Millis(start_timeout_ms);
  settings.debug = debug;
  StartReport how;
  auto started = EngineSession::start(spec, settings, &how);
  if (!started) {
    const std::string& why = started.error();
    report.step(false, "handshake: ugi answered by ugiok", why, handshake_hint(how));
    report.summary();
    return report.failures();
  }
  report.step(true, "handshake: ugi answered by ugiok");
  EngineSession& session = *started;
  const auto& id = session.identity();
  report.step(!id.name.empty(), "id name",
              id.name.empty() ? "no 'id name' line before ugiok" : id.name,
              "print 'id name <name>' before 'ugiok'");
  report.step(id.protocol >= 1, "id protocol 1",
              id.protocol >= 1 ? ""
                               : "no 'id protocol 1': treated as a plain UGI engine (no game "
                                 "declarations, no isready tokens)",
              "print 'id protocol 1' before 'ugiok'");
  report.step(
      !id.games.empty() || id.protocol == 0, "game declarations",
      id.games.empty() ? "no 'game' line" : std::to_string(id.games.size()) + " games declared",
      "print one 'game <name> [key=a|b ...]' line per game it plays, before 'ugiok'");
  if (!id.options.empty()) {
    std::string names;
    for (const auto& o : id.options) names += (names.empty() ? "" : ", ") + o.name + " " + o.type;
    out << "     options declared: " << names << "\n";
  }
  std::vector<std::string> targets = game_specs;
  if (targets.empty()) targets = declared_targets(id);
  if (targets.empty()) targets.push_back("awale");

  Checker check(report, session);
  std::optional<games::Game> last_game;  // the game the session is in
  for (const auto& spec_text : targets) {
    auto game = games::make_game(spec_text);
    if (!report.step(game.ok(), "game " + spec_text + " known to the referee",
                     game.ok() ? "" : game.error()))
      continue;
    const std::string name = game->name();
    if (!report.step(session.declares(name), spec_text + ": declared by the engine",
                     session.declares(name) ? "" : "missing 'game " + name + "' line",
                     "print 'game " + name + "' between 'ugi' and 'ugiok' (PROTOCOL.md §3)"))
      continue;
    if (const std::string outside = outside_declaration(id, *game); !outside.empty()) {
      report.step(false, spec_text + ": within the engine's declaration",
                  outside + ": not sent to the engine",
                  "declare every value the engine plays in its 'game' line");
      continue;
    }
    check_game(check, *game, spec_text);
    last_game = *game;
  }

  if (last_game && session.alive()) check_infinite(report, check, session, *last_game);
  session.quit();
  const std::string exit = session.exit_description();
  report.step(session.exited_normally(), "quit: the engine exits by itself", exit,
              "on 'quit', exit at once (stop any search first)");

  // A second process: end of input with no quit.
  auto again = EngineSession::start(spec, settings);
  if (!again) {
    report.step(false, "end of input: a second start", again.error());
  } else {
    again->close_input();
    const std::string eof_exit = again->exit_description();
    report.step(again->exited_normally(), "end of input: the engine exits by itself", eof_exit,
                "when stdin ends (read returns end of file), exit");
  }
  report.summary();
  return report.failures();
}

}  // namespace referee::match
