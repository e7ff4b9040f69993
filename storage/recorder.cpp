#include "storage/recorder.h"

namespace referee::storage {

Recorder::Recorder(Store store, std::chrono::milliseconds interval)
    : store_(std::move(store)), interval_(interval), thread_([this] { run(); }) {}

Recorder::~Recorder() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Recorder::enqueue(Write write, bool urgent) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(write));
    ++queued_;
    urgent_ = urgent_ || urgent;
  }
  if (urgent) wake_.notify_one();  // moves wait for the next tick: no wake-up per move
}

void Recorder::add_move(std::int64_t game_id, MoveRecord move) {
  enqueue([game_id, m = std::move(move)](Store& s) { return s.add_move(game_id, m); }, false);
}

void Recorder::add_logs(std::int64_t game_id, std::vector<LogLine> lines) {
  enqueue([game_id, l = std::move(lines)](Store& s) { return s.add_logs(game_id, l); }, false);
}

void Recorder::finish_game(std::int64_t game_id, GameRecord result) {
  enqueue([game_id, r = std::move(result)](Store& s) { return s.finish_game(game_id, r); }, true);
}

Expected<std::int64_t> Recorder::begin_game(const GameRecord& game) {
  Expected<std::int64_t> id = Error{"not recorded"};
  enqueue(
      [&](Store& s) {
        id = s.begin_game(game);
        return id ? Status(Ok{}) : Status(Error{id.error()});
      },
      true);
  flush();
  return id;
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

void Recorder::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait_for(lock, interval_, [&] { return urgent_ || stopping_; });
    if (queue_.empty()) {
      if (stopping_) return;
      urgent_ = false;
      continue;
    }
    std::deque<Write> batch;
    batch.swap(queue_);
    urgent_ = false;
    lock.unlock();
    std::vector<std::string> failures;
    const bool grouped = batch.size() > 1 && store_.begin_batch().ok();
    for (auto& write : batch) {
      auto status = write(store_);
      if (!status) failures.push_back(status.error());
    }
    if (grouped) {
      auto status = store_.commit_batch();
      if (!status) failures.push_back(status.error());
    }
    lock.lock();
    committed_ += batch.size();
    errors_.insert(errors_.end(), failures.begin(), failures.end());
    done_.notify_all();
  }
}

}  // namespace referee::storage
