// What is kept of the lines exchanged with one engine during one game (the engine_transcripts of
// storage): every line the referee wrote ('>'), and of what the engine wrote, on stdout ('<') and
// on stderr ('!'), the first and the last so many bytes per game, in time order. What falls in
// between is replaced by one '!' line, "referee: ... dropped here", at the place of the first
// line dropped. An engine cannot make it grow past its caps, whatever it prints.
//
// Decisions: each line costs its length plus kLineOverhead against the caps, so a flood of empty
// lines is bounded like a flood of long ones; the referee's own lines are not capped (they are
// bounded by the game's length); take() starts the next game afresh.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace referee::match {

struct TranscriptCaps {
  std::size_t output_head = 1u << 20;  // engine stdout per game: the first ...
  std::size_t output_tail = 1u << 20;  // ... and the last bytes
  std::size_t stderr_head = 64u << 10;
  std::size_t stderr_tail = 64u << 10;
};

class Transcript {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kLineOverhead = 64;

  explicit Transcript(TranscriptCaps caps = {}, bool enabled = true);

  // Times are kept relative to `since` (earlier lines at 0); every line is given to `seat`.
  void start(Clock::time_point since, int seat);
  // One line: '>' referee to engine, '<' engine stdout, '!' engine stderr, stamped `at`.
  void add(char direction, std::string_view text, Clock::time_point at);
  void add(char direction, std::string_view text) { add(direction, text, Clock::now()); }
  // The lines since the last take(), in time order, with the dropped-lines notes.
  std::vector<storage::LogLine> take();

 private:
  struct Entry {
    std::uint64_t seq;
    Clock::time_point at;
    char direction;
    std::string text;
  };
  // The engine's lines of one kind: a head that is kept, then a tail that keeps the last ones.
  struct Stream {
    std::size_t head_cap = 0, tail_cap = 0;
    std::size_t head_used = 0, tail_used = 0;
    bool tailing = false;
    std::deque<Entry> tail;
    std::size_t dropped_lines = 0, dropped_bytes = 0;
    std::uint64_t first_dropped_seq = 0;
    Clock::time_point first_dropped_at{};
  };

  void add_to(Stream& stream, Entry entry);
  storage::LogLine line_of(Entry&& e) const;

  bool enabled_;
  Clock::time_point since_ = Clock::now();
  int seat_ = 0;
  std::uint64_t seq_ = 0;
  std::vector<Entry> kept_;  // in seq order
  Stream output_, stderr_;
};

}  // namespace referee::match
