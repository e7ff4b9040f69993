// The artifact cache (engines/artifact_cache.h): one extraction per hash (loads counted), a hash
// mismatch refused with nothing kept, threads and processes materialising one hash at once, the
// read-only result another user can read, LRU cleaning that skips leased entries, and a damaged
// entry extracted again.
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <thread>
#include <vector>

#include "engines/artifact_cache.h"
#include "engines/artifact_util.h"
#include "engines/sandbox.h"

using namespace referee::engines;

namespace artifact_cache_test {

// An artifact's bytes and a loader that counts its calls.
struct Source {
  std::string bytes;
  std::string sha256;
  std::atomic<int> loads{0};
  explicit Source(std::string b) : bytes(std::move(b)), sha256(bytes_sha256(bytes)) {}
  std::function<referee::Expected<std::string>()> loader() {
    return [this]() -> referee::Expected<std::string> {
      ++loads;
      return bytes;
    };
  }
};

std::string tree(const std::string& tag, std::size_t size = 100) {
  return artifact_test::TarBuilder()
      .file("bot", "#!/bin/sh\necho " + tag + "\n", 0755)
      .dir("lib")
      .file("lib/data", std::string(size, 'x'))
      .symlink("run", "bot")
      .bytes();
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

bool complete(const std::string& root, const std::string& tag) {
  return artifact_test::slurp(root + "/bot") == "#!/bin/sh\necho " + tag + "\n" &&
         artifact_test::slurp(root + "/lib/data").size() == 100;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& it : std::filesystem::directory_iterator(dir))
    out.push_back(it.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace artifact_cache_test

TEST_CASE("artifact cache: extracts once, read-only, readable by the sandbox's user alone") {
  artifact_test::TempDir d;
  ::chmod(d.str().c_str(), 0711);
  const std::string dir = d.str() + "/cache";
  ArtifactCache cache(dir, 1 << 20);
  artifact_cache_test::Source s(artifact_cache_test::tree("one"));
  std::string root;
  {
    auto lease = cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {});
    REQUIRE(lease.ok());
    root = lease->root();
    CHECK(root == dir + "/" + s.sha256 + "/root");
    CHECK(artifact_cache_test::complete(root, "one"));
  }
  auto again = cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {});
  REQUIRE(again.ok());
  CHECK(again->root() == root);
  CHECK(s.loads == 1);

  CHECK(artifact_cache_test::mode_of(root) == 0555);
  CHECK(artifact_cache_test::mode_of(root + "/lib") == 0555);
  CHECK(artifact_cache_test::mode_of(root + "/bot") == 0555);
  CHECK(artifact_cache_test::mode_of(root + "/lib/data") == 0444);
  CHECK(artifact_cache_test::mode_of(dir + "/" + s.sha256 + ".lock") == 0600);

  // A File artifact: <root>/<file_name>.
  artifact_cache_test::Source f("#!/usr/bin/env python3\nprint(1)\n");
  auto file = cache.materialise(f.sha256, ArtifactKind::File, "bot.py", f.loader(), {});
  REQUIRE(file.ok());
  CHECK(artifact_test::slurp(file->root() + "/bot.py") == f.bytes);
  CHECK(artifact_cache_test::mode_of(file->root() + "/bot.py") == 0555);

  // Root runs engines as referee-engine: the cache directory is that user's group's to cross,
  // and no one else's.
  const auto group = sandbox_user_group(Sandbox{}.user);
  if (::geteuid() != 0) {
    CHECK_FALSE(group.has_value());
    CHECK(artifact_cache_test::mode_of(dir) == 0700);
    WARN("not root: engines run as this user; the reads of other users are not checked");
    return;
  }
  // Copies: getpwnam's entry is overwritten by the next call.
  struct Account {
    uid_t uid;
    gid_t gid;
  };
  auto account = [](const char* name) {
    const passwd* p = ::getpwnam(name);
    REQUIRE(p);  // referee-engine: deps.sh creates it
    return Account{p->pw_uid, p->pw_gid};
  };
  const Account engine_user = account(Sandbox{}.user.c_str());
  const Account nobody = account("nobody");
  REQUIRE(group == engine_user.gid);
  CHECK(artifact_cache_test::mode_of(dir) == 0710);
  struct stat st {};
  REQUIRE(::stat(dir.c_str(), &st) == 0);
  CHECK(st.st_gid == engine_user.gid);
  // What a user reads of the artifact: 0 all of it, 1 none.
  auto read_as = [&](const Account& user) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(user.gid) != 0 || ::setuid(user.uid) != 0)
        ::_exit(2);
      const bool all = artifact_cache_test::complete(root, "one") &&
                       std::filesystem::exists(root + "/run") &&
                       ::access((root + "/bot").c_str(), X_OK) == 0 &&
                       ::access((root + "/bot").c_str(), W_OK) != 0;
      const bool none = ::access((root + "/bot").c_str(), R_OK) != 0 && errno == EACCES &&
                        ::access(root.c_str(), X_OK) != 0;
      ::_exit(all ? 0 : none ? 1 : 3);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    return WEXITSTATUS(status);
  };
  CHECK(read_as(engine_user) == 0);
  CHECK(read_as(nobody) == 1);
  // A cache made open before is closed at its next use.
  REQUIRE(::chmod(dir.c_str(), 0711) == 0);
  REQUIRE(cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {}).ok());
  CHECK(artifact_cache_test::mode_of(dir) == 0710);
  CHECK(read_as(nobody) == 1);
}

