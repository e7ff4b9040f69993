// How much of each engine's own output an owner stores across games (event/owner_loop.h): the
// per-game caps (match/transcript.h) bound one game, this bounds an engine that prints as much as
// they allow in game after game (issue 21: one ladder engine printing `info` lines filled the
// disk at 2-3.5 MB/s).
//
// Decisions:
// - What counts: the lines an engine wrote that a game record keeps, on stdout ('<') and stderr
//   ('!') in its transcript, and the `info` line kept with each of its moves; each line costs its
//   length plus one. The referee's own lines and the moves themselves never count and are never
//   dropped: a game's moves and result are always stored.
// - A window of time per engine name, `bytes` per `window` (by default 64 MiB per hour): the
//   window begins with the engine's first charged line and a new one begins once it has passed.
//   A window rather than a total: a daemon runs for months, and a total would silence every
//   engine in the end.
// - Past the budget an engine's further output is dropped until its window ends: its games get
//   one '!' line saying so where the first line was dropped, and the owner is told once per
//   window (charge's `first_refusal`), never per line.
// - Per owner process: several workers each hold their own budget (the disk they share is
//   guarded by the free-space headroom, owner_loop.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "storage/store.h"

namespace referee::event {

struct OutputBudgetSettings {
  std::int64_t bytes = 64LL << 20;  // per engine per window; 0: no budget
  std::chrono::seconds window{3600};
};

class OutputBudget {
 public:
  using Clock = std::chrono::steady_clock;
  explicit OutputBudget(OutputBudgetSettings settings = {});

  struct Charge {
    bool allowed = true;         // the line may be stored
    bool first_refusal = false;  // the first line refused in this window
  };
  // Charges `bytes` of stored output to `engine` at `now`.
  Charge charge(const std::string& engine, std::size_t bytes, Clock::time_point now = Clock::now());
  // Keeps the engine's transcript lines its budget allows (all the referee's), with one note where
  // the first was dropped. Returns the notice for the owner's log when this is the first refusal
  // of the engine's window, else "".
  std::string filter(const std::string& engine, std::vector<storage::LogLine>& lines);
  // The line kept in a game's transcript where an engine's output began to be dropped.
  std::string dropped_note(const std::string& engine) const;
  // The owner's notice of an engine's first refusal in a window.
  std::string notice(const std::string& engine) const;
  const OutputBudgetSettings& settings() const { return settings_; }

 private:
  struct Window {
    Clock::time_point start;
    std::int64_t used = 0;
    bool refused = false;
  };
  OutputBudgetSettings settings_;
  std::mutex mutex_;
  std::map<std::string, Window> windows_;
};

}  // namespace referee::event
