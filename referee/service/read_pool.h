// Read-only connections to the daemon's database for the API's threads (one SQLite connection
// per thread at a time; opening one per request would cost more than most requests). A lease
// takes an idle connection or opens one; at most `keep` idle ones are kept.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::service {

class ReadPool {
 public:
  explicit ReadPool(std::string path, std::size_t keep = 8) : path_(std::move(path)), keep_(keep) {}

  class Lease {
   public:
    Lease(ReadPool& pool, std::unique_ptr<storage::Store> store)
        : pool_(&pool), store_(std::move(store)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept = default;
    ~Lease() {
      if (pool_ && store_) pool_->give_back(std::move(store_));
    }
    storage::Store& operator*() { return *store_; }
    storage::Store* operator->() { return store_.get(); }

   private:
    ReadPool* pool_;
    std::unique_ptr<storage::Store> store_;
  };

  Expected<Lease> get();

 private:
  void give_back(std::unique_ptr<storage::Store> store);
  std::string path_;
  std::size_t keep_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<storage::Store>> idle_;
};

}  // namespace referee::service
