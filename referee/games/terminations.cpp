#include "games/terminations.h"

namespace referee::games {

const std::vector<Termination>& terminations() {
  static const std::vector<Termination> all = {
      {"rules", EndKind::Rules, "the game's own end (board empty, no move left, a win)"},
      {"relay", EndKind::Rules,
       "exhaustion: every move of the player to move breaks the relay guard (oware family)"},
      {"repetition", EndKind::Rules, "exhaustion: a position occurred for the third time"},
      {"nocapture", EndKind::Rules, "exhaustion: `nocapture` plies without a capture"},
      {"maxplies", EndKind::Rules, "exhaustion: the game reached `maxplies` plies"},
      {"agreement", EndKind::Rules, "ended by agreement (people at the console, `referee play`)"},
      {"adjudication", EndKind::Adjudicated,
       "the referee decided it: the engines' scores (a draw or a hopeless side, the event's "
       "`[adjudication]` rules) or an endgame database"},
      {"resign", EndKind::Forfeit, "an engine answered `bestmove resign`"},
      {"time", EndKind::Forfeit, "an engine's bestmove did not arrive within its time + margin"},
      {"illegal", EndKind::Forfeit, "an engine played an illegal or unparseable move"},
      {"crash", EndKind::Forfeit, "an engine exited, closed its output or its input"},
      {"stall", EndKind::Forfeit, "an engine did not answer isready with readyok in time"},
      {"protocol", EndKind::Forfeit,
       "an engine broke the protocol (line too long, control bytes, flood, error, stray reply)"},
      {"nostart", EndKind::NotPlayed,
       "an engine did not start (no ugiok): its games are not played"},
      {"unsupported", EndKind::NotPlayed,
       "an engine refused the game (error unsupported-game): not played with it"},
      {"interrupted", EndKind::Unfinished,
       "stored only: stopped (Ctrl-C, a killed run, end of input) and played again later"},
      {"lost-claim", EndKind::Unfinished,
       "stored only: its slot was taken by another process meanwhile; kept, never rated"},
      {"duplicate", EndKind::Unfinished,
       "stored only: a second finish of one slot by older versions; kept, never rated"},
  };
  return all;
}

const Termination* find_termination(std::string_view word) {
  for (const auto& t : terminations())
    if (word == t.word) return &t;
  return nullptr;
}

bool ended_by_moves(std::string_view word) {
  const std::string current = legacy_termination(word);
  const Termination* t = find_termination(current);
  return t && t->kind == EndKind::Rules && current != "agreement";
}

std::string legacy_termination(std::string_view word) {
  if (word == "normal") return "rules";
  return std::string(word);
}

}  // namespace referee::games
