// The work queue over a Database (work_queue.h): events, slots, claims, owners and leases.
#include "storage/work_queue.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "storage/rows.h"
#include "storage/sql/dialect.h"
#include "storage/sql/sql.h"

namespace referee::storage::work_queue {

namespace {

// A word of the database (states.h) as its value; a word that is none is bad data (Invalid).
template <class FromText>
auto read_word(FromText from_text, const std::string& word, const char* what) {
  auto value = from_text(word);
  if (!value)
    throw sql::Failure(std::string("unknown ") + what + " '" + word + "'", "", ErrorKind::Invalid);
  return *value;
}

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

// Marks a tournament or an sprt event finished once no slot is left to play (an sprt event's
// whole schedule is made at once, its test skipping what it need not play); ladders, which get
// new slots while they run, finish otherwise. event_may_be_complete says when.
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

void insert_slots(sql::Connection& db, std::int64_t event, const std::vector<SlotRecord>& slots) {
  SlotInserter(db, event).insert(slots);
}

// Every batch of `batches` inserted, one batch in memory at a time; whether any slot was, or
// the error of `batches`.
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

Expected<std::int64_t> register_owner(Database& database, const OwnerInfo& owner) {
  try {
    const auto now = static_cast<std::int64_t>(rows::now_ms());
    sql::Query add(database.connection(),
                   "INSERT INTO owners (name, host, pid, kind, started_at, heartbeat_at,"
                   " lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id");
    add.bind(1, owner.name);
    add.bind(2, owner.host);
    add.bind(3, static_cast<std::int64_t>(owner.pid));
    add.bind(4, to_text(owner.kind));
    add.bind(5, now);
    add.bind(6, now);
    add.bind(7, now + static_cast<std::int64_t>(owner.lease_ms));
    return sql::returning_id(add);
  } catch (const std::exception& e) {
    return database.fail("register this process as an owner", e);
  }
}

Expected<std::vector<OwnerStatus>> owners(Database& database, std::int64_t stopped_within_ms,
                                          int limit) {
  try {
    std::vector<OwnerStatus> out;
    sql::Query q(database.connection(),
                 "SELECT id, name, host, pid, kind, started_at, heartbeat_at,"
                 " lease_expires_at, stopped_at FROM owners WHERE stopped_at IS NULL OR"
                 " stopped_at >= ? ORDER BY id DESC LIMIT ?");
    q.bind(1, static_cast<std::int64_t>(rows::now_ms()) - stopped_within_ms);
    q.bind(2, limit);
    std::map<std::int64_t, std::size_t> index;
    while (q.step()) {
      OwnerStatus o;
      o.id = q.int64(0);
      o.info.name = q.text(1);
      o.info.host = q.text(2);
      o.info.pid = static_cast<long>(q.int64(3));
      o.info.kind = read_word(owner_kind_from_text, q.text(4), "owner kind");
      o.started_at_ms = q.int64(5);
      o.heartbeat_at_ms = q.int64(6);
      o.lease_expires_at_ms = q.int64(7);
      if (!q.is_null(8)) o.stopped_at_ms = q.int64(8);
      index[o.id] = out.size();
      out.push_back(std::move(o));
    }
    sql::Query running(database.connection(),
                       "SELECT owner, id FROM games WHERE status = 'running' AND owner IS"
                       " NOT NULL ORDER BY id");
    while (running.step()) {
      auto it = index.find(running.int64(0));
      if (it != index.end()) out[it->second].running_games.push_back(running.int64(1));
    }
    return out;
  } catch (const std::exception& e) {
    return database.fail("read the owners", e);
  }
}

Status stop_owner(Database& database, std::int64_t owner) {
  try {
    sql::Transaction tx(database.connection());
    sql::Query rel(database.connection(),
                   "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                   " WHERE owner = ? AND state = 'claimed'");
    rel.bind(1, static_cast<std::int64_t>(owner));
    rel.exec();
    sql::Query stop(database.connection(),
                    "UPDATE owners SET stopped_at = ?, heartbeat_at = ? WHERE id = ?");
    const auto now = static_cast<std::int64_t>(rows::now_ms());
    stop.bind(1, now);
    stop.bind(2, now);
    stop.bind(3, static_cast<std::int64_t>(owner));
    stop.exec();
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("release the claims of owner " + std::to_string(owner), e);
  }
}

Status release_claims(Database& database, std::int64_t owner) {
  try {
    sql::Query rel(database.connection(),
                   "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                   " WHERE owner = ? AND state = 'claimed'");
    rel.bind(1, static_cast<std::int64_t>(owner));
    rel.exec();
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("release the claims of owner " + std::to_string(owner), e);
  }
}

Expected<std::vector<Claim>> claim_slots(Database& database, std::int64_t owner,
                                         std::optional<std::int64_t> event, int max, long lease_ms,
                                         const std::vector<std::string>& exclude_engines) {
  try {
    auto& db = database.connection();
    sql::CachedScope resets(database.connection());
    sql::Transaction tx(db);
    const auto now = static_cast<std::int64_t>(rows::now_ms());
    // Events in the order they are served, then per event the expired claims and the pending
    // slots, each through the (state, tournament_id, slot) index: a claim costs the same on the
    // first slot of an event and on its last.
    std::vector<std::int64_t> events;
    {
      auto& q = database.connection().cached(
          "SELECT id FROM events WHERE state IN ('queued', 'running') AND"
          " (CAST(?1 AS BIGINT) IS NULL OR id = ?1) ORDER BY priority DESC, id");
      q.bind(1, event);
      while (q.step()) events.push_back(q.int64(0));
    }
    const std::string excluded = rows::json_strings(exclude_engines);
    const sql::Backend backend = database.connection().backend();
    auto pick_sql = [backend](const char* state_test) {
      return std::string("SELECT ") + kSlotColumns + " FROM slots s" +
             sql::indexed_by(backend, "slots_by_state") + " WHERE s.state = " + state_test +
             " AND s.event_id = ?1 AND (?3 = '[]' OR NOT EXISTS (SELECT 1 FROM " +
             sql::json_values(backend, "s.seats", "a") + ", " +
             sql::json_values(backend, "?3", "x") +
             " WHERE a.value = x.value)) ORDER BY s.slot LIMIT ?4" +
             sql::for_update_skip_locked(backend);
    };
    auto& expired = database.connection().cached(pick_sql("'claimed' AND s.lease_expires_at < ?2"));
    auto& pending =
        database.connection().cached(pick_sql("'pending' AND CAST(?2 AS BIGINT) IS NOT NULL"));
    std::vector<Claim> out;
    for (std::int64_t e : events) {
      std::vector<Claim> found;
      for (sql::Statement* q : {&expired, &pending}) {
        q->reset();
        q->bind(1, static_cast<std::int64_t>(e));
        q->bind(2, now);
        q->bind(3, excluded);
        q->bind(4, max - static_cast<int>(out.size()));
        while (q->step()) {
          Claim c;
          c.event = e;
          c.slot = read_slot(*q, 0);
          found.push_back(std::move(c));
        }
      }
      if (found.empty()) {
        // Nothing to play: an event left running with every slot ended (its check after the
        // commit failed, or a referee before that check wrote it) is finished now.
        auto& open = database.connection().cached(
            "SELECT 1 FROM slots WHERE event_id = ? AND state IN ('pending', 'claimed')"
            " LIMIT 1");
        open.bind(1, static_cast<std::int64_t>(e));
        if (!open.step()) finish_event_if_complete(database.connection(), e);
      }
      std::sort(found.begin(), found.end(),
                [](const Claim& a, const Claim& b) { return a.slot.slot < b.slot.slot; });
      for (auto& c : found)
        if (static_cast<int>(out.size()) < max) out.push_back(std::move(c));
      if (static_cast<int>(out.size()) >= max) break;
    }
    auto& take = database.connection().cached(
        "UPDATE slots SET state = 'claimed', owner = ?, lease_expires_at = ?,"
        " attempts = attempts + 1 WHERE event_id = ? AND slot = ?");
    // The game a dead owner (or a v2 run) left running is kept as interrupted.
    auto& orphan = database.connection().cached(
        "UPDATE games SET status = 'unfinished', termination = 'interrupted', reason = ?"
        " WHERE event_id = ? AND slot = ? AND status = 'running'");
    for (Claim& c : out) {
      // No game of a slot being claimed can still be played: any left running is an orphan.
      orphan.reset();
      orphan.bind(1, c.slot.state == SlotState::Claimed
                         ? "its process stopped renewing the claim (owner " +
                               std::to_string(c.slot.owner.value_or(0)) +
                               "); the slot is played again"
                         : std::string("the run stopped before the game ended"));
      orphan.bind(2, static_cast<std::int64_t>(c.event));
      orphan.bind(3, static_cast<std::int64_t>(c.slot.slot));
      orphan.exec();
      take.reset();
      take.bind(1, static_cast<std::int64_t>(owner));
      take.bind(2, now + lease_ms);
      take.bind(3, static_cast<std::int64_t>(c.event));
      take.bind(4, static_cast<std::int64_t>(c.slot.slot));
      take.exec();
      c.slot.state = SlotState::Claimed;
      c.slot.owner = owner;
      ++c.slot.attempts;
    }
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("claim games", e);
  }
}

Expected<int> renew_claims(Database& database, std::int64_t owner, long lease_ms) {
  try {
    sql::CachedScope resets(database.connection());
    sql::Transaction tx(database.connection());
    const auto now = static_cast<std::int64_t>(rows::now_ms());
    auto& renew = database.connection().cached(
        "UPDATE slots SET lease_expires_at = ? WHERE owner = ? AND state ="
        " 'claimed'");
    renew.bind(1, now + lease_ms);
    renew.bind(2, static_cast<std::int64_t>(owner));
    const int n = renew.exec();
    auto& beat = database.connection().cached(
        "UPDATE owners SET heartbeat_at = ?, lease_expires_at = ? WHERE id = ?");
    beat.bind(1, now);
    beat.bind(2, now + lease_ms);
    beat.bind(3, static_cast<std::int64_t>(owner));
    beat.exec();
    tx.commit();
    return n;
  } catch (const std::exception& e) {
    return database.fail("renew the claims of owner " + std::to_string(owner), e);
  }
}

Expected<ClaimEnd> finish_claimed(Database& database, std::int64_t game_id,
                                  const GameRecord& result, std::int64_t owner) {
  const std::string what = "finish game " + std::to_string(game_id);
  try {
    auto& db = database.connection();
    sql::CachedScope resets(database.connection());
    sql::Transaction tx(db);
    // The slot is locked first, as claim_slots does (slot, then its orphaned game): a finish that
    // changed the game first could deadlock with a claim taking the slot whose lease expired.
    auto& find = database.connection().cached(
        "SELECT g.event_id, g.slot, s.state, s.owner FROM games g JOIN slots s ON"
        " s.event_id = g.event_id AND s.slot = g.slot WHERE g.id = ?" +
        sql::for_update_of(db.backend(), "s"));
    find.bind(1, static_cast<std::int64_t>(game_id));
    if (!find.step()) {
      sql::Query exists(database.connection(), "SELECT 1 FROM games WHERE id = ?");
      exists.bind(1, static_cast<std::int64_t>(game_id));
      if (!exists.step())
        return database.error(ErrorKind::NotFound, "cannot " + what + ": no such game");
      return database.error(ErrorKind::Conflict,
                            "cannot " + what + ": it belongs to no slot of an event");
    }
    const std::int64_t event = find.int64(0);
    const std::int64_t slot = find.int64(1);
    const bool held = slot_state_from_text(find.text(2)) == SlotState::Claimed &&
                      !find.is_null(3) && find.int64(3) == owner;
    const bool finished = result.status != GameStatus::Unfinished;
    ClaimEnd end = ClaimEnd::Released;
    Status st = Ok{};
    if (finished && held) {
      // A game is done only with every move in the file (a failed batch may have lost some).
      auto& moves = database.connection().cached("SELECT count(*) FROM moves WHERE game_id = ?");
      moves.bind(1, static_cast<std::int64_t>(game_id));
      moves.step();
      const std::int64_t stored = moves.int64(0);
      if (stored != result.plies)
        return database.error(ErrorKind::Invalid, "cannot " + what + ": " + std::to_string(stored) +
                                                      " of its " + std::to_string(result.plies) +
                                                      " moves are stored");
      st = rows::write_finish(database.connection(), database, game_id, result, true);
      end = ClaimEnd::Done;
    } else if (finished) {
      GameRecord lost = result;
      lost.termination = "lost-claim";
      lost.reason = "the claim on slot " + std::to_string(slot) +
                    " expired and was taken by another process before the game ended (it ended: " +
                    result.reason + ")";
      st = rows::write_finish(database.connection(), database, game_id, lost, false);
      end = ClaimEnd::Lost;
    } else {
      st = rows::write_finish(database.connection(), database, game_id, result, false);
      end = held ? ClaimEnd::Released : ClaimEnd::Lost;
    }
    if (!st) return st.failure();
    if (held) {
      auto& up = database.connection().cached(
          end == ClaimEnd::Done
              ? "UPDATE slots SET state = 'done', game_id = ?1, lease_expires_at = 0"
                " WHERE event_id = ?2 AND slot = ?3"
              : "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                " WHERE event_id = ?2 AND slot = ?3 AND CAST(?1 AS BIGINT) IS NOT NULL");
      up.bind(1, static_cast<std::int64_t>(game_id));
      up.bind(2, static_cast<std::int64_t>(event));
      up.bind(3, static_cast<std::int64_t>(slot));
      up.exec();
      if (end == ClaimEnd::Done) event_may_be_complete(database, event);
    }
    tx.commit();
    database.run_after_commit();
    return end;
  } catch (const std::exception& e) {
    return database.fail(what, e);
  }
}

Status release_slot(Database& database, std::int64_t event, std::int64_t slot, std::int64_t owner) {
  try {
    sql::Query q(database.connection(),
                 "UPDATE slots SET state = 'pending', owner = NULL, lease_expires_at = 0"
                 " WHERE event_id = ? AND slot = ? AND owner = ? AND state ="
                 " 'claimed'");
    q.bind(1, static_cast<std::int64_t>(event));
    q.bind(2, static_cast<std::int64_t>(slot));
    q.bind(3, static_cast<std::int64_t>(owner));
    q.exec();
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("release slot " + std::to_string(slot), e);
  }
}

Expected<int> skip_slots(Database& database, std::int64_t event,
                         const std::vector<std::int64_t>& slots, const std::string& reason) {
  try {
    sql::CachedScope resets(database.connection());
    sql::Transaction tx(database.connection());
    sql::Query q(database.connection(),
                 "UPDATE slots SET state = 'skipped', reason = ?, owner = NULL,"
                 " lease_expires_at = 0 WHERE event_id = ? AND slot = ? AND state"
                 " IN ('pending', 'claimed')");
    int n = 0;
    for (std::int64_t slot : slots) {
      q.reset();
      q.bind(1, reason);
      q.bind(2, static_cast<std::int64_t>(event));
      q.bind(3, static_cast<std::int64_t>(slot));
      n += q.exec();
    }
    event_may_be_complete(database, event);
    tx.commit();
    database.run_after_commit();
    return n;
  } catch (const std::exception& e) {
    return database.fail("skip games of event " + std::to_string(event), e);
  }
}

Expected<std::vector<SkipReason>> skip_reasons(Database& database, std::int64_t event) {
  try {
    sql::Query q(database.connection(),
                 "SELECT reason, count(*) FROM slots WHERE event_id = ? AND state = 'skipped'"
                 " GROUP BY reason ORDER BY 2 DESC, 1");
    q.bind(1, static_cast<std::int64_t>(event));
    std::vector<SkipReason> out;
    while (q.step()) out.push_back({q.text(0), q.int64(1)});
    return out;
  } catch (const std::exception& e) {
    return database.fail("read why games of event " + std::to_string(event) + " were skipped", e);
  }
}

Expected<SlotCounts> slot_counts(Database& database, std::int64_t event, std::int64_t owner) {
  try {
    sql::Query q(database.connection(),
                 "SELECT state, " + sql::bool_int(database.connection().backend(), "owner = ?2") +
                     ", count(*) FROM slots WHERE event_id = ?1 GROUP BY 1, 2");
    q.bind(1, static_cast<std::int64_t>(event));
    q.bind(2, static_cast<std::int64_t>(owner));
    SlotCounts c;
    while (q.step()) {
      const bool mine = q.int32(1) != 0;
      const std::int64_t n = q.int64(2);
      switch (read_word(slot_state_from_text, q.text(0), "slot state")) {
        case SlotState::Pending:
          c.pending += n;
          break;
        case SlotState::Claimed:
          (mine ? c.claimed_mine : c.claimed_others) += n;
          break;
        case SlotState::Done:
          c.done += n;
          break;
        case SlotState::Skipped:
          c.skipped += n;
          break;
      }
    }
    return c;
  } catch (const std::exception& e) {
    return database.fail("count the games of event " + std::to_string(event), e);
  }
}

Expected<std::vector<SlotRecord>> slots(Database& database, std::int64_t event) {
  try {
    sql::Query q(database.connection(), std::string("SELECT ") + kSlotColumns +
                                            " FROM slots s WHERE s.event_id = ? ORDER BY s.slot");
    q.bind(1, static_cast<std::int64_t>(event));
    std::vector<SlotRecord> out;
    while (q.step()) out.push_back(read_slot(q, 0));
    return out;
  } catch (const std::exception& e) {
    return database.fail("read the slots of event " + std::to_string(event), e);
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
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("add games to event " + std::to_string(event), e);
  }
}

Expected<std::vector<SlotRecord>> open_slots(Database& database, std::int64_t event) {
  try {
    sql::Query q(database.connection(),
                 std::string("SELECT ") + kSlotColumns + " FROM slots s" +
                     sql::indexed_by(database.connection().backend(), "slots_by_state") +
                     " WHERE s.state IN"
                     " ('pending', 'claimed') AND s.event_id = ?"
                     " ORDER BY s.slot");
    q.bind(1, static_cast<std::int64_t>(event));
    std::vector<SlotRecord> out;
    while (q.step()) out.push_back(read_slot(q, 0));
    return out;
  } catch (const std::exception& e) {
    return database.fail("read the open slots of event " + std::to_string(event), e);
  }
}

}  // namespace referee::storage::work_queue
