// The HTTP server's threads (cpp-httplib serves each connection on one task of its TaskQueue; a
// live-stream client holds its thread for as long as it stays connected). A bounded pool:
// threads start when needed, up to `max_threads`; beyond, up to `max_waiting` connections wait
// for a thread; beyond that a connection is served at once on the accepting thread in "overload"
// mode, where every request gets 503 (overloaded()) and the connection closes. The games never
// wait on any of this: they run on their own threads.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace referee::service {

class BoundedTaskQueue : public httplib::TaskQueue {
 public:
  BoundedTaskQueue(std::size_t max_threads, std::size_t max_waiting);
  ~BoundedTaskQueue() override;

  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

  // True on a thread serving a connection refused for overload.
  static bool overloaded();
  std::size_t threads() const;

 private:
  void work();

  const std::size_t max_threads_, max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> waiting_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace referee::service
