// The SPRT of one engine against another on stored games: the one computation behind
// `referee sprt`, the live test of a tournament with an `sprt` table (event/sprt_event.h) and the
// daemon's sprt events, so that all three give the same LLR on the same games. Pure, no I/O.
//
// Decisions:
// - The test runs on game pairs (pentanomial) when there are any; `referee sprt` falls back on
//   single games (trinomial) when there are none. A live test of a paired schedule asks for
//   pairs only (`pairs_only`): a game whose partner is still being played is half a pair, and
//   counting it alone would let the first game or two decide a test with wide error rates.
// - The texts are fixed here: "LLR 1.23 (-2.94, 2.94) [0, 5]" for progress lines,
//   "Ptnml(0-2): [1, 4, 9, 5, 2]" for the pair counts (fastchess's form) and
//   "H1 accepted, LLR 2.95 >= 2.94" for a decision (ASCII, so that any terminal shows it).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ratings/crosstable.h"
#include "ratings/sprt.h"
#include "storage/store.h"

namespace referee::ratings {

struct SprtTally {
  HeadToHead h;         // from a's side; h.games counts the two-player finished games
  bool paired = false;  // the state is on game pairs (pentanomial), else on single games
  SprtState state;
};

// The finished two-player games between a and b among `games` (others are ignored), tested.
SprtTally sprt_tally(const std::vector<storage::GameRecord>& games, const std::string& a,
                     const std::string& b, const SprtConfig& config, bool pairs_only = false);

// "LLR 1.23 (-2.94, 2.94) [0, 5]": the LLR, its bounds, and the hypotheses elo0 and elo1.
std::string sprt_progress(const SprtConfig& config, const SprtState& state);

// "Ptnml(0-2): [LL, LD, WL+DD, WD, WW]": the pair counts by pair score 0, ½, 1, 1½, 2, as
// fastchess prints them.
std::string ptnml_text(const Pentanomial& pairs);

// "H1 accepted, LLR 2.95 >= 2.94", "H0 accepted, LLR -2.95 <= -2.94"; "" while undecided.
std::string sprt_verdict(const SprtState& state);

// The test as JSON: elo0, elo1, alpha, beta, model, llr, lower, upper, decision ("H0", "H1" or
// null), verdict (sprt_verdict or null), games, pairs, and the pentanomial counts.
nlohmann::json sprt_json(const SprtConfig& config, const SprtTally& tally);

}  // namespace referee::ratings
