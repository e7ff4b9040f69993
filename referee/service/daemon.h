// `referee serve`: starts the daemon on its database, serves until SIGTERM/SIGINT, drains and
// stops (design.md §8). The pieces are in core.h; this wires them and runs their threads.
//
// Start: the database is opened for writing (checked, migrated), the daemon registers as an owner
// (kind "serve"), loads every queued, running and paused event, binds its address (port 0: any
// free port) and prints "listening on http://HOST:PORT" as its first line on stdout.
// A disk or database too full to register the daemon as an owner: it answers every request 503
// and tries again, waiting longer each time (up to 10 s), instead of exiting into a restart loop.
// Stop (first SIGTERM/SIGINT): no new games; running games may finish for drain_seconds, then
// they are interrupted (their slots go back to pending); a second signal interrupts them at once.
// The daemon's claims are released (stop_owner), live-stream clients are told the stream ended,
// and it exits 0. A storage failure stops the games the same way, and the exit status is 1 (a
// systemd unit with Restart=on-failure starts it again), except a lost connection to a database
// server: the games are interrupted, the HTTP server stops, and the daemon reconnects with a
// backoff (reconnect.h) and serves again on the same port as a new owner. SIGHUP reopens the log
// file.
#pragma once

#include <ostream>

#include "engines/interrupt.h"
#include "service/core.h"
#include "service/log.h"

namespace referee::service {

// Runs the daemon; returns the exit status (0 after a clean stop, 1 when it could not start or
// a storage failure stopped it). `out` gets the "listening on" line.
int serve(const ServeOptions& options, Log& log, const engines::InterruptWatch& signals,
          std::ostream& out);

}  // namespace referee::service
