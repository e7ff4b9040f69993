#include "games/mweso.h"

#include <algorithm>

#include "games/board_words.h"
#include "games/four_rows.h"
#include "games/mancala.h"
#include "games/setup_move.h"

namespace referee::games {

namespace {

constexpr int kN = 8;
constexpr int kSeedsEach = 32;

using Board = MwesoCore::Board;

int& at(Board& b, int h) {
  return b[static_cast<std::size_t>(h - 1)];
}
int at(const Board& b, int h) {
  return b[static_cast<std::size_t>(h - 1)];
}

bool is_aloka(int h) {
  return h == 1 || h == 2 || h == 15 || h == 16 || h == 17 || h == 18 || h >= 31;
}
int step(int h, bool cw) {
  return cw ? four_rows::cw(kN, h) : four_rows::ccw(kN, h);
}

// Case 2: the last seed landed in `h`, which was occupied.
bool captures_at(const Board& b, int h) {
  if (!four_rows::is_inner(kN, h) || at(b, four_rows::behind(kN, h)) != 0) return false;
  const int facing = four_rows::facing(kN, h);
  return at(b, facing) > 0 && at(b, four_rows::behind(kN, facing)) > 0;
}

// Sows `hand` seeds from `origin` (skipped on a full lap); returns the last hole and whether it
// was occupied before the last seed.
int sow(Board& b, int origin, int hand, bool cw, bool& was_occupied, int* drops = nullptr) {
  int h = origin;
  was_occupied = false;
  while (hand > 0) {
    h = step(h, cw);
    if (h == origin) continue;
    if (hand == 1) was_occupied = at(b, h) > 0;
    ++at(b, h);
    --hand;
    if (drops) ++*drops;
  }
  return h;
}

// Whether a clockwise sowing of `hand` seeds from `origin` on `b` would end in a capture.
bool cw_captures(Board b, int origin, int hand) {
  bool occupied = false;
  const int last = sow(b, origin, hand, true, occupied);
  return occupied && captures_at(b, last);
}

struct SubSowing {
  Board board;
  int hand;
  int origin;
  bool cw;
  bool operator==(const SubSowing&) const = default;
};

// Depth-first search over the choice points of one turn.
struct Search {
  int start;
  std::vector<MwesoCore::Move>& out;
  std::vector<SubSowing> line;  // the sub-sowings of the current line, for the relay guard
  std::vector<bool> choices;

  bool first_only = false;  // stop at the first legal move (over())

  void run(const SubSowing& s, int drops, bool captured) {
    if (first_only && !out.empty()) return;
    if (std::find(line.begin(), line.end(), s) != line.end()) return;  // repeats: excluded
    line.push_back(s);
    explore(s, drops, captured);
    line.pop_back();
  }

