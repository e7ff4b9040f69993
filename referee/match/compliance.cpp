// `referee check-engine CMD [ARGS...]`: walks an engine through the protocol one step at a time and
// prints PASS or FAIL for each, with the offending line, so a bot author knows exactly what to fix.
// It drives the engine through the same EngineSession the tournaments use.
#include "match/compliance.h"

#include <iostream>
#include <random>

#include "games/core.h"
#include "games/registry.h"
#include "match/engine_session.h"

namespace referee {

namespace {

class Report {
 public:
  explicit Report(std::ostream& out) : out_(out) {}
  bool step(bool ok, const std::string& what, const std::string& detail = "") {
    out_ << (ok ? "PASS " : "FAIL ") << what;
    if (!detail.empty()) out_ << ": " << detail;
    out_ << "\n";
    if (!ok) ++failures_;
    return ok;
  }
  int failures() const { return failures_; }

 private:
  std::ostream& out_;
  int failures_ = 0;
};

// A mid-game position of `game` reached by random moves, never over.
std::vector<std::string> random_line(const games::Game& game, int plies, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto state = game.initial_state();
  std::vector<std::string> moves;
  for (int i = 0; i < plies; ++i) {
    std::string move;
    if (!state.setup_form().empty()) {
      move = state.sample_setup(rng());
    } else {
      auto legal = state.legal_moves();
      move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    }
    auto next = state;
    if (!next.apply(move) || next.is_terminal()) break;
    state = next;
    moves.push_back(move);
  }
  return moves;
}

bool check_move(Report& report, EngineSession& session, const games::Game& game,
                const std::string& start, const std::vector<std::string>& moves,
                const protocol::Go& go, Millis budget, const std::string& what) {
  auto state = games::state_after(game, start, moves);
  if (!state) return report.step(false, what, "internal: " + state.error());
  while (state->is_forced()) {  // the referee never asks for forced moves
    return report.step(true, what, "(forced position, skipped)");
  }
  auto reply = session.request(start, moves, go, budget, nullptr);
  if (reply.fault != Fault::None)
    return report.step(false, what,
                       fault_name(reply.fault) + ": " + reply.detail +
                           (reply.move.empty() ? "" : " (line: '" + reply.move + "')"));
  auto copy = *state;
  auto applied = copy.apply(reply.move);
  if (!applied)
    return report.step(false, what,
                       "bestmove '" + reply.move + "' is illegal in " + state->to_string());
  return report.step(
      true, what,
      "bestmove " + reply.move + " in " + std::to_string(reply.elapsed.count()) + " ms");
}

}  // namespace

int check_engine_compliance(const engines::SpawnSpec& spec,
                            const std::vector<std::string>& game_specs, std::ostream& out,
                            long start_timeout_ms) {
  Report report(out);
  SessionSettings settings;
  settings.start_timeout = Millis(start_timeout_ms);
  auto started = EngineSession::start(spec, settings);
  if (!report.step(started.ok(), "handshake: ugi answered by ugiok",
                   started.ok() ? "" : started.error())) {
    out << "FAILED: " << report.failures() << " step(s)\n";
    return report.failures();
  }
  EngineSession& session = *started;
  const auto& id = session.identity();
  report.step(!id.name.empty(), "id name",
              id.name.empty() ? "no 'id name' line before ugiok" : id.name);
  report.step(id.protocol >= 1, "id protocol 1",
              id.protocol >= 1 ? ""
                               : "no 'id protocol 1': treated as a plain UGI engine (no game "
                                 "declarations, no isready tokens)");
  std::vector<std::string> targets = game_specs;
  if (targets.empty()) {
    for (const auto& g : id.games) targets.push_back(g.name);
    if (targets.empty()) targets.push_back("awale");
  }
  report.step(
      !id.games.empty() || id.protocol == 0, "game declarations",
      id.games.empty() ? "no 'game' line" : std::to_string(id.games.size()) + " games declared");
  for (const auto& spec_text : targets) {
    auto game = games::make_game(spec_text);
    if (!report.step(game.ok(), "game " + spec_text + " known to the referee",
                     game.ok() ? "" : game.error()))
      continue;
    const std::string name = game->name();
    if (!report.step(session.declares(name), name + ": declared by the engine",
                     session.declares(name) ? "" : "missing 'game " + name + "' line"))
      continue;
    std::string detail;
    Fault f = session.prepare(*game, detail);
    if (!report.step(f == Fault::None, name + ": setgame, uginewgame, isready -> readyok <token>",
                     detail))
      continue;
    protocol::Go timed;
    timed.player = 1;
    for (int p = 0; p < game->num_players(); ++p) {
      timed.time_ms.push_back(10000);
      timed.inc_ms.push_back(100);
    }
    check_move(report, session, *game, "", {}, timed, Millis(11000),
               name + ": legal bestmove from startpos with clocks");
    auto line = random_line(*game, 7, 42);
    auto mid = games::state_after(*game, "", line);
    if (mid && !mid->is_terminal()) {
      protocol::Go go;
      go.player = mid->current_player();
      go.movetime = 200;
      check_move(report, session, *game, "", line, go, Millis(1200),
                 name + ": legal bestmove after startpos moves (movetime 200)");
      go.player = mid->current_player();
      check_move(report, session, *game, mid->to_string(), {}, go, Millis(1200),
                 name + ": legal bestmove from position fen (movetime 200)");
      protocol::Go depth;
      depth.player = mid->current_player();
      depth.depth = 1;
      check_move(report, session, *game, mid->to_string(), {}, depth, Millis(5000),
                 name + ": go depth 1");
    }
  }
  session.quit();
  const std::string exit = session.exit_description();
  report.step(exit.rfind("exit", 0) == 0, "quit: the engine exits by itself", exit);
  out << (report.failures() ? "FAILED: " + std::to_string(report.failures()) + " step(s)\n"
                            : "ALL PASSED\n");
  return report.failures();
}

}  // namespace referee
