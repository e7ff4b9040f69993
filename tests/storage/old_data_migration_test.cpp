// A database of schema v6 holding an event with its games (real random games: players and
// ranks, moves with clocks and notes, transcripts, slots and their claims, the owner that played
// them, the results rows v5's triggers kept) is brought to the current version on open, on both
// backends: on PostgreSQL v6 is the first schema a referee ever wrote there (old_schema.h), so
// this is the path every PostgreSQL database of the first release takes. Afterwards every row
// reads back as written, the results count the same games, every game still replays to its
// result, and the database takes new games.
#include <catch2/catch.hpp>
#include <map>

#include "storage/backends.h"
#include "storage/database.h"
#include "storage/game_maker.h"
#include "storage/old_schema.h"
#include "storage/results.h"
#include "storage/schema.h"
#include "storage/sql/sql.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

const std::string kGame = "awale:grandslam=nocapture,first=1,nocapture=100,maxplies=2000";

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string list_json(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& i : items) out += (out.size() > 1 ? ",\"" : "\"") + i + "\"";
  return out + "]";
}

// The termination a v6 referee stored for a game the rules ended: "rules" (v6's word).
std::string v6_termination(const GameRecord& g) {
  return g.termination == "normal" ? "rules" : g.termination;
}

// Writes one game the way a v6 referee did: the games row (id by the database: ids follow the
// order of the calls), its players, moves and one transcript row per seat.
void insert_game(sql::Connection& db, std::int64_t id, const storage_test::MadeGame& made,
                 const std::string& status, std::int64_t slot) {
  const auto& g = made.record;
  const bool finished = status == "finished";
  db.exec(
      "INSERT INTO games (tournament_id, slot, game, opening, time_control, status, "
      "termination, reason, started_at, finished_at, plies, owner) VALUES (1, " +
      std::to_string(slot) + ", " + quoted(g.game) + ", " + quoted(list_json(g.opening)) + ", " +
      quoted(g.time_control) + ", " + quoted(status) + ", " +
      quoted(finished ? v6_termination(g) : "") + ", " + quoted(finished ? g.reason : "") + ", " +
      quoted(g.started_at) + ", " + quoted(finished ? g.finished_at : "") + ", " +
      std::to_string(finished ? made.moves.size() : 0) + ", 1)");
  for (std::size_t seat = 0; seat < g.players.size(); ++seat)
    db.exec("INSERT INTO game_players (game_id, seat, engine, rank, score) VALUES (" +
            std::to_string(id) + ", " + std::to_string(seat + 1) + ", " + quoted(g.players[seat]) +
            ", " +
            (finished ? std::to_string(g.ranks[seat]) + ", " + std::to_string(g.scores[seat])
                      : std::string("NULL, NULL")) +
            ")");
  if (!finished) return;
  for (const auto& m : made.moves)
    db.exec(
        "INSERT INTO moves (game_id, ply, player, move, time_ms, clock_ms, info, source, "
        "note) VALUES (" +
        std::to_string(id) + ", " + std::to_string(m.ply) + ", " + std::to_string(m.player) + ", " +
        quoted(m.move) + ", " + std::to_string(m.time_ms) + ", " + std::to_string(m.clock_ms) +
        ", " + quoted(m.info) + ", " + quoted(m.source) + ", " +
        quoted(m.ply == 3 ? "round 2" : "") + ")");
  for (int seat = 1; seat <= 2; ++seat)
    db.exec("INSERT INTO engine_transcripts (game_id, seat, text) VALUES (" + std::to_string(id) +
            ", " + std::to_string(seat) + ", " +
            quoted("0 > ugi\n3 < id name it\\\\s\n5 < ugiok\n1200 ! game " + std::to_string(id) +
                   "\n") +
            ")");
}

std::string text_of(Store& store, const std::string& query) {
  sql::Query q(store.connection(), query);
  REQUIRE(q.step());
  return q.text(0);
}

}  // namespace

