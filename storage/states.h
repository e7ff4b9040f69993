// The states and kinds of the work queue (work_queue.h) and a game's status (store.h) as enums, and
// their words: the words are what the database stores and the HTTP API shows ("pending", "queued",
// "ladder", "finished", ...), and are used at those two boundaries only (the SQL of work_queue.cpp,
// the JSON of referee/service).
#pragma once

#include <optional>
#include <string_view>

namespace referee::storage {

// A slot of an event's schedule: waiting, claimed by an owner under a lease, played (its game
// finished), or never to be played (skipped, with a reason).
enum class SlotState { Pending, Claimed, Done, Skipped };
// An event: queued (played when a slot is free), running, paused (kept, not played), cancelled or
// finished (both final).
enum class EventState { Queued, Running, Paused, Cancelled, Finished };
// A tournament has a fixed schedule and finishes with it; a ladder gets slots while it runs and
// never finishes by itself; an sprt event appends slots until its test decides.
enum class EventKind { Tournament, Ladder, Sprt };
// A game: being played, finished (its result counts), or ended without a result (interrupted,
// lost its claim; replayed on resume).
enum class GameStatus { Running, Finished, Unfinished };
// A process that plays games: `referee tournament`, the daemon (`referee serve`), a worker.
enum class OwnerKind { Tournament, Serve, Worker };
// An owner: stopped (it released its claims), alive (its lease runs), or lost (neither: killed,
// or hung).
enum class OwnerState { Stopped, Alive, Lost };

const char* to_text(SlotState state);
const char* to_text(EventState state);
const char* to_text(EventKind kind);
const char* to_text(OwnerKind kind);
const char* to_text(OwnerState state);
const char* to_text(GameStatus status);

// The value of a word; nullopt for a word that is none of them.
std::optional<SlotState> slot_state_from_text(std::string_view text);
std::optional<EventState> event_state_from_text(std::string_view text);
std::optional<EventKind> event_kind_from_text(std::string_view text);
std::optional<OwnerKind> owner_kind_from_text(std::string_view text);
std::optional<GameStatus> game_status_from_text(std::string_view text);

// Whether an event in this state is played (queued or running).
inline bool is_open(EventState state) {
  return state == EventState::Queued || state == EventState::Running;
}

}  // namespace referee::storage
