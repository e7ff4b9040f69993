#include "service/broadcaster.h"

#include <map>

namespace referee::service {

Broadcaster::Broadcaster(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

void Broadcaster::publish(std::int64_t event_id, const std::string& type,
                          const std::string& coalesce, const std::string& data) {
  auto m = std::make_shared<StreamMessage>();
  m->event_id = event_id;
  m->type = type;
  m->coalesce = coalesce;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    m->seq = next_seq_++;
    m->frame = "id: " + std::to_string(m->seq) + "\nevent: " + type + "\ndata: " + data + "\n\n";
    ring_.push_back(std::move(m));
    if (ring_.size() > capacity_) ring_.pop_front();
  }
  wake_.notify_all();
}

std::uint64_t Broadcaster::head() const {
  std::lock_guard lock(mutex_);
  return next_seq_ - 1;
}

void Broadcaster::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  wake_.notify_all();
}

bool Broadcaster::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

Broadcaster::Batch Broadcaster::wait(std::uint64_t& cursor, std::int64_t event_id,
                                     std::chrono::milliseconds timeout) {
  Batch batch;
  std::vector<std::shared_ptr<const StreamMessage>> seen;
  {
    std::unique_lock lock(mutex_);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      if (closed_) {
        batch.closed = true;
        return batch;
      }
      const std::uint64_t first = ring_.empty() ? next_seq_ : ring_.front()->seq;
      if (cursor + 1 < first) {
        batch.missed = first - cursor - 1;
        cursor = first - 1;
      }
      for (std::size_t i = static_cast<std::size_t>(cursor + 1 - first); i < ring_.size(); ++i)
        if (event_id == 0 || ring_[i]->event_id == event_id) seen.push_back(ring_[i]);
      cursor = next_seq_ - 1;
      if (!seen.empty() || batch.missed > 0) break;
      if (wake_.wait_until(lock, deadline) == std::cv_status::timeout) break;
    }
  }
  // Coalesce: the last message of each key, at its own place.
  std::map<std::string, std::size_t> last;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]->coalesce.empty()) last[seen[i]->coalesce] = i;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i]->coalesce.empty() || last[seen[i]->coalesce] == i)
      batch.messages.push_back(std::move(seen[i]));
  return batch;
}

}  // namespace referee::service
