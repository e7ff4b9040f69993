// Opening the database again after its connection to the server was lost, for the daemon and the
// workers (its ErrorKind::Unavailable tells such a failure from the others, which stop them).
//
// Decisions:
// - A new Store, not a repaired one: a new connection with its statements prepared again, and
//   a new owner registered by the caller (the lost one's claims are released on the new
//   connection: its games in progress were interrupted and their slots are played again).
// - Attempts after kReconnectFirst, doubling up to kReconnectMax: a server that is down for
//   minutes costs a few attempts a minute and a log line each, never a spin.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "engines/interrupt.h"
#include "service/log.h"
#include "storage/store.h"

namespace referee::service {

constexpr std::chrono::milliseconds kReconnectFirst{500};
constexpr std::chrono::milliseconds kReconnectMax{10000};

// Opens `db` again, waiting between attempts as above; every wait and failed attempt is logged.
// Nothing when a signal arrived first.
std::optional<storage::Store> reopen_store(const std::string& db, Log& log,
                                           const engines::InterruptWatch& signals);

// Whether a failure is a lost connection to the database server: worth a new connection, where
// any other failure stops the daemon or the worker.
inline bool lost_connection(const Error& error) {
  return error.kind == ErrorKind::Unavailable;
}

// On a new connection: releases the claims of the owner whose connection was lost (0: none).
void release_lost_owner(storage::Store& store, std::int64_t owner, Log& log);

}  // namespace referee::service
