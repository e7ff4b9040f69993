// The engines of an event that run from stored artifacts (`artifact = "mybot@2"` in a tournament
// file; engines/ARTIFACTS.md): the version each names, pinned when the event is made, and the
// bytes each game's engine runs from.
//
// Decisions:
// - An event pins each artifact when it is made: resolve_artifacts turns the reference into the
//   version's SHA-256 and command, which the event's specification stores; a later version of the
//   name does not change the event (its specification would differ: a new event, or Conflict).
// - A reference by name takes its newest live version; a retired version named by number is
//   refused (Conflict): no new event plays it, while the events that pinned it can still replay.
// - The engine's `args` follow its version's command words; it always runs sandboxed.
#pragma once

#include <vector>

#include "base/expected.h"
#include "event/tournament_config.h"
#include "storage/database.h"

namespace referee::event {

// Fills every engine that has an artifact_ref and no artifact yet. Errors name the engine and the
// reference: NotFound ("no stored engine \"mybot@3\""), Conflict (retired), Invalid (a bad
// reference), or the database's kinds.
Status resolve_artifacts(storage::Database& db, std::vector<TournamentEngine>& engines);

}  // namespace referee::event
