// engines/engine_config: command-line splitting, validation and the spawn request of an engine.
#include <catch2/catch.hpp>

#include "engines/engine_config.h"

using namespace referee::engines;

namespace {

std::vector<std::string> split(const std::string& text) {
  auto words = split_command_line(text);
  INFO(text << " -> " << (words.ok() ? std::string() : words.error()));
  REQUIRE(words.ok());
  return *words;
}

using Words = std::vector<std::string>;

EngineConfig good() {
  EngineConfig c;
  c.name = "sowbot";
  c.command = "./sowbot";
  c.options = {{"Hash", "64"}, {"Book", "my book.txt"}};
  c.env = {{"OMP_NUM_THREADS", "1"}};
  return c;
}

}  // namespace

TEST_CASE("split_command_line: blanks separate words") {
  CHECK(split("engine") == Words{"engine"});
  CHECK(split("  engine   --depth\t4  ") == Words{"engine", "--depth", "4"});
}

TEST_CASE("split_command_line: quotes group, and join with what touches them") {
  CHECK(split("engine \"my book.txt\" 'a b'") == Words{"engine", "my book.txt", "a b"});
  CHECK(split("engine --book=\"my book\".txt") == Words{"engine", "--book=my book.txt"});
  CHECK(split("engine \"\" ''") == Words{"engine", "", ""});
  CHECK(split("\"/opt/my engines/bot\" -v") == Words{"/opt/my engines/bot", "-v"});
}

TEST_CASE("split_command_line: escapes") {
  CHECK(split(R"(engine "say \"hi\"")") == Words{"engine", "say \"hi\""});
  CHECK(split(R"(engine a\ b)") == Words{"engine", "a b"});
  CHECK(split(R"(engine 'c:\dir')") == Words{"engine", R"(c:\dir)"});  // literal in '...'
  CHECK(split(R"(engine x\)") == Words{"engine", R"(x\)"});            // a final backslash stays
}

TEST_CASE("split_command_line: errors") {
  auto unbalanced = split_command_line("engine \"my book");
  REQUIRE_FALSE(unbalanced.ok());
  CHECK(unbalanced.error() == "unbalanced \" quote in command 'engine \"my book'");
  auto single = split_command_line("engine 'x");
  REQUIRE_FALSE(single.ok());
  CHECK(single.error() == "unbalanced ' quote in command 'engine 'x'");
  auto empty = split_command_line("   ");
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error() == "empty command");
  CHECK_FALSE(split_command_line("").ok());
}

TEST_CASE("engine config: defaults") {
  EngineConfig c;
  CHECK(c.start_timeout_ms == 10000);
  CHECK(c.ready_timeout_ms == 5000);
  CHECK(c.setgame_timeout_ms == 30000);
  CHECK_FALSE(c.protocol0);
  CHECK(c.limits.memory_mb == 0);
}

TEST_CASE("engine config: validate accepts a good config") {
  auto status = validate(good());
  INFO((status.ok() ? std::string() : status.error()));
  CHECK(status.ok());
}

TEST_CASE("engine config: validate names the culprit") {
  EngineConfig c = good();
  std::string expected;
  SECTION("no name") {
    c.name = "";
    expected = "an engine has no name";
  }
  SECTION("line break in the name") {
    c.name = "a\nb";
    expected = "engine 'a\\nb': line break in the name";  // the error stays one line
  }
  SECTION("carriage return in the name") {
    c.name = "a\rb";
    expected = "engine 'a\\rb': line break in the name";
  }
  SECTION("control character in the name") {
    c.name = std::string("a\x01") + "b";
    expected = "engine 'a\\x01b': control character in the name";
  }
  SECTION("tab in the name") {
    c.name = "a\tb";
    expected = "engine 'a\\tb': control character in the name";
  }
  SECTION("DEL in the name") {
    c.name = "a\x7f";
    expected = "engine 'a\\x7f': control character in the name";
  }
  SECTION("leading blank in the name") {
    c.name = " a";
    expected = "engine ' a': the name starts or ends with a blank";
  }
  SECTION("trailing blank in the name") {
    c.name = "a ";
    expected = "engine 'a ': the name starts or ends with a blank";
  }
  SECTION("control character in an option value") {
    c.options["Book"] = std::string("x\x1b[2J");
    expected = "engine 'sowbot': control character in the value of option 'Book'";
  }
  SECTION("control character in an option name") {
    c.options["Bo\x01ok"] = "1";
    expected = "engine 'sowbot': control character in option name 'Bo\\x01ok'";
  }
  SECTION("line break in an environment variable name") {
    c.env["A\nB"] = "1";
    expected = "engine 'sowbot': bad environment variable name 'A\\nB'";
  }
  SECTION("no command") {
    c.command = "";
    expected = "engine 'sowbot': no command";
  }
  SECTION("option name with a blank") {
    c.options["Hash Size"] = "1";
    expected = "engine 'sowbot': option name 'Hash Size' holds a blank";
  }
  SECTION("empty option name") {
    c.options[""] = "1";
    expected = "engine 'sowbot': an option has no name";
  }
  SECTION("line break in an option value") {
    c.options["Book"] = "x\nquit";
    expected = "engine 'sowbot': line break in the value of option 'Book'";
  }
  SECTION("env name with '='") {
    c.env["A=B"] = "1";
    expected = "engine 'sowbot': bad environment variable name 'A=B'";
  }
  SECTION("negative limit") {
    c.limits.cpu_seconds = -1;
    expected = "engine 'sowbot': negative resource limit";
  }
  SECTION("zero timeout") {
    c.setgame_timeout_ms = 0;
    expected = "engine 'sowbot': timeouts must be positive";
  }
  auto status = validate(c);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error() == expected);
}

TEST_CASE("engine config: names may hold inner blanks, UTF-8 and punctuation, tabs in values") {
  EngineConfig c = good();
  c.name = "Sowbot 2.1 (\xc3\xa9t\xc3\xa9)";
  c.options["Style"] = "calm\tquick";
  auto status = validate(c);
  INFO((status.ok() ? std::string() : status.error()));
  CHECK(status.ok());
}

TEST_CASE("engine config: printable escapes control characters only") {
  CHECK(referee::text::printable("plain text, \xc3\xa9") == "plain text, \xc3\xa9");
  CHECK(referee::text::printable("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(referee::text::printable(std::string("\0\x1f\x7f", 3)) == "\\x00\\x1f\\x7f");
}

TEST_CASE("engine config: spawn_spec_of carries what the process needs") {
  EngineConfig c = good();
  c.args = {"--depth", "4"};
  c.working_dir = "/tmp";
  c.limits = {256, 60, 8};
  SpawnSpec spec = spawn_spec_of(c);
  CHECK(spec.command == "./sowbot");
  CHECK(spec.args == Words{"--depth", "4"});
  CHECK(spec.working_dir == "/tmp");
  CHECK(spec.env == c.env);
  CHECK(spec.limits.memory_mb == 256);
  CHECK(spec.limits.cpu_seconds == 60);
  CHECK(spec.limits.processes == 8);
  CHECK(spec.max_line_bytes == 65536);
}
