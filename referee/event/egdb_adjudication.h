// Adjudication by an endgame table (games/egdb/EGDB.md): an event whose
// `[adjudication]` table names `egdb = "FILE"` ends a game as soon as it reaches a position of
// the table, with the final score perfect play gives from there.
//
// Decisions:
// - The event pins the file by its checksum: pin_table() opens and checks the file when the event
//   is made (its path and checksum go into the event's specification and schedule fingerprint);
//   every process that plays the event opens it once (open_pinned), checks the checksum, and
//   shares the one table read-only between its game threads. A host whose file is missing or
//   has another checksum does not play the event (the daemon and `referee worker` say so in one
//   line: service/events.cpp).
// - Only `exact` probes adjudicate: the value and the best moves are then perfect play under the
//   game's rules from this state, its nocapture counter and maxplies included. The one rule a
//   table sets aside even then is the repetition limit (awale: a position's history is not in
//   the table), and the reason says so. So awale adjudicates at the table's first position whose
//   counters allow it, and kalaha under its default nocapture=100 is never adjudicated (its
//   counter is not modelled); `kalaha:nocapture=0` is. Judging by an inexact value would store a
//   score the rules do not guarantee.
// - Games whose game the table does not cover (another game, other rule parameters but `first`
//   and `maxplies`) get no judge: they are played out normally.
// - Ranks come from the final scores (the higher is first; equal scores share first place), and
//   the scores stored are those final scores, not the material on the board.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/expected.h"
#include "games/egdb/table.h"
#include "games/game.h"
#include "match/adjudication.h"

namespace referee::event {

// The table an event names: its path as written (absolute once loaded) and its checksum.
struct EgdbPin {
  std::string path;
  std::uint64_t checksum = 0;
};

using SharedTable = std::shared_ptr<const games::egdb::Table>;

// Opens `path` and checks it (games/egdb/table.h: open_table): the pin and the table, or one line
// naming the file ("egdb table 'x.egdb': ...").
Expected<std::pair<EgdbPin, SharedTable>> pin_table(const std::string& path);

// Opens the pinned file on this host: the table, or one line saying why this host cannot play
// the event ("egdb table 'x.egdb' is not on this host: ...", "... has checksum A here, the event
// pins B").
Expected<SharedTable> open_pinned(const EgdbPin& pin);

// The judge of `game`'s positions by `table` (see above), or an empty judge when the table does
// not cover `game`. `path` names the table in the reasons.
match::PositionJudge egdb_judge(SharedTable table, const games::Game& game,
                                const std::string& path);

// The checksum as stored ("hex64"), and back: nullopt unless 16 hex digits.
std::string checksum_text(std::uint64_t checksum);
std::optional<std::uint64_t> parse_checksum(const std::string& text);

}  // namespace referee::event
