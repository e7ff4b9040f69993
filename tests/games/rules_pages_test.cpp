// The rules pages (protocol/rules/) against the rules library: one page per registered game, each
// stating its canonical game string and start position, every ```example and ```session block
// holding; and every Markdown file of the repository (outside build trees and hidden directories)
// linking only to files inside it, with go lines that carry the increments. Also checks that the
// checkers themselves fail, with the page and line, on wrong or malformed blocks.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "games/game.h"
#include "games/registry.h"
#include "games/rules_pages.h"

namespace fs = std::filesystem;
using namespace referee::games;
using namespace referee::games::pages;

namespace {

const fs::path kRoot = SOURCE_DIR;
const fs::path kPages = kRoot / "protocol" / "rules";

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every Markdown file of the repository, sorted: the root walked recursively, without build trees
// (directories named build*), hidden directories (.git, .ci) and the fuzz corpus (inputs, not
// pages).
std::vector<fs::path> markdown_files() {
  std::vector<fs::path> out;
  const fs::path corpus = kRoot / "tests" / "fuzz" / "corpus";
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory()) {
      const std::string name = it->path().filename().string();
      if (name.rfind("build", 0) == 0 || name.rfind(".", 0) == 0 || it->path() == corpus)
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".md") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string page_name(const fs::path& path) {
  return path.lexically_relative(kRoot).string();
}

// The game a page is about: its file name (the registry name of the game).
std::vector<fs::path> rules_pages() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kPages))
    if (e.path().extension() == ".md" && e.path().filename() != "README.md")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string game_name_of(const std::string& spec) {
  return spec.substr(0, spec.find(':'));
}

Block block_of(const std::string& kind, const std::string& text) {
  auto read = read_blocks("t.md", "intro\n```" + kind + "\n" + text + "```\n");
  REQUIRE(read.failures.empty());
  REQUIRE(read.blocks.size() == 1);
  return read.blocks.front();
}

