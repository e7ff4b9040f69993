// Stored engines for the service tests (ladder_artifacts_test.cpp, worker_artifacts_test.cpp):
// versions of the mock engine added to a database (SQLite file or PostgreSQL URL) as a given
// author would upload them, and the checks the sandbox needs before anything is played.
#pragma once

#include <pwd.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "engines/artifact.h"
#include "storage/artifact_store.h"
#include "storage/store.h"
#include "tests/service/daemon_util.h"

namespace stest {

// Adds a version of `name` by `by` (its owner when first): the mock engine, started by `command`
// (words after `./mock_engine`: a different command is a new version of the same bytes).
// `from`: the mock engine's file, or a copy of it (a test may delete it after: the bytes are then
// in the database only).
inline referee::storage::ArtifactVersion add_stored_mock(const std::string& db,
                                                         const std::string& name,
                                                         const std::string& by,
                                                         const std::string& command_args = "",
                                                         const std::string& from = kMock) {
  namespace e = referee::engines;
  auto bytes = e::read_artifact(from);
  REQUIRE(bytes);
  auto manifest = e::inspect_artifact(bytes->kind, bytes->file_name, bytes->bytes, {});
  REQUIRE(manifest);
  referee::storage::NewArtifactVersion v;
  v.name = name;
  v.command = "./" + bytes->file_name + (command_args.empty() ? "" : " " + command_args);
  v.by = by;
  v.by_operator = by == "operator";
  v.artifact.sha256 = bytes->sha256;
  v.artifact.kind = bytes->kind;
  v.artifact.file_name = bytes->file_name;
  v.artifact.extracted_bytes = static_cast<std::int64_t>(manifest->total_bytes);
  v.artifact.files = static_cast<std::int64_t>(manifest->file_count());
  auto store = referee::storage::Store::open(db);
  REQUIRE(store);
  auto added = referee::storage::artifact_store::add_version(*store, v, bytes->bytes);
  INFO((added ? std::string() : added.error()));
  REQUIRE(added);
  REQUIRE(added->created);
  return added->version;
}

// Fails (never skips) without what the sandbox needs: bubblewrap and the user referee-engine.
inline void require_sandbox() {
  if (!::getpwnam("referee-engine"))
    FAIL("no user referee-engine: run deps.sh (it creates it for the sandbox)");
  if (!std::filesystem::exists("/usr/bin/bwrap"))
    FAIL("bubblewrap is not installed: run deps.sh (stored engines run only in its sandbox)");
}

// `dir` and its parents crossable by the sandbox's user (mkdtemp makes them 0700).
inline void let_sandbox_cross(const std::string& dir) {
  for (std::filesystem::path p = dir; !p.empty() && p != p.root_path(); p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && (st.st_mode & 0011) != 0011)
      ::chmod(p.c_str(), (st.st_mode & 07777) | 0011);
  }
}

}  // namespace stest
