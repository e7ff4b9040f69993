// PROTOCOL.md §6 read literally: the forms of `go` it lists are turned into a grammar here, and
// every go line the referee sends is checked against it: the match's (go_for) for every kind of
// time control, check-engine's (logged by the mock engine), a plain UGI engine's, and the examples
// in PROTOCOL.md and the rules pages. An engine written to §6 accepts all of them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <set>

#include "protocol/messages.h"
#include "referee/match/match.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;

namespace {

const std::string kProtocol = SOURCE_DIR "/protocol/PROTOCOL.md";

// The lines of the first code block of §6: the forms of go the referee sends.
std::vector<std::string> documented_forms() {
  const auto lines = rtest::read_lines(kProtocol);
  std::vector<std::string> forms;
  bool in_section = false, in_block = false;
  for (const auto& l : lines) {
    if (l.rfind("## ", 0) == 0) in_section = l == "## 6. go";
    if (!in_section) continue;
    if (l.rfind("```", 0) == 0) {
      if (in_block) break;
      in_block = true;
      continue;
    }
    if (in_block) forms.push_back(l);
  }
  return forms;
}

// One form as a regular expression: `<x>` is a number, `[key <x>]` optional, and
// `p1K <x> ... pNK <x>` one or more numbered keys (their numbering is checked apart).
std::regex form_regex(const std::string& form) {
  std::string re = std::regex_replace(form, std::regex(R"(p1(\w+) <\w+> \.\.\. pN\1 <\w+>)"),
                                      "p[0-9]+$1 [0-9]+(?: p[0-9]+$1 [0-9]+)*");
  re = std::regex_replace(re, std::regex(R"( \[(\w+) <\w+>\])"), "(?: $1 [0-9]+)?");
  re = std::regex_replace(re, std::regex(R"(<\w+>)"), "[0-9]+");
  return std::regex("^" + re + "$");
}

// The i of every `p<i><key>` in the line, in order.
std::vector<int> numbered(const std::string& line, const std::string& key) {
  std::vector<int> out;
  const std::regex re(" p([0-9]+)" + key + " ");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back(std::stoi((*it)[1]));
  return out;
}

// Whether `line` is one of the documented forms, with p1..pN numbered without gaps and the same
// N for time and inc. `plain`: a protocol 0 engine's line, which has no `player <k>`.
bool accepted(const std::vector<std::string>& forms, const std::string& line, bool plain = false) {
  bool matched = false;
  for (auto form : forms) {
    if (plain) form = std::regex_replace(form, std::regex(" player <k>"), "");
    matched = matched || std::regex_match(line, form_regex(form));
  }
  if (!matched) return false;
  const auto times = numbered(line + " ", "time"), incs = numbered(line + " ", "inc");
  for (std::size_t i = 0; i < times.size(); ++i)
    if (times[i] != static_cast<int>(i) + 1) return false;
  return times == incs;
}

std::string go_line(int player, const std::vector<std::string>& tcs) {
  std::vector<TimeControl> controls;
  std::vector<PlayerClock> clocks;
  for (const auto& text : tcs) {
    auto tc = parse_time_control(text);
    REQUIRE(tc.ok());
    controls.push_back(*tc);
    clocks.emplace_back(*tc);
  }
  return protocol::format(protocol::RefereeMessage{go_for(player, clocks, controls)});
}

}  // namespace

TEST_CASE("go lines: PROTOCOL.md §6 lists the forms, and its grammar reads them strictly") {
  const auto forms = documented_forms();
  REQUIRE(forms.size() == 5);
  CHECK(accepted(forms, "go player 2 p1time 100 p2time 0 p1inc 5 p2inc 5"));
  CHECK(accepted(forms, "go player 1 movetime 200"));
  CHECK(accepted(forms, "go player 1 infinite"));
  CHECK_FALSE(accepted(forms, "go player 1"));                                // no limit at all
  CHECK_FALSE(accepted(forms, "go player 1 p2time 100 p2inc 0"));             // a gap
  CHECK_FALSE(accepted(forms, "go player 1 p1time 100 p2time 100 p1inc 0"));  // incs missing
  CHECK_FALSE(accepted(forms, "go player 1 movetime 200 p1time 100 p1inc 0"));
  CHECK_FALSE(accepted(forms, "go movetime 200"));  // protocol 1 always says the player
  CHECK(accepted(forms, "go movetime 200", true));
}

