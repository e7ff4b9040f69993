// The work queue's events (work_queue.h, "Events"): opening one with its schedule, replacing an
// unplayed one's, listing them, their state, priority and specification, slots appended.
#include "storage/work_queue.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"
#include "storage/work_queue_rows.h"

namespace referee::storage::work_queue {

using namespace detail;

namespace {

const char* const kEventColumns =
    "SELECT t.id, t.name, t.kind, t.state, t.priority, t.spec, t.created_at, t.finished_at,"
    " t.updated_at,"
    " (SELECT count(*) FROM slots s WHERE s.state = 'pending' AND s.event_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'claimed' AND s.event_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'done' AND s.event_id = t.id),"
    " (SELECT count(*) FROM slots s WHERE s.state = 'skipped' AND s.event_id = t.id),"
    " coalesce((SELECT min(g.started_at) FROM games g WHERE g.event_id = t.id), ''),"
    " t.submitted_by FROM events t";

EventInfo read_event(sql::Statement& q) {
  EventInfo e;
  e.id = q.int64(0);
  e.name = q.text(1);
  e.kind = read_word(event_kind_from_text, q.text(2), "event kind");
  e.state = read_word(event_state_from_text, q.text(3), "event state");
  e.priority = q.int32(4);
  e.spec = q.text(5);
  e.created_at = q.text(6);
  e.finished_at = q.text(7);
  e.updated_at = q.text(8);
  e.pending = q.int64(9);
  e.claimed = q.int64(10);
  e.done = q.int64(11);
  e.skipped = q.int64(12);
  e.started_at = q.text(13);
  e.submitted_by = q.text(14);
  return e;
}

}  // namespace

Expected<std::int64_t> open_tournament(Database& database, const std::string& name,
                                       const std::string& config) {
  if (name.empty()) return database.error(ErrorKind::Invalid, "a tournament needs a name");
  try {
    sql::Transaction tx(database.connection());
    rows::lock_writers(database.connection());
    sql::Query find(database.connection(), "SELECT id, config FROM events WHERE name = ?");
    find.bind(1, name);
    if (find.step()) {
      std::int64_t id = find.int64(0);
      if (find.text(1) != config)
        return database.error(
            ErrorKind::Conflict,
            "tournament \"" + name + "\" already exists with a different configuration");
      return id;
    }
    sql::Query add(database.connection(),
                   "INSERT INTO events (name, config) VALUES (?, ?) RETURNING id");
    add.bind(1, name);
    add.bind(2, config);
    std::int64_t id = sql::returning_id(add);
    tx.commit();
    return id;
  } catch (const std::exception& e) {
    return database.fail("open tournament \"" + name + "\"", e);
  }
}

Expected<EventRow> open_event(Database& database, const std::string& name, const std::string& spec,
                              const std::string& config, const std::vector<SlotRecord>& slots,
                              const NewEventOptions& options) {
  bool given = false;
  return open_event_in_batches(
      database, name, spec, config,
      [&](std::vector<SlotRecord>& batch) -> Status {
        if (!given) batch = slots;
        given = true;
        return Ok{};
      },
      options);
}

Expected<EventRow> open_event_in_batches(Database& database, const std::string& name,
                                         const std::string& spec, const std::string& config,
                                         const SlotBatches& batches,
                                         const NewEventOptions& options) {
  if (name.empty()) return database.error(ErrorKind::Invalid, "an event needs a name");
  try {
    auto& db = database.connection();
    sql::CachedScope resets(database.connection());
    sql::Transaction tx(db);
    rows::lock_writers(db);
    EventRow row;
    row.name = name;
    sql::Query find(db,
                    "SELECT id, spec, config, state, priority, kind FROM events WHERE name = ?");
    find.bind(1, name);
    if (find.step()) {
      row.id = find.int64(0);
      row.spec = find.text(1);
      row.config = find.text(2);
      row.state = read_word(event_state_from_text, find.text(3), "event state");
      row.priority = find.int32(4);
      row.kind = read_word(event_kind_from_text, find.text(5), "event kind");
      if (!row.spec.empty() || row.config != config) return row;  // the caller compares
      // A v2 event: adopt it. Its slots with a finished game (the first one) are done.
      sql::Query set(db, "UPDATE events SET spec = ?, updated_at = ? WHERE id = ?");
      set.bind(1, spec);
      set.bind(2, rows::now_utc());
      set.bind(3, static_cast<std::int64_t>(row.id));
      set.exec();
      if (auto inserted = insert_batches(db, row.id, batches); !inserted)
        return inserted.failure();  // rolled back
      sql::Query done(
          db,
          "UPDATE slots SET state = 'done', game_id = (SELECT min(g.id) FROM games g WHERE"
          " g.event_id = slots.event_id AND g.slot = slots.slot AND g.status ="
          " 'finished') WHERE event_id = ?1 AND EXISTS (SELECT 1 FROM games g WHERE"
          " g.event_id = ?1 AND g.slot = slots.slot AND g.status = 'finished')");
      done.bind(1, static_cast<std::int64_t>(row.id));
      done.exec();
      finish_event_if_complete(database.connection(), row.id);
      tx.commit();
      row.spec = spec;
      return row;
    }
    sql::Query add(db,
                   "INSERT INTO events (name, config, spec, state, updated_at, kind,"
                   " priority, submitted_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
    add.bind(1, name);
    add.bind(2, config);
    add.bind(3, spec);
    add.bind(4, to_text(options.state));
    add.bind(5, rows::now_utc());
    add.bind(6, to_text(options.kind));
    add.bind(7, options.priority);
    add.bind(8, options.submitted_by);
    row.id = sql::returning_id(add);
    row.spec = spec;
    row.config = config;
    row.state = options.state;
    row.kind = options.kind;
    row.priority = options.priority;
    row.created = true;
    auto inserted = insert_batches(db, row.id, batches);
    if (!inserted) return inserted.failure();  // rolled back
    finish_event_if_complete(database.connection(),
                             row.id);  // an empty schedule is finished at once
    if (!*inserted && options.kind == EventKind::Tournament) row.state = EventState::Finished;
    tx.commit();
    return row;
  } catch (const std::exception& e) {
    return database.fail("open event \"" + name + "\"", e);
  }
}

Expected<bool> respecify_unplayed_event(Database& database, std::int64_t event,
                                        const std::string& spec, const std::string& config,
                                        const SlotBatches& batches, EventKind kind,
                                        EventState state) {
  try {
    auto& db = database.connection();
    sql::CachedScope resets(db);
    sql::Transaction tx(db);
    rows::lock_writers(db);
    sql::Query played(db,
                      "SELECT CASE WHEN EXISTS (SELECT 1 FROM games WHERE event_id = ?1) OR EXISTS"
                      " (SELECT 1 FROM slots WHERE event_id = ?1 AND state = 'claimed' AND"
                      " lease_expires_at > ?2) THEN 1 ELSE 0 END");
    played.bind(1, static_cast<std::int64_t>(event));
    played.bind(2, static_cast<std::int64_t>(rows::now_ms()));
    if (!played.step() || played.int64(0) != 0) return false;
    sql::Query drop(db, "DELETE FROM slots WHERE event_id = ?");
    drop.bind(1, static_cast<std::int64_t>(event));
    drop.exec();
    sql::Query set(db,
                   "UPDATE events SET spec = ?, config = ?, state = ?, finished_at = '',"
                   " updated_at = ?, kind = ? WHERE id = ?");
    set.bind(1, spec);
    set.bind(2, config);
    set.bind(3, to_text(state));
    set.bind(4, rows::now_utc());
    set.bind(5, to_text(kind));
    set.bind(6, static_cast<std::int64_t>(event));
    set.exec();
    if (auto inserted = insert_batches(db, event, batches); !inserted)
      return inserted.failure();  // rolled back
    finish_event_if_complete(db, event);
    tx.commit();
    return true;
  } catch (const std::exception& e) {
    return database.fail("respecify event " + std::to_string(event), e);
  }
}

Expected<EventList> events(Database& database, const EventQuery& query) {
  try {
    sql::Transaction tx(database.connection(), sql::Transaction::Kind::Read);
    const std::string where = " WHERE (?1 = '[]' OR " +
                              sql::in_json(database.connection().backend(), "t.state", "?1") +
                              ") AND (?2 = '' OR t.kind = ?2)";
    std::vector<std::string> state_words;
    for (EventState s : query.states) state_words.push_back(to_text(s));
    const std::string states = rows::json_strings(state_words);
    const std::string kind = query.kind ? to_text(*query.kind) : "";
    EventList out;
    sql::Query count(database.connection(), std::string("SELECT count(*) FROM events t") + where);
    count.bind(1, states);
    count.bind(2, kind);
    count.step();
    out.total = count.int64(0);
    sql::Query q(database.connection(),
                 std::string(kEventColumns) + where + " ORDER BY t.id DESC LIMIT ?3 OFFSET ?4");
    q.bind(1, states);
    q.bind(2, kind);
    q.bind(3, query.limit);
    q.bind(4, query.offset);
    while (q.step()) out.events.push_back(read_event(q));
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("list events", e);
  }
}

Expected<EventInfo> event(Database& database, std::int64_t id) {
  try {
    sql::Query q(database.connection(), std::string(kEventColumns) + " WHERE t.id = ?");
    q.bind(1, static_cast<std::int64_t>(id));
    if (!q.step()) return database.error(ErrorKind::NotFound, "no event " + std::to_string(id));
    return read_event(q);
  } catch (const std::exception& e) {
    return database.fail("read event " + std::to_string(id), e);
  }
}

Expected<bool> set_event_state(Database& database, std::int64_t id, EventState state,
                               const std::vector<EventState>& from) {
  try {
    sql::Query q(database.connection(),
                 "UPDATE events SET state = ?1, updated_at = ?2,"
                 " finished_at = CASE WHEN ?1 IN ('finished', 'cancelled') THEN ?2"
                 " WHEN ?1 IN ('queued', 'running', 'paused') THEN ''"
                 " ELSE finished_at END"
                 " WHERE id = ?3 AND " +
                     sql::in_json(database.connection().backend(), "state", "?4"));
    q.bind(1, to_text(state));
    q.bind(2, rows::now_utc());
    q.bind(3, static_cast<std::int64_t>(id));
    std::vector<std::string> from_words;
    for (EventState s : from) from_words.push_back(to_text(s));
    q.bind(4, rows::json_strings(from_words));
    return q.exec() > 0;
  } catch (const std::exception& e) {
    return database.fail("set the state of event " + std::to_string(id), e);
  }
}

Status set_event_priority(Database& database, std::int64_t id, int priority) {
  try {
    sql::Query q(database.connection(),
                 "UPDATE events SET priority = ?, updated_at = ? WHERE id = ?");
    q.bind(1, priority);
    q.bind(2, rows::now_utc());
    q.bind(3, static_cast<std::int64_t>(id));
    if (q.exec() == 0) return database.error(ErrorKind::NotFound, "no event " + std::to_string(id));
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("set the priority of event " + std::to_string(id), e);
  }
}

Status set_event_spec(Database& database, std::int64_t id, const std::string& spec) {
  try {
    sql::Query q(database.connection(), "UPDATE events SET spec = ?, updated_at = ? WHERE id = ?");
    q.bind(1, spec);
    q.bind(2, rows::now_utc());
    q.bind(3, static_cast<std::int64_t>(id));
    if (q.exec() == 0) return database.error(ErrorKind::NotFound, "no event " + std::to_string(id));
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("set the specification of event " + std::to_string(id), e);
  }
}

Expected<std::vector<std::int64_t>> append_slots(Database& database, std::int64_t event,
                                                 const std::vector<SlotRecord>& slots,
                                                 std::optional<std::int64_t> expected_next) {
  try {
    sql::Transaction tx(database.connection());
    rows::lock_writers(database.connection());
    sql::Query last(database.connection(),
                    "SELECT coalesce(max(slot), -1) FROM slots WHERE event_id = ?");
    last.bind(1, static_cast<std::int64_t>(event));
    last.step();
    std::int64_t next = last.int64(0) + 1;
    if (expected_next && *expected_next != next)
      return Error{database.path() + ": event " + std::to_string(event) + " has " +
                       std::to_string(next) + " games, not " + std::to_string(*expected_next) +
                       ": another owner added them",
                   ErrorKind::Conflict};
    std::vector<SlotRecord> numbered = slots;
    std::vector<std::int64_t> out;
    for (auto& s : numbered) {
      s.slot = next++;
      out.push_back(s.slot);
    }
    insert_slots(database.connection(), event, numbered);
    // A tournament whose last round had ended was marked finished: it runs again.
    if (!numbered.empty()) {
      sql::Query revive(database.connection(),
                        "UPDATE events SET state = 'running', finished_at = '', updated_at = ?"
                        " WHERE id = ? AND state = 'finished' AND kind = 'tournament'");
      revive.bind(1, rows::now_utc());
      revive.bind(2, static_cast<std::int64_t>(event));
      revive.exec();
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("add games to event " + std::to_string(event), e);
  }
}

Expected<int> decide_exclusively(Database& database, const std::function<Expected<int>()>& decide) {
  try {
    sql::Transaction tx(database.connection());
    rows::lock_writers(database.connection());
    auto decided = decide();
    if (!decided) return decided;  // the transaction (or savepoint) is rolled back
    tx.commit();
    return decided;
  } catch (const std::exception& e) {
    return database.fail("decide the next games", e);
  }
}

Expected<std::optional<EventRow>> event_named(Database& database, const std::string& name) {
  try {
    sql::Query find(database.connection(),
                    "SELECT id, spec, config, state, priority, kind FROM events WHERE name = ?");
    find.bind(1, name);
    if (!find.step()) return std::optional<EventRow>();
    EventRow row;
    row.id = find.int64(0);
    row.name = name;
    row.spec = find.text(1);
    row.config = find.text(2);
    row.state = read_word(event_state_from_text, find.text(3), "event state");
    row.priority = find.int32(4);
    row.kind = read_word(event_kind_from_text, find.text(5), "event kind");
    return std::optional<EventRow>(std::move(row));
  } catch (const std::exception& e) {
    return database.fail("read event '" + name + "'", e);
  }
}

}  // namespace referee::storage::work_queue