TEST_CASE("artifact cache: the same bytes as two file names are two entries") {
  artifact_test::TempDir d;
  ArtifactCache cache(d.str() + "/cache", 1 << 20);
  artifact_cache_test::Source s("print(1)\n");
  auto one = cache.materialise(s.sha256, ArtifactKind::File, "bot.py", s.loader(), {});
  auto two = cache.materialise(s.sha256, ArtifactKind::File, "main.py", s.loader(), {});
  REQUIRE((one.ok() && two.ok()));
  CHECK(one->root() != two->root());
  CHECK(artifact_test::slurp(one->root() + "/bot.py") == s.bytes);
  CHECK(artifact_test::slurp(two->root() + "/main.py") == s.bytes);
  auto again = cache.materialise(s.sha256, ArtifactKind::File, "bot.py", s.loader(), {});
  REQUIRE(again.ok());
  CHECK(again->root() == one->root());
  CHECK(s.loads == 2);
}

TEST_CASE("artifact cache: bytes whose SHA-256 is not the key are refused, nothing kept") {
  artifact_test::TempDir d;
  ArtifactCache cache(d.str() + "/cache", 1 << 20);
  artifact_cache_test::Source s(artifact_cache_test::tree("one"));
  artifact_cache_test::Source other(artifact_cache_test::tree("two"));
  auto lease = cache.materialise(s.sha256, ArtifactKind::Tree, "", other.loader(), {});
  REQUIRE_FALSE(lease.ok());
  CHECK(lease.kind() == referee::ErrorKind::Invalid);
  CHECK_THAT(lease.error(), Catch::Contains(other.sha256));
  for (const std::string& name : artifact_cache_test::entries(d.str() + "/cache"))
    CHECK((name.find(".tmp-") == std::string::npos &&
           name.find(s.sha256 + "/") == std::string::npos));
  CHECK_FALSE(std::filesystem::exists(d.str() + "/cache/" + s.sha256));
  // Its lock files go at the next cleaning.
  REQUIRE(cache.clean().ok());
  CHECK(std::filesystem::is_empty(d.str() + "/cache"));

  // A refused artifact with the right hash: nothing kept either.
  artifact_cache_test::Source hostile(artifact_test::TarBuilder().file("../evil", "x").bytes());
  lease = cache.materialise(hostile.sha256, ArtifactKind::Tree, "", hostile.loader(), {});
  REQUIRE_FALSE(lease.ok());
  CHECK_THAT(lease.error(), Catch::Contains("../evil"));
  CHECK_FALSE(std::filesystem::exists(d.str() + "/cache/" + hostile.sha256));

  // Not a key; a loader's own error passed on.
  CHECK_FALSE(cache.materialise("ABC", ArtifactKind::Tree, "", s.loader(), {}).ok());
  auto failing = cache.materialise(s.sha256, ArtifactKind::Tree, "",
                                   []() -> referee::Expected<std::string> {
                                     return referee::Error{"gone", referee::ErrorKind::NotFound};
                                   },
                                   {});
  REQUIRE_FALSE(failing.ok());
  CHECK(failing.kind() == referee::ErrorKind::NotFound);
}

TEST_CASE("artifact cache: threads materialising one hash share one extraction") {
  artifact_test::TempDir d;
  ArtifactCache cache(d.str() + "/cache", 1 << 20);
  artifact_cache_test::Source s(artifact_cache_test::tree("one"));
  constexpr int kThreads = 8;
  std::vector<std::string> roots(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      auto lease = cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {});
      if (lease.ok() && artifact_cache_test::complete(lease->root(), "one"))
        roots[static_cast<std::size_t>(i)] = lease->root();
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& root : roots) CHECK(root == d.str() + "/cache/" + s.sha256 + "/root");
  CHECK(s.loads == 1);
  // No temporary directory left behind.
  CHECK(artifact_cache_test::entries(d.str() + "/cache") ==
        std::vector<std::string>{s.sha256, s.sha256 + ".fill", s.sha256 + ".lock"});
}

TEST_CASE("artifact cache: processes materialising one hash end with one entry") {
  artifact_test::TempDir d;
  artifact_cache_test::Source s(artifact_cache_test::tree("one", 4 << 20));
  constexpr int kProcesses = 4;
  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Each process its own cache object, as separate referee processes would have.
      ArtifactCache cache(d.str() + "/cache", 64 << 20);
      int loads = 0;
      auto lease = cache.materialise(s.sha256, ArtifactKind::Tree, "",
                                     [&]() -> referee::Expected<std::string> {
                                       ++loads;
                                       return s.bytes;
                                     },
                                     {});
      const bool ok = lease.ok() &&
                      artifact_test::slurp(lease->root() + "/bot") == "#!/bin/sh\necho one\n" &&
                      std::filesystem::file_size(lease->root() + "/lib/data") == (4u << 20);
      ::_exit(ok ? 10 + loads : 1);
    }
    children.push_back(pid);
  }
  int loads = 0;
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) >= 10);
    loads += WEXITSTATUS(status) - 10;
  }
  CHECK(loads == 1);
  CHECK(artifact_cache_test::entries(d.str() + "/cache") ==
        std::vector<std::string>{s.sha256, s.sha256 + ".fill", s.sha256 + ".lock"});
}

