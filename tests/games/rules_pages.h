// The rules pages (protocol/rules/GAME.md) as tests, and the checks on every Markdown file of the
// repository. A page's ```example blocks (a game, a start position, moves, then what must hold: the
// position string, the legal moves, the result...), its ```session blocks (protocol exchanges,
// `R:` and `E:` lines) and its ```show blocks (the board `referee show` draws) are parsed from the
// Markdown and checked against the rules library, so the pages cannot drift from the code. The
// block format is described in protocol/rules/README.md.
//
// Every check returns its failures as messages "page:line: what", never throws: a malformed block
// is a failure that names where it is, like a wrong expectation.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace referee::games::pages {

// One line of a block: `key: value` in an example block, `R: ...` / `E: ...` in a session block
// (key "R" or "E"). A line that is neither keeps an empty key and its text as value.
struct BlockLine {
  int number = 0;  // 1-based line number in the page
  std::string key;
  std::string value;
};

struct Block {
  std::string page;              // the page's name, as failure messages print it
  int line = 0;                  // the opening fence's line number
  std::string kind;              // the fence's info string: "example", "session" or "show"
  std::vector<BlockLine> lines;  // blank lines and `#` comment lines left out (kept in "show",
                                 // where each line is the text as written, key empty)
  std::string game;              // a ```show GAME block's game
};

// The ```example and ```session blocks of a Markdown text, and the failures found while reading
// it (an unclosed fence).
struct PageBlocks {
  std::vector<Block> blocks;
  std::vector<std::string> failures;
};
PageBlocks read_blocks(const std::string& page, std::string_view markdown);

// The game string named by an example block's `game:` line ("" when it has none).
std::string example_game(const Block& block);

// Checks an example block against the rules library.
std::vector<std::string> check_example(const Block& block);

// Checks a ```show GAME block: its lines are the drawing `referee show GAME` prints for the start
// position (State::draw in English), line for line; a line may go on with a note after two spaces
// or more.
std::vector<std::string> check_show(const Block& block);

// Checks a session block: every line is a valid protocol line, `setgame` is canonical, every
// `position` can be played, `go` names the player to move and carries every clock and increment,
// `bestmove` is legal, `readyok` echoes its token, `gameover` matches the rules' result.
std::vector<std::string> check_session(const Block& block);

// Every `go` line with clocks in the code blocks of a Markdown text (after an optional `R:` or
// `R→A:` prefix) must carry an increment for each clock (PROTOCOL.md §6).
std::vector<std::string> check_go_lines(const std::string& page, std::string_view markdown);

// ---- Links ----

struct Link {
  int line = 0;
  std::string target;
};
// The inline links `[text](target)` and images of a Markdown text, outside code blocks and code
// spans.
std::vector<Link> links_of(std::string_view markdown);

// GitHub's anchor for a heading's text: lowercase, spaces to '-', punctuation dropped.
std::string slug(std::string_view heading);
// The anchors of every heading of a Markdown text (outside code blocks).
std::vector<std::string> anchors_of(std::string_view markdown);

// Why the link `target` written in `file` does not resolve to a file of the repository at `root`
// (or a heading of it), or nothing when it does. External links (http, https, mailto) pass.
std::optional<std::string> link_problem(const std::filesystem::path& root,
                                        const std::filesystem::path& file,
                                        const std::string& target);

}  // namespace referee::games::pages
