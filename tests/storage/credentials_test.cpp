// Schema v12: author tokens stored by their hash (add, list without tokens, revoke, look up only
// those in force, a revoked name given a new token), names checked, and who submitted each event
// and registered engine; the migration from v11 keeps what was there with an empty submitter, and
// a v11 file opened read-only is read as if it had the column. On both backends (backends.h).
#include <catch2/catch.hpp>

#include "storage/backends.h"
#include "storage/credentials.h"
#include "storage/database.h"
#include "storage/engine_registry.h"
#include "storage/old_schema.h"
#include "storage/store.h"
#include "storage/work_queue.h"

using namespace referee::storage;

namespace {

using storage_test::open_ok;

const std::string kHashA(64, 'a');
const std::string kHashB(64, 'b');
const std::string kHashC(64, 'c');

}  // namespace

TEST_CASE("credentials: author tokens are kept by hash, listed by name, revoked for good") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      REQUIRE(credentials::add_author(store, "alice", kHashA).ok());
      REQUIRE(credentials::add_author(store, "bob", kHashB).ok());
      // A name with a token in force is not given a second one.
      auto twice = credentials::add_author(store, "alice", kHashC);
      REQUIRE_FALSE(twice.ok());
      CHECK(twice.kind() == referee::ErrorKind::Conflict);
      CHECK(*credentials::author_of(store, kHashA) == std::optional<std::string>("alice"));
      CHECK(*credentials::author_of(store, kHashB) == std::optional<std::string>("bob"));
      CHECK_FALSE(credentials::author_of(store, kHashC)->has_value());

      auto list = credentials::authors(store);
      REQUIRE(list.ok());
      REQUIRE(list->size() == 2);
      CHECK((*list)[0].name == "alice");
      CHECK((*list)[1].name == "bob");
      CHECK_FALSE((*list)[0].created_at.empty());
      CHECK((*list)[0].revoked_at.empty());

      CHECK(*credentials::revoke_author(store, "alice") == true);
      CHECK(*credentials::revoke_author(store, "alice") == false);
      CHECK(credentials::revoke_author(store, "nobody").kind() == referee::ErrorKind::NotFound);
      CHECK_FALSE(credentials::author_of(store, kHashA)->has_value());  // refused from now on
      CHECK_FALSE(credentials::authors(store)->front().revoked_at.empty());
      // The name may be given a new token; the old one stays refused.
      REQUIRE(credentials::add_author(store, "alice", kHashC).ok());
      CHECK(*credentials::author_of(store, kHashC) == std::optional<std::string>("alice"));
      CHECK_FALSE(credentials::author_of(store, kHashA)->has_value());
      CHECK(credentials::authors(store)->front().revoked_at.empty());
    }
}

TEST_CASE(
    "credentials: names are printable, at most 200 bytes, never 'operator' — hashes are hex") {
  CHECK(credentials::check_author_name("alice@example.org").ok());
  CHECK(credentials::check_author_name(std::string(200, 'x')).ok());
  CHECK_FALSE(credentials::check_author_name(std::string(201, 'x')).ok());
  CHECK_FALSE(credentials::check_author_name("").ok());
  CHECK_FALSE(credentials::check_author_name("two words").ok());
  CHECK_FALSE(credentials::check_author_name("line\nbreak").ok());
  CHECK_FALSE(credentials::check_author_name("caf\xc3\xa9").ok());
  CHECK_FALSE(credentials::check_author_name("operator").ok());
  storage_test::TempDir dir;
  Store store = open_ok(dir.file("t.db"));
  CHECK(credentials::add_author(store, "a b", kHashA).kind() == referee::ErrorKind::Invalid);
  CHECK(credentials::add_author(store, "a", "not a hash").kind() == referee::ErrorKind::Invalid);
  CHECK(credentials::add_author(store, "a", std::string(64, 'A')).kind() ==
        referee::ErrorKind::Invalid);
}

TEST_CASE("credentials: events and registered engines record who submitted them") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      NewEventOptions options;
      options.submitted_by = "alice";
      auto row = work_queue::open_event(store, "e1", "{}", "", {}, options);
      REQUIRE(row.ok());
      CHECK(work_queue::event(store, row->id)->submitted_by == "alice");
      auto local = work_queue::open_event(store, "e2", "{}", "", {});
      REQUIRE(local.ok());
      CHECK(work_queue::event(store, local->id)->submitted_by.empty());
      auto listed = work_queue::events(store, {});
      REQUIRE(listed.ok());
      CHECK(listed->events.size() == 2);

      RegisteredEngine e;
      e.name = "bot";
      e.command = "/bin/true";
      e.games = {"awale"};
      e.submitted_by = "operator";
      auto stored = engine_registry::register_engine(store, e);
      REQUIRE(stored.ok());
      CHECK(stored->submitted_by == "operator");
      e.submitted_by = "bob";  // registered again: the last registration's submitter
      CHECK(engine_registry::register_engine(store, e)->submitted_by == "bob");
      CHECK(engine_registry::engines(store)->front().submitted_by == "bob");
    }
}

TEST_CASE("migration: v12 applies on a v11 database: no tokens, nothing submitted by anyone") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      {
        auto v11 = storage_test::database_at(db.url(), 11);
        v11->exec("INSERT INTO engines (name, command) VALUES ('a', '/bin/true')");
        v11->exec("INSERT INTO events (id, name, spec, state) VALUES (1, 'old', '{}', 'paused')");
      }
      if (backend == "sqlite") {
        OpenOptions read_only;
        read_only.read_only = true;
        auto old = Store::open(db.url(), read_only);
        INFO((old ? std::string() : old.error()));
        REQUIRE(old.ok());
        auto e = work_queue::event(*old, 1);
        REQUIRE(e.ok());
        CHECK(e->name == "old");
        CHECK(e->submitted_by.empty());
        CHECK(engine_registry::engines(*old)->front().submitted_by.empty());
      }
      Store store = open_ok(db.url());  // migrates
      auto e = work_queue::event(store, 1);
      REQUIRE(e.ok());
      CHECK(e->submitted_by.empty());
      CHECK(e->state == EventState::Paused);
      CHECK(engine_registry::engines(store)->front().submitted_by.empty());
      CHECK(credentials::authors(store)->empty());
      REQUIRE(credentials::add_author(store, "alice", kHashA).ok());
    }
}
