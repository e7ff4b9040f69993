// The one vocabulary of how a game ends. The same word is the reason of the protocol's `gameover`
// line, the `termination` stored with every game (and exported), the reason of the rules
// library's Outcome, and the name of an engine's fault (PROTOCOL.md §8, README "Results").
//
// Decisions:
// - A game the rules end is `rules` everywhere: the stored word was `normal` before schema v6,
//   and the migration rewrites it (legacy_termination() reads it too).
// - `adjudication` is its own kind, not Rules: the rules did not end the game (so its replay
//   never reaches an end, like a forfeit's), yet no engine failed (no crash count, no withdrawal).
// - Words that only a stored game can carry (a game that did not finish) are never sent in a
//   `gameover` line; words of games that were never played (`nostart`, `unsupported`) are fault
//   names that decide a schedule, not a stored game.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace referee::games {

enum class EndKind {
  Rules,    // the rules ended the game (its own end, or exhaustion, or agreement)
  Forfeit,  // an engine lost by failing (or resigned)
  // the referee decided a result the moves had not reached (the engines' scores, an endgame
  // database): finished and rated like any other, but a replay of its moves does not end it
  Adjudicated,
  NotPlayed,   // the game was never played with this engine (not scored)
  Unfinished,  // stored only: the game did not finish and is not rated
};

struct Termination {
  const char* word;
  EndKind kind;
  const char* meaning;  // one line for people (the documentation's table)
};

// Every word, in the documentation's order.
const std::vector<Termination>& terminations();
// The entry of `word`, or nullptr for a word outside the vocabulary.
const Termination* find_termination(std::string_view word);
// Whether the moves alone end a game so terminated: an end by the rules other than agreement, so
// that a replay of the stored moves must reach the same end.
bool ended_by_moves(std::string_view word);
// The current word for a word written by an older version ("normal" -> "rules"); any other word
// is returned unchanged.
std::string legacy_termination(std::string_view word);

}  // namespace referee::games
