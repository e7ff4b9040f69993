// Which event a free game thread of the daemon claims from (design.md §8: one pool of game threads
// shared by every event). A pure function, so the rule is tested on its own:
// - only events that may be claimed from: state queued or running, not known to be out of work,
//   under their own cap (a tournament file's `concurrency`, 0 = none) and not held back by
//   their pace (a least interval between two game starts, a ladder's `interval_ms`);
// - highest priority first;
// - between events of one priority, a fair share: the event with the fewest games running in this
//   daemon first, then the one served least recently, then the oldest.
// The slot then tries the events in that order until a claim succeeds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/states.h"

namespace referee::service {

struct EventLoad {
  std::int64_t id = 0;
  storage::EventState state = storage::EventState::Queued;
  int priority = 0;
  int running = 0;           // games of the event this daemon plays now
  int cap = 0;               // most games at once (0 = no cap)
  std::uint64_t served = 0;  // when a slot last claimed from it (a counter; 0 = never)
  bool out_of_work = false;  // its last claim found nothing (retried later)
  bool paced = false;        // its least interval since its last game start has not passed
};

std::vector<std::int64_t> claim_order(const std::vector<EventLoad>& events);

}  // namespace referee::service
