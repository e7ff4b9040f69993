// Ctrl-C and SIGTERM turned into a flag, without a signal handler touching program state: the
// signals are blocked in every thread and one watcher thread waits for them (sigtimedwait). The
// first signal sets the flag (finish cleanly); by default a second one exits at once with status
// 130. A daemon (referee serve) asks instead to count the signals (the second one skips its
// drain) and to count SIGHUP too (reopen its log).
#pragma once

#include <atomic>
#include <thread>

namespace referee::engines {

struct InterruptOptions {
  bool second_exits = true;  // a second SIGINT/SIGTERM calls _exit(130)
  bool announce = true;      // one line on stderr at the first signal
  bool hangup = false;       // also watch SIGHUP (hangups())
};

class InterruptWatch {
 public:
  // Blocks SIGINT/SIGTERM (and SIGHUP when asked) in the calling thread (and so in threads it
  // creates later) and starts the watcher. Create it in main() before any other thread.
  InterruptWatch() : InterruptWatch(InterruptOptions{}) {}
  explicit InterruptWatch(const InterruptOptions& options);
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  const std::atomic<bool>& flag() const { return stop_; }
  // SIGINT/SIGTERM received so far.
  int interrupts() const { return interrupts_.load(); }
  // SIGHUP received so far (with InterruptOptions::hangup).
  int hangups() const { return hangups_.load(); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> interrupts_{0};
  std::atomic<int> hangups_{0};
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

}  // namespace referee::engines
