#include "service/listen_backlog.h"

#include <sys/socket.h>

namespace referee::service {

ListenBacklog::ListenBacklog(httplib::Server& server) {
  // Called for each address tried; the bind that succeeds is on the last socket it saw.
  server.set_socket_options([this](socket_t sock) {
    httplib::default_socket_options(sock);
    socket_ = static_cast<int>(sock);
  });
}

bool ListenBacklog::deepen() const {
  const int sock = socket_.load();
  return sock >= 0 && ::listen(sock, kListenBacklog) == 0;
}

}  // namespace referee::service
