// The HTTP server's handler threads (http_server.cpp): started when needed up to a maximum; a
// task is taken only when a thread is free for it (try_run), so nothing ever waits in a queue.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace referee::service::http {

class Pool {
 public:
  explicit Pool(std::size_t max) : max_(max < 1 ? 1 : max) {}
  ~Pool() { stop(); }

  bool try_run(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_ || busy_ >= max_) return false;
      ++busy_;
      if (threads_.size() < busy_) threads_.emplace_back([this] { work(); });
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
    return true;
  }
  std::size_t busy() const {
    std::lock_guard lock(mutex_);
    return busy_;
  }
  void stop() {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      threads.swap(threads_);
    }
    wake_.notify_all();
    for (auto& t : threads) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
      std::lock_guard lock(mutex_);
      --busy_;
    }
  }

  const std::size_t max_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  std::size_t busy_ = 0;
  bool stopping_ = false;
};

}  // namespace referee::service::http
