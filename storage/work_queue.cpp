// The work queue over a Database (work_queue.h): owners, their claims and leases, and slots; the
// events are work_queue_events.cpp's.
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
