#include "storage/daemon_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "storage/database.h"
#include "storage/sql/pg_connection.h"
#include "storage/sql/sql.h"

namespace referee::storage {

namespace {
// The advisory lock's key on a server: "referee" and a 1, a number no other program is likely to
// take on the same database.
constexpr long long kAdvisoryKey = 0x7265666572656531LL;
}  // namespace

struct DaemonLock::State {
  int fd = -1;
  std::unique_ptr<sql::Connection> connection;
  ~State() {
    if (fd >= 0) ::close(fd);  // releases the flock
  }
};

DaemonLock::DaemonLock(std::unique_ptr<State> state) : state_(std::move(state)) {}
DaemonLock::DaemonLock(DaemonLock&&) noexcept = default;
DaemonLock& DaemonLock::operator=(DaemonLock&&) noexcept = default;
DaemonLock::~DaemonLock() = default;

Expected<DaemonLock> DaemonLock::acquire(const std::string& database) {
  auto state = std::make_unique<State>();
  const std::string shown = database_name(database);
  if (is_server_database(database)) {
    auto connection = sql::open_postgres(database);
    if (!connection) return connection.failure();
    try {
      sql::Query q(**connection, "SELECT CASE WHEN pg_try_advisory_lock(" +
                                     std::to_string(kAdvisoryKey) + ") THEN 1 ELSE 0 END");
      if (!q.step() || !q.int64(0))
        return Error{"another referee serve runs on " + shown +
                         " (it holds the daemon's advisory lock): one daemon per database",
                     ErrorKind::Conflict};
    } catch (const std::exception& e) {
      return Error{shown + ": cannot take the daemon's lock: " + e.what(), sql::kind_of(e)};
    }
    state->connection = std::move(*connection);
    return DaemonLock(std::move(state));
  }
  const std::string file = database + ".serve-lock";
  state->fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // A directory the daemon cannot write to: no lock, and the daemon's opening of the database
  // says what is wrong with it (a daemon that cannot write there plays nothing twice).
  if (state->fd < 0) return DaemonLock(std::move(state));
  if (::flock(state->fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK)
      return Error{"cannot lock " + file + ": " + std::strerror(errno), ErrorKind::Io};
    char buf[32] = {};
    const ssize_t n = ::pread(state->fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return Error{"another referee serve" + (pid.empty() ? std::string() : " (pid " + pid + ")") +
                     " runs on " + shown + " (it holds " + file + "): one daemon per database",
                 ErrorKind::Conflict};
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(state->fd, 0) == 0) {
    // The pid is only for the message of a daemon refused: a failed write changes nothing else.
    (void)!::pwrite(state->fd, pid.data(), pid.size(), 0);
  }
  return DaemonLock(std::move(state));
}

}  // namespace referee::storage
