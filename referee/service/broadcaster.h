// The live stream's broadcaster (Server-Sent Events): the daemon's game threads publish, every
// connected client reads, and nothing a client does can make a publisher wait.
//
// Decisions:
// - One ring of the last `capacity` messages, numbered 1, 2, 3...; a client is only a cursor into
//   it. publish() takes one mutex for a push (no per-client work, no I/O); a client that falls
//   more than `capacity` messages behind skips the ones it lost (its batch says how many) and a
//   client that does not read at all is disconnected by the HTTP layer's write timeout.
// - Messages are formatted once, as their SSE frame ("id:", "event:", "data:"), when published.
// - A batch coalesces messages of one key (the moves of one game, the standings of one event):
//   only the last of each key in the batch is kept, at its place, so the order of different
//   kinds is kept (game_started, moves, game_finished) while a client never gets more than one
//   move per game per batch. Clients take a batch at most every flush interval (100 ms), so the
//   stream costs the same at 10 moves a second and at 10,000.
// - Publishers skip building messages nobody reads: has_subscribers().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace referee::service {

struct StreamMessage {
  std::uint64_t seq = 0;
  std::int64_t event_id = 0;  // 0: not about one event
  std::string type;           // game_started | move | game_finished | standings | event_changed
  std::string coalesce;       // "" = never coalesced; else the key ("move:12")
  std::string frame;          // "id: 7\nevent: move\ndata: {...}\n\n"
};

class Broadcaster {
 public:
  explicit Broadcaster(std::size_t capacity = 4096);

  // Adds a message; `data` is one line of JSON. Never blocks beyond the ring's mutex.
  void publish(std::int64_t event_id, const std::string& type, const std::string& coalesce,
               const std::string& data);

  // Counts one reader while it lives.
  class Subscription {
   public:
    explicit Subscription(Broadcaster& b) : b_(b) { ++b_.subscribers_; }
    ~Subscription() { --b_.subscribers_; }
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;

   private:
    Broadcaster& b_;
  };
  bool has_subscribers() const { return subscribers_.load() > 0; }
  int subscribers() const { return subscribers_.load(); }

  struct Batch {
    std::vector<std::shared_ptr<const StreamMessage>> messages;
    std::uint64_t missed = 0;  // messages lost because the reader fell behind the ring
    bool closed = false;
  };
  // Waits up to `timeout` for messages after `cursor` (of `event_id`, or of any event when 0),
  // then returns them coalesced and moves the cursor past everything seen.
  Batch wait(std::uint64_t& cursor, std::int64_t event_id, std::chrono::milliseconds timeout);
  // The number of the last message published (a new reader starts there).
  std::uint64_t head() const;
  // Wakes every reader for good (shutdown).
  void close();
  bool closed() const;

 private:
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<const StreamMessage>> ring_;
  std::uint64_t next_seq_ = 1;
  bool closed_ = false;
  std::atomic<int> subscribers_{0};
};

}  // namespace referee::service
