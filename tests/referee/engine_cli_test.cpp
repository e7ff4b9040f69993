// `referee engine` and the engines of stored artifacts, as an operator uses them: a one-file
// engine (a binary) and a directory (a Python engine beside a wrapper) added to the database,
// listed, shown and exported byte for byte; bad input refused with one line and nothing stored;
// then a tournament that names both by `artifact = ...`, played in the sandbox (the engine runs
// as referee-engine, in /engine, with no capability), every game recording both artifacts.
// The sandbox needs bubblewrap and the user referee-engine (deps.sh): without them this FAILS.
#include <SQLiteCpp/Database.h>

#include <pwd.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/referee/rtest_util.h"

using rtest::contains;
using rtest::referee_cmd;

namespace {

const std::string kRandomEngine = SOURCE_DIR "/examples/engines/random_engine.py";

// A directory `bot` in `dir`: the example Python engine and a wrapper that runs it, reporting
// where and as whom it runs in place of its `id author`.
std::string write_python_bot(const rtest::TempDir& dir) {
  const std::string bot = dir.file("bot");
  std::filesystem::create_directories(bot + "/lib");
  std::filesystem::copy_file(kRandomEngine, bot + "/lib/random_engine.py");
  rtest::write_text(bot + "/run.py", R"(import os, runpy, sys
caps = [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0]
class Out:
    def __init__(self, w): self.w = w
    def write(self, t):
        if t.startswith("id author"):
            t = "id author uid=%d cwd=%s capeff=%s\n" % (os.getuid(), os.getcwd(), caps)
        return self.w.write(t)
    def flush(self): self.w.flush()
sys.stdout = Out(sys.stdout)
sys.argv = ["random_engine.py"]
runpy.run_path("lib/random_engine.py", run_name="__main__")
)");
  return bot;
}

rtest::RunResult engine_cmd(const rtest::TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "engine");
  args.push_back("--db");
  args.push_back(dir.file("t.db"));
  return referee_cmd(args, dir.path());
}

std::string sha256_in(const std::string& out) {
  const auto at = out.find("sha256 ");
  return at == std::string::npos ? "" : out.substr(at + 7, 64);
}

}  // namespace

TEST_CASE("engine: a file and a directory are stored once, listed, shown, exported identical") {
  rtest::TempDir dir;
  const std::string bot = write_python_bot(dir);
  auto py = engine_cmd(dir, {"add", "pybot", bot, "--command", "python3 run.py"});
  INFO(py.out << py.err);
  REQUIRE(py.status == 0);
  CHECK(contains(py.out, "added pybot@1  sha256 "));
  const std::string py_hash = sha256_in(py.out);
  auto again = engine_cmd(dir, {"add", "pybot", bot, "--command", "python3 run.py"});
  CHECK(contains(again.out, "already stored: pybot@1"));
  CHECK(sha256_in(again.out) == py_hash);  // the same tree packs the same bytes

  auto mock = engine_cmd(dir, {"add", "mock", rtest::kMock});
  INFO(mock.out << mock.err);
  REQUIRE(mock.status == 0);
  CHECK(contains(mock.out, "added mock@1"));

  auto list = engine_cmd(dir, {"list"});
  CHECK(contains(list.out, "mock@1  "));
  CHECK(contains(list.out, "pybot@1  " + py_hash.substr(0, 12)));
  CHECK(contains(list.out, "owner operator"));
  auto show = engine_cmd(dir, {"show", "mock"});
  CHECK(contains(show.out, "command      ./mock_engine"));  // a one-file engine starts itself
  CHECK(contains(show.out, "kind         file (mock_engine)"));
  CHECK(contains(engine_cmd(dir, {"show", "pybot@1"}).out, "kind         tree"));
  CHECK(contains(engine_cmd(dir, {"show", py_hash}).out, "engine       pybot@1"));

  // The bytes come back as they went in: the binary itself, and the tree's archive (stored
  // again, it is the same artifact).
  REQUIRE(engine_cmd(dir, {"export", "mock", dir.file("mock.out")}).status == 0);
  CHECK(rtest::read_text(dir.file("mock.out")) == rtest::read_text(rtest::kMock));
  REQUIRE(engine_cmd(dir, {"export", "pybot", dir.file("pybot.tar")}).status == 0);
  auto back =
      engine_cmd(dir, {"add", "pybot-copy", dir.file("pybot.tar"), "--command", "python3 run.py"});
  CHECK(sha256_in(back.out) == py_hash);
  auto over = engine_cmd(dir, {"export", "mock", dir.file("mock.out")});
  CHECK(over.status == 1);
  CHECK(contains(over.err, "exists already"));

  auto retired = engine_cmd(dir, {"retire", "pybot-copy"});
  CHECK(contains(retired.out, "retired 1 version(s) of pybot-copy"));
  CHECK(contains(engine_cmd(dir, {"list", "pybot-copy"}).out, "retired "));
}

