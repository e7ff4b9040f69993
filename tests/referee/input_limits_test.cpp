// base/input_limits: the depth of JSON and TOML checked on the text (arrays, objects, inline
// tables, dotted keys, table headers; brackets and dots in strings and comments not counted),
// 64 levels accepted and 65 refused; and through the tournament file reader, which every
// tournament file and every event submitted to the daemon goes through: 100,000 nested arrays
// refused in one line, names over 200 bytes and other text over 4096 bytes refused naming the
// field and never quoting it, and the event cap of 1,000,000 games checked from the counts.
#include <toml++/toml.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/input_limits.h"
#include "engines/engine_config.h"
#include "referee/event/tournament_config.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::event;
using rtest::contains;

namespace {

const std::string kDeepError = "nested deeper than 64 levels";

std::string repeated(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// JSON of `levels` nested arrays: [[[1]]] is 3.
std::string json_arrays(int levels) {
  return repeated("[", levels) + "1" + repeated("]", levels);
}

// A TOML document whose JSON is `levels` deep, with a key holding nested arrays: the document's
// table is level 1, so `a = [[1]]` is 3.
std::string toml_arrays(int levels) {
  return "a = " + repeated("[", levels - 1) + "1" + repeated("]", levels - 1) + "\n";
}

// The depth of the JSON of a TOML document as toml++ reads it.
int toml_depth_parsed(const std::string& text) {
  toml::table table = toml::parse(text);
  std::stringstream out;
  out << toml::json_formatter{table};
  int deepest = 0;
  std::function<void(const nlohmann::json&, int)> walk = [&](const nlohmann::json& j, int d) {
    if (!j.is_structured()) return;
    deepest = std::max(deepest, d);
    for (const auto& item : j) walk(item, d + 1);
  };
  walk(nlohmann::json::parse(out.str()), 1);
  return deepest;
}

const std::string kHead = R"(name = "t"
games = ["awale"]
tc = "10+0.1"
)";

const std::string kEngines = R"([[engine]]
name = "a"
command = "a"
[[engine]]
name = "b"
command = "b"
)";

const std::string kFile = kHead + kEngines;

Expected<TournamentConfig> load_toml(const std::string& text) {
  return load_tournament_text(text, false, "t.toml", "/tmp");
}

Expected<TournamentConfig> load_json(const std::string& text) {
  return load_tournament_text(text, true, "t.json", "/tmp");
}

// A one-line error that contains `piece` and is short (never the text it is about).
void check_one_line(const Expected<TournamentConfig>& c, const std::string& piece) {
  REQUIRE_FALSE(c.ok());
  INFO(c.error().substr(0, 400));
  CHECK(contains(c.error(), piece));
  CHECK_FALSE(contains(c.error(), "\n"));
  CHECK(c.error().size() < 300);
}

}  // namespace

TEST_CASE("input limits: JSON deeper than 64 levels is refused, 64 levels pass") {
  using limits::check_json_nesting;
  CHECK(check_json_nesting(json_arrays(64), "body").ok());
  CHECK(check_json_nesting(json_arrays(65), "body").error() == "body: " + kDeepError);
  CHECK(check_json_nesting(json_arrays(100000), "request body").error() ==
        "request body: " + kDeepError);
  // Objects count as arrays do; closing brackets make room again.
  const std::string objects = repeated("{\"a\":", 63) + "[]" + repeated("}", 63);
  CHECK(check_json_nesting(objects, "x").ok());
  CHECK_FALSE(check_json_nesting(repeated("{\"a\":", 64) + "[]" + repeated("}", 64), "x").ok());
  CHECK(check_json_nesting("[" + repeated(json_arrays(63) + ",", 50) + "1]", "x").ok());
  // Brackets in strings are text.
  CHECK(check_json_nesting("[\"" + repeated("[", 1000) + "\"]", "x").ok());
  // Malformed text is left to the parser (its error says what is wrong), unless too deep first.
  CHECK(check_json_nesting("{", "x").ok());
  CHECK(check_json_nesting("nonsense", "x").ok());
  CHECK_FALSE(check_json_nesting(repeated("[", 100000), "x").ok());
}

