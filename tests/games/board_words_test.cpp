// The words of the drawings (State::draw, games/board_words.h). BoardWords::Seed is the seed's
// console screen, pinned here byte for byte as main printed it before English existed (the
// literals below are that output, for positions of every game whose drawing has words).
// BoardWords::English must hold no French word, name each side's score with its number, and draw
// the same board: the same lines, the same numbers in the same order, the same columns (shifted
// as a whole when the row labels are wider), checked on the positions below and along playouts
// of every registered game.
#include <catch2/catch.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "game_test_util.h"
#include "games/four_rows.h"
#include "games/game.h"
#include "games/registry.h"

using namespace referee::games;
using namespace referee::games::testing;

namespace {

struct Pinned {
  const char* game;
  const char* position;
  const char* seed;     // draw(BoardWords::Seed), as main printed it
  const char* english;  // lines draw(BoardWords::English) must hold
};

const std::vector<Pinned> kPinned = {
    {"awale", "12,5,1,2,14,0/1,0,0,1,1,5:6,0:2:0:15",
     "      12   11   10    9    8    7\n"
     "NORD [ 5] [ 1] [ 1] [ 0] [ 0] [ 1]\n"
     "SUD  [12] [ 5] [ 1] [ 2] [14] [ 0]\n"
     "       1    2    3    4    5    6\n"
     "NORD a 0 bille(s).\n"
     "SUD a 6 bille(s).\n",
     "North [ 5] [ 1] [ 1] [ 0] [ 0] [ 1]\n"
     "South [12] [ 5] [ 1] [ 2] [14] [ 0]\n"
     "        1    2    3    4    5    6\n"
     "North has 0 seeds.\n"
     "South has 6 seeds.\n"},
    {"chongkak", "10,1,3,12,4,1,3/4,0,3,15,6,0,18:2:1:9",
     "      14   13   12   11   10    9    8\n"
     "NORD [18] [ 0] [ 6] [15] [ 3] [ 0] [ 4]\n"
     "SUD  [10] [ 1] [ 3] [12] [ 4] [ 1] [ 3]\n"
     "       1    2    3    4    5    6    7\n"
     "NORD a 46 bille(s) dans sa rangée.\n"
     "SUD a 34 bille(s) dans sa rangée.\n",
     "North has 46 seeds in its row.\n"
     "South has 34 seeds in its row.\n"},
    {"kalaha", "0,3,2,2,2,13/12,2,1,4,0,11:15,5:1:3:11",
     "      12   11   10    9    8    7\n"
     "NORD [11] [ 0] [ 4] [ 1] [ 2] [12]\n"
     "SUD  [ 0] [ 3] [ 2] [ 2] [ 2] [13]\n"
     "       1    2    3    4    5    6\n"
     "NORD a 5 bille(s).\n"
     "SUD a 15 bille(s).\n"
     "S2 (NORD) [5]  S1 (SUD) [15]\n",
     "North has 5 seeds.\n"
     "South has 15 seeds.\n"
     "S2 (North) [5]  S1 (South) [15]\n"},
    {"oware:players=3", "3,0,1,0/0,0,0,1/0,0,3,0:16,16,8:3:2:14",
     "        12     11     10      9      8      7\n"
     "    [ 0]J3 [ 3]J3 [ 0]J3 [ 0]J3 [ 1]J2 [ 0]J2\n"
     "    [ 3]J1 [ 0]J1 [ 1]J1 [ 0]J1 [ 0]J2 [ 0]J2\n"
     "         1      2      3      4      5      6\n"
     "J1 a 16 bille(s).\n"
     "J2 a 16 bille(s).\n"
     "J3 a 8 bille(s).\n",
     "    [ 3]P1 [ 0]P1 [ 1]P1 [ 0]P1 [ 0]P2 [ 0]P2\n"
     "         1      2      3      4      5      6\n"
     "P1 has 16 seeds.\n"
     "P2 has 16 seeds.\n"
     "P3 has 8 seeds.\n"},
    {"katra", "3,2,2,0,3,3,2,0,1,1,1,1,3,0,3,3/0,4,4,3,0,3,3,2,2,2,0,0,0,4,3,0:2,4:1:6:10",
     "        24   23   22   21   20   19   18   17\n"
     "NORD  [ 2] [ 3] [ 3] [ 0] [ 3] [ 4] [ 4] [ 0]\n"
     "      [ 2] [ 2] [ 0] [ 0] [ 0] [ 4] [ 3] [ 0]\n"
     "        25   26   27   28   29   30   31   32\n"
     "        16   15   14   13   12   11   10    9\n"
     "      [ 3] [ 3] [ 0] [ 3] [ 1] [ 1] [ 1] [ 1]\n"
     "SUD   [ 3] [ 2] [ 2] [ 0] [ 3] [ 3] [ 2] [ 0]\n"
     "         1    2    3    4    5    6    7    8\n"
     "NORD a 4 bille(s).\n"
     "SUD a 2 bille(s).\n",
     "South [ 3] [ 2] [ 2] [ 0] [ 3] [ 3] [ 2] [ 0]\n"
     "         1    2    3    4    5    6    7    8\n"
     "North has 4 seeds.\n"
     "South has 2 seeds.\n"},
    {"pallankuli", "6,6,6,6,6,6,6/6,6,6,2,x,x,x:22,0:2:2:2:0:0",
     "       14   13   12   11   10    9    8\n"
     "NORD  [ x] [ x] [ x] [ 2] [ 6] [ 6] [ 6]\n"
     "SUD   [ 6] [ 6] [ 6] [ 6] [ 6] [ 6] [ 6]\n"
     "        1    2    3    4    5    6    7\n"
     "Reserve NORD 0, SUD 22; manche 2 (NORD commence); semis horaire, x = trou aveugle.\n",
     "North [ x] [ x] [ x] [ 2] [ 6] [ 6] [ 6]\n"
     "South [ 6] [ 6] [ 6] [ 6] [ 6] [ 6] [ 6]\n"
     "        1    2    3    4    5    6    7\n"
     "In reserve: North 0, South 22; round 2 (North starts); sowing is clockwise, x = a blind "
     "hole.\n"},
    {"lontu-holo", "3,5,2,0,0,0/0,0,0,6,4,4:mirror:2:1:1",
     "      12   11   10    9    8    7\n"
     "NORD [ 4] [ 4] [ 6] [ 0] [ 0] [ 0]\n"
     "SUD  [ 3] [ 5] [ 2] [ 0] [ 0] [ 0]\n"
     "       1    2    3    4    5    6\n"
     "NORD a 0 bille(s).\n"
     "SUD a 24 bille(s).\n"
     "SUD: trous 1 2 3 10 11 12 ; NORD: trous 7 8 9 4 5 6 (ordre de semis).\n"
     "Mise en place (mirror).\n",
     "North has 0 seeds.\n"
     "South has 24 seeds.\n"
     "South: holes 1 2 3 10 11 12; North: holes 7 8 9 4 5 6 (sowing order).\n"
     "Setup (mirror).\n"},
    {"mweso", "1,4,4,4,1,4,1,1,1,3,1,1,3,1,1,1/2,0,3,1,1,4,0,2,3,1,1,1,1,1,10,1:play:1:0:0",
     "        24   23   22   21   20   19   18   17\n"
     "NORD  [ 2] [ 0] [ 4] [ 1] [ 1] [ 3] [ 0] [ 2]\n"
     "      [ 3] [ 1] [ 1] [ 1] [ 1] [ 1] [10] [ 1]\n"
     "        25   26   27   28   29   30   31   32\n"
     "        16   15   14   13   12   11   10    9\n"
     "      [ 1] [ 1] [ 1] [ 3] [ 1] [ 1] [ 3] [ 1]\n"
     "SUD   [ 1] [ 4] [ 4] [ 4] [ 1] [ 4] [ 1] [ 1]\n"
     "         1    2    3    4    5    6    7    8\n"
     "NORD a 32 bille(s).\n"
     "SUD a 32 bille(s).\n"
     "Alokas: SUD 1 2 15 16, NORD 17 18 31 32.\n",
     "North has 32 seeds.\n"
     "South has 32 seeds.\n"
     "Alokas: South 1 2 15 16, North 17 18 31 32.\n"},
};

// The seed's words, none of which an English drawing may hold.
const std::vector<std::string> kFrench = {"NORD",   "SUD",     "bille", "trou",   "manche",
                                          "rangée", "Reserve", "Mise",  "semis",  "commence",
                                          "ordre",  "J1",      "J2",    "horaire"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  if (start < text.size()) out.push_back(text.substr(start));
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The numbers of a text, in order.
std::vector<std::string> numbers_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (is_digit(text[i]) && (i == 0 || !is_digit(text[i - 1]))) {
      std::size_t j = i;
      while (j < text.size() && is_digit(text[j])) ++j;
      out.push_back(text.substr(i, j - i));
    }
  return out;
}

// The columns a board's alignment rests on: each ']' of a line of counts (a label of letters,
// then only cells such as " [12]" or " [ 3]J1"), and the last digit of each number of a line of
// hole numbers (only digits and spaces). Empty for other lines.
std::vector<std::size_t> marks_of(const std::string& line) {
  std::vector<std::size_t> out;
  const auto open = line.find('[');
  const bool counts =
      open != std::string::npos &&
      line.find_first_not_of(" ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") >= open &&
      line.find_first_not_of(" []0123456789xJP", open) == std::string::npos;
  const bool numbers = line.find_first_not_of(" 0123456789") == std::string::npos;
  for (std::size_t i = 0; i < line.size(); ++i)
    if ((counts && line[i] == ']') ||
        (numbers && is_digit(line[i]) && (i + 1 == line.size() || !is_digit(line[i + 1]))))
      out.push_back(i);
  return out;
}

// What every English drawing must be, given the seed's drawing of the same state.
void check_english(const State& s, const std::string& where) {
  const std::string seed = s.draw(BoardWords::Seed), english = s.draw(BoardWords::English);
  INFO(where << "\nseed:\n" << seed << "english:\n" << english);
  for (const auto& word : kFrench) {
    INFO("French word: " << word);
    CHECK(english.find(word) == std::string::npos);
  }
  CHECK(numbers_of(english) == numbers_of(seed));
  const auto seed_lines = lines_of(seed), english_lines = lines_of(english);
  REQUIRE(english_lines.size() == seed_lines.size());
  // The board may move right as a whole (wider labels), never out of line with itself.
  std::optional<std::ptrdiff_t> shift;
  for (std::size_t i = 0; i < seed_lines.size(); ++i) {
    const auto a = marks_of(seed_lines[i]), b = marks_of(english_lines[i]);
    INFO("line " << i + 1);
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      const auto d = static_cast<std::ptrdiff_t>(b[k]) - static_cast<std::ptrdiff_t>(a[k]);
      if (!shift) shift = d;
      CHECK(d == *shift);
    }
  }
}

}  // namespace

