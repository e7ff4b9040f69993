#include "storage/recorder.h"

namespace referee::storage {

Recorder::Recorder(Store store, std::chrono::milliseconds interval,
                   std::function<void(const Error&)> on_failure)
    : store_(std::move(store)),
      interval_(interval),
      on_failure_(std::move(on_failure)),
      thread_([this] { run(); }) {}

Recorder::~Recorder() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Recorder::enqueue(Write write, bool urgent, Call call, Settle settle, bool durable) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Queued{std::move(write), call, std::move(settle), durable, 0, {}});
    ++queued_;
    urgent_ = urgent_ || urgent;
  }
  if (urgent) wake_.notify_one();  // moves wait for the next tick: no wake-up per move
}

void Recorder::add_move(std::int64_t game_id, MoveRecord move) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Queued{{}, Call::No, {}, false, game_id, std::move(move)});
    ++queued_;
  }  // no wake-up: moves wait for the next tick
}

void Recorder::add_logs(std::int64_t game_id, std::vector<LogLine> lines) {
  enqueue(
      [this, game_id, l = std::move(lines)](Store& s) { return s.add_logs(writer_id(game_id), l); },
      false);
}

void Recorder::finish_game(std::int64_t game_id, GameRecord result) {
  enqueue([this, game_id,
           r = std::move(result)](Store& s) { return s.finish_game(writer_id(game_id), r); },
          true, Call::No, {}, /*durable=*/true);
}

Expected<std::int64_t> Recorder::begin_game(const GameRecord& game) {
  return call_in_batch<std::int64_t>([&](Store& s) { return s.begin_game(game); });
}

std::int64_t Recorder::begin_game_queued(GameRecord game) {
  std::int64_t stand_in = 0;
  {
    std::lock_guard lock(mutex_);
    stand_in = next_stand_in_--;
  }
  enqueue(
      [this, stand_in, g = std::move(game)](Store& s) -> Status {
        auto id = s.begin_game(g);
        if (!id) return id.failure();
        std::lock_guard lock(ids_mutex_);
        ids_[stand_in] = *id;
        return Ok{};
      },
      false);
  return stand_in;
}

std::int64_t Recorder::real_id(std::int64_t id) const {
  if (id >= 0) return id;
  std::lock_guard lock(ids_mutex_);
  auto it = ids_.find(id);
  return it == ids_.end() ? 0 : it->second;
}

void Recorder::forget(std::int64_t id) {
  if (id >= 0) return;
  std::lock_guard lock(ids_mutex_);
  ids_.erase(id);  // the writer's last_id_ may keep it: stand-ins are never reused
}

std::int64_t Recorder::writer_id(std::int64_t id) {
  if (id >= 0) return id;
  if (last_id_.first == id) return last_id_.second;
  const std::int64_t real = real_id(id);
  if (real != 0) last_id_ = {id, real};
  return real;
}

void Recorder::flush() {
  std::unique_lock lock(mutex_);
  const auto target = queued_;
  urgent_ = true;
  wake_.notify_one();
  done_.wait(lock, [&] { return committed_ >= target; });
}

std::vector<std::string> Recorder::take_errors() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  out.swap(errors_);
  return out;
}

bool Recorder::failed() const {
  std::lock_guard lock(mutex_);
  return !first_error_.empty();
}

std::string Recorder::first_error() const {
  std::lock_guard lock(mutex_);
  return first_error_;
}

void Recorder::clear_failure() {
  // Through the writer, between two batches: first_error_ is read there without the lock.
  (void)call<Ok>([this](Store&) -> Expected<Ok> {
    std::lock_guard lock(mutex_);
    first_error_.clear();
    return Ok{};
  });
}

// Called on the writer thread without the lock.
void Recorder::fail(std::vector<std::string>& failures, const Error& error) {
  bool first = false;
  Error kept = error;
  if (kept.message.empty()) kept.message = "unknown storage failure";
  {
    std::lock_guard lock(mutex_);
    if (first_error_.empty()) {
      first_error_ = kept.message;
      first = true;
    }
  }
  failures.push_back(error.message);
  if (first && on_failure_) on_failure_(kept);
}

void Recorder::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait_for(lock, interval_, [&] { return urgent_ || stopping_; });
    if (queue_.empty()) {
      if (stopping_) return;
      urgent_ = false;
      continue;
    }
    std::vector<Queued> batch;
    batch.swap(spare_);
    batch.swap(queue_);  // queue_ gets the spare's capacity
    urgent_ = false;
    lock.unlock();
    std::vector<std::string> failures;
    std::size_t i = 0;
    while (i < batch.size()) {
      if (batch[i].call == Call::Alone) {
        auto status = batch[i].write(store_);
        if (!status) fail(failures, status.failure());
        ++i;
        continue;
      }
      // A group: the writes up to the next Alone call, in one transaction.
      const std::size_t begin = i;
      std::size_t end = i;
      while (end < batch.size() && batch[end].call != Call::Alone) ++end;
      bool durable = false;
      for (std::size_t k = i; k < end; ++k) durable = durable || batch[k].durable;
      // A durable write alone is grouped too: its sync is the batch's.
      const bool grouped = (end - i > 1 || durable) && store_.begin_batch(durable).ok();
      // Consecutive moves go in multi-row INSERTs (Store::add_moves).
      auto write_moves = [&] {
        if (moves_.empty()) return;
        auto status = store_.add_moves(moves_);
        if (!status) fail(failures, status.failure());
        moves_.clear();
      };
      for (; i < end; ++i) {
        Queued& q = batch[i];
        // After a failure, queued writes are dropped: a game's moves in the file stay a
        // contiguous prefix (never a later move without the one before it). Calls still run.
        // first_error_ is written on this thread only: read here without the lock.
        if (!first_error_.empty() && q.call == Call::No) continue;
        if (!q.write) {
          moves_.emplace_back(writer_id(q.game_id), &q.move);
          continue;
        }
        write_moves();
        if (!first_error_.empty() && q.call == Call::No) continue;
        auto status = q.write(store_);
        if (!status) fail(failures, status.failure());
      }
      write_moves();
      Status committed = Ok{};
      if (grouped) {
        committed = store_.commit_batch();
        if (!committed) fail(failures, committed.failure());
      }
      for (std::size_t k = begin; k < end; ++k)
        if (batch[k].settle) batch[k].settle(committed);
    }
    const std::size_t written = batch.size();
    batch.clear();
    spare_.swap(batch);
    lock.lock();
    committed_ += written;
    if (!failures.empty()) errors_.insert(errors_.end(), failures.begin(), failures.end());
    done_.notify_all();
  }
}

}  // namespace referee::storage
