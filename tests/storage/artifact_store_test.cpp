// Schema v13: engine artifacts stored by hash and deduplicated, their bytes given back identical
// (binary, over several chunks), names owned by their first uploader, versions counted per name,
// references (name, name@N, a hash) and retirement; a v12 file opened read-only reads as having no
// artifacts. On both backends (backends.h).
#include <catch2/catch.hpp>

#include "storage/artifact_store.h"
#include "storage/backends.h"
#include "storage/old_schema.h"
#include "storage/store.h"

using namespace referee::storage;
using referee::ArtifactKind;
using referee::ErrorKind;

namespace {

using storage_test::open_ok;

NewArtifactVersion version_of(const std::string& name, const std::string& hash,
                              const std::string& by, bool by_operator = false) {
  NewArtifactVersion v;
  v.name = name;
  v.command = "python3 bot.py";
  v.by = by;
  v.by_operator = by_operator;
  v.artifact.sha256 = hash;
  v.artifact.kind = ArtifactKind::File;
  v.artifact.file_name = "bot.py";
  v.artifact.extracted_bytes = 10;
  v.artifact.files = 1;
  return v;
}

// Every byte value, then enough to need three chunks.
std::string binary_bytes() {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  bytes += std::string(2 * artifact_store::kChunkBytes + 17, '\0');
  bytes.back() = '\xff';
  return bytes;
}

}  // namespace

TEST_CASE("artifacts: the bytes come back identical, once per hash, whatever the names") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      const std::string hash(64, 'a');
      const std::string bytes = binary_bytes();
      auto first = artifact_store::add_version(store, version_of("mybot", hash, "alice"), bytes);
      REQUIRE(first.ok());
      CHECK(first->created);
      CHECK(first->artifact_created);
      CHECK(first->version.label() == "mybot@1");
      CHECK(first->version.owner == "alice");
      CHECK(first->version.artifact.size == static_cast<std::int64_t>(bytes.size()));
      CHECK(*artifact_store::read_bytes(store, hash) == bytes);
      int chunks = 0;
      REQUIRE(artifact_store::read_bytes(store, hash, [&](std::string_view) { ++chunks; }).ok());
      CHECK(chunks == 3);

      // The same bytes again under the same name: the same version, nothing new.
      auto again = artifact_store::add_version(store, version_of("mybot", hash, "alice"), bytes);
      REQUIRE(again.ok());
      CHECK_FALSE(again->created);
      CHECK(again->version.version == 1);
      // The same bytes under another name: a version of it, one artifact.
      auto other = artifact_store::add_version(store, version_of("copy", hash, "bob"), bytes);
      REQUIRE(other.ok());
      CHECK(other->created);
      CHECK_FALSE(other->artifact_created);
      CHECK(artifact_store::versions(store)->size() == 2);
      CHECK(artifact_store::read_bytes(store, std::string(64, 'b')).kind() == ErrorKind::NotFound);
    }
}

TEST_CASE("artifacts: a name belongs to its first uploader, the operator adds to any") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      REQUIRE(artifact_store::add_version(store, version_of("mybot", std::string(64, 'a'), "alice"),
                                          "one")
                  .ok());
      auto taken = artifact_store::add_version(
          store, version_of("mybot", std::string(64, 'b'), "bob"), "two");
      REQUIRE_FALSE(taken.ok());
      CHECK(taken.kind() == ErrorKind::Denied);
      CHECK(taken.error().find("alice") != std::string::npos);
      CHECK(artifact_store::versions(store, "mybot")->size() == 1);  // nothing stored

      auto second = artifact_store::add_version(
          store, version_of("mybot", std::string(64, 'b'), "alice"), "two");
      REQUIRE(second.ok());
      CHECK(second->version.label() == "mybot@2");
      auto by_operator = artifact_store::add_version(
          store, version_of("mybot", std::string(64, 'c'), "operator", true), "three");
      REQUIRE(by_operator.ok());
      CHECK(by_operator->version.version == 3);
      CHECK(by_operator->version.owner == "alice");  // the name stays alice's
      CHECK(by_operator->version.uploaded_by == "operator");
      // The same bytes with another command are a new version.
      auto command = version_of("mybot", std::string(64, 'c'), "alice");
      command.command = "python3 -u bot.py";
      CHECK(artifact_store::add_version(store, command, "three")->version.version == 4);
    }
}

