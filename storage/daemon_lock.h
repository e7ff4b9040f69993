// One `referee serve` per database: the daemon holds a DaemonLock for its whole life, and a second
// daemon on the same database is refused at start with a one-line error naming the first.
//
// Decisions:
// - A SQLite file: an flock (LOCK_EX, non-blocking) on "<file>.serve-lock" beside it, which holds
//   the holder's pid for the message. The kernel drops the lock when the process ends however it
//   ends (kill -9 included), so a stale lock file never blocks a restart; the file is left in
//   place (removing it would race with a daemon starting).
// - A PostgreSQL database: a session advisory lock (pg_try_advisory_lock) on a connection of its
//   own, held while it is open. The server drops it with the connection; a daemon whose lock
//   connection is lost (a server restart) runs on without it until it stops.
// - Workers and `referee tournament` take no such lock: any number of them share a database with
//   the one daemon (design.md §8).
#pragma once

#include <memory>
#include <string>

#include "base/expected.h"

namespace referee::storage {

class DaemonLock {
 public:
  // Takes the lock of `database` (a file or a postgresql:// URL); ErrorKind::Conflict when
  // another process holds it, naming it ("another referee serve (pid 812) runs on x.db").
  static Expected<DaemonLock> acquire(const std::string& database);
  DaemonLock(DaemonLock&&) noexcept;
  DaemonLock& operator=(DaemonLock&&) noexcept;
  ~DaemonLock();

 private:
  struct State;
  explicit DaemonLock(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace referee::storage
