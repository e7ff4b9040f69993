#include "service/reconnect.h"

#include <algorithm>

#include "service/core.h"
#include "storage/work_queue.h"

namespace referee::service {

std::optional<storage::Store> reopen_store(const std::string& db, Log& log,
                                           const engines::InterruptWatch& signals) {
  const std::string name = storage::database_name(db);
  auto wait = kReconnectFirst;
  for (;;) {
    log.warning("lost the connection to " + name + ": reconnecting in " +
                std::to_string(wait.count()) + " ms");
    nap(wait, [&] { return !signals.flag().load(); });
    if (signals.flag().load()) {
      log.info("stopped while reconnecting");
      return std::nullopt;
    }
    auto store = storage::Store::open(db);
    if (store) {
      log.info("reconnected to " + name);
      return std::move(*store);
    }
    log.warning(store.error());
    wait = std::min(kReconnectMax, wait * 2);
  }
}

void release_lost_owner(storage::Store& store, std::int64_t owner, Log& log) {
  if (owner == 0) return;
  if (Status released = storage::work_queue::stop_owner(store, owner); !released)
    log.warning(released.error());  // its leases expire instead
}

}  // namespace referee::service
