#include "engines/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <ctime>

namespace referee::engines {

namespace {
sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}
}  // namespace

InterruptWatch::InterruptWatch() {
  sigset_t set = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  watcher_ = std::thread([this, set] {
    const timespec tick{0, 100 * 1000 * 1000};
    while (!done_.load()) {
      if (sigtimedwait(&set, nullptr, &tick) < 0) continue;
      if (stop_.exchange(true)) _exit(130);
      static const char msg[] = "\ninterrupted: finishing cleanly (Ctrl-C again to quit at once)\n";
      (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    }
  });
}

InterruptWatch::~InterruptWatch() {
  done_.store(true);
  watcher_.join();
}

}  // namespace referee::engines
