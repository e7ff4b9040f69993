// Transactions, savepoints and the placeholder rewrite of the SQL layer (sql.h).
#include "storage/sql/sql.h"

namespace referee::storage::sql {

Transaction::Transaction(Connection& connection, Kind kind)
    : connection_(connection), kind_(kind), level_(connection.depth_) {
  const bool sqlite = connection_.backend() == Backend::SQLite;
  if (level_ == 0) {
    ++connection_.serial_;
    if (kind_ == Kind::Write)
      connection_.exec(sqlite ? "BEGIN IMMEDIATE" : "BEGIN");
    else
      connection_.exec(sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  } else if (kind_ == Kind::Write) {
    connection_.exec("SAVEPOINT tx" + std::to_string(level_));
  }
  ++connection_.depth_;
}

void Transaction::commit() {
  if (done_) return;
  if (level_ == 0)
    connection_.exec("COMMIT");  // on failure the destructor rolls back
  else if (kind_ == Kind::Write)
    connection_.exec("RELEASE SAVEPOINT tx" + std::to_string(level_));
  done_ = true;
  --connection_.depth_;
  if (level_ == 0) ++connection_.counters.transactions;
}

Transaction::~Transaction() {
  if (done_) return;
  --connection_.depth_;
  try {
    if (level_ == 0)
      connection_.exec("ROLLBACK");
    else if (kind_ == Kind::Write)
      connection_.exec("ROLLBACK TO SAVEPOINT tx" + std::to_string(level_) +
                       "; RELEASE SAVEPOINT tx" + std::to_string(level_));
  } catch (...) {  // nothing more to undo (the connection may be gone)
  }
}

std::string rewrite_placeholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 8);
  int largest = 0;
  std::size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {  // a quoted string or name, doubled quotes inside
      std::size_t end = i + 1;
      while (end < sql.size() && sql[end] != c) ++end;
      out.append(sql.substr(i, end + 1 - i));
      i = end + 1;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      std::size_t end = sql.find('\n', i);
      if (end == std::string_view::npos) end = sql.size();
      out.append(sql.substr(i, end - i));
      i = end;
    } else if (c == '?') {
      std::size_t end = i + 1;
      int number = 0;
      while (end < sql.size() && sql[end] >= '0' && sql[end] <= '9')
        number = number * 10 + (sql[end++] - '0');
      if (end == i + 1) number = largest + 1;
      if (number > largest) largest = number;
      out += '$';
      out += std::to_string(number);
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::int64_t returning_id(Statement& statement) {
  if (!statement.step()) throw Failure("the statement returned no row", "");
  const std::int64_t id = statement.int64(0);
  while (statement.step()) {
  }
  return id;
}

}  // namespace referee::storage::sql