  void explore(const SubSowing& s, int drops, bool captured) {
    Board b = s.board;
    bool occupied = false;
    const int last = sow(b, s.origin, s.hand, s.cw, occupied, &drops);
    if (drops > mancala::kMaxDrops) return;  // excluded
    if (!occupied) {
      out.push_back(MwesoCore::Move{start, choices, b, captured});
      return;
    }
    SubSowing next{b, 0, last, false};
    bool may_cw = false;
    if (captures_at(b, last)) {
      const int facing = four_rows::facing(kN, last), outer = four_rows::behind(kN, facing);
      next.hand = at(next.board, facing) + at(next.board, outer);
      at(next.board, facing) = 0;
      at(next.board, outer) = 0;
      captured = true;
      may_cw = s.cw;
    } else {
      next.hand = at(next.board, last);
      at(next.board, last) = 0;
      may_cw = is_aloka(last);
    }
    if (may_cw) may_cw = cw_captures(next.board, next.origin, next.hand);
    if (!may_cw) {
      run(next, drops, captured);
      return;
    }
    for (bool cw : {false, true}) {
      choices.push_back(cw);
      next.cw = cw;
      run(next, drops, captured);
      choices.pop_back();
    }
  }
};

}  // namespace

MwesoCore MwesoCore::start(const GameSetup& setup) {
  MwesoCore c;
  c.mover = setup.first;
  return c;
}

int MwesoCore::side_seeds(int player) const {
  int sum = 0;
  for (int h : four_rows::ring(kN, player)) sum += at(holes, h);
  return sum;
}

Expected<MwesoCore> MwesoCore::parse(const GameSetup& setup, std::string_view fields) {
  MwesoCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:phase:player'"};
  auto blocks = split(parts[0], '/');
  if (blocks.size() != 2) return Error{"expected two blocks of 16 holes separated by '/'"};
  for (std::size_t p = 0; p < 2; ++p) {
    auto counts = split(blocks[p], ',');
    if (counts.size() != 16) return Error{"each block needs 16 hole counts"};
    for (std::size_t i = 0; i < 16; ++i) {
      auto n = parse_count(counts[i], 2 * kSeedsEach);
      if (!n) return Error{"bad hole count '" + std::string(counts[i]) + "'"};
      c.holes[p * 16 + i] = static_cast<int>(*n);
    }
  }
  if (parts[2] != "1" && parts[2] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[2][0] - '0';
  if (parts[1] == "setup")
    c.setup = true;
  else if (parts[1] == "play")
    c.setup = false;
  else
    return Error{"phase must be setup or play"};
  const int mine = c.side_seeds(c.mover), theirs = c.side_seeds(3 - c.mover);
  if (c.setup && (mine != 0 || (theirs != 0 && theirs != kSeedsEach)))
    return Error{"in setup the mover's holes are empty and the other's hold 0 or 32"};
  if (!c.setup && mine + theirs != 2 * kSeedsEach) return Error{"seeds must total 64"};
  return c;
}

void MwesoCore::moves_from(int hole, std::vector<Move>& out, bool first_only) const {
  if (at(holes, hole) < 2) return;
  Search search{hole, out, {}, {}, first_only};
  SubSowing first{holes, at(holes, hole), hole, false};
  at(first.board, hole) = 0;
  search.run(first, 0, false);
}

void MwesoCore::moves(std::vector<Move>& out) const {
  if (setup) return;
  for (int h : four_rows::ring(kN, mover)) moves_from(h, out, false);
}

std::optional<MwesoCore::Move> MwesoCore::legal_move(std::string_view text) const {
  if (!setup) {
    // Only the named hole's lines need searching.
    auto hole = parse_count(text.substr(0, text.find('.')), 32);
    if (!hole || *hole < 1 || four_rows::owner(kN, static_cast<int>(*hole)) != mover)
      return std::nullopt;
    std::vector<Move> list;
    moves_from(static_cast<int>(*hole), list, false);
    for (auto& m : list)
      if (move_text(m) == text) return m;
    return std::nullopt;
  }
  auto counts = parse_setup(text, 16, kSeedsEach);
  if (!counts) return std::nullopt;
  Move m;
  m.after = holes;
  const int first = four_rows::first_hole(kN, mover);
  for (int i = 0; i < 16; ++i) at(m.after, first + i) = (*counts)[static_cast<std::size_t>(i)];
  return m;
}

Effect MwesoCore::play(const Move& move) {
  holes = move.after;
  mover = 3 - mover;
  if (setup) {
    if (side_seeds(mover) > 0) setup = false;  // both have set up: the starter moves
    return {false, true};
  }
  return {move.captured, false};
}

std::string MwesoCore::move_text(const Move& move) const {
  if (setup) {
    const int first = four_rows::first_hole(kN, mover);
    std::vector<int> counts;
    for (int i = 0; i < 16; ++i) counts.push_back(at(move.after, first + i));
    return setup_text(counts);
  }
  std::string s = std::to_string(move.hole);
  for (bool cw : move.cw) s += cw ? ".cw" : ".ccw";
  return s;
}

bool MwesoCore::over() const {
  if (setup) return false;
  std::vector<Move> list;
  for (int h : four_rows::ring(kN, mover)) {
    moves_from(h, list, true);
    if (!list.empty()) return false;
  }
  return true;
}

Outcome MwesoCore::result() const {
  return win_for(3 - mover, 2,
                 {static_cast<double>(side_seeds(1)), static_cast<double>(side_seeds(2))}, "rules");
}

Outcome MwesoCore::exhausted() const {
  return rank_by_score({static_cast<double>(side_seeds(1)), static_cast<double>(side_seeds(2))},
                       "rules");
}

std::string MwesoCore::setup_form() const {
  if (!setup) return {};
  return setup_description(four_rows::ring(kN, mover), kSeedsEach);
}

std::string MwesoCore::sample_setup(std::uint64_t seed) const {
  return setup_text(random_setup(seed, 16, kSeedsEach));
}

std::string MwesoCore::text() const {
  std::vector<int> south(holes.begin(), holes.begin() + 16), north(holes.begin() + 16, holes.end());
  std::string out = join_counts(south);
  out += '/';
  out += join_counts(north);
  out += setup ? ":setup:" : ":play:";
  out += std::to_string(mover);
  return out;
}

std::string MwesoCore::draw(BoardWords words) const {
  std::string out = four_rows::draw(kN, std::vector<int>(holes.begin(), holes.end()), side_seeds(2),
                                    side_seeds(1), words);
  out += "Alokas: " + std::string(side_name(words, 1)) + " 1 2 15 16, " +
         std::string(side_name(words, 2)) + " 17 18 31 32.";
  if (setup) out += words == BoardWords::Seed ? " Mise en place." : " Setup.";
  return out + "\n";
}

std::vector<double> MwesoCore::material() const {
  return {static_cast<double>(side_seeds(1)), static_cast<double>(side_seeds(2))};
}

std::uint64_t MwesoCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add(setup ? 1 : 0);
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView MwesoCore::view() const {
  BoardView v = view::four_by_n(std::vector<int>(holes.begin(), holes.end()));
  for (auto& c : v.cells) c.mark = is_aloka(std::stoi(c.id));
  v.legend = "aloka (relays from it may turn clockwise)";
  v.score_label = "seeds on own side";
  if (setup) v.phase = "setup";
  return v;
}

}  // namespace referee::games
