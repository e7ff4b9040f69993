// Internal to storage/: small helpers of the units over one Database (store.cpp, work_queue.cpp,
// engine_registry.cpp and the query files), so that none needs another's insides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/database.h"
#include "storage/sql/sql.h"

namespace referee::storage {

struct GameRecord;

namespace rows {

std::string now_utc();  // ISO 8601 UTC, seconds
std::int64_t now_ms();  // Unix milliseconds
// A JSON array of strings, and back (lenient: [] on junk, non-strings skipped).
std::string json_strings(const std::vector<std::string>& values);
std::vector<std::string> strings_from_json(const std::string& text);

// Inside a write transaction: waits for the other writers that read before they insert (see
// sql::writers_lock).
void lock_writers(sql::Connection& db);

// The games' engine hashes as a SELECT expression of alias `g`: the column, or '[]' in a file
// older than v7 opened read-only (not migrated), told by its schema_version.
std::string engine_hashes_column(sql::Connection& db);
// The games' per-seat time controls likewise: the column, or '[]' in a file older than v11.
std::string time_controls_column(sql::Connection& db);

// SQLite's INDEXED BY games_by_tournament (the games of an event in slot order), or "" where it
// cannot be named: a file older than v10 opened read-only is read through a view named `games`
// (schema.cpp, compat_views), and PostgreSQL plans by itself.
std::string games_by_event_index(sql::Connection& db);

// The end of a game (store.cpp), inside the caller's transaction: ranks, scores, termination,
// reason, finished_at, plies, status "finished" or "unfinished". Throws sql::Failure; returns an
// error (NotFound, Invalid) for records that do not fit the game.
Status write_finish(sql::Connection& db, const Database& database, std::int64_t game_id,
                    const GameRecord& result, bool finished);

}  // namespace rows
}  // namespace referee::storage