TEST_CASE("input limits: TOML deeper than 64 levels is refused, as its JSON would be") {
  using limits::check_toml_nesting;
  struct Case {
    std::string what, text;
    int depth;  // of the JSON of the document
  };
  const std::vector<Case> cases = {
      {"nested arrays", toml_arrays(64), 64},
      {"nested arrays", toml_arrays(65), 65},
      {"inline tables", "a = " + repeated("{b = ", 63) + "1" + repeated("}", 63) + "\n", 64},
      {"inline tables", "a = " + repeated("{b = ", 64) + "1" + repeated("}", 64) + "\n", 65},
      {"a dotted key", "a" + repeated(".b", 63) + " = 1\n", 64},
      {"a dotted key", "a" + repeated(".b", 64) + " = 1\n", 65},
      {"a dotted key in an inline table", "a = {b" + repeated(".c", 62) + " = 1}\n", 64},
      {"a dotted key in an inline table", "a = {b" + repeated(".c", 63) + " = 1}\n", 65},
      {"a table header", "[a" + repeated(".b", 62) + "]\nc = 1\n", 64},
      {"a table header", "[a" + repeated(".b", 63) + "]\nc = 1\n", 65},
      {"a header and a dotted key",
       "[a" + repeated(".b", 31) + "]\nc" + repeated(".d", 31) + " = 1\n", 64},
      {"a header and a dotted key",
       "[a" + repeated(".b", 31) + "]\nc" + repeated(".d", 32) + " = 1\n", 65},
      {"a header and arrays",
       "[a" + repeated(".b", 31) + "]\nc = " + repeated("[", 31) + repeated("]", 31) + "\n", 64},
      {"a header and arrays",
       "[a" + repeated(".b", 31) + "]\nc = " + repeated("[", 32) + repeated("]", 32) + "\n", 65},
      {"arrays of inline tables", "a = " + repeated("[{b = ", 31) + "1" + repeated("}]", 31) + "\n",
       63},
      {"arrays of inline tables", "a = " + repeated("[{b = ", 32) + "1" + repeated("}]", 32) + "\n",
       65},
  };
  for (const auto& c : cases) {
    INFO(c.what << ", depth " << c.depth);
    REQUIRE(toml_depth_parsed(c.text) == c.depth);
    const auto checked = check_toml_nesting(c.text, "t.toml");
    CHECK(checked.ok() == (c.depth <= 64));
    if (!checked) CHECK(checked.error() == "t.toml: " + kDeepError);
  }
  // Brackets, braces and dots in strings and comments are text, in every kind of string.
  for (const std::string& quoted :
       {std::string("\"[{.\\\"[[\""), std::string("'[[{.'"),
        std::string("\"\"\"[[\n{.\"\" ]\"\"\""), std::string("'''[[\n.{'''")}) {
    const std::string text = "a" + repeated(".b", 63) + " = " + quoted + " # [[[[ {{ ...\n" +
                             "\"x.y.z\" = 1\n" + "[\"q.r\"]\n" + "s = " + quoted + "\n";
    INFO(text);
    CHECK(toml_depth_parsed(text) == 64);
    CHECK(check_toml_nesting(text, "t").ok());
  }
  // After an array of tables the scan counts each key of a header twice (it does not track which
  // table names an array); tournament files use 5 levels at most that way.
  CHECK(check_toml_nesting("[[engine]]\nname = 'a'\n[engine.options]\nHash = 1\n", "t").ok());
  // Far too deep, in each way.
  for (const std::string& deep :
       {toml_arrays(100000), "a = " + repeated("{b = ", 100000) + repeated("}", 100000),
        "a" + repeated(".b", 100000) + " = 1\n", "[a" + repeated(".b", 100000) + "]\n"})
    CHECK(check_toml_nesting(deep, "request body").error() == "request body: " + kDeepError);
}

TEST_CASE(
    "input limits: check_length gives the size and the limit, shortened cuts with an ellipsis") {
  CHECK(limits::check_length("'name'", std::string(200, 'x'), 200).ok());
  CHECK(limits::check_length("'name'", std::string(201, 'x'), 200).error() ==
        "'name' has 201 bytes; at most 200");
  CHECK(limits::shortened("abc", 3) == "abc");
  CHECK(limits::shortened("abcd", 3) == "abc…");
  // Never inside a UTF-8 sequence: "é" is two bytes.
  CHECK(limits::shortened("aé", 2) == "a…");
}

TEST_CASE("tournament file: 100,000 nested arrays are refused in one line, as TOML and as JSON") {
  check_one_line(load_toml(kFile + "x = " + repeated("[", 100000) + repeated("]", 100000) + "\n"),
                 "t.toml: " + kDeepError);
  check_one_line(load_toml(repeated("[", 100000) + "\n"), "t.toml:");
  check_one_line(load_toml("a" + repeated(".a", 100000) + " = 1\n"), "t.toml: " + kDeepError);
  check_one_line(load_json(json_arrays(100000)), "t.json: " + kDeepError);
  check_one_line(load_json("{\"name\": " + json_arrays(100000) + "}"), "t.json: " + kDeepError);
  // 64 levels pass the depth check: what the file's schema says of them is the error.
  check_one_line(load_toml(toml_arrays(64).replace(0, 1, "extra") + kFile), "unknown key 'extra'");
  check_one_line(load_json("{\"extra\": " + json_arrays(63) + "}"), "unknown key 'extra'");
}