TEST_CASE("go lines: a match's go line, for every kind of time control, is a form of §6") {
  const auto forms = documented_forms();
  const std::vector<std::vector<std::string>> controls = {
      {"60+1", "60+1"},
      {"40/60", "40/60"},
      {"10+0.1,depth=8", "10+0.1,depth=8"},
      {"10+0.1,nodes=5000", "10+0.1,nodes=5000"},
      {"movetime=200", "movetime=200"},
      {"movetime=200,depth=4,nodes=90", "movetime=200,depth=4,nodes=90"},
      {"depth=8", "depth=8"},
      {"nodes=100000", "nodes=100000"},
      {"depth=3,nodes=100", "depth=3,nodes=100"},
      {"60+1", "movetime=100"},  // an engine with its own tc
      {"10+0", "10+0", "10+0"},  // three players
  };
  for (const auto& tcs : controls)
    for (int player = 1; player <= static_cast<int>(tcs.size()); ++player) {
      const std::string line = go_line(player, tcs);
      INFO(line);
      CHECK(accepted(forms, line));
      // And the SDKs' parser reads it.
      CHECK(protocol::parse_referee_line(line).ok());
    }
}

TEST_CASE("go lines: every go check-engine sends is a form of §6") {
  const auto forms = documented_forms();
  rtest::TempDir dir;
  const std::string log = dir.file("lines.txt");
  auto r = rtest::run_program(REFEREE_BIN,
                              {"check-engine", "--game", "awale", "--game", "oware:players=3",
                               rtest::kMock, "--log=" + log},
                              dir);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  std::set<std::string> kinds;  // the keys after `player <k>`, to see every form was sent
  int gos = 0;
  for (const auto& line : rtest::read_lines(log)) {
    if (line.rfind("go ", 0) != 0) continue;
    ++gos;
    INFO(line);
    CHECK(accepted(forms, line));
    const auto words = protocol::tokenize(line);
    if (words.size() > 3) kinds.insert(std::string(words[3]));
  }
  CHECK(gos > 20);
  CHECK(kinds == std::set<std::string>{"p1time", "movetime", "depth", "infinite"});
}

TEST_CASE("go lines: a plain UGI engine gets the same forms without player") {
  const auto forms = documented_forms();
  rtest::TempDir dir;
  const std::string log = dir.file("plain.txt");
  // Plain UGI: no id protocol, a bare readyok; every line it reads is appended to the log.
  auto engine = rtest::script_spec("while read -r cmd rest; do echo \"$cmd $rest\" >> '" + log +
                                   "'; case \"$cmd\" in\n"
                                   "ugi) echo 'id name plain'; echo ugiok;;\n"
                                   "isready) echo readyok;;\n"
                                   "go) echo 'bestmove 1';;\n"
                                   "esac; done\n");
  SessionSettings settings;
  auto s = rtest::start_session(engine, settings);
  auto game = games::make_game("awale");
  REQUIRE(game.ok());
  std::string detail;
  REQUIRE(s.prepare(*game, detail) == Fault::None);
  protocol::Go go;
  go.player = 1;
  go.time_ms = {1000, 1000};
  go.inc_ms = {10, 10};
  auto reply = s.request("", {}, go, Millis(2000), nullptr);
  CHECK(reply.move == "1");
  s.quit();
  int gos = 0;
  for (const auto& line : rtest::read_lines(log)) {
    if (line.rfind("go ", 0) != 0) continue;
    ++gos;
    INFO(line);
    CHECK(line == "go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    CHECK(accepted(forms, line, true));
  }
  CHECK(gos == 1);
}

TEST_CASE("go lines: the go lines of PROTOCOL.md's and the rules pages' sessions are forms of §6") {
  const auto forms = documented_forms();
  std::vector<std::string> pages = {kProtocol};
  for (const auto& entry : std::filesystem::directory_iterator(SOURCE_DIR "/protocol/rules"))
    if (entry.path().extension() == ".md") pages.push_back(entry.path().string());
  const std::regex sent(R"(^R(?:→\w+)?: +(go\b.*?) *$)");
  int gos = 0;
  for (const auto& page : pages)
    for (const auto& line : rtest::read_lines(page)) {
      std::smatch m;
      if (!std::regex_match(line, m, sent)) continue;
      ++gos;
      INFO(page << ": " << line);
      CHECK(accepted(forms, m[1]));
    }
  CHECK(gos > 30);
}
