#include "games/pallankuli.h"

#include <cstdio>

#include "games/board_words.h"
#include "games/mancala.h"

namespace referee::games {

namespace {

constexpr int kSeeds = 84;
constexpr int kPerHole = 6;

int owner(int hole) {
  return hole <= 7 ? 1 : 2;
}
int first_hole(int player) {
  return player == 1 ? 1 : 8;
}
std::size_t ix(int hole) {
  return static_cast<std::size_t>(hole - 1);
}

}  // namespace

std::vector<ParamSpec> pallankuli_params() {
  return {{"maxrounds", "30", {}, 1, 1000, "rounds after which more seeds wins"}};
}

PallankuliCore PallankuliCore::start(const GameSetup& setup) {
  PallankuliCore c;
  c.holes.fill(kPerHole);
  c.mover = c.starter = setup.first;
  c.maxrounds = static_cast<int>(setup.params.number("maxrounds"));
  return c;
}

int PallankuliCore::row_seeds(int player) const {
  int sum = 0;
  for (int h = first_hole(player); h < first_hole(player) + 7; ++h) sum += holes[ix(h)];
  return sum;
}

bool PallankuliCore::board_empty() const {
  return row_seeds(1) + row_seeds(2) == 0;
}

std::optional<PallankuliCore::Sowing> PallankuliCore::sow(int hole) const {
  Sowing s{holes, reserve};
  auto next = [&](int h) {
    do h = h == 1 ? 14 : h - 1;
    while (blind[ix(h)]);
    return h;
  };
  // The relay guard: a turn is deterministic, so a sub-sowing state that comes back comes back
  // forever and the turn then drops more than 10 000 seeds; counting drops alone gives the same
  // verdict as sampling the states.
  int origin = hole, hand = s.holes[ix(hole)], drops = 0;
  s.holes[ix(hole)] = 0;
  while (true) {
    int h = origin;
    for (; hand > 0; --hand) {
      h = next(h);
      if (++drops > mancala::kMaxDrops) return std::nullopt;
      if (++s.holes[ix(h)] == 4) {
        s.reserve[static_cast<std::size_t>(owner(h) - 1)] += 4;
        s.holes[ix(h)] = 0;
        s.took = true;
      }
    }
    const int n = next(h);
    if (s.holes[ix(n)] > 0) {
      origin = n;
      hand = s.holes[ix(n)];
      s.holes[ix(n)] = 0;
      continue;
    }
    if (owner(n) == mover) {
      int& opposite = s.holes[ix(15 - n)];
      if (opposite > 0) {
        s.reserve[static_cast<std::size_t>(mover - 1)] += opposite;
        opposite = 0;
        s.took = true;
      }
    }
    return s;
  }
}

void PallankuliCore::moves(std::vector<Move>& out) const {
  if (over()) return;
  if (row_seeds(mover) == 0) {
    out.push_back(0);
    return;
  }
  for (int h = first_hole(mover); h < first_hole(mover) + 7; ++h)
    if (holes[ix(h)] > 0 && sow(h)) out.push_back(h);
}

bool PallankuliCore::stuck() const {
  if (board_empty() || row_seeds(mover) == 0) return false;
  std::vector<Move> list;
  moves(list);
  return list.empty();
}

void PallankuliCore::finish_round() {
  for (int p = 1; p <= 2; ++p) reserve[static_cast<std::size_t>(p - 1)] += row_seeds(p);
  holes.fill(0);
  blind.fill(false);
  if (game_decided()) return;  // the board stays empty: the game is over
  ++round;
  starter = 3 - starter;
  mover = starter;
  set_up_round();
}

void PallankuliCore::set_up_round() {
  for (int p = 1; p <= 2; ++p) {
    int& r = reserve[static_cast<std::size_t>(p - 1)];
    int cows = 0;
    for (int h = first_hole(p); h < first_hole(p) + 7; ++h) {
      const int put = std::min(r, kPerHole);
      r -= put;
      blind[ix(h)] = put == 0;
      if (put == 4)
        cows += 4;  // a cow at once: the hole stays playable and empty
      else
        holes[ix(h)] = put;
    }
    r += cows;
  }
}

bool PallankuliCore::game_decided() const {
  return reserve[0] < kPerHole || reserve[1] < kPerHole || round >= maxrounds;
}

bool PallankuliCore::settle() {
  bool ended = false;
  while (board_empty() ? !game_decided() : stuck()) {
    finish_round();
    ended = true;
  }
  return ended;
}

Effect PallankuliCore::play(Move hole) {
  bool took = false;
  if (hole != 0) {
    auto s = sow(hole);
    if (s) {
      holes = s->holes;
      reserve = s->reserve;
      took = s->took;
    }
  }
  mover = 3 - mover;
  const bool ended = settle();
  return {took, took || ended, ended};
}

bool PallankuliCore::end_round(std::string_view) {
  finish_round();
  settle();
  return !over();
}

bool PallankuliCore::over() const {
  return board_empty();
}

Outcome PallankuliCore::result() const {
  return rank_by_score({static_cast<double>(reserve[0]), static_cast<double>(reserve[1])}, "rules");
}

Outcome PallankuliCore::exhausted() const {
  return rank_by_score({static_cast<double>(reserve[0] + row_seeds(1)),
                        static_cast<double>(reserve[1] + row_seeds(2))},
                       "rules");
}

std::vector<double> PallankuliCore::material() const {
  auto o = exhausted();
  return o.scores;
}

Expected<PallankuliCore> PallankuliCore::parse(const GameSetup& setup, std::string_view fields) {
  PallankuliCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 5) return Error{"expected 5 fields 'holes:reserves:player:round:starter'"};
  auto rows = split(parts[0], '/');
  if (rows.size() != 2) return Error{"expected two rows separated by '/'"};
  int total = 0;
  for (std::size_t r = 0; r < 2; ++r) {
    auto counts = split(rows[r], ',');
    if (counts.size() != 7) return Error{"each row needs 7 hole counts"};
    for (std::size_t i = 0; i < 7; ++i) {
      const std::size_t h = r * 7 + i;
      if (counts[i] == "x") {
        c.blind[h] = true;
        c.holes[h] = 0;
        continue;
      }
      auto n = parse_count(counts[i], kSeeds);
      if (!n) return Error{"bad hole count '" + std::string(counts[i]) + "'"};
      if (*n == 4) return Error{"a hole never holds exactly 4 (it is a cow)"};
      c.holes[h] = static_cast<int>(*n);
      total += static_cast<int>(*n);
    }
    // Blind holes are the last ones a player fills: a suffix of his row.
    for (std::size_t i = 1; i < 7; ++i)
      if (c.blind[r * 7 + i - 1] && !c.blind[r * 7 + i])
        return Error{"blind holes must be the last of a row"};
    if (c.blind[r * 7]) return Error{"a row has at least one playable hole"};
  }
  if (c.blind[6] && c.blind[13]) return Error{"only one player can have blind holes"};
  auto res = split(parts[1], ',');
  if (res.size() != 2) return Error{"expected two reserves"};
  for (std::size_t p = 0; p < 2; ++p) {
    auto n = parse_count(res[p], kSeeds);
    if (!n) return Error{"bad reserve"};
    c.reserve[p] = static_cast<int>(*n);
    total += static_cast<int>(*n);
  }
  if (total != kSeeds) return Error{"seeds must total 84, not " + std::to_string(total)};
  if (parts[2] != "1" && parts[2] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[2][0] - '0';
  auto rnd = parse_count(parts[3], c.maxrounds);
  if (!rnd || *rnd < 1) return Error{"round must be 1.." + std::to_string(c.maxrounds)};
  c.round = static_cast<int>(*rnd);
  if (parts[4] != "1" && parts[4] != "2") return Error{"the round's first player must be 1 or 2"};
  c.starter = parts[4][0] - '0';
  if (c.round == 1 && (c.blind[6] || c.blind[13])) return Error{"no blind hole in round 1"};
  if (c.board_empty()) {
    if (c.blind[6] || c.blind[13]) return Error{"a finished game has no blind hole"};
    if (!c.game_decided())
      return Error{"an empty board ends the round: the next one would be set up"};
  } else if (c.stuck()) {
    return Error{"every move of the player to move is excluded: the round is over"};
  }
  return c;
}

std::string PallankuliCore::text() const {
  std::string out;
  for (int h = 1; h <= 14; ++h) {
    if (h > 1) out += h == 8 ? '/' : ',';
    out += blind[ix(h)] ? std::string("x") : std::to_string(holes[ix(h)]);
  }
  out += ':';
  out += std::to_string(reserve[0]);
  out += ',';
  out += std::to_string(reserve[1]);
  for (int v : {mover, round, starter}) {
    out += ':';
    out += std::to_string(v);
  }
  return out;
}

std::string PallankuliCore::draw(BoardWords words) const {
  char cell[32];
  std::string out = "    ";
  for (int h = 14; h >= 8; --h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  auto put = [&](int h) {
    if (blind[ix(h)])
      out += " [ x]";
    else {
      std::snprintf(cell, sizeof cell, " [%2d]", holes[ix(h)]);
      out += cell;
    }
  };
  // Five columns of labels hold "NORD " and "North" alike, so both forms share one layout.
  out += "\n" + side_label(words, 2, 5);
  for (int h = 14; h >= 8; --h) put(h);
  out += "\n" + side_label(words, 1, 5);
  for (int h = 1; h <= 7; ++h) put(h);
  out += "\n    ";
  for (int h = 1; h <= 7; ++h) {
    std::snprintf(cell, sizeof cell, "%5d", h);
    out += cell;
  }
  const std::string north(side_name(words, 2)), south(side_name(words, 1));
  const std::string& first = starter == 1 ? south : north;
  const std::string reserves =
      north + " " + std::to_string(reserve[1]) + ", " + south + " " + std::to_string(reserve[0]);
  if (words == BoardWords::Seed)
    out += "\nReserve " + reserves + "; manche " + std::to_string(round) + " (" + first +
           " commence); semis horaire, x = trou aveugle.\n";
  else
    out += "\nIn reserve: " + reserves + "; round " + std::to_string(round) + " (" + first +
           " starts); sowing is clockwise, x = a blind hole.\n";
  return out;
}

std::uint64_t PallankuliCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add_all(blind);
  h.add_all(reserve);
  h.add(static_cast<std::uint64_t>(mover));
  h.add(static_cast<std::uint64_t>(round));
  h.add(static_cast<std::uint64_t>(starter));
  return h.value();
}

BoardView PallankuliCore::view() const {
  std::vector<int> counts;
  for (int h = 1; h <= 14; ++h) counts.push_back(blind[ix(h)] ? -1 : holes[ix(h)]);
  BoardView v = view::two_rows("2x7-blind", counts);
  v.scores = {static_cast<double>(reserve[0]), static_cast<double>(reserve[1])};
  v.score_label = "reserve";
  v.notes.push_back("sowing is clockwise; round " + std::to_string(round) + " of at most " +
                    std::to_string(maxrounds) + ", started by player " + std::to_string(starter));
  return v;
}

}  // namespace referee::games
