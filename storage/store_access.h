// Internal to storage/: the connection of a Store, for the storage files that add queries beside
// store.cpp (game_query, results, game_stream, archive) without widening Store's public interface
// or moving its implementation.
#pragma once

#include <exception>
#include <string>

#include "storage/sql/sql.h"
#include "storage/store.h"

namespace referee::storage {

struct StoreAccess {
  static sql::Connection& db(Store& store);
  // The games' engine hashes as a SELECT expression of alias `g`: the column, or '[]' in a file
  // older than v7 opened read-only (not migrated), told by its schema_version.
  static std::string engine_hashes_column(Store& store);
  // The games' per-seat time controls likewise: the column, or '[]' in a file older than v10.
  static std::string time_controls_column(Store& store);
  // One line naming the database: "<path>: cannot <doing>: <what>".
  static Error fail(const Store& store, const std::string& doing, const std::exception& e);
};

}  // namespace referee::storage
