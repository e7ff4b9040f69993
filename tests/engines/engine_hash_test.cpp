// Engine content hashes (engines/engine_hash.h): SHA-256 of a file against known digests, the
// executed file found as the process layer finds it (a path, relative to the working directory,
// or PATH), an interpreter's script argument, and errors that name the file.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "engines/engine_hash.h"

using namespace referee::engines;

namespace {

struct Dir {
  std::filesystem::path path;
  Dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hash-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~Dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text, bool executable) const {
    const auto file = (path / name).string();
    std::ofstream(file, std::ios::binary) << text;
    if (executable) ::chmod(file.c_str(), 0755);
    return file;
  }
};

// FIPS 180-2 examples.
const std::string kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const std::string kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

}  // namespace

TEST_CASE("engine hash: SHA-256 of a file matches the standard's examples") {
  Dir d;
  CHECK(file_sha256(d.write("abc", "abc", false)).value() == kAbc);
  CHECK(file_sha256(d.write("empty", "", false)).value() == kEmpty);
  // Longer than one read buffer: 200,000 'a' bytes hash like their one-shot digest would.
  const std::string big(200000, 'a');
  auto h = file_sha256(d.write("big", big, false));
  REQUIRE(h.ok());
  CHECK(h->size() == 64);
  CHECK(*h != kAbc);
  auto missing = file_sha256((d.path / "nope").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("nope") != std::string::npos);
}

TEST_CASE("engine hash: the program is found by path, from the working directory, or in PATH") {
  Dir d;
  const auto prog = d.write("bot", "abc", true);
  EngineConfig c;
  c.command = prog;
  auto h = engine_hash(c);
  REQUIRE(h.ok());
  CHECK(h->program == kAbc);
  CHECK(h->script.empty());
  CHECK(h->pinned() == kAbc);

  c.command = "./bot";
  c.working_dir = d.path.string();
  CHECK(engine_hash(c).value().program == kAbc);

  // A bare name is looked up in PATH: /bin/sh exists on every host the tests run on.
  EngineConfig sh;
  sh.command = "sh";
  auto by_path = engine_hash(sh);
  REQUIRE(by_path.ok());
  CHECK(by_path->program == file_sha256("/bin/sh").value());

  EngineConfig none;
  none.command = "no-such-engine-anywhere";
  auto missing = engine_hash(none);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("no-such-engine-anywhere") != std::string::npos);
}

TEST_CASE("engine hash: an interpreter's script is hashed too, and a pin compares with it") {
  Dir d;
  d.write("bot.py", "abc", false);
  EngineConfig c;
  c.command = "/bin/sh";
  c.args = {"-e", "bot.py", "--depth", "3"};  // "-e" names no file: the script is bot.py
  c.working_dir = d.path.string();
  auto h = engine_hash(c);
  REQUIRE(h.ok());
  CHECK(h->program == file_sha256("/bin/sh").value());
  CHECK(h->script == kAbc);
  CHECK(h->pinned() == kAbc);
}

TEST_CASE("engine hash: a pin is 64 hexadecimal digits") {
  CHECK(is_sha256(kAbc));
  CHECK(is_sha256(std::string(64, 'F')));
  CHECK_FALSE(is_sha256(kAbc.substr(1)));
  CHECK_FALSE(is_sha256(std::string(63, 'a') + "g"));
  CHECK_FALSE(is_sha256(""));
}