bool any_contains(const std::vector<std::string>& messages, const std::string& piece) {
  for (const auto& m : messages)
    if (m.find(piece) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("rules pages: one page per registered game, listed by the index") {
  std::set<std::string> registered;
  const std::string index = read_text(kPages / "README.md");
  for (const auto& e : registry()) {
    registered.insert(e.name);
    INFO("game " << e.name);
    CHECK(fs::exists(kPages / (e.name + ".md")));
    CHECK(index.find("(" + e.name + ".md)") != std::string::npos);
  }
  for (const auto& page : rules_pages()) {
    INFO("page " << page_name(page));
    CHECK(registered.count(page.stem().string()) == 1);
  }
  CHECK(rules_pages().size() == registry().size());
}

TEST_CASE("rules pages: each states its canonical game string, parameters and start position") {
  for (const auto& e : registry()) {
    const std::string text = read_text(kPages / (e.name + ".md"));
    auto game = make_game(e.name);
    REQUIRE(game.ok());
    INFO("page protocol/rules/" << e.name << ".md");
    CHECK(text.find("`" + game->canonical() + "`") != std::string::npos);
    CHECK(text.find(game->initial_state().to_string()) != std::string::npos);
    // The parameters table: one row per parameter, with its values and default.
    for (const auto& p : all_params(e)) {
      INFO("parameter " << p.key);
      std::string values;
      if (p.choices.empty()) {
        values = "`" + std::to_string(p.min) + "`..`" + std::to_string(p.max) + "`";
      } else {
        for (const auto& c : p.choices) values += (values.empty() ? "`" : " \\| `") + c + "`";
      }
      const std::string row = "\n| `" + p.key + "` | " + values + " | `" + p.default_value + "` | ";
      CHECK(text.find(row) != std::string::npos);
    }
    for (const auto& alias : e.aliases) CHECK(text.find("`" + alias + "`") != std::string::npos);
  }
}

TEST_CASE("rules pages: every example holds against the rules library") {
  int examples = 0;
  for (const auto& page : rules_pages()) {
    const std::string name = page_name(page);
    auto read = read_blocks(name, read_text(page));
    for (const auto& f : read.failures) FAIL_CHECK(f);
    int own = 0;
    int sessions = 0;
    for (const auto& block : read.blocks) {
      if (block.kind == "session") {
        ++sessions;
        continue;
      }
      if (block.kind == "show") continue;
      ++examples;
      own += game_name_of(example_game(block)) == page.stem().string();
      for (const auto& f : check_example(block)) FAIL_CHECK(f);
    }
    INFO("page " << name);
    CHECK(own >= 4);  // several worked examples of the page's own game
    CHECK(sessions >= 1);
  }
  CHECK(examples >= 4 * static_cast<int>(registry().size()));
}

TEST_CASE("rules pages: every session is a valid exchange that the rules agree with") {
  for (const auto& page : rules_pages()) {
    auto read = read_blocks(page_name(page), read_text(page));
    for (const auto& block : read.blocks)
      if (block.kind == "session")
        for (const auto& f : check_session(block)) FAIL_CHECK(f);
  }
}

TEST_CASE("rules pages: every drawing of a board is what referee show draws") {
  int drawings = 0;
  for (const auto& page : rules_pages()) {
    auto read = read_blocks(page_name(page), read_text(page));
    for (const auto& block : read.blocks)
      if (block.kind == "show") {
        ++drawings;
        for (const auto& f : check_show(block)) FAIL_CHECK(f);
      }
  }
  CHECK(drawings >= 16);  // every page whose board is drawn by referee show shows it
}

TEST_CASE("markdown: every relative link resolves to a file inside the repository") {
  int links = 0;
  for (const auto& file : markdown_files()) {
    const std::string text = read_text(file);
    for (const auto& link : links_of(text)) {
      ++links;
      if (auto problem = link_problem(kRoot, file, link.target))
        FAIL_CHECK(page_name(file) << ":" << link.line << ": " << *problem);
    }
    // Files outside the repository are not even named (a clone does not have them).
    INFO(page_name(file));
    CHECK(text.find("shared/") == std::string::npos);
  }
  CHECK(links > 40);
}

TEST_CASE("markdown: every go line carries every player's increment") {
  for (const auto& file : markdown_files())
    for (const auto& f : check_go_lines(page_name(file), read_text(file))) FAIL_CHECK(f);
}

// ---- The checkers themselves ----

TEST_CASE("rules pages checker: a good example passes") {
  auto good =
      block_of("example",
               "game: awale\nposition: start\n# a comment\nlegal: 1 2 3 4 5 6\nperft: 6 36\n"
               "moves: 1\nposition: 0,5,5,5,5,4/4,4,4,4,4,4:0,0:2:1:1\nplayer: 2\n"
               "illegal: 1 13 pass\n");
  for (const auto& f : check_example(good)) FAIL_CHECK(f);
  auto over = block_of("example",
                       "game: awale\nposition: 0,0,0,0,0,0/1,0,0,0,0,0:23,24:1:0:0\nlegal:\n"
                       "result: p2win rules\nscores: 23 25\nrejected: 4,4:0,0:1:0:0\n");
  for (const auto& f : check_example(over)) FAIL_CHECK(f);
}

TEST_CASE("rules pages checker: drawings") {
  const std::string awale =
      "       12   11   10    9    8    7\n"
      "North [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]  North (player 2)\n"
      "South [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]\n"
      "        1    2    3    4    5    6\n"
      "North has 0 seeds.\n"
      "South has 0 seeds.\n";
  CHECK(check_show(block_of("show awale", awale)).empty());
  // The seed's words are not what `referee show` prints.
  auto french = check_show(block_of("show awale",
                                    "      12   11   10    9    8    7\n"
                                    "NORD [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]\n"
                                    "SUD  [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]\n"
                                    "       1    2    3    4    5    6\n"
                                    "NORD a 0 bille(s).\n"
                                    "SUD a 0 bille(s).\n"));
  REQUIRE(french.size() == 6);
  CHECK(french[1] ==
        "t.md:4: `referee show awale` draws 'North [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]' here");
  // A note needs two spaces; a missing line and an unknown game are named.
  auto glued = check_show(block_of("show awale", "       12   11   10    9    8    7 the top\n"));
  REQUIRE(glued.size() == 2);
  CHECK(glued[0] == "t.md:2: the drawing has 1 lines; `referee show awale` draws 6");
  CHECK(glued[1].rfind("t.md:3: `referee show awale` draws '       12", 0) == 0);
  auto unknown = check_show(block_of("show chess", "x\n"));
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].rfind("t.md:2: ", 0) == 0);
  CHECK(unknown[0].find("chess") != std::string::npos);
}

