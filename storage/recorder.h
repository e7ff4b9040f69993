// The tournament's single writer: workers hand it their games, moves and logs; one thread owns
// the database connection and commits what has arrived every `interval` (2 ms by default) in one
// transaction. One commit per batch instead of one per move keeps the referee's cost per ply low
// (a commit costs ~100 µs of file-system work here); a move is durable within `interval` of being
// played, and a killed run loses at most that much of a game that resume replays anyway.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/store.h"

namespace referee::storage {

class Recorder {
 public:
  explicit Recorder(Store store, std::chrono::milliseconds interval = std::chrono::milliseconds(2));
  ~Recorder();  // commits everything still queued
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Synchronous (the game's id is needed at once); commits the writes queued before it.
  Expected<std::int64_t> begin_game(const GameRecord& game);
  // Queued; committed within the interval.
  void add_move(std::int64_t game_id, MoveRecord move);
  void add_logs(std::int64_t game_id, std::vector<LogLine> lines);
  void finish_game(std::int64_t game_id, GameRecord result);
  // Waits until everything queued so far is committed.
  void flush();
  // Errors of queued writes since the last call (one line each).
  std::vector<std::string> take_errors();

 private:
  using Write = std::function<Status(Store&)>;
  void enqueue(Write write, bool urgent);
  void run();

  Store store_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::deque<Write> queue_;
  std::uint64_t queued_ = 0;     // writes ever queued
  std::uint64_t committed_ = 0;  // writes ever committed (or failed)
  bool urgent_ = false;
  bool stopping_ = false;
  std::vector<std::string> errors_;
  std::thread thread_;
};

}  // namespace referee::storage
