// An owner's single writer: its game threads hand it their games, moves and logs; one thread owns
// the database connection and commits what has arrived every `interval` (event/owner_loop.h
// chooses it) in one transaction. One commit per batch instead of one per move keeps the referee's
// cost per ply low (a commit costs ~100 µs of file-system work here); a move is durable within
// `interval` of being played, and a killed run loses at most that much of a game that resume
// replays anyway.
//
// Decisions:
// - Synchronous calls (call) run alone, in their own transaction, after the writes queued before
//   them are committed: their answer is what the file holds, so a game is counted only once its
//   finish is committed. The calls of every game (begin_game, claims, finishing a claimed game)
//   use call_in_batch instead: they run inside the transaction of the writes queued before them,
//   and their answer is given once that transaction is committed (a failed commit turns it into
//   the error). Same guarantee, one commit instead of two per call.
// - Durable finishes: a transaction holding a game's finish (finish_game, call_durable) is synced
//   to the disk before it counts as committed (Database::begin_batch(true)): what the API or the
//   live stream reports finished survives a power loss; the moves' commits are not synced (a lost
//   move is replayed by resume). The cost per game is one fsync of the WAL
//   (referee/service/OPERATING.md).
// - clear_failure() lets the writes through again after a failure (an owner that degraded on a
//   full disk and has room again, with no game in hand whose writes were dropped).
// - Any failed write is a storage failure: it is kept (take_errors, first_error) and the
//   on_failure callback is called once, so the runner can stop the event. The queued writes after
//   it are dropped (a game's moves stay a contiguous prefix); synchronous calls are still tried
//   (releasing claims, reading what was stored).
// - A game's begin may be queued too (begin_game_queued): the game thread does not wait for a
//   commit to learn the game's id, it gets a stand-in the writer replaces. One wake-up of the
//   writer and one wait of the game thread fewer per game.
// - Moves, the one write per ply, are queued as plain values (no std::function, no allocation of
//   their own), and the queue and the batch being written are two vectors swapped and reused, so
//   a steady run allocates nothing per move on either side. The writer stores the moves queued in
//   a row with multi-row INSERTs (Store::add_moves: 16 rows a statement).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "storage/store.h"

namespace referee::storage {

class Recorder {
 public:
  // 20 ms: at 2 ms a run of instant engines paid about 2 µs more per ply in commits.
  static constexpr std::chrono::milliseconds kDefaultInterval{20};

  explicit Recorder(Store store, std::chrono::milliseconds interval = kDefaultInterval,
                    std::function<void(const Error&)> on_failure = {});
  ~Recorder();  // commits everything still queued
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Synchronous (the game's id is needed at once); commits the writes queued before it.
  Expected<std::int64_t> begin_game(const GameRecord& game);
  // Queued, for a game whose id nobody needs before it ends: returns at once a stand-in id
  // (negative, unique in this recorder) that add_move, add_logs and finish_game take like a real
  // one; the writer inserts the game with the writes queued around it and replaces the stand-in.
  // A failed insert is a storage failure like any queued write (the game's later writes are
  // dropped; real_id answers 0).
  std::int64_t begin_game_queued(GameRecord game);
  // The id in the database of `id` (itself unless it is a stand-in whose begin has been written;
  // 0 for a stand-in not written, or whose insert failed). On the writer thread, inside a call's
  // op, it is exact for every game begun before the call. forget drops a stand-in's entry.
  std::int64_t real_id(std::int64_t id) const;
  void forget(std::int64_t id);
  // Queued; committed within the interval.
  void add_move(std::int64_t game_id, MoveRecord move);
  void add_logs(std::int64_t game_id, std::vector<LogLine> lines);
  void finish_game(std::int64_t game_id, GameRecord result);
  // Runs `op` on the writer's connection, alone in its transaction, after everything queued
  // before it; returns its answer.
  template <class T>
  Expected<T> call(std::function<Expected<T>(Store&)> op) {
    return call_impl<T>(std::move(op), Call::Alone);
  }
  // The same, inside the transaction of the writes queued before it (see above): for calls that
  // need not show those writes to another connection before they run.
  template <class T>
  Expected<T> call_in_batch(std::function<Expected<T>(Store&)> op) {
    return call_impl<T>(std::move(op), Call::InBatch);
  }
  // call_in_batch whose transaction is synced to the disk (a game's finish; see above).
  template <class T>
  Expected<T> call_durable(std::function<Expected<T>(Store&)> op) {
    return call_impl<T>(std::move(op), Call::InBatch, true);
  }
  // Waits until everything queued so far is committed.
  void flush();
  // Errors of queued writes since the last call (one line each).
  std::vector<std::string> take_errors();
  // Whether any write failed since the recorder started (or the last clear_failure), and the
  // first failure.
  bool failed() const;
  std::string first_error() const;
  // Forgets the failure: queued writes are written again, and the next failure is told to
  // on_failure. Only when no game whose writes were dropped is still being played.
  void clear_failure();

 private:
  using Write = std::function<Status(Store&)>;
  using Settle = std::function<void(const Status& commit)>;
  enum class Call { No, Alone, InBatch };
  struct Queued {
    Write write;  // empty: the write is add_move(game_id, move)
    Call call = Call::No;
    Settle settle;         // InBatch calls: told whether their transaction was committed
    bool durable = false;  // its transaction is synced to the disk (a game's finish)
    std::int64_t game_id = 0;
    MoveRecord move;
  };
  template <class T>
  Expected<T> call_impl(std::function<Expected<T>(Store&)> op, Call kind, bool durable = false) {
    Expected<T> out = Error{"not recorded"};
    Write write = [&](Store& s) {
      out = op(s);
      return out ? Status(Ok{}) : Status(out.failure());
    };
    Settle settle;
    if (kind == Call::InBatch)
      settle = [&](const Status& commit) {
        if (!commit && out) out = commit.failure();
      };
    enqueue(std::move(write), true, kind, std::move(settle), durable);
    flush();
    return out;
  }
  void enqueue(Write write, bool urgent, Call call = Call::No, Settle settle = {},
               bool durable = false);
  void run();
  void fail(std::vector<std::string>& failures, const Error& error);

  Store store_;
  std::chrono::milliseconds interval_;
  std::function<void(const Error&)> on_failure_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<Queued> queue_;
  std::vector<Queued> spare_;  // the writer's, between batches: keeps its capacity
  std::vector<std::pair<std::int64_t, const MoveRecord*>> moves_;  // the writer's: moves in a row
  std::uint64_t queued_ = 0;                                       // writes ever queued
  std::uint64_t committed_ = 0;  // writes ever committed (or failed)
  bool urgent_ = false;
  bool stopping_ = false;
  std::vector<std::string> errors_;
  std::string first_error_;
  std::int64_t next_stand_in_ = -1;
  mutable std::mutex ids_mutex_;  // ids_: written by the writer, read by the game threads
  std::unordered_map<std::int64_t, std::int64_t> ids_;   // stand-in -> id in the database
  std::pair<std::int64_t, std::int64_t> last_id_{0, 0};  // the writer's: the last one resolved
  std::int64_t writer_id(std::int64_t id);               // real_id on the writer, cached
  std::thread thread_;
};

}  // namespace referee::storage
