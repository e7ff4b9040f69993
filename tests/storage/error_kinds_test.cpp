// The kinds of storage's errors, decided where the failure arose (base/expected.h): the callers
// (the daemon's HTTP statuses, the workers' reconnections) switch on them, never on the text.
#include <catch2/catch.hpp>

#include <string>

#include "storage/store.h"
#include "storage/temp_dir.h"
#include "storage/work_queue.h"

using namespace referee::storage;
using referee::ErrorKind;
using storage_test::TempDir;

namespace {

GameRecord ek_game() {
  GameRecord g;
  g.game = "awale";
  g.players = {"a", "b"};
  g.time_control = "1+0";
  return g;
}

MoveRecord ek_move(int ply) {
  MoveRecord m;
  m.ply = ply;
  m.player = (ply - 1) % 2 + 1;
  m.move = "1";
  // A long info line: the file fills in a few hundred moves.
  m.info = std::string(2000, 'i');
  return m;
}

}  // namespace

TEST_CASE("error kinds: a missing event, game or slot owner is NotFound") {
  TempDir dir;
  auto store = Store::open(dir.file("k.db"));
  REQUIRE(store);
  auto event = work_queue::event(*store, 42);
  REQUIRE_FALSE(event);
  CHECK(event.kind() == ErrorKind::NotFound);
  CHECK(event.error().find("no event 42") != std::string::npos);  // still said for people
  auto priority = work_queue::set_event_priority(*store, 42, 3);
  REQUIRE_FALSE(priority);
  CHECK(priority.kind() == ErrorKind::NotFound);
  auto game = store->game(7);
  REQUIRE_FALSE(game);
  CHECK(game.kind() == ErrorKind::NotFound);
  auto finished = work_queue::finish_claimed(*store, 7, ek_game(), 1);
  REQUIRE_FALSE(finished);
  CHECK(finished.kind() == ErrorKind::NotFound);
}

TEST_CASE("error kinds: an event re-opened with another specification is Conflict") {
  TempDir dir;
  auto store = Store::open(dir.file("k.db"));
  REQUIRE(store);
  REQUIRE(work_queue::open_tournament(*store, "cup", "{\"games\": 2}"));
  REQUIRE(work_queue::open_tournament(*store, "cup", "{\"games\": 2}"));  // the same: fine
  auto other = work_queue::open_tournament(*store, "cup", "{\"games\": 4}");
  REQUIRE_FALSE(other);
  CHECK(other.kind() == ErrorKind::Conflict);
  // A game outside any event's slots cannot end a claim: Conflict, not NotFound.
  auto id = store->begin_game(ek_game());
  REQUIRE(id);
  auto outside = work_queue::finish_claimed(*store, *id, ek_game(), 1);
  REQUIRE_FALSE(outside);
  CHECK(outside.kind() == ErrorKind::Conflict);
  // A second batch while one is open: Conflict of state.
  REQUIRE(store->begin_batch());
  auto twice = store->begin_batch();
  REQUIRE_FALSE(twice);
  CHECK(twice.kind() == ErrorKind::Conflict);
  REQUIRE(store->commit_batch());
}

TEST_CASE("error kinds: records that do not fit are Invalid") {
  TempDir dir;
  auto store = Store::open(dir.file("k.db"));
  REQUIRE(store);
  GameRecord nobody = ek_game();
  nobody.players.clear();
  auto begun = store->begin_game(nobody);
  REQUIRE_FALSE(begun);
  CHECK(begun.kind() == ErrorKind::Invalid);
  auto id = store->begin_game(ek_game());
  REQUIRE(id);
  GameRecord one_rank = ek_game();
  one_rank.status = referee::storage::GameStatus::Finished;
  one_rank.ranks = {1};
  auto finished = store->finish_game(*id, one_rank);
  REQUIRE_FALSE(finished);
  CHECK(finished.kind() == ErrorKind::Invalid);
}

TEST_CASE("error kinds: a full SQLite file (max_page_count) is Full") {
  TempDir dir;
  const std::string path = dir.file("full.db");
  { REQUIRE(Store::open(path)); }  // created at its schema's size
  OpenOptions options;
  options.max_page_count = 80;
  auto store = Store::open(path, options);
  REQUIRE(store);
  auto id = store->begin_game(ek_game());
  REQUIRE(id);
  referee::Status last = referee::Ok{};
  for (int ply = 1; ply <= 2000 && last; ++ply) last = store->add_move(*id, ek_move(ply));
  REQUIRE_FALSE(last);
  INFO(last.error());
  CHECK(last.kind() == ErrorKind::Full);
  CHECK(last.error().rfind(path, 0) == 0);  // names the file
}

TEST_CASE("error kinds: a file that is not a database is Io, a directory Invalid") {
  TempDir dir;
  const std::string junk = dir.file("junk.db");
  storage_test::write_bytes(junk, std::string(8192, 'x'));
  auto opened = Store::open(junk);
  REQUIRE_FALSE(opened);
  CHECK(opened.kind() == ErrorKind::Io);
  auto directory = Store::open(dir.file("."));
  REQUIRE_FALSE(directory);
  CHECK(directory.kind() == ErrorKind::Invalid);
  OpenOptions read_only;
  read_only.read_only = true;
  auto missing = Store::open(dir.file("absent.db"), read_only);
  REQUIRE_FALSE(missing);
  CHECK(missing.kind() == ErrorKind::NotFound);
}
