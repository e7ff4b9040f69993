// The API's JSON: what stored games, events and standings look like to clients (the documented
// shapes of referee/service/API.md). Pure functions from storage records to nlohmann::json.
//
// Decisions:
// - Standings are one table per canonical game string (each variant apart: oware with 3 players
//   is not oware with 2) plus "all games" when there are several, from fit_elo (ratings/).
//   Infinite error bars (an engine with no informative games) are null.
// - Results of two-player games are "1-0", "0-1", "1/2-1/2"; of more players "ranks 1,3,2";
//   "" while a game has no ranks.
// - Terminations per engine: the forfeits it caused (time, illegal, crash, stall, protocol,
//   resign: the seat that forfeits is the one ranked last alone) and, under "other", how its other
//   games ended (normal, maxplies, ...).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "games/game.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::service {

using Json = nlohmann::json;

std::string result_text(const std::vector<int>& ranks);

Json game_summary(const storage::GameRecord& game);
Json move_json(const storage::MoveRecord& move);
// By seat: {"program": sha256 | null, "script": sha256 | null}.
Json seat_hashes_json(const std::vector<storage::EngineHash>& hashes);
// One owner (a worker, daemon or tournament run) for GET /api/workers; `now_ms` tells alive from
// lost by its lease.
Json worker_json(const storage::OwnerStatus& owner, std::int64_t now_ms);
Json transcript_json(const std::vector<storage::LogLine>& lines);

// What the daemon knows about an event beyond its row.
struct EventExtras {
  std::optional<double> eta_s;       // seconds left at this daemon's pace, when known
  std::vector<std::string> engines;  // overrides the spec's engines (ladders)
  Json sprt = nullptr;               // the sequential test's state (sprt events)
};
Json event_summary(const storage::EventInfo& event, const EventExtras& extras = {});

// {"confidence": 95, "tables": [{"game", "games", "rows": [...]}]}
Json standings_json(const std::vector<storage::GameRecord>& games);
// {"tables": [{"game", "engines": [...], "cells": [[{"w","d","l"}|null]]}]}
Json crosstable_json(const std::vector<storage::GameRecord>& games);
// {"engines": {"name": {"games", "time", "illegal", "crash", "stall", "protocol", "resign",
//  "other": {...}}}}
Json terminations_json(const std::vector<storage::GameRecord>& games);

// The board view of a position for the dashboard's live boards and the viewer: State::view() in
// its one JSON form (games/board_view_json.h; documented in board_view.md).
Json board_view_json(const games::State& state);

// Compact JSON text; bytes that are not UTF-8 (engine output) are replaced, never an error.
std::string dump(const Json& value);
// {"error": text}, dumped.
std::string error_body(const std::string& text);

}  // namespace referee::service
