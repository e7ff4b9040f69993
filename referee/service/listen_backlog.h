// A deep listen backlog for the daemon's HTTP servers. Debian's cpp-httplib (0.11, a compiled
// library) listens with a backlog of 5: a burst of connections (200 live-stream clients at once,
// or many dashboards reloading) overflowed it while the accepting thread was busy, and the kernel
// dropped the SYNs, so those clients waited 1, 3, 7 s... for their retransmissions (measured under
// the load benchmark: 844 listen overflows, a request's latency 1.03 s, 23 of 200 streams not
// connected in 20 s). The library's socket-options hook is the one place that sees the listening
// socket: it is remembered there during the bind and listened on again afterwards, which Linux
// takes as the new backlog (capped by net.core.somaxconn).
#pragma once

#include <httplib.h>

#include <string>

namespace referee::service {

inline constexpr int kListenBacklog = 1024;

struct Bound {
  int port = -1;      // the bound port; -1: the bind failed
  bool deep = false;  // the backlog is kListenBacklog (false: httplib's 5, the server still works)
};

// Binds `server` to host:port (port 0: any free port) with httplib's own socket options
// (SO_REUSEPORT), then deepens the bound socket's backlog. The server keeps no hook of ours.
Bound bind_with_deep_backlog(httplib::Server& server, const std::string& host, int port);

}  // namespace referee::service
