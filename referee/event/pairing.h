// The pairing rules of the formats whose rounds depend on results (TOURNAMENTS.md, "Knockout"
// and "Swiss"), as pure functions of the field and the results so far: no storage, no clock, no
// randomness. Everything a runner needs to add the next games, or print a bracket or standings,
// is recomputed from the stored games with these; that is what makes a resumed run (or a second
// process on the same event) decide the same next round.
//
// Players are numbered 0..field-1: for a knockout by seed (0 = top seed), for a Swiss by the
// file's order (also the initial ranking that breaks ties between equal scores).
//
// Knockout decisions:
// - The bracket has size = the next power of two >= field; seed s meets seed size-1-s in the
//   first round, in the classic order (1-8, 4-5, 2-7, 3-6) so that seeds 0 and 1 can only meet in
//   the final. A seed >= field is a bye: the top seeds get them.
// - A match is `pairs` game pairs; tied (equal game points) when they are all settled, it gets
//   one more pair at a time up to `tiebreak_pairs`; still tied, the higher seed advances.
// - A match of the next round starts as soon as both its sides are known: the bracket does not
//   wait for the whole round (nothing in it depends on the other matches).
//
// Swiss decisions (Dutch system, main rules; TOURNAMENTS.md lists what is and is not done):
// - A pairing is a match of one game pair per game; its winner (more game points) scores 1, a tie
//   scores 1/2 each; a bye scores 1.
// - Score groups top down; a bracket is the players floated down from above plus a score group,
//   in ranking order; its top half S1 meets its bottom half S2 (S1[i] - S2[i]), and when that
//   gives a rematch the bottom half is permuted in lexicographic order (the top pairings change
//   last), then players are exchanged between the halves (an S1 player meets one of S1 below
//   it); unpaired players float down to the next bracket. A pairing that leaves the lower
//   brackets unpairable is not taken (the search backtracks over the whole field).
// - An odd field gives a bye to the lowest-ranked player among those with the fewest byes
//   (nobody gets a second before every other player had one, even at the cost of a rematch);
//   among them, the lowest-ranked whose absence leaves the rest pairable without rematches.
// - Rematches only when no pairing avoids them (more rounds than the field allows): then the
//   same order is used with rematches allowed.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace referee::event {

// ---- Knockout ----

struct KnockoutRules {
  int pairs = 1;           // game pairs of a match
  int tiebreak_pairs = 0;  // extra pairs at most, one at a time, while the match is tied
};

// What the stored games say of one match (one entry per match that has games).
struct MatchTally {
  int pairs_scheduled = 0;    // game pairs made for it
  int pairs_settled = 0;      // of which every game is finished or skipped
  double points[2] = {0, 0};  // game points of the finished games: higher seed, lower seed
};

enum class MatchState {
  Waiting,  // a side is not known yet
  Bye,      // one side is a bye: the other advances without a game
  Playing,  // games to make or to finish
  Decided,
};

struct KnockoutMatch {
  int round = 1;            // 1-based
  int position = 0;         // 0-based, top of the bracket first
  int seeds[2] = {-1, -1};  // the higher seed first; -1: not known yet, or a bye
  MatchState state = MatchState::Waiting;
  MatchTally tally;
  int winner = -1;       // a seed, when decided (or a bye)
  bool by_seed = false;  // tied after every tie-break pair: the higher seed advanced
};

struct Bracket {
  int field = 0, size = 0;                         // engines, and the power of two holding them
  std::vector<std::vector<KnockoutMatch>> rounds;  // rounds[r - 1], in position order
  int champion = -1;                               // a seed, once the final is decided
};

// The seeds in first-round order: positions 2p and 2p+1 meet in match p (size a power of two).
std::vector<int> bracket_order(int size);

// Tallies are keyed by (round, higher seed): a seed plays one match per round.
using MatchTallies = std::map<std::pair<int, int>, MatchTally>;

// The bracket for a field of `field` >= 2 engines given the stored matches.
Bracket knockout_bracket(int field, const KnockoutRules& rules, const MatchTallies& tallies);

// Game pairs a match needs now: pairs number first_pair .. first_pair + count - 1 of it.
struct PairsWanted {
  int round = 1, position = 0;
  int seeds[2] = {-1, -1};
  int first_pair = 0, count = 0;
};
std::vector<PairsWanted> knockout_wanted(const Bracket& bracket, const KnockoutRules& rules);

// ---- Swiss ----

// One pairing of a played round: the game points of its finished games.
struct SwissResult {
  int a = 0, b = 0;
  double points_a = 0, points_b = 0;
};

struct SwissRoundPlayed {
  std::vector<SwissResult> pairings;
  int bye = -1;
};

struct SwissRoundPlan {
  std::vector<std::pair<int, int>> pairings;  // the higher-ranked player first
  int bye = -1;
  int rematches = 0;  // pairings that repeat one of an earlier round (0 unless unavoidable)
};

// The next round's pairing for players 0..field-1 after `played` rounds.
SwissRoundPlan swiss_pairing(int field, const std::vector<SwissRoundPlayed>& played);

struct SwissStanding {
  int player = 0;
  double score = 0;             // match points: 1 a win or a bye, 1/2 a tie
  double buchholz = 0;          // the sum of the opponents' scores (a bye adds nothing)
  double sonneborn_berger = 0;  // the scores of the opponents beaten, and half those tied with
  double game_points = 0;       // of every finished game
  int byes = 0;
};

// Ranked by score, Buchholz, Sonneborn-Berger, then the file's order.
std::vector<SwissStanding> swiss_standings(int field, const std::vector<SwissRoundPlayed>& played);

// The match points of one pairing: {a's, b's}.
std::pair<double, double> match_points(const SwissResult& result);

}  // namespace referee::event
