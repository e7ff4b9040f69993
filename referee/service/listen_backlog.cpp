#include "service/listen_backlog.h"

#include <sys/socket.h>

namespace referee::service {

Bound bind_with_deep_backlog(httplib::Server& server, const std::string& host, int port) {
  // The hook runs for each address tried; the bind that succeeds is on the last socket it saw.
  socket_t seen = INVALID_SOCKET;
  server.set_socket_options([&seen](socket_t sock) {
    httplib::default_socket_options(sock);
    seen = sock;
  });
  Bound bound;
  if (port == 0)
    bound.port = server.bind_to_any_port(host);
  else if (server.bind_to_port(host, port))
    bound.port = port;
  server.set_socket_options(httplib::default_socket_options);
  if (bound.port <= 0) return Bound{};
  bound.deep = seen != INVALID_SOCKET && ::listen(seen, kListenBacklog) == 0;
  return bound;
}

}  // namespace referee::service
