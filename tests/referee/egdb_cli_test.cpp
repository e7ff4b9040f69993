// `referee egdb build|probe|info` run as a program: the table it writes answers probes, progress
// goes to stderr, a build resumes, and every bad input is one line on stderr with its status.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

#include "tests/referee/rtest_util.h"

using rtest::contains;
using rtest::referee_cmd;

namespace {

void one_error_line(const rtest::RunResult& r, const std::string& piece, int status = 1) {
  INFO("stderr: " << r.err);
  CHECK(r.status == status);
  REQUIRE(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, piece));
}

}  // namespace

TEST_CASE("egdb: build writes a table that probe and info read, with progress on stderr") {
  rtest::TempDir dir;
  const std::string table = dir.file("awale.egdb");
  auto b =
      referee_cmd({"egdb", "build", "awale", "--seeds", "4", "--out", table, "--threads", "2"});
  REQUIRE(b.status == 0);
  CHECK(contains(b.err, "layer 4: iteration 100"));
  CHECK(contains(b.out, "seeds 4: 6825 positions"));
  // South to move with 1 seed in hole 6; North has 1 in hole 7 and 1 in hole 12; 22-23 captured.
  auto p = referee_cmd({"egdb", "probe", "awale", "--db", table, "--position",
                        "0,0,0,0,0,1/1,0,0,0,0,1:22,23:1:0:0"});
  INFO(p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "to move: player 1"));
  CHECK(contains(p.out, "best: 6"));  // the only legal move
  CHECK(contains(p.out, "exact: yes"));
  auto i = referee_cmd({"egdb", "info", table});
  REQUIRE(i.status == 0);
  CHECK(contains(i.out, "game: awale:grandslam=nocapture,nocapture=100"));
  CHECK(contains(i.out, "seeds: 4"));
  // Extending the table resumes after its 5 layers.
  auto more = referee_cmd({"egdb", "build", "awale", "--seeds", "5", "--out", table});
  REQUIRE(more.status == 0);
  CHECK(contains(more.err, "resuming: 4 seeds already solved"));
  CHECK_FALSE(contains(more.out, "seeds 4:"));
  CHECK(contains(more.out, "seeds 5:"));
}

TEST_CASE("egdb: bad input is one line on stderr") {
  rtest::TempDir dir;
  const std::string table = dir.file("k.egdb");
  REQUIRE(referee_cmd({"egdb", "build", "kalaha", "--seeds", "3", "--out", table}).status == 0);
  one_error_line(referee_cmd({"egdb", "build", "nosuch", "--seeds", "3"}), "unknown game 'nosuch'");
  one_error_line(referee_cmd({"egdb", "build", "oware", "--seeds", "3"}), "no endgame tables");
  one_error_line(referee_cmd({"egdb", "build", "awale", "--seeds", "25", "--out", table}),
                 "--seeds 25 is out of range");
  one_error_line(referee_cmd({"egdb", "build", "awale", "--out", table}), "needs --seeds", 2);
  one_error_line(referee_cmd({"egdb", "build", "awale", "--seeds", "3", "--out", table}),
                 "holds a table of 'kalaha'");
  one_error_line(referee_cmd({"egdb", "probe", "awale", "--db", table}), "not of 'awale");
  one_error_line(referee_cmd({"egdb", "probe", "kalaha", "--db", table, "--position", "bad"}),
                 "position");
  one_error_line(referee_cmd({"egdb", "probe", "kalaha", "--db", table}), "more than 3 seeds");
  one_error_line(referee_cmd({"egdb", "probe", "kalaha", "--db", dir.file("none.egdb")}),
                 "cannot open");
  one_error_line(referee_cmd({"egdb", "frobnicate"}), "give build GAME", 2);
  // A flipped byte in the data: the checksum refuses the file.
  std::string bytes;
  {
    std::ifstream in(table, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 4);
  std::ofstream(table, std::ios::binary | std::ios::trunc) << bytes;
  one_error_line(referee_cmd({"egdb", "info", table}), "checksum mismatch");
}
