// A deep listen backlog for the daemon's HTTP servers. Debian's cpp-httplib (0.11, a compiled
// library) listens with a backlog of 5: a burst of connections (200 live-stream clients at once,
// or many dashboards reloading) overflowed it while the accepting thread was busy, and the kernel
// dropped the SYNs, so those clients waited 1, 3, 7 s... for their retransmissions (measured under
// the load benchmark: 844 listen overflows, a request's latency 1.03 s, 23 of 200 streams not
// connected in 20 s). The library's socket-options hook is the one place that sees the listening
// socket: it is remembered there and listened on again after the bind, which Linux takes as the
// new backlog (capped by net.core.somaxconn).
#pragma once

#include <httplib.h>

#include <atomic>

namespace referee::service {

inline constexpr int kListenBacklog = 1024;

class ListenBacklog {
 public:
  // Installs the hook on `server` (keeping httplib's default options: SO_REUSEPORT). This object
  // must outlive the server's bind.
  explicit ListenBacklog(httplib::Server& server);
  // After a successful bind: the backlog of the bound socket raised to kListenBacklog. False when
  // no socket was seen or listen() failed (the server still works, with httplib's backlog).
  bool deepen() const;

 private:
  std::atomic<int> socket_{-1};
};

}  // namespace referee::service
