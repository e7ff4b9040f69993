// The words of the work queue's states and kinds (states.h).
#include "storage/states.h"

#include <array>
#include <cstddef>
#include <utility>

namespace referee::storage {

namespace {

constexpr std::array<const char*, 4> kSlotStates = {"pending", "claimed", "done", "skipped"};
constexpr std::array<const char*, 5> kEventStates = {"queued", "running", "paused", "cancelled",
                                                     "finished"};
constexpr std::array<const char*, 3> kEventKinds = {"tournament", "ladder", "sprt"};
constexpr std::array<const char*, 3> kOwnerKinds = {"tournament", "serve", "worker"};
constexpr std::array<const char*, 3> kOwnerStates = {"stopped", "alive", "lost"};
constexpr std::array<const char*, 3> kGameStatuses = {"running", "finished", "unfinished"};

template <class Enum, std::size_t N>
std::optional<Enum> from_text(const std::array<const char*, N>& words, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == words[i]) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace

const char* to_text(SlotState state) {
  return kSlotStates[static_cast<std::size_t>(state)];
}
const char* to_text(EventState state) {
  return kEventStates[static_cast<std::size_t>(state)];
}
const char* to_text(EventKind kind) {
  return kEventKinds[static_cast<std::size_t>(kind)];
}
const char* to_text(OwnerKind kind) {
  return kOwnerKinds[static_cast<std::size_t>(kind)];
}
const char* to_text(OwnerState state) {
  return kOwnerStates[static_cast<std::size_t>(state)];
}
const char* to_text(GameStatus status) {
  return kGameStatuses[static_cast<std::size_t>(status)];
}

std::optional<SlotState> slot_state_from_text(std::string_view text) {
  return from_text<SlotState>(kSlotStates, text);
}
std::optional<EventState> event_state_from_text(std::string_view text) {
  return from_text<EventState>(kEventStates, text);
}
std::optional<EventKind> event_kind_from_text(std::string_view text) {
  return from_text<EventKind>(kEventKinds, text);
}
std::optional<OwnerKind> owner_kind_from_text(std::string_view text) {
  return from_text<OwnerKind>(kOwnerKinds, text);
}
std::optional<GameStatus> game_status_from_text(std::string_view text) {
  return from_text<GameStatus>(kGameStatuses, text);
}

}  // namespace referee::storage
