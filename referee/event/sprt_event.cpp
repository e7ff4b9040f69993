#include "event/sprt_event.h"
#include "storage/work_queue.h"

namespace referee::event {

Expected<ratings::SprtTally> event_sprt(storage::Store& store, std::int64_t event,
                                        const TournamentConfig& config) {
  if (!config.sprt || config.engines.size() != 2) return Error{"the event has no sprt test"};
  storage::GameFilter filter;
  filter.event_id = event;
  auto games = store.games(filter);
  if (!games) return games.failure();
  return sprt_tally(*games, config.engines[0].config.name, config.engines[1].config.name,
                    *config.sprt, true);
}

Expected<SprtCheck> enforce_sprt(storage::Store& store, std::int64_t event,
                                 const TournamentConfig& config) {
  auto tally = event_sprt(store, event, config);
  if (!tally) return tally.failure();
  SprtCheck check;
  check.tally = std::move(*tally);
  if (check.tally.state.decision == ratings::SprtDecision::kContinue) return check;
  check.skip_reason = "sprt: " + ratings::sprt_verdict(check.tally.state);
  auto open = storage::work_queue::open_slots(store, event);
  if (!open) return open.failure();
  if (open->empty()) return check;
  std::vector<std::int64_t> numbers;
  for (const auto& s : *open) numbers.push_back(s.slot);
  auto skipped = storage::work_queue::skip_slots(store, event, numbers, check.skip_reason);
  if (!skipped) return skipped.failure();
  check.skipped = *skipped;
  return check;
}

}  // namespace referee::event