TEST_CASE("artifact cache: cleaning removes the least recently used, never a leased one") {
  artifact_test::TempDir d;
  const std::string dir = d.str() + "/cache";
  // Each entry is its two files' bytes: room for two.
  const std::uint64_t entry_bytes = std::string("#!/bin/sh\necho a\n").size() + 100;
  ArtifactCache cache(dir, 2 * entry_bytes + 10);
  artifact_cache_test::Source a(artifact_cache_test::tree("a")), b(artifact_cache_test::tree("b")),
      c(artifact_cache_test::tree("c")), e(artifact_cache_test::tree("e"));
  auto lease_a = cache.materialise(a.sha256, ArtifactKind::Tree, "", a.loader(), {});
  REQUIRE(lease_a.ok());
  REQUIRE(cache.materialise(b.sha256, ArtifactKind::Tree, "", b.loader(), {}).ok());
  // c makes three: b goes, since a, older, is leased.
  REQUIRE(cache.materialise(c.sha256, ArtifactKind::Tree, "", c.loader(), {}).ok());
  CHECK(std::filesystem::exists(dir + "/" + a.sha256));
  CHECK_FALSE(std::filesystem::exists(dir + "/" + b.sha256));
  CHECK_FALSE(std::filesystem::exists(dir + "/" + b.sha256 + ".lock"));
  CHECK(std::filesystem::exists(dir + "/" + c.sha256));
  CHECK(artifact_cache_test::complete(lease_a->root(), "a"));

  // The lease gone, a is the oldest: e pushes it out.
  lease_a = referee::Expected<ArtifactLease>(referee::Error{"released"});
  REQUIRE(cache.materialise(e.sha256, ArtifactKind::Tree, "", e.loader(), {}).ok());
  CHECK_FALSE(std::filesystem::exists(dir + "/" + a.sha256));
  CHECK(std::filesystem::exists(dir + "/" + c.sha256));
  CHECK(std::filesystem::exists(dir + "/" + e.sha256));

  // Everything leased: nothing goes, and clean says so.
  ArtifactCache tiny(dir, 1);
  auto lease_c = tiny.materialise(c.sha256, ArtifactKind::Tree, "", c.loader(), {});
  auto lease_e = tiny.materialise(e.sha256, ArtifactKind::Tree, "", e.loader(), {});
  REQUIRE((lease_c.ok() && lease_e.ok()));
  auto cleaning = tiny.clean();
  REQUIRE(cleaning.ok());
  CHECK(cleaning->removed == 0);
  CHECK(cleaning->leased == 2);
  CHECK(cleaning->total_bytes == 2 * entry_bytes);
  CHECK(c.loads == 1);
}

TEST_CASE("artifact cache: a damaged entry is removed and extracted again") {
  artifact_test::TempDir d;
  const std::string dir = d.str() + "/cache";
  ArtifactCache cache(dir, 1 << 20);
  artifact_cache_test::Source s(artifact_cache_test::tree("one"));
  REQUIRE(cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {}).ok());
  // The marker of completion lost (a crash, or a hand's removal): damaged.
  ::chmod((dir + "/" + s.sha256).c_str(), 0755);
  REQUIRE(std::filesystem::remove(dir + "/" + s.sha256 + "/complete"));
  auto lease = cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {});
  REQUIRE(lease.ok());
  CHECK(s.loads == 2);
  CHECK(std::filesystem::exists(dir + "/" + s.sha256 + "/complete"));
  CHECK(artifact_cache_test::complete(lease->root(), "one"));
}

TEST_CASE("artifact cache: a dead process's temporary directory is cleaned") {
  artifact_test::TempDir d;
  const std::string dir = d.str() + "/cache";
  ArtifactCache cache(dir, 1 << 20);
  artifact_cache_test::Source s(artifact_cache_test::tree("one"));
  REQUIRE(cache.materialise(s.sha256, ArtifactKind::Tree, "", s.loader(), {}).ok());
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) ::_exit(0);
  REQUIRE(::waitpid(pid, nullptr, 0) == pid);
  const std::string dead = dir + "/.tmp-" + s.sha256 + "-" + std::to_string(pid) + "-abcdef";
  const std::string alive =
      dir + "/.tmp-" + s.sha256 + "-" + std::to_string(::getpid()) + "-abcdef";
  std::filesystem::create_directories(dead + "/root");
  std::filesystem::create_directories(alive + "/root");
  REQUIRE(cache.clean().ok());
  CHECK_FALSE(std::filesystem::exists(dead));
  CHECK(std::filesystem::exists(alive));
}