TEST_CASE("board words: the seed's words are the seed's screen, byte for byte") {
  for (const auto& p : kPinned) {
    INFO(p.game << " at " << p.position);
    CHECK(at(p.game, p.position).draw(BoardWords::Seed) == p.seed);
  }
}

TEST_CASE("board words: English names each side's or player's seeds with the right numbers") {
  for (const auto& p : kPinned) {
    const State s = at(p.game, p.position);
    INFO(p.game << " at " << p.position << "\n" << s.draw(BoardWords::English));
    CHECK(s.draw(BoardWords::English).find(p.english) != std::string::npos);
    check_english(s, p.game);
  }
}

TEST_CASE("board words: English counts one seed in the singular, the seed's form never") {
  const std::vector<int> holes(32, 2);
  const std::string english = four_rows::draw(8, holes, 1, 0, BoardWords::English);
  CHECK(english.find("North has 1 seed.\nSouth has 0 seeds.\n") != std::string::npos);
  const std::string seed = four_rows::draw(8, holes, 1, 0, BoardWords::Seed);
  CHECK(seed.find("NORD a 1 bille(s).\nSUD a 0 bille(s).\n") != std::string::npos);
}

TEST_CASE(
    "board words: every game's English drawing, along a playout, is the seed's board in English") {
  std::vector<std::string> specs = {"oware:players=3", "oware:players=4", "oware:players=6"};
  for (const auto& entry : registry()) specs.push_back(entry.name);
  for (const auto& spec : specs) {
    State s = start(spec);
    for (int ply = 0; ply < 80 && !s.is_terminal(); ++ply) {
      check_english(s, spec + " at " + s.to_string());
      const auto moves = s.legal_moves();
      const std::string move = moves.empty()
                                   ? s.sample_setup(static_cast<std::uint64_t>(ply))
                                   : moves[static_cast<std::size_t>(ply * 7 + 3) % moves.size()];
      REQUIRE(s.apply(move).ok());
    }
    check_english(s, spec + " at " + s.to_string());
  }
}
