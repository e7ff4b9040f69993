// referee/service/referee.service: its daemon's socket where the clients look for it
// (/run/referee/referee.sock, cmd_client.cpp), and the unit checked by systemd itself:
// `systemd-analyze verify` on the repository's unit finds nothing wrong but that
// /usr/local/bin/referee is not installed here, and on a copy whose commands name the built binary
// it finds nothing at all. Skipped, loudly, where systemd-analyze is not installed.
#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

const std::string kInstalled = "/usr/local/bin/referee";

}  // namespace

TEST_CASE("referee.service: the socket in the runtime directory, where the clients look") {
  const std::string unit = rtest::read_text(SOURCE_DIR "/referee/service/referee.service");
  CHECK(contains(unit, "\nRuntimeDirectory=referee\n"));
  CHECK(contains(unit, "\nRuntimeDirectoryMode=0750\n"));
  for (const auto& line : rtest::lines_of(unit))
    if (line.rfind("ExecStart=", 0) == 0)
      CHECK(contains(line, " --socket /run/referee/referee.sock"));
}

TEST_CASE("referee.service: systemd-analyze verify finds nothing but the binary not installed") {
  const std::string analyze = rtest::find_on_path("systemd-analyze");
  if (analyze.empty()) {
    WARN("SKIPPED: systemd-analyze is not installed (package systemd): referee.service unchecked");
    return;
  }
  const std::string unit = rtest::read_text(SOURCE_DIR "/referee/service/referee.service");
  REQUIRE(contains(unit, "ExecStart=" + kInstalled + " serve "));
  TempDir dir;
  auto verify = [&](const std::string& text) {
    const std::string path = dir.file("referee.service");  // verify wants the unit's own name
    rtest::write_text(path, text);
    auto r = rtest::run_program(analyze, {"verify", path}, dir);
    INFO("systemd-analyze verify: exit " << r.status << "\n" << r.out << r.err);
    return r;
  };

  // As in the repository: the one complaint is the binary missing at its install path.
  if (::access(kInstalled.c_str(), X_OK) != 0) {
    auto as_is = verify(unit);
    const auto lines = rtest::lines_of(as_is.out + as_is.err);
    CHECK_FALSE(lines.empty());
    for (const auto& line : lines) {
      INFO(line);
      CHECK(contains(line, "Command " + kInstalled + " is not executable"));
    }
  }

  // With the built binary in its place: not a word.
  auto built = verify(rtest::replace_all(unit, kInstalled, REFEREE_BIN));
  INFO(built.out << built.err);
  CHECK(built.status == 0);
  CHECK(built.out.empty());
  CHECK(built.err.empty());
}