TEST_CASE("engine: bad names, paths and commands are one line, and nothing is stored") {
  rtest::TempDir dir;
  const std::string bot = write_python_bot(dir);
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"add", "pybot", bot}, 2, "is a directory or an archive: say which of its files starts it"},
      {{"add", "pybot", bot, "--command", "python3 nothere.py"}, 2, "names no file"},
      {{"add", "pybot", bot, "--command", "./nothere"}, 2, "nothere"},
      {{"add", "pybot", bot, "--command", "nosuchinterpreter run.py"}, 2, "nosuchinterpreter"},
      {{"add", "bad name", bot, "--command", "python3 run.py"}, 2, "bad name"},
      {{"add", "pybot", dir.file("missing")}, 1, "missing"},
      {{"add", "pybot"}, 2, "give add NAME PATH"},
      {{"show", "pybot"}, 1, "no engine artifact \"pybot\""},
      {{"export", "pybot@x", dir.file("x")}, 1, "a version is a number"},
      {{"list", "--command", "x"}, 2, "--command goes with add"},
  };
  for (const auto& c : cases) {
    auto run = engine_cmd(dir, c.args);
    INFO(c.args[0] << " " << (c.args.size() > 1 ? c.args[1] : "") << ": " << run.err);
    CHECK(run.status == c.status);
    CHECK(contains(run.err, c.says));
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  }
  CHECK(contains(engine_cmd(dir, {"list"}).out, "no engine artifacts"));
}

TEST_CASE("engine: a tournament plays stored engines in the sandbox and records their artifacts") {
  rtest::TempDir dir;
  // The sandbox's user must cross the directories down to the cache (mkdtemp makes them 0700).
  ::chmod(dir.path().c_str(), 0711);
  const passwd* sandbox_user = ::getpwnam("referee-engine");
  if (!sandbox_user) FAIL("no user referee-engine: run deps.sh (it creates it for the sandbox)");
  if (!std::filesystem::exists("/usr/bin/bwrap"))
    FAIL("bubblewrap is not installed: run deps.sh (stored engines run only in its sandbox)");
  const std::string bot = write_python_bot(dir);
  const std::string py_hash =
      sha256_in(engine_cmd(dir, {"add", "pybot", bot, "--command", "python3 run.py"}).out);
  const std::string mock_hash = sha256_in(engine_cmd(dir, {"add", "mock", rtest::kMock}).out);
  REQUIRE(py_hash.size() == 64);
  REQUIRE(mock_hash.size() == 64);
  rtest::write_text(dir.file("t.toml"), "name = \"stored\"\ndatabase = \"" + dir.file("t.db") +
                                            "\"\ngames = [\"awale:maxplies=20\"]\ntc = \"10+0\"\n"
                                            "concurrency = 1\n[[engine]]\nartifact = \"mock\"\n"
                                            "[[engine]]\nartifact = \"pybot@1\"\n");
  auto run = referee_cmd(
      {"tournament", dir.file("t.toml"), "-q", "--artifact-cache", dir.file("cache")}, dir.path());
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  CHECK(contains(run.out, "games: 2 scheduled, 0 done before, 2 played now"));

  SQLite::Database sql(dir.file("t.db"), SQLite::OPEN_READONLY);
  // The Python engine said where and as whom it ran.
  const std::string author =
      sql.execAndGet("SELECT id_author FROM engines WHERE name = 'pybot@1'").getString();
  CHECK(author ==
        "uid=" + std::to_string(sandbox_user->pw_uid) + " cwd=/engine capeff=0000000000000000");
  SQLite::Statement games(sql, "SELECT engine_hashes FROM games WHERE status = 'finished'");
  int n = 0;
  while (games.executeStep()) {
    const std::string hashes = games.getColumn(0).getString();
    CHECK(contains(hashes, "\"artifact\":\"" + py_hash + "\""));
    CHECK(contains(hashes, "\"artifact\":\"" + mock_hash + "\""));
    ++n;
  }
  CHECK(n == 2);
  // A later version of a name does not change the event that pinned the first.
  REQUIRE(engine_cmd(dir, {"add", "mock", bot, "--command", "python3 run.py"}).status == 0);
  auto resumed = referee_cmd(
      {"tournament", dir.file("t.toml"), "-q", "--artifact-cache", dir.file("cache")}, dir.path());
  INFO(resumed.out << resumed.err);
  CHECK(resumed.status == 1);
  CHECK(contains(resumed.err, "different specification"));
}
