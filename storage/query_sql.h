// Internal to storage/: a GameQuery as an SQL WHERE clause over `games g`, with its parameters.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "storage/game_query.h"
#include "storage/sql/sql.h"

namespace referee::storage {

struct WhereClause {
  std::string sql;  // " WHERE ..." (or "" when nothing is filtered), positional parameters
  std::vector<std::variant<std::int64_t, std::string>> values;
  // Binds the values from parameter `first` on; returns the next free index.
  int bind(sql::Statement& statement, int first = 1) const;
};

WhereClause where_clause(const GameQuery& query, sql::Backend backend);

// Whether the file has schema v5's results table (a file older than v5 opened read-only has not).
bool has_results_table(sql::Connection& db);

}  // namespace referee::storage
