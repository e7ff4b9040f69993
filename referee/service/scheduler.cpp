#include "service/scheduler.h"

#include <algorithm>

namespace referee::service {

std::vector<std::int64_t> claim_order(const std::vector<EventLoad>& events) {
  std::vector<const EventLoad*> open;
  for (const auto& e : events) {
    if (e.state != storage::EventState::Queued && e.state != storage::EventState::Running) continue;
    if (e.out_of_work || e.paced) continue;
    if (e.cap > 0 && e.running >= e.cap) continue;
    open.push_back(&e);
  }
  std::sort(open.begin(), open.end(), [](const EventLoad* a, const EventLoad* b) {
    if (a->priority != b->priority) return a->priority > b->priority;
    if (a->running != b->running) return a->running < b->running;
    if (a->served != b->served) return a->served < b->served;
    return a->id < b->id;
  });
  std::vector<std::int64_t> out;
  for (const auto* e : open) out.push_back(e->id);
  return out;
}

}  // namespace referee::service
