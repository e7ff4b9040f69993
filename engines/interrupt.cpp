#include "engines/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <ctime>

namespace referee::engines {

InterruptWatch::InterruptWatch(const InterruptOptions& options) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  if (options.hangup) sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  watcher_ = std::thread([this, set, options] {
    const timespec tick{0, 100 * 1000 * 1000};
    while (!done_.load()) {
      const int signal = sigtimedwait(&set, nullptr, &tick);
      if (signal < 0) continue;
      if (signal == SIGHUP) {
        ++hangups_;
        continue;
      }
      ++interrupts_;
      if (stop_.exchange(true)) {
        if (options.second_exits) _exit(130);
        continue;
      }
      if (!options.announce) continue;
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