TEST_CASE("artifacts: name, name@N and a hash name a version, retired ones only by number") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      Store store = open_ok(db.url());
      const std::string a(64, 'a'), b(64, 'b');
      REQUIRE(artifact_store::add_version(store, version_of("mybot", a, "alice"), "one").ok());
      REQUIRE(artifact_store::add_version(store, version_of("mybot", b, "alice"), "two").ok());
      CHECK((*artifact_store::find(store, "mybot"))->version == 2);
      CHECK((*artifact_store::find(store, "mybot@1"))->artifact.sha256 == a);
      CHECK((*artifact_store::find(store, std::string(64, 'A')))->label() == "mybot@1");
      CHECK_FALSE(artifact_store::find(store, "mybot@3")->has_value());
      CHECK_FALSE(artifact_store::find(store, "other")->has_value());
      CHECK(artifact_store::find(store, "mybot@0").kind() == ErrorKind::Invalid);
      CHECK(artifact_store::find(store, "mybot@x").kind() == ErrorKind::Invalid);
      CHECK(artifact_store::find(store, "../x").kind() == ErrorKind::Invalid);

      CHECK(artifact_store::retire(store, "mybot@2", "bob", false).kind() == ErrorKind::Denied);
      CHECK(*artifact_store::retire(store, "mybot@2", "alice", false) == 1);
      CHECK((*artifact_store::find(store, "mybot"))->version == 1);  // the newest live one
      CHECK_FALSE((*artifact_store::find(store, "mybot@2"))->retired_at.empty());
      CHECK(*artifact_store::retire(store, "mybot", "operator", true) == 1);
      CHECK_FALSE(artifact_store::find(store, "mybot")->has_value());
      CHECK(*artifact_store::retire(store, "mybot", "alice", false) == 0);
      CHECK(artifact_store::retire(store, "nobody", "alice", false).kind() == ErrorKind::NotFound);
      CHECK(artifact_store::retire(store, "mybot@9", "alice", false).kind() == ErrorKind::NotFound);
    }
}

TEST_CASE("artifacts: names, hashes and commands are checked before anything is stored") {
  storage_test::TestDb db("sqlite");
  Store store = open_ok(db.url());
  for (const char* bad : {"", "-x", "a b", "a@1", "a/b", "é"}) {
    auto added =
        artifact_store::add_version(store, version_of(bad, std::string(64, 'a'), "alice"), "x");
    CHECK(added.kind() == ErrorKind::Invalid);
  }
  CHECK(artifact_store::add_version(
            store, version_of(std::string(64, 'a'), std::string(64, 'a'), "alice"), "x")
            .kind() == ErrorKind::Invalid);
  CHECK(artifact_store::add_version(store, version_of("x", "abc", "alice"), "x").kind() ==
        ErrorKind::Invalid);
  auto no_command = version_of("x", std::string(64, 'a'), "alice");
  no_command.command = "";
  CHECK(artifact_store::add_version(store, no_command, "x").kind() == ErrorKind::Invalid);
  CHECK(artifact_store::versions(store)->empty());
}

TEST_CASE("migration: v13 applies on a v12 database, read-only it has no artifacts") {
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb db(backend);
      {
        auto v12 = storage_test::database_at(db.url(), 12);
        v12->exec("INSERT INTO engines (name, command) VALUES ('a', '/bin/true')");
      }
      if (backend == "sqlite") {
        OpenOptions read_only;
        read_only.read_only = true;
        auto old = Store::open(db.url(), read_only);
        INFO((old ? std::string() : old.error()));
        REQUIRE(old.ok());
        CHECK(artifact_store::versions(*old)->empty());
        CHECK_FALSE(artifact_store::find(*old, "mybot")->has_value());
      }
      Store store = open_ok(db.url());  // migrates
      REQUIRE(artifact_store::add_version(store, version_of("mybot", std::string(64, 'a'), "alice"),
                                          "one")
                  .ok());
      CHECK(artifact_store::versions(store)->size() == 1);
    }
}