TEST_CASE("migration: a v6 database with an event's games reaches the current version intact") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      // Games 1-3 finished (slots 0-2 done), game 4 running on slot 3 (claimed), slot 4 pending.
      std::vector<storage_test::MadeGame> made;
      for (std::uint64_t seed = 1; seed <= 4; ++seed)
        made.push_back(storage_test::random_game(
            kGame,
            seed % 2 ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"b", "a"},
            seed, 2));
      {
        auto v6 = storage_test::database_at(db.url(), 6);
        v6->exec(
            "INSERT INTO tournaments (name, config, spec, state, kind, priority) VALUES "
            "('old event', '', '{\"v\":6}', 'running', 'tournament', 3)");
        v6->exec("INSERT INTO engines (name, command) VALUES ('a', '/opt/a'), ('b', '/opt/b')");
        v6->exec(
            "INSERT INTO owners (name, host, pid, kind, started_at, heartbeat_at) VALUES "
            "('w1', 'host1', 77, 'tournament', 1000, 2000)");
        for (std::int64_t i = 0; i < 4; ++i)
          insert_game(*v6, i + 1, made[static_cast<std::size_t>(i)], i < 3 ? "finished" : "running",
                      i);
        for (std::int64_t slot = 0; slot < 5; ++slot) {
          const std::string state = slot < 3 ? "done" : slot == 3 ? "claimed" : "pending";
          const std::string game_id = slot < 4 ? std::to_string(slot + 1) : "NULL";
          v6->exec(
              "INSERT INTO slots (tournament_id, slot, game, seats, state, owner, "
              "lease_expires_at, attempts, game_id) VALUES (1, " +
              std::to_string(slot) + ", " + quoted(kGame) + ", '[\"a\",\"b\"]', " + quoted(state) +
              ", " + (slot < 4 ? "1" : "NULL") + ", " + (slot == 3 ? "5000" : "0") + ", " +
              (slot < 4 ? "1" : "0") + ", " + game_id + ")");
        }
        // v5's triggers counted the finished games already.
        sql::Query results(*v6, "SELECT count(*) FROM results");
        REQUIRE(results.step());
        REQUIRE(results.int64(0) == 3);
      }

      auto opened = Store::open(db.url());
      INFO((opened ? std::string() : opened.error()));
      REQUIRE(opened.ok());
      Store& store = *opened;
      CHECK(text_of(store, "SELECT version FROM schema_version") == std::to_string(kSchemaVersion));

      // The event, its slots and the owner.
      auto event = work_queue::event(store, 1);
      REQUIRE(event.ok());
      CHECK(event->name == "old event");
      CHECK(event->state == referee::storage::EventState::Running);
      CHECK(event->priority == 3);
      CHECK(event->spec == "{\"v\":6}");
      auto slots = work_queue::slots(store, 1);
      REQUIRE(slots.ok());
      REQUIRE(slots->size() == 5);
      const std::vector<SlotState> states = {SlotState::Done, SlotState::Done, SlotState::Done,
                                             SlotState::Claimed, SlotState::Pending};
      for (std::size_t i = 0; i < 5; ++i) CHECK((*slots)[i].state == states[i]);
      auto owners = work_queue::owners(store, 3600 * 1000, 10);
      REQUIRE(owners.ok());
      REQUIRE(owners->size() == 1);
      CHECK(owners->front().info.host == "host1");
      CHECK(owners->front().running_games == std::vector<std::int64_t>{4});

      // Every game as written: players, ranks, moves with their clocks, info and notes,
      // transcripts; each replays to its result through the rules.
      auto finished = store.games({});
      REQUIRE(finished.ok());
      REQUIRE(finished->size() == 3);
      for (std::int64_t id = 1; id <= 4; ++id) {
        INFO("game " << id);
        const auto& want = made[static_cast<std::size_t>(id - 1)];
        auto g = store.game(id);
        REQUIRE(g.ok());
        CHECK(g->players == want.record.players);
        CHECK(g->opening == want.record.opening);
        CHECK(g->slot == id - 1);
        CHECK(g->engine_hashes.empty());
        if (id == 4) {
          CHECK(g->status == referee::storage::GameStatus::Running);
          continue;
        }
        CHECK(g->status == referee::storage::GameStatus::Finished);
        CHECK(g->termination == v6_termination(want.record));
        CHECK(g->ranks == want.record.ranks);
        CHECK(g->scores == want.record.scores);
        auto moves = store.moves(id);
        REQUIRE(moves.ok());
        REQUIRE(moves->size() == want.moves.size());
        for (std::size_t i = 0; i < moves->size(); ++i) {
          const auto& m = (*moves)[i];
          const auto& w = want.moves[i];
          CHECK(m.move == w.move);
          CHECK(m.player == w.player);
          CHECK(m.time_ms == w.time_ms);
          CHECK(m.clock_ms == w.clock_ms);
          CHECK(m.info == w.info);
          CHECK(m.source == w.source);
          CHECK(m.note == (m.ply == 3 ? "round 2" : ""));
        }
        CHECK(verify_game(*g, *moves).ok());
        auto logs = store.logs(id);
        REQUIRE(logs.ok());
        REQUIRE(logs->size() == 8);
        CHECK((*logs)[1].text == "id name it\\s");
        CHECK((*logs)[3].direction == '!');
        CHECK((*logs)[3].at_ms == 1200);
        CHECK((*logs)[7].text == "game " + std::to_string(id));
      }

      // The results count the same three games, as the engines' wins say.
      auto counted = aggregate_results(store, GameQuery{});
      REQUIRE(counted.ok());
      CHECK(counted->total_games == 3);

      // The migrated database takes new games (its ids go on after the old ones).
      GameRecord next = made[0].record;
      next.slot = -1;
      next.engine_hashes = {{std::string(64, 'a'), "", ""}, {std::string(64, 'b'), "", ""}};
      auto id = store.begin_game(next);
      REQUIRE(id.ok());
      CHECK(*id == 5);
      next.termination = v6_termination(made[0].record);
      REQUIRE(store.finish_game(*id, next).ok());
      CHECK(store.game(*id)->engine_hashes == next.engine_hashes);
      CHECK(aggregate_results(store, GameQuery{})->total_games == 4);
      auto problems = store.integrity_problems();
      REQUIRE(problems.ok());
      CHECK(problems->empty());
    }
}
