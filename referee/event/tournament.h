// Runs a tournament (design.md §5): the schedule's missing games on N worker threads, each with its
// own engine sessions and database connection; crashed engines restarted, an engine that keeps
// crashing withdrawn; a live progress line; Ctrl-C (the stop flag) ends cleanly and the next run
// resumes with the games still missing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "event/tournament_config.h"
#include "games/expected.h"

namespace referee {

struct RunOptions {
  std::ostream* progress = nullptr;         // live progress (stderr); null = quiet
  bool progress_is_tty = false;             // rewrite one line with '\r' instead of printing lines
  const std::atomic<bool>* stop = nullptr;  // set by Ctrl-C
  bool keep_logs = true;                    // store every line exchanged
};

struct RunSummary {
  std::int64_t tournament_id = 0;
  std::int64_t scheduled = 0;
  std::int64_t already_done = 0;  // finished before this run (resume)
  std::int64_t played = 0;        // finished by this run
  std::int64_t skipped = 0;       // not played: engine withdrawn, failed to start, unsupported game
  std::int64_t plies = 0;         // plies played by this run
  std::int64_t engine_moves = 0;  // plies the engines chose (not openings, not forced moves)
  std::int64_t round_trips = 0;   // request/reply exchanges with engines during this run
  bool interrupted = false;
  std::vector<std::string> messages;  // withdrawals and other notices
};

Expected<RunSummary> run_tournament(const TournamentConfig& config, const RunOptions& options);

}  // namespace referee
