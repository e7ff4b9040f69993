// Ctrl-C and SIGTERM turned into a flag, without a signal handler touching program state: the
// signals are blocked in every thread and one watcher thread waits for them (sigtimedwait). The
// first signal sets the flag (finish cleanly); a second one exits at once with status 130.
#pragma once

#include <atomic>
#include <thread>

namespace referee::engines {

class InterruptWatch {
 public:
  // Blocks SIGINT/SIGTERM in the calling thread (and so in threads it creates later) and starts
  // the watcher. Create it in main() before any other thread.
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  const std::atomic<bool>& flag() const { return stop_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

}  // namespace referee::engines
