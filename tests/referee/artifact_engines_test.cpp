// Engines of stored artifacts in tournament files (event/artifact_engines.h): `artifact = REF`
// read with its checks (no command, dir or sha256 beside it; the name defaults to the reference;
// always sandboxed), resolved against the database to the version it names (newest live by name,
// by number, by hash; a retired or unknown one refused with one line naming the engine), its
// args after the version's command words, and the event's specification pinning the artifact.
#include <catch2/catch.hpp>

#include "event/artifact_engines.h"
#include "event/event_spec.h"
#include "referee/event/tournament_config.h"
#include "storage/artifact_store.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::event;
using rtest::contains;

namespace {

std::string file_with(const std::string& second_engine) {
  return "name = \"t\"\ngames = [\"awale\"]\ntc = \"10+0.1\"\n[[engine]]\nname = \"host\"\n"
         "command = \"/bin/true\"\n[[engine]]\n" +
         second_engine;
}

Expected<TournamentConfig> load(const rtest::TempDir& dir, const std::string& text) {
  rtest::write_text(dir.file("t.toml"), text);
  return load_tournament_file(dir.file("t.toml"));
}

// Stores a version of `name` whose artifact has the hash made of `digit`.
void store_version(storage::Database& db, const std::string& name, char digit,
                   const std::string& command = "python3 bot.py --quiet") {
  storage::NewArtifactVersion v;
  v.name = name;
  v.command = command;
  v.by = "operator";
  v.by_operator = true;
  v.artifact.sha256 = std::string(64, digit);
  v.artifact.kind = ArtifactKind::File;
  v.artifact.file_name = "bot.py";
  REQUIRE(storage::artifact_store::add_version(db, v, std::string(1, digit)).ok());
}

}  // namespace

TEST_CASE("artifact engines: the file names a stored engine, nothing of the host") {
  rtest::TempDir dir;
  auto c = load(dir, file_with("artifact = \"mybot@2\"\nargs = [\"--depth\", \"3\"]\n"));
  INFO((c ? std::string() : c.error()));
  REQUIRE(c.ok());
  const auto& e = c->engines[1];
  CHECK(e.artifact_ref == "mybot@2");
  CHECK(e.config.name == "mybot@2");  // named after the reference
  CHECK(e.config.sandbox);
  CHECK(e.config.command.empty());  // until resolved
  CHECK(e.config.args == std::vector<std::string>{"--depth", "3"});

  const std::vector<std::string> besides = {"command = \"./x\"", "dir = \"d\"",
                                            "sha256 = \"" + std::string(64, 'a') + "\""};
  for (const std::string& beside : besides) {
    auto refused = load(dir, file_with("artifact = \"mybot\"\n" + beside + "\n"));
    REQUIRE_FALSE(refused.ok());
    CHECK(contains(refused.error(), "'artifact' names a stored engine"));
    CHECK(contains(refused.error(), "(mybot)"));
  }
  auto neither = load(dir, file_with("name = \"x\"\n"));
  REQUIRE_FALSE(neither.ok());
  CHECK(contains(neither.error(), "'command' (or 'artifact') is missing"));
}

TEST_CASE("artifact engines: a reference resolves to its version, pinned by hash and command") {
  rtest::TempDir dir;
  auto db = storage::Store::open(dir.file("t.db"));
  REQUIRE(db.ok());
  store_version(*db, "mybot", '1');
  store_version(*db, "mybot", '2', "./bot.py");
  auto c = load(dir, file_with("artifact = \"mybot\"\nargs = [\"--depth\", \"3\"]\n"));
  REQUIRE(c.ok());
  REQUIRE(resolve_artifacts(*db, c->engines).ok());
  const auto& newest = c->engines[1].config;
  CHECK(newest.artifact == std::string(64, '2'));
  CHECK(newest.command == "./bot.py");  // relative to the artifact's root, never made absolute
  CHECK(newest.args == std::vector<std::string>{"--depth", "3"});
  CHECK(c->engines[0].config.artifact.empty());  // a host command is left as it is

  c = load(dir, file_with("artifact = \"mybot@1\"\nargs = [\"--depth\", \"3\"]\n"));
  REQUIRE(c.ok());
  REQUIRE(resolve_artifacts(*db, c->engines).ok());
  const auto& first = c->engines[1].config;
  CHECK(first.artifact == std::string(64, '1'));
  CHECK(first.command == "python3");
  CHECK(first.args == std::vector<std::string>{"bot.py", "--quiet", "--depth", "3"});

  // The specification pins the artifact and reads back the same, its command still relative.
  const std::string spec = event_spec(*c);
  CHECK(contains(spec, std::string(64, '1')));
  auto back = config_from_spec(spec);
  REQUIRE(back.ok());
  CHECK(back->engines[1].config.artifact == std::string(64, '1'));
  CHECK(back->engines[1].config.command == "python3");
  CHECK(back->engines[1].config.sandbox);
  CHECK(back->engines[1].artifact_ref == "mybot@1");
}

TEST_CASE("artifact engines: an unknown, retired or malformed reference is one line") {
  rtest::TempDir dir;
  auto db = storage::Store::open(dir.file("t.db"));
  REQUIRE(db.ok());
  store_version(*db, "mybot", '1');
  REQUIRE(storage::artifact_store::retire(*db, "mybot@1", "operator", true).ok());
  struct Case {
    std::string ref;
    ErrorKind kind;
    std::string says;
  };
  for (const Case& k : {Case{"other", ErrorKind::NotFound, "no stored engine \"other\""},
                        Case{"mybot", ErrorKind::NotFound, "no stored engine \"mybot\""},
                        Case{"mybot@1", ErrorKind::Conflict, "mybot@1 is retired"},
                        Case{"mybot@one", ErrorKind::Invalid, "a version is a number"}}) {
    auto c = load(dir, file_with("artifact = \"" + k.ref + "\"\n"));
    REQUIRE(c.ok());
    Status resolved = resolve_artifacts(*db, c->engines);
    INFO(k.ref);
    REQUIRE_FALSE(resolved.ok());
    CHECK(resolved.kind() == k.kind);
    CHECK(contains(resolved.error(), "engine '" + k.ref + "'"));
    CHECK(contains(resolved.error(), k.says));
    CHECK_FALSE(contains(resolved.error(), "\n"));
  }
}
