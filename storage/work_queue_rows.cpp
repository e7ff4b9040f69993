// The work queue's shared row helpers (work_queue_rows.h).
#include "storage/work_queue_rows.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage::work_queue::detail {

SlotRecord read_slot(sql::Statement& q, int first) {
  SlotRecord r;
  r.slot = q.int64(first);
  r.game = q.text(first + 1);
  r.seats = rows::strings_from_json(q.text(first + 2));
  r.opening = rows::strings_from_json(q.text(first + 3));
  r.cycle = q.int32(first + 4);
  r.round = q.int32(first + 5);
  r.pair = q.int32(first + 6);
  r.state = read_word(slot_state_from_text, q.text(first + 7), "slot state");
  if (!q.is_null(first + 8)) r.owner = q.int64(first + 8);
  r.attempts = q.int32(first + 9);
  r.reason = q.text(first + 10);
  return r;
}

const char* const kSlotColumns =
    "s.slot, s.game, s.seats, s.opening, s.cycle, s.round, s.pair, s.state, s.owner, s.attempts, "
    "s.reason";

void finish_event_if_complete(sql::Connection& cache, std::int64_t event) {
  auto& q = cache.cached(
      "UPDATE events SET state = 'finished', finished_at = ?1, updated_at = ?1"
      " WHERE id = ?2 AND state NOT IN ('finished', 'cancelled') AND kind IN ('tournament', 'sprt')"
      " AND NOT "
      "EXISTS"
      " (SELECT 1 FROM slots"
      " WHERE event_id = ?2 AND state IN ('pending', 'claimed'))");
  q.bind(1, rows::now_utc());
  q.bind(2, static_cast<std::int64_t>(event));
  q.exec();
}

namespace {

// Slots inserted with `rows` rows per INSERT (statements prepared once per size): one statement
// per row made SQLite parse and step a million statements and PostgreSQL wait a million round
// trips for an event at the cap.
class SlotInserter {
 public:
  static constexpr std::size_t kRowsPerInsert = 100;  // 800 parameters, far below either limit

  SlotInserter(sql::Connection& db, std::int64_t event) : db_(db), event_(event) {}

  void insert(const std::vector<SlotRecord>& slots) {
    std::size_t at = 0;
    while (slots.size() - at >= kRowsPerInsert) {
      if (!many_) many_.emplace(db_, sql_for(kRowsPerInsert));
      add(*many_, slots, at, kRowsPerInsert);
      at += kRowsPerInsert;
    }
    if (at < slots.size()) {
      if (!one_) one_.emplace(db_, sql_for(1));
      for (; at < slots.size(); ++at) add(*one_, slots, at, 1);
    }
  }

 private:
  static std::string sql_for(std::size_t rows) {
    std::string sql =
        "INSERT INTO slots (event_id, slot, game, seats, opening, cycle, round, pair)"
        " VALUES ";
    for (std::size_t r = 0; r < rows; ++r)
      sql += r ? ", (?, ?, ?, ?, ?, ?, ?, ?)" : "(?, ?, ?, ?, ?, ?, ?, ?)";
    return sql + " ON CONFLICT DO NOTHING";
  }

  void add(sql::Query& q, const std::vector<SlotRecord>& slots, std::size_t from,
           std::size_t rows) {
    q.reset();
    for (std::size_t r = 0; r < rows; ++r) {
      const SlotRecord& s = slots[from + r];
      const int p = static_cast<int>(r) * 8;
      q.bind(p + 1, static_cast<std::int64_t>(event_));
      q.bind(p + 2, static_cast<std::int64_t>(s.slot));
      q.bind(p + 3, s.game);
      q.bind(p + 4, rows::json_strings(s.seats));
      q.bind(p + 5, rows::json_strings(s.opening));
      q.bind(p + 6, s.cycle);
      q.bind(p + 7, s.round);
      q.bind(p + 8, s.pair);
    }
    q.exec();
  }

  sql::Connection& db_;
  std::int64_t event_;
  std::optional<sql::Query> many_, one_;
};

}  // namespace

void insert_slots(sql::Connection& db, std::int64_t event, const std::vector<SlotRecord>& slots) {
  SlotInserter(db, event).insert(slots);
}

Expected<bool> insert_batches(sql::Connection& db, std::int64_t event, const SlotBatches& batches) {
  SlotInserter inserter(db, event);
  std::vector<SlotRecord> batch;
  bool any = false;
  while (true) {
    batch.clear();
    if (auto made = batches(batch); !made) return made.failure();
    if (batch.empty()) return any;
    any = true;
    inserter.insert(batch);
  }
}

// A slot of `event` ended in the open transaction. SQLite serializes the writers: the check runs
// in it. PostgreSQL (read committed) runs writers side by side: two transactions ending the last
// two slots each saw the other's slot still claimed, and the event stayed running for ever. There
// the check runs after the commit (Database::after_commit), so the later of the two sees both. A
// failure there loses nothing: the slots are committed, and the next claim that finds nothing to
// play in the event finishes it.
void event_may_be_complete(Database& database, std::int64_t event) {
  if (database.connection().backend() == sql::Backend::SQLite)
    finish_event_if_complete(database.connection(), event);
  else
    database.after_commit([event](sql::Connection& db) { finish_event_if_complete(db, event); });
}

}  // namespace referee::storage::work_queue::detail
