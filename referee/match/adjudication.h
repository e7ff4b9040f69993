// Adjudication of a game from the engines' own scores, as cutechess and fastchess
// do: a draw when every engine's score stayed near zero, a loss for an engine whose own score
// stayed hopeless. Free functions over plain values: the match runner keeps one PlyScore per ply
// and asks adjudicate() after each ply an engine played.
//
// Decisions:
// - Counts are in plies of the game, both engines' plies alike (kalaha's extra turns count, one
//   ply each). A window is the last `plies` plies that engines played: a move the referee plays
//   (a forced `pass` or the only legal move, an opening's move) carries no score and neither
//   breaks nor extends a run. It is no one's judgment, so it may not stop a run (endgames of
//   awale and kalaha are full of forced moves, and a hopeless position would then never be
//   adjudicated), and it may not count toward one either (a run of forced moves would adjudicate
//   on scores nobody gave for them).
// - Scores are trusted only against the engine that reports them. A one-sided resign looks only
//   at the losing engine's plies in the window (its opponent's plies count in the window, their
//   scores are not read), and its score must have stayed low for the whole window: the window's
//   first ply is one of the loser's (so with `plies = 1` it resigns right after its own move, with
//   `plies = 2` after its opponent's reply); a two-sided resign also needs every one of the
//   opponent's plies there at or above +score; a draw needs every ply of the window within ±score.
//   A ply without a score breaks every run that reads it, so an engine that reports no score is
//   never adjudicated against, and no draw is adjudicated in a game where it plays. Each rule needs
//   a ply of every engine whose score it reads inside the window.
// - A score is the one of the last `info` line of the move that carried one, from the mover's
//   side: `score cp N` in hundredths of the game's material unit (PROTOCOL.md §6), `score mate N`
//   counts as beyond every threshold: N > 0 (the mover mates) above any +score, N <= 0 below any
//   -score, and never within ±score.
// - Resign is checked before draw; check_adjudication refuses a draw band as wide as the resign
//   threshold, so at most one rule can hold after a ply.
// - Two-player games only: in a game of three or more players an engine's hopeless score does not
//   say who of the others wins, nor in which order they finish, and a draw would need a rank for
//   each. check_adjudication refuses rules for such a game.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "games/game.h"

namespace referee::match {

struct DrawRule {
  int from_ply = 1;  // the first ply a draw window may hold (1 = the game's first ply)
  long score = 0;    // |score| <= this, in the game's centi-units (cp)
  int plies = 1;     // the window's length
};

struct ResignRule {
  long score = 1;          // an engine's own score <= -score (cp), strictly positive
  int plies = 1;           // the window's length
  bool two_sided = false;  // the opponent's own score must also be >= +score in the window
};

// An event's rules; both absent = no adjudication (the default).
struct Adjudication {
  std::optional<DrawRule> draw;
  std::optional<ResignRule> resign;
  bool any() const { return draw || resign; }
};

// An engine's score: centi-units, or plies to mate (positive: the mover mates).
struct Score {
  bool mate = false;
  long value = 0;
};

// The score of a move from its last scored info line's fields (protocol::Info score_cp,
// score_mate; a mate wins over cp on one line); none when neither was given.
std::optional<Score> score_of(std::optional<long> cp, std::optional<long> mate);

// "+12", "-3", "0", "mate 5", "mate -2".
std::string score_text(const Score& score);

// One ply of the game as the rules read it.
struct PlyScore {
  int ply = 0;                 // 1-based, as stored (storage::MoveRecord::ply)
  int player = 0;              // 1-based seat of the mover
  bool by_engine = false;      // false: played by the referee (forced, opening): skipped
  std::optional<Score> score;  // the engine's, if it reported one
};

// A decided end that the moves did not reach: by the scores, or by a judge of the match setup
// (an endgame database). Stored finished with termination `adjudication`.
struct Verdict {
  std::vector<int> ranks;      // by seat
  std::vector<double> scores;  // by seat; empty: the material on the board when it ends
  std::string reason;          // names the rule, the ply and the scores
};

// A judge of positions, asked after every ply the rules did not end (MatchSetup::judge).
using PositionJudge = std::function<std::optional<Verdict>(const games::State&)>;

// The rules' own consistency, and that `players` (the game's) is two: one line naming the key
// ("adjudication: draw.plies must be from 1 to 10000, not 0").
Status check_adjudication(const Adjudication& rules, int players);
constexpr int kMaxAdjudicationPlies = 10000;
constexpr long kMaxAdjudicationScore = 1'000'000'000;

// The verdict after the last ply of `history` (every ply of the game so far, in order), or none.
// `names` are the engines by seat, for the reason.
std::optional<Verdict> adjudicate(const Adjudication& rules, const std::vector<PlyScore>& history,
                                  const std::vector<std::string>& names);

}  // namespace referee::match
