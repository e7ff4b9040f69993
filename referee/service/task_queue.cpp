#include "service/task_queue.h"

namespace referee::service {

namespace {
thread_local bool tl_overloaded = false;
}

BoundedTaskQueue::BoundedTaskQueue(std::size_t max_threads, std::size_t max_waiting)
    : max_threads_(max_threads < 1 ? 1 : max_threads), max_waiting_(max_waiting) {}

BoundedTaskQueue::~BoundedTaskQueue() {
  shutdown();
}

bool BoundedTaskQueue::overloaded() {
  return tl_overloaded;
}

std::size_t BoundedTaskQueue::threads() const {
  std::lock_guard lock(mutex_);
  return threads_.size();
}

void BoundedTaskQueue::enqueue(std::function<void()> fn) {
  {
    std::unique_lock lock(mutex_);
    if (!stopping_) {
      // Every task waiting has an idle thread to take it, up to the cap: a burst of live-stream
      // clients (each holds its thread) must not wait for the next connection to get a thread.
      if (idle_ <= waiting_.size() && threads_.size() < max_threads_) {
        threads_.emplace_back([this] { work(); });
        ++idle_;  // counted idle until it takes its first task
      }
      if (idle_ > waiting_.size() || waiting_.size() < max_waiting_) {
        waiting_.push_back(std::move(fn));
        lock.unlock();
        wake_.notify_one();
        return;
      }
    }
  }
  // Overloaded (or stopping): answer 503 on this thread; the connection is closed after it.
  tl_overloaded = true;
  fn();
  tl_overloaded = false;
}

void BoundedTaskQueue::work() {
  while (true) {
    std::function<void()> fn;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
      if (waiting_.empty()) return;  // stopping
      fn = std::move(waiting_.front());
      waiting_.pop_front();
      --idle_;
    }
    fn();
    std::lock_guard lock(mutex_);
    ++idle_;
  }
}

void BoundedTaskQueue::shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (auto& t : threads) t.join();
}

}  // namespace referee::service
