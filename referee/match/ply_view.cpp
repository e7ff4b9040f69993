#include "match/ply_view.h"

#include <algorithm>

#include "match/match.h"
#include "match/time_control.h"
#include "protocol/messages.h"

namespace referee::match {

namespace {

// The position line (and the go line after it) sent to `seat`, from its transcript.
bool find_sent(const std::vector<storage::LogLine>& logs, int seat, const std::string& position,
               std::string& go) {
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const auto& l = logs[i];
    if (l.seat != seat || l.direction != '>' || l.text != position) continue;
    for (std::size_t j = i + 1; j < logs.size(); ++j)
      if (logs[j].seat == seat && logs[j].direction == '>') {
        go = logs[j].text;
        return true;
      }
    go.clear();
    return true;
  }
  return false;
}

}  // namespace

Expected<PlyView> view_at(const storage::GameRecord& game,
                          const std::vector<storage::MoveRecord>& moves,
                          const std::vector<storage::LogLine>& logs, int ply) {
  const std::string where = "game " + std::to_string(game.id);
  auto rules = games::make_game(game.game);
  if (!rules) return Error{where + ": " + rules.error()};
  const std::vector<std::string> sequence = storage::move_sequence(game, moves);
  const auto total = static_cast<int>(sequence.size());
  if (ply < 0 || ply > total)
    return Error{where + " has " + std::to_string(total) + " plies: ply " + std::to_string(ply) +
                 " is not one of 0 to " + std::to_string(total)};
  // The opening moves that were not recorded as moves come first in the sequence.
  const std::size_t offset = sequence.size() - moves.size();

  PlyView v;
  v.ply = ply;
  v.total_plies = total;
  v.time_control = game.time_control;
  auto start = game.start_position.empty() ? Expected<games::State>(rules->initial_state())
                                           : rules->parse_state(game.start_position);
  if (!start) return Error{where + ": start position: " + start.error()};
  games::State state = std::move(*start);

  // Each seat's own control when the game recorded them (engines with their own tc), else the
  // game's for every seat; none when one does not parse (a console game without a clock).
  const auto players = static_cast<std::size_t>(rules->num_players());
  std::vector<TimeControl> tcs;
  std::vector<PlayerClock> clocks;
  for (std::size_t s = 0; s < players; ++s) {
    auto tc = parse_time_control(s < game.time_controls.size() ? game.time_controls[s]
                                                               : game.time_control);
    if (!tc) {
      tcs.clear();
      break;
    }
    tcs.push_back(*tc);
  }
  for (const auto& t : tcs) clocks.emplace_back(t);
  const bool timed = !tcs.empty();
  for (int i = 0; i < ply; ++i) {
    const auto idx = static_cast<std::size_t>(i);
    const int mover = state.current_player();
    if (auto st = state.apply(sequence[idx]); !st)
      return Error{where + " ply " + std::to_string(i + 1) + " '" + sequence[idx] +
                   "': " + st.error()};
    if (idx < offset || clocks.empty() || mover < 1) continue;
    const auto& m = moves[idx - offset];
    if (m.source == "engine" && m.time_ms >= 0)
      (void)clocks[static_cast<std::size_t>(mover - 1)].charge(Millis(m.time_ms));
  }
  v.to_move = state.current_player();
  if (static_cast<std::size_t>(ply) >= offset && static_cast<std::size_t>(ply) < sequence.size())
    v.next = moves[static_cast<std::size_t>(ply) - offset];
  const bool referee_move =
      static_cast<std::size_t>(ply) < offset || (v.next && v.next->source != "engine");
  if (std::any_of(tcs.begin(), tcs.end(), [](const TimeControl& t) { return t.has_clock(); }))
    for (const auto& c : clocks) v.clocks.push_back(static_cast<long>(c.left().count()));

  // The engine to move was asked here unless the referee played the move or the rules had ended
  // the game; at the last position of a game that did not end by the rules it was asked (and
  // failed, or was interrupted).
  const bool last_request = !v.next && !state.is_terminal();
  v.asked = v.to_move > 0 && !referee_move && (v.next || last_request) && !state.is_forced();
  if (v.asked) {
    std::vector<std::string> played(sequence.begin(), sequence.begin() + ply);
    v.position_line = protocol::format_position(game.start_position, played);
    if (timed)
      v.go_line = protocol::format(protocol::RefereeMessage{go_for(v.to_move, clocks, tcs)});
    std::string sent_go;
    if (find_sent(logs, v.to_move, v.position_line, sent_go) && !sent_go.empty()) {
      v.source = PlyView::Source::Transcript;
      if (sent_go != v.go_line) v.rebuilt_go = v.go_line;
      v.go_line = sent_go;
    }
  }
  v.state = std::move(state);
  return v;
}

}  // namespace referee::match
