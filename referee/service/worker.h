// `referee worker`: a process that plays the games of the events stored in a database, with the
// engines of the host it runs on, beside any number of other workers, daemons and tournament runs
// on the same database (design.md §8: the database is the only meeting point). It is the daemon's
// game pool without HTTP: the same Core, the same owner loop (event/owner_loop.h: game threads,
// heartbeat, drain) with the same work source (game_source.cpp: scheduler order, claims per
// event with the roster's exclusions).
//
// Decisions:
// - The worker registers as an owner of kind "worker" (its name, host and pid) and renews its
//   leases every lease/4 (the owner loop); a worker killed with SIGKILL stops renewing, its leases
//   expire and whoever claims the slots next keeps the half-played games as interrupted
//   (work_queue::claim_slots).
// - Events are read again from the database every second while there is work, and with a backoff
//   up to idle_max_ms while there is none; an event whose claim found nothing is retried after a
//   backoff that doubles from 1 s up to idle_max_ms (many idle workers must not poll the database
//   hard: storage/SCALING.md).
// - SIGINT/SIGTERM: no new games; the games in hand may finish for drain_seconds, then they are
//   interrupted (their slots go back to pending); a second signal interrupts them at once. The
//   claims are released (stop_owner). exit_when_done: the worker also stops by itself once no
//   queued or running event is left (scripts and tests). --queue FILE queues a tournament file's
//   event first (no daemon needed: the database is the queue).
// - Ladders are not topped up by workers (the daemon does it); their slots are played like any.
// - A lost connection to a database server (ErrorKind::Unavailable: a restart, a network
//   cut): the games in hand are interrupted at once, the worker logs it, opens a new Store with a
//   backoff (0.5 s doubling to 10 s, until the server answers or a signal), releases the lost
//   owner's claims (their slots are replayed; the half-played games are kept as interrupted by
//   the next claim) and goes on as a new owner. Any other storage failure stops it (status 1).
// - Moves are committed every commit_interval_ms, by default the database's choice
//   (event/owner_loop.h: 20 ms for a SQLite file, 100 ms for a server, as every owner).
#pragma once

#include <ostream>
#include <string>

#include "base/expected.h"
#include "engines/interrupt.h"
#include "event/owner_loop.h"
#include "service/log.h"
#include "storage/store.h"
#include "storage/work_queue.h"

namespace referee::service {

struct WorkerOptions {
  std::string db = "referee.db";
  std::string name;            // "" = the host name
  int concurrency = 1;         // games at once
  std::string artifact_cache;  // where stored engines are materialised; "" = the default
  long lease_ms = 30000;
  double drain_seconds = 30;
  long idle_max_ms = 8000;
  bool keep_logs = true;
  bool exit_when_done = false;
  std::string queue;  // a tournament file whose event is queued first ("" = none)
  // How often the writer commits; 0 = the owner loop's choice for the database
  // (event/owner_loop.h: commit_interval).
  long commit_interval_ms = 0;
  // The engines' output budget and the free-space headroom (event/owner_loop.h).
  event::OwnerLimits limits;
};

// Queues the event of a tournament file in the database (state "queued"), as `referee submit`
// does through the daemon, for workers to play. The same name with the same specification gives
// the existing event; with another one it is an error naming what differs.
Expected<storage::EventRow> queue_event(storage::Store& store, const std::string& file);

// Runs the worker; returns the exit status (0 after a clean stop, 1 when it could not start or a
// storage failure stopped it). `out` gets one line when it starts: "worker NAME (owner ID)".
int work(const WorkerOptions& options, Log& log, const engines::InterruptWatch& signals,
         std::ostream& out);

}  // namespace referee::service
