// What the work queue's units share (work_queue.cpp: owners, claims and slots;
// work_queue_events.cpp: events; work_queue_rows.cpp: these): reading its rows, inserting slots,
// finishing an event whose slots are all played. Inside storage/ only: not the storage API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/sql/sql.h"
#include "storage/work_queue.h"

namespace referee::storage::work_queue::detail {

// A word of the database (states.h) as its value; a word that is none is bad data (Invalid).
template <class FromText>
auto read_word(FromText from_text, const std::string& word, const char* what) {
  auto value = from_text(word);
  if (!value)
    throw sql::Failure(std::string("unknown ") + what + " '" + word + "'", "", ErrorKind::Invalid);
  return *value;
}

SlotRecord read_slot(sql::Statement& q, int first);
extern const char* const kSlotColumns;  // the columns read_slot reads, from `slots s`

// Marks a tournament or an sprt event finished once no slot is left to play (an sprt event's
// whole schedule is made at once, its test skipping what it need not play); ladders, which get
// new slots while they run, finish otherwise. event_may_be_complete says when.
void finish_event_if_complete(sql::Connection& cache, std::int64_t event);
// A slot of `event` ended in the open transaction: finish_event_if_complete, now on SQLite, after
// the commit on PostgreSQL (work_queue_rows.cpp says why).
void event_may_be_complete(Database& database, std::int64_t event);

void insert_slots(sql::Connection& db, std::int64_t event, const std::vector<SlotRecord>& slots);
// Every batch of `batches` inserted, one batch in memory at a time; whether any slot was, or
// the error of `batches`.
Expected<bool> insert_batches(sql::Connection& db, std::int64_t event, const SlotBatches& batches);

}  // namespace referee::storage::work_queue::detail