TEST_CASE("rules pages checker: a wrong expectation fails with the page and line") {
  auto position = check_example(block_of("example",
                                         "game: awale\nposition: start\nmoves: 1\n"
                                         "position: 4,4,4,4,4,4/4,4,4,4,4,4:0,0:2:1:1\n"));
  REQUIRE(position.size() == 1);
  CHECK(position[0].rfind("t.md:6: expected position", 0) == 0);
  CHECK(any_contains(position, "0,5,5,5,5,4/4,4,4,4,4,4:0,0:2:1:1"));

  auto legal = check_example(block_of("example", "game: awale\nposition: start\nlegal: 1 2 3\n"));
  CHECK(any_contains(legal, "t.md:5: expected legal moves '1 2 3'"));
  auto illegal = check_example(block_of("example", "game: awale\nposition: start\nillegal: 3\n"));
  CHECK(any_contains(illegal, "t.md:5: move '3' was accepted"));
  auto result = check_example(block_of("example",
                                       "game: awale\nposition: start\n"
                                       "result: p1win rules\n"));
  CHECK(any_contains(result, "t.md:5: expected the game over"));
  auto scores = check_example(block_of(
      "example", "game: awale\nposition: 0,0,0,0,0,0/1,0,0,0,0,0:23,24:1:0:0\nscores: 25 23\n"));
  CHECK(any_contains(scores, "t.md:5: expected scores '25 23'"));
  auto player = check_example(block_of("example",
                                       "game: kalaha\nposition: start\nmoves: 1\n"
                                       "player: 2\n"));
  CHECK(any_contains(player, "t.md:6: expected player 2"));
  auto perft = check_example(block_of("example", "game: awale\nposition: start\nperft: 6 35\n"));
  CHECK(any_contains(perft, "t.md:5: perft(2) is 36, not 35"));
  auto rejected = check_example(block_of("example",
                                         "game: awale\nrejected: "
                                         "4,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0\n"));
  CHECK(any_contains(rejected, "t.md:4: position"));
  auto forced = check_example(block_of("example", "game: awale\nposition: start\nforced: 1\n"));
  CHECK(any_contains(forced, "t.md:5: expected the forced move '1'"));
  auto setup = check_example(block_of("example", "game: mweso\nposition: start\nsetup: =2\n"));
  CHECK(any_contains(setup, "t.md:5: expected setup form '=2'"));
  auto agree = check_example(block_of("example", "game: mweso\nposition: start\nagree: ok\n"));
  CHECK(any_contains(agree, "t.md:5: agreement refused"));
}

TEST_CASE("rules pages checker: a malformed example fails with the page and line") {
  auto no_game = check_example(block_of("example", "position: start\nlegal: 1\n"));
  CHECK(any_contains(no_game, "t.md:3: an example starts with 'game: GAME'"));
  auto bad_game = check_example(block_of("example", "game: chess\nposition: start\n"));
  CHECK(any_contains(bad_game, "t.md:3: unknown game 'chess'"));
  auto bad_start = check_example(block_of("example", "game: awale\nposition: 1,2\nlegal: 1\n"));
  CHECK(any_contains(bad_start, "t.md:4:"));
  auto not_canonical = check_example(
      block_of("example", "game: awale\nposition: 04,4,4,4,4,4/4,4,4,4,4,4:0,0:1:0:0\nlegal: 1\n"));
  CHECK(not_canonical.size() == 1);  // "04" is refused by the library: named at its line
  CHECK(any_contains(not_canonical, "t.md:4:"));
  auto bad_move = check_example(block_of("example",
                                         "game: awale\nposition: start\nmoves: 1 1\n"
                                         "legal: 7\n"));
  CHECK(any_contains(bad_move, "t.md:5: move '1' refused"));
  auto unknown = check_example(block_of("example", "game: awale\nposition: start\nlegals: 1\n"));
  CHECK(any_contains(unknown, "t.md:5: unknown line 'legals:'"));
  auto nothing = check_example(block_of("example", "game: awale\nposition: start\nmoves: 1\n"));
  CHECK(any_contains(nothing, "t.md:2: an example that checks nothing"));
  auto order = check_example(block_of("example", "game: awale\nlegal: 1\n"));
  CHECK(any_contains(order, "t.md:4: after 'game:' comes 'position: start'"));
  auto two_games = check_example(block_of("example", "game: awale\ngame: kalaha\n"));
  CHECK(any_contains(two_games, "t.md:4: a second 'game:' line"));

  auto unclosed = read_blocks("u.md", "text\n```example\ngame: awale\n");
  REQUIRE(unclosed.failures.size() == 1);
  CHECK(unclosed.failures[0] == "u.md:2: the ```example block is never closed");
}

