#include "service/read_pool.h"

namespace referee::service {

Expected<ReadPool::Lease> ReadPool::get() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto store = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(store));
    }
  }
  storage::OpenOptions options;
  options.read_only = true;
  auto store = storage::Store::open(path_, options);
  if (!store) return store.failure();
  return Lease(*this, std::make_unique<storage::Store>(std::move(*store)));
}

void ReadPool::give_back(std::unique_ptr<storage::Store> store) {
  if (store->connection_lost()) return;  // the server went away: the next lease opens a new one
  std::lock_guard lock(mutex_);
  if (idle_.size() < keep_) idle_.push_back(std::move(store));
}

}  // namespace referee::service
