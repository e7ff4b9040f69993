// An event's adjudication settings (match/adjudication.h) as written: the tournament file's (and
// the daemon's tournament document's) `[adjudication]` table, the `match` command's --draw and
// --resign flags, and the event's stored specification.
//
//   [adjudication]
//   draw = { from_ply = 40, score = 10, plies = 8 }
//   resign = { score = 600, plies = 6, two_sided = false }
//   egdb = "tables/awale-8.egdb"    # an endgame table: event/egdb_adjudication.h
//
// Decisions:
// - `score` and `plies` are required in each rule (no silent defaults for what decides a game);
//   `from_ply` defaults to 1 and `two_sided` to false.
// - A flag is the same table as `key=value` pairs separated by commas ("score=600,plies=6"), read
//   by the same code, so that a flag and a file give the same errors.
// - Every error is one line naming the key ("t.toml: adjudication.draw.plies must be an integer
//   from 1 to 10000, not 0"). Whether the event's games have two players is
//   check_adjudication's, from check_tournament, once the games are known.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "base/expected.h"
#include "match/adjudication.h"

namespace referee::event {

// The `adjudication` table's rules from the scores; `where` names it in errors ("t.toml:
// adjudication"). Its `egdb` key is read_egdb_key's (a table holding only it gives no rules).
Expected<match::Adjudication> parse_adjudication(const nlohmann::json& table,
                                                 const std::string& where);

// The table's `egdb` key, the path of an endgame table as written (nullopt without one).
Expected<std::optional<std::string>> read_egdb_key(const nlohmann::json& table,
                                                   const std::string& where);

// One flag's text: `rule` is "draw" or "resign"; errors name the flag ("--draw: ...").
Expected<match::Adjudication> parse_adjudication_flag(const std::string& rule,
                                                      const std::string& text,
                                                      match::Adjudication into);

// The table as the specification stores it (only the rules given: null when there is none, and
// then the specification has no "adjudication" key, so that older events read the same).
nlohmann::json adjudication_json(const match::Adjudication& rules);

}  // namespace referee::event