TEST_CASE("rules pages checker: sessions") {
  auto good = check_session(
      block_of("session",
               "R: setgame awale grandslam=nocapture first=1 nocapture=100 maxplies=2000\n"
               "R: uginewgame\nR: isready 1\nE: readyok 1\nR: position startpos\n"
               "R: go player 1 p1time 1000 p2time 1000 p1inc 10 p2inc 10\nE: info depth 1 pv 1\n"
               "E: bestmove 1\n"
               "R: position fen 0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60\n"
               "R: go player 1 p1time 1000 p2time 1000 p1inc 10 p2inc 10\nE: bestmove 6\n"
               "R: gameover p1win rules\n"));
  CHECK(good.empty());
  for (const auto& f : good) UNSCOPED_INFO(f);

  auto setgame = check_session(block_of("session", "R: setgame awale first=1\n"));
  CHECK(any_contains(setgame, "t.md:3: setgame carries every parameter in canonical order"));
  auto go = check_session(block_of("session",
                                   "R: setgame awale grandslam=nocapture first=1 nocapture=100 "
                                   "maxplies=2000\nR: position startpos\n"
                                   "R: go player 2 p1time 1000 p2time 1000\n"));
  CHECK(any_contains(go, "t.md:5: go player must be the player to move, 1"));
  CHECK(any_contains(go, "t.md:5: go carries every player's time and increment"));
  auto best = check_session(
      block_of("session",
               "R: setgame awale grandslam=nocapture first=1 nocapture=100 maxplies=2000\n"
               "R: position startpos\nR: go player 1 p1time 1 p2time 1 p1inc 0 p2inc 0\n"
               "E: bestmove 7\nR: gameover p1win rules\nE: readyok 3\nE: hello\nX: ugi\n"));
  CHECK(any_contains(best, "t.md:6: bestmove 7"));
  CHECK(any_contains(best, "t.md:7: gameover while the game goes on"));
  CHECK(any_contains(best, "t.md:8: readyok must echo ''"));
  CHECK(any_contains(best, "t.md:9: not a protocol line"));
  CHECK(any_contains(best, "t.md:10: a session line starts with 'R: ' or 'E: '"));
  auto result = check_session(
      block_of("session",
               "R: setgame awale grandslam=nocapture first=1 nocapture=100 maxplies=2000\n"
               "R: position fen 0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:40:60\n"
               "R: go player 1 p1time 1 p2time 1 p1inc 0 p2inc 0\nE: bestmove 6\n"
               "R: gameover draw rules\n"));
  CHECK(any_contains(result, "t.md:7: the rules' result is 'gameover p1win rules'"));
  // The referee plays forced moves itself: a go for one is wrong.
  auto forced =
      check_session(block_of("session",
                             "R: setgame kakua first=1 nocapture=100 maxplies=2000\n"
                             "R: position fen 0,0,0,0,1,1/0,0,0,0,0,0:24,22:1:0:40 moves 6\n"
                             "R: go player 2 p1time 1 p2time 1 p1inc 0 p2inc 0\n"));
  CHECK(any_contains(forced, "t.md:5: go for a forced move"));
}

TEST_CASE("markdown checkers: go lines, links and anchors") {
  auto go = check_go_lines("g.md",
                           "```\nR: go player 1 p1time 5 p2time 5\n"
                           "R→A: go player 1 p1time 5 p2time 5 p1inc 1 p2inc 1\n"
                           "go [player <k>] [p<i>time <ms>]...\n```\n"
                           "go player 1 p1time 5 p2time 5 (prose, not code)\n");
  REQUIRE(go.size() == 1);
  CHECK(go[0].rfind("g.md:2: a go line sends every player's increment", 0) == 0);

  auto links = links_of(
      "# Title\n[a](x.md) and `[b](code.md)` and ![c](img.png \"t\")\n```\n[d](in-code.md)\n```\n"
      "[e](https://example.com/x)\n");
  REQUIRE(links.size() == 3);
  CHECK(links[0].target == "x.md");
  CHECK(links[0].line == 2);
  CHECK(links[1].target == "img.png");
  CHECK(links[2].target == "https://example.com/x");

  CHECK(slug("1. Transport and lexical rules") == "1-transport-and-lexical-rules");
  CHECK(slug("awale — position string") == "awale--position-string");
  CHECK(slug("Awalé, `seed` 004") == "awalé-seed-004");
  CHECK(anchors_of("# A\n## A\n```\n# not a heading\n```\n# B c\n") ==
        std::vector<std::string>{"a", "a-1", "b-c"});

  const fs::path readme = kRoot / "README.md";
  CHECK_FALSE(link_problem(kRoot, readme, "protocol/PROTOCOL.md"));
  CHECK_FALSE(link_problem(kRoot, readme, "protocol/PROTOCOL.md#6-go"));
  CHECK_FALSE(link_problem(kRoot, readme, "https://example.com"));
  CHECK_FALSE(link_problem(kRoot, readme, "#commands"));
  auto outside = link_problem(kRoot, readme, "../shared/rules.md");
  REQUIRE(outside);
  CHECK(outside->find("outside the repository") != std::string::npos);
  auto missing = link_problem(kRoot, readme, "protocol/nothing.md");
  REQUIRE(missing);
  CHECK(missing->find("no such file") != std::string::npos);
  auto anchor = link_problem(kRoot, readme, "protocol/PROTOCOL.md#99-nothing");
  REQUIRE(anchor);
  CHECK(anchor->find("no heading") != std::string::npos);
  CHECK(link_problem(kRoot, readme, "/etc/passwd"));
  CHECK(link_problem(kRoot, readme, "file:///etc/passwd"));
}