TEST_CASE("tournament file: names over 200 bytes and other text over 4096 are refused by field") {
  const std::string big(500000, 'n');
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = kFile;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  // At the limits, accepted.
  auto ok = load_toml(with("name = \"t\"", "name = \"" + std::string(200, 'e') + "\""));
  REQUIRE(ok.ok());
  CHECK(ok->name.size() == 200);
  auto engine_ok = load_toml(with("name = \"a\"", "name = \"" + std::string(200, 'e') + "\""));
  REQUIRE(engine_ok.ok());
  auto args_ok = load_toml(
      with("command = \"a\"", "command = \"a\"\nargs = [\"" + std::string(4096, 'x') + "\"]"));
  REQUIRE(args_ok.ok());
  // Over them, refused naming the field.
  check_one_line(load_toml(with("name = \"t\"", "name = \"" + big + "\"")),
                 "t.toml: 'name' has 500000 bytes; at most 200");
  check_one_line(load_toml(with("name = \"t\"", "name = \"" + std::string(201, 'e') + "\"")),
                 "'name' has 201 bytes; at most 200");
  check_one_line(load_toml(with("name = \"a\"", "name = \"" + big + "\"")),
                 "t.toml: engine 1: 'name' has 500000 bytes; at most 200");
  check_one_line(load_toml(with("command = \"a\"", "command = \"" + big + "\"")),
                 "engine 1: 'command' has 500000 bytes; at most 4096");
  check_one_line(load_toml(with("command = \"a\"", "command = \"a\"\nargs = [\"" + big + "\"]")),
                 "'args' has 500000 bytes; at most 4096");
  check_one_line(
      load_toml(with("command = \"a\"", "command = \"a\"\noptions = {\"" + big + "\" = 1}")),
      "a name in 'options' has 500000 bytes; at most 200");
  check_one_line(load_toml(with("command = \"a\"", "command = \"a\"\nenv = {X = \"" + big + "\"}")),
                 "'env.X' has 500000 bytes; at most 4096");
  check_one_line(load_toml(with("games = [\"awale\"]", "games = [\"" + big + "\"]")),
                 "'games' has 500000 bytes; at most 4096");
  check_one_line(
      load_toml(with("games = [\"awale\"]", "games = [\"awale" + std::string(300, ' ') + "\"]")),
      "a game has 305 bytes; at most 200");
  check_one_line(load_toml(with("tc = \"10+0.1\"", "tc = \"" + big + "\"")),
                 "'tc' has 500000 bytes; at most 4096");
  check_one_line(load_json(nlohmann::json{{"name", big}}.dump()),
                 "t.json: 'name' has 500000 bytes; at most 200");
}

TEST_CASE("engine definitions: lengths are checked whatever the engine comes from") {
  engines::EngineConfig c;
  c.name = "e";
  c.command = "/bin/true";
  REQUIRE(engines::validate(c).ok());
  auto refused = [](engines::EngineConfig e, const std::string& piece) {
    auto v = engines::validate(e);
    REQUIRE_FALSE(v.ok());
    INFO(v.error().substr(0, 300));
    CHECK(contains(v.error(), piece));
    CHECK(v.error().size() < 300);
  };
  auto e = c;
  e.name = std::string(201, 'n');
  refused(e, "an engine's 'name' has 201 bytes; at most 200");
  e = c;
  e.args = {"x", std::string(4097, 'a')};
  refused(e, "engine 'e': an argument has 4097 bytes; at most 4096");
  e = c;
  e.working_dir = std::string(4097, 'd');
  refused(e, "'dir' has 4097 bytes");
  e = c;
  e.options[std::string(201, 'o')] = "1";
  refused(e, "an option's name has 201 bytes; at most 200");
  e = c;
  e.env["X"] = std::string(4097, 'v');
  refused(e, "an env variable's value has 4097 bytes; at most 4096");
}

TEST_CASE(
    "tournament file: an event of 1,000,000 games is accepted, one more refused, both from "
    "the counts") {
  // Two engines play each cycle twice (seats swapped): 500,000 cycles are 1,000,000 games.
  const auto t0 = std::chrono::steady_clock::now();
  auto at_cap = load_toml("cycles = 500000\n" + kFile);
  REQUIRE(at_cap.ok());
  CHECK(check_tournament(*at_cap).ok());
  auto over = load_toml("cycles = 500001\n" + kFile);
  check_one_line(over, "the schedule has 1000002 games; an event holds at most 1000000");
  auto far_over =
      load_toml("cycles = 1000000\n" + kHead + "[openings]\nper_pairing = 1000000\n" + kEngines);
  check_one_line(far_over, "an event holds at most 1000000");
  // Nothing was built: far below the seconds a schedule of a million games takes.
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
}
