#include "match/match.h"

#include "protocol/messages.h"

namespace referee::match {

std::vector<int> forfeit_ranks(int players, int seat) {
  std::vector<int> ranks(static_cast<std::size_t>(players), 1);
  ranks[static_cast<std::size_t>(seat - 1)] = players > 1 ? 2 : 1;
  return ranks;
}

protocol::Go go_for(int player, const std::vector<PlayerClock>& clocks,
                    const std::vector<TimeControl>& time_controls) {
  const auto& clock = clocks[static_cast<std::size_t>(player - 1)];
  const auto& tc = time_controls[static_cast<std::size_t>(player - 1)];
  protocol::Go go;
  go.player = player;
  if (tc.has_clock()) {
    for (std::size_t s = 0; s < clocks.size(); ++s) {
      go.time_ms.push_back(static_cast<long>(clocks[s].left().count()));
      go.inc_ms.push_back(static_cast<long>(time_controls[s].increment.count()));
    }
    if (clock.moves_to_go()) go.movestogo = clock.moves_to_go();
  }
  if (tc.movetime.count()) go.movetime = static_cast<long>(tc.movetime.count());
  if (tc.depth) go.depth = tc.depth;
  if (tc.nodes) go.nodes = tc.nodes;
  return go;
}

std::string forfeit_reason(const EngineSession& engine, Fault fault, const std::string& detail,
                           const std::string& when) {
  const std::string& who = engine.name();
  switch (fault) {
    case Fault::Timeout:
      return who + " lost on time" + when + ": " + detail;
    case Fault::Illegal:
      return who + " played an illegal move" + when + ": " + detail;
    case Fault::Crash: {
      std::string out = who + " crashed" + when + " " + detail;
      const auto recent = engine.recent_stderr();
      if (recent.size() > 1) {
        out += "\nits stderr, last lines in this game:";
        for (const auto& line : recent) out += "\n  " + line;
      }
      return out;
    }
    case Fault::Stall:
      return who + " stalled" + when + ": " + detail;
    case Fault::Protocol:
      return who + " broke the protocol" + when + ": " + detail;
    case Fault::Resign:
      return who + " resigned";
    case Fault::NoStart:
      return who + " failed to start: " + detail;
    case Fault::Unsupported:
      return who + " does not play this game: " + detail;
    case Fault::None:
      break;
  }
  return who + ": " + detail;
}

std::string reason_headline(const std::string& reason) {
  return reason.substr(0, reason.find('\n'));
}

EngineTurn engine_turn(games::State& state, EngineSession& engine, std::vector<PlayerClock>& clocks,
                       const std::vector<TimeControl>& time_controls,
                       const std::string& start_position, const std::vector<std::string>& played,
                       const std::atomic<bool>* stop) {
  EngineTurn turn;
  const int player = state.current_player();
  auto& clock = clocks[static_cast<std::size_t>(player - 1)];
  const auto& tc = time_controls[static_cast<std::size_t>(player - 1)];
  const protocol::Go go = go_for(player, clocks, time_controls);
  turn.reply = engine.request(start_position, played, go, clock.move_budget(), stop);
  const MoveReply& reply = turn.reply;
  if (reply.fault == Fault::None && reply.move.empty()) {
    turn.interrupted = true;
    return turn;
  }
  if (reply.fault != Fault::None) {
    turn.fault = reply.fault;
    turn.detail = reply.detail;
    if (reply.fault == Fault::Illegal) turn.detail += " (raw: '" + reply.move + "')";
    return turn;
  }
  if (!clock.charge(reply.elapsed)) {
    turn.fault = Fault::Timeout;
    turn.detail = std::to_string(reply.elapsed.count()) + " ms used, " +
                  std::to_string(clock.move_budget().count()) + " ms allowed";
    return turn;
  }
  if (!state.apply(reply.move)) {
    turn.fault = Fault::Illegal;
    turn.detail = "'" + reply.move + "' in " + state.to_string();
    return turn;
  }
  turn.played = true;
  turn.clock_ms = tc.has_clock() ? static_cast<long>(clock.left().count()) : -1;
  return turn;
}

MatchResult play_match(const MatchSetup& setup) {
  MatchResult result;
  const int players = setup.game.num_players();
  std::vector<std::string> played;  // every move since the start position, opening included
  auto start = setup.start_position.empty() ? Expected<games::State>(setup.game.initial_state())
                                            : setup.game.parse_state(setup.start_position);
  if (!start) {
    result.termination = "interrupted";
    result.reason = "bad start position: " + start.error();
    return result;
  }
  games::State state = std::move(*start);
  std::vector<PlayerClock> clocks;
  for (int s = 0; s < players; ++s)
    clocks.emplace_back(setup.time_controls[static_cast<std::size_t>(s)]);

  int round = state.round();
  std::vector<PlyScore> scores;  // every ply, for adjudication
  std::vector<std::string> names;
  for (const auto* seat : setup.seats) names.push_back(seat->name());
  auto record = [&](const std::string& move, int player, long time_ms, long clock_ms,
                    const std::string& info, const char* source,
                    std::optional<Score> score = std::nullopt) {
    scores.push_back(PlyScore{state.ply(), player, std::string(source) == "engine", score});
    storage::MoveRecord m{state.ply(), player, move, time_ms, clock_ms, info, source, ""};
    if (state.round() != round) {  // multi-round games: the record shows where a round begins
      round = state.round();
      m.note = "round " + std::to_string(round);
    }
    played.push_back(move);
    if (setup.on_move) setup.on_move(m);
    result.moves.push_back(std::move(m));
  };
  auto forfeit = [&](int seat, Fault fault, const std::string& detail) {
    result.finished = true;
    result.ranks = forfeit_ranks(players, seat);
    result.scores = state.material();
    result.termination = fault_name(fault);
    result.reason = forfeit_reason(*setup.seats[static_cast<std::size_t>(seat - 1)], fault, detail);
    result.faulty_seat = seat;
    result.fault = fault;
  };

  // After a ply the rules did not end: the judge's verdict, else the scores'.
  auto adjudicated = [&]() {
    if (state.is_terminal()) return false;
    std::optional<Verdict> verdict;
    if (setup.judge) verdict = setup.judge(state);
    if (!verdict && setup.adjudication.any())
      verdict = adjudicate(setup.adjudication, scores, names);
    if (!verdict) return false;
    result.finished = true;
    result.ranks = verdict->ranks;
    result.scores = verdict->scores.empty() ? state.material() : verdict->scores;
    result.termination = "adjudication";
    result.reason = verdict->reason;
    return true;
  };

  for (const auto& move : setup.opening) {
    const int player = state.current_player();
    if (!state.apply(move)) {
      result.termination = "interrupted";
      result.reason = "opening move '" + move + "' is illegal";
      return result;
    }
    record(move, player, -1, -1, "", "opening");
  }

  while (!state.is_terminal()) {
    if (setup.stop && setup.stop->load()) {
      result.termination = "interrupted";
      result.reason = "interrupted";
      result.final_position = state.to_string();
      return result;
    }
    const int player = state.current_player();
    if (state.is_forced()) {
      auto move = state.legal_moves().front();
      (void)state.apply(move);
      record(move, player, -1, -1, "", "forced");
      if (adjudicated()) break;
      continue;
    }
    EngineSession& engine = *setup.seats[static_cast<std::size_t>(player - 1)];
    EngineTurn turn = engine_turn(state, engine, clocks, setup.time_controls, setup.start_position,
                                  played, setup.stop);
    if (turn.interrupted) continue;  // the loop's first check ends the game
    if (!turn.played) {
      forfeit(player, turn.fault, turn.detail);
      break;
    }
    record(turn.reply.move, player, static_cast<long>(turn.reply.elapsed.count()), turn.clock_ms,
           turn.reply.info, "engine", score_of(turn.reply.score_cp, turn.reply.score_mate));
    if (adjudicated()) break;
  }

  if (!result.finished && state.is_terminal()) {
    auto outcome = state.outcome();
    result.finished = true;
    result.ranks = outcome.ranks;
    result.scores = outcome.scores;
    result.termination = outcome.reason;  // one vocabulary (games/terminations.h)
    result.reason = "game over by the rules (" + outcome.reason + ")";
  }
  result.final_position = state.to_string();
  if (result.finished) {
    protocol::GameOver over{protocol::outcome_word(result.ranks), result.termination};
    const std::string line = protocol::format(protocol::RefereeMessage{over});
    for (auto* seat : setup.seats) seat->send(line);
  }
  return result;
}

}  // namespace referee::match
