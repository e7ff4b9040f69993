// Internal to storage/: a GameQuery as an SQL WHERE clause over `games g`, with its parameters.
#pragma once

#include <sqlite3.h>

#include <SQLiteCpp/Statement.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "storage/game_query.h"

namespace referee::storage {

struct WhereClause {
  std::string sql;  // " WHERE ..." (or "" when nothing is filtered), positional parameters
  std::vector<std::variant<std::int64_t, std::string>> values;
  // Binds the values from parameter `first` on; returns the next free index.
  int bind(SQLite::Statement& statement, int first = 1) const;
  int bind(sqlite3_stmt* statement, int first = 1) const;  // SQLite's own API
};

WhereClause where_clause(const GameQuery& query);

}  // namespace referee::storage
