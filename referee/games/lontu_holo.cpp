#include "games/lontu_holo.h"

#include "games/board_words.h"
#include "games/mancala.h"
#include "games/setup_move.h"

namespace referee::games {

namespace {

constexpr int kSeedsEach = 24;

int owner(int hole) {
  return (hole <= 3 || hole >= 10) ? 1 : 2;
}
int& at(std::array<int, 12>& b, int hole) {
  return b[static_cast<std::size_t>(hole - 1)];
}
int at(const std::array<int, 12>& b, int hole) {
  return b[static_cast<std::size_t>(hole - 1)];
}

// Position of `hole` in its owner's circuit.
int index_in_circuit(int hole) {
  const auto& c = lontu_circuit(owner(hole));
  for (int i = 0; i < 6; ++i)
    if (c[static_cast<std::size_t>(i)] == hole) return i;
  return 0;
}
int circuit_step(int hole, int delta) {
  const auto& c = lontu_circuit(owner(hole));
  return c[static_cast<std::size_t>((index_in_circuit(hole) + delta + 6) % 6)];
}

const char* phase_name(LontuHoloCore::Phase p) {
  switch (p) {
    case LontuHoloCore::Phase::setup:
      return "setup";
    case LontuHoloCore::Phase::mirror:
      return "mirror";
    default:
      return "play";
  }
}

}  // namespace

const std::array<int, 6>& lontu_circuit(int player) {
  static const std::array<int, 6> south{1, 2, 3, 10, 11, 12};
  static const std::array<int, 6> north{7, 8, 9, 4, 5, 6};
  return player == 1 ? south : north;
}

LontuHoloCore LontuHoloCore::start(const GameSetup& setup) {
  LontuHoloCore c;
  c.mover = setup.first;
  return c;
}

int LontuHoloCore::own_seeds(int player) const {
  int sum = 0;
  for (int h : lontu_circuit(player)) sum += at(holes, h);
  return sum;
}

Expected<LontuHoloCore> LontuHoloCore::parse(const GameSetup& setup, std::string_view fields) {
  LontuHoloCore c = start(setup);
  auto parts = split(fields, ':');
  if (parts.size() != 3) return Error{"expected 3 fields 'holes:phase:player'"};
  auto rows = split(parts[0], '/');
  if (rows.size() != 2) return Error{"expected two rows separated by '/'"};
  for (std::size_t r = 0; r < 2; ++r) {
    auto counts = split(rows[r], ',');
    if (counts.size() != 6) return Error{"each row needs 6 hole counts"};
    for (std::size_t i = 0; i < 6; ++i) {
      auto n = parse_count(counts[i], 48);
      if (!n) return Error{"bad hole count '" + std::string(counts[i]) + "'"};
      c.holes[r * 6 + i] = static_cast<int>(*n);
    }
  }
  if (parts[2] != "1" && parts[2] != "2") return Error{"player to move must be 1 or 2"};
  c.mover = parts[2][0] - '0';
  if (parts[1] == "setup")
    c.phase = Phase::setup;
  else if (parts[1] == "mirror")
    c.phase = Phase::mirror;
  else if (parts[1] == "play")
    c.phase = Phase::play;
  else
    return Error{"phase must be setup, mirror or play"};
  const int mine = c.own_seeds(c.mover), theirs = c.own_seeds(3 - c.mover);
  switch (c.phase) {
    case Phase::setup:
      if (mine + theirs != 0) return Error{"the board is empty until the starter's setup"};
      break;
    case Phase::mirror:
      if (mine != 0 || theirs != kSeedsEach)
        return Error{"before the forced setup the starter's holes hold 24, the other's none"};
      break;
    case Phase::play:
      if (mine + theirs != 2 * kSeedsEach) return Error{"seeds must total 48"};
      break;
  }
  return c;
}

std::array<int, 12> LontuHoloCore::sow(int hole, int& taken) const {
  std::array<int, 12> b = holes;
  int seeds = at(b, hole);
  at(b, hole) = 0;
  const int last = mancala::sow(b, hole, seeds, [](int h) { return circuit_step(h, 1); });
  taken = 0;
  if (at(b, last) != 4) return b;
  for (int h : {circuit_step(last, -1), last, circuit_step(last, 1)})
    if (at(b, h) == 4) {
      taken += 4;
      at(b, h) = 0;
    }
  return b;
}

void LontuHoloCore::moves(std::vector<Move>& out) const {
  if (phase == Phase::setup || over()) return;
  if (phase == Phase::mirror) {
    Move m;
    const auto& theirs = lontu_circuit(3 - mover);
    for (std::size_t i = 0; i < 6; ++i) m.counts[i] = at(holes, theirs[i]);
    out.push_back(m);
    return;
  }
  for (int h : lontu_circuit(mover)) {
    if (at(holes, h) == 0) continue;
    int taken = 0;
    sow(h, taken);
    if (taken == 0) {
      out.push_back(Move{h, 0, {}});
      continue;
    }
    for (int t : lontu_circuit(3 - mover)) out.push_back(Move{h, t, {}});
  }
}

std::optional<LontuHoloCore::Move> LontuHoloCore::legal_move(std::string_view text) const {
  if (phase != Phase::setup) return find_move(*this, text);
  auto counts = parse_setup(text, 6, kSeedsEach);
  if (!counts) return std::nullopt;
  Move m;
  for (std::size_t i = 0; i < 6; ++i) m.counts[i] = (*counts)[i];
  return m;
}

Effect LontuHoloCore::play(const Move& move) {
  if (phase != Phase::play) {
    const auto& mine = lontu_circuit(mover);
    for (std::size_t i = 0; i < 6; ++i) at(holes, mine[i]) = move.counts[i];
    phase = phase == Phase::setup ? Phase::mirror : Phase::play;
    mover = 3 - mover;
    return {false, true};
  }
  int taken = 0;
  holes = sow(move.hole, taken);
  if (taken > 0) at(holes, move.target) += taken;
  mover = 3 - mover;
  return {taken > 0, false};
}

std::string LontuHoloCore::move_text(const Move& move) const {
  if (phase != Phase::play)
    return setup_text(std::vector<int>(move.counts.begin(), move.counts.end()));
  std::string s = std::to_string(move.hole);
  if (move.target) {
    s += '>';
    s += std::to_string(move.target);
  }
  return s;
}

bool LontuHoloCore::over() const {
  return phase == Phase::play && (own_seeds(1) == 0 || own_seeds(2) == 0);
}

Outcome LontuHoloCore::result() const {
  const int last = 3 - mover;  // the player who just moved is checked first
  const int winner = own_seeds(last) == 0 ? last : mover;
  return win_for(winner, 2, {static_cast<double>(own_seeds(1)), static_cast<double>(own_seeds(2))},
                 "rules");
}

Outcome LontuHoloCore::exhausted() const {
  return rank_by_score({static_cast<double>(own_seeds(1)), static_cast<double>(own_seeds(2))},
                       "rules", true);
}

std::string LontuHoloCore::setup_form() const {
  if (phase != Phase::setup) return {};
  const auto& c = lontu_circuit(mover);
  return setup_description(std::vector<int>(c.begin(), c.end()), kSeedsEach);
}

std::string LontuHoloCore::sample_setup(std::uint64_t seed) const {
  return setup_text(random_setup(seed, 6, kSeedsEach));
}

std::string LontuHoloCore::text() const {
  std::vector<int> south(holes.begin(), holes.begin() + 6), north(holes.begin() + 6, holes.end());
  return join_counts(south) + "/" + join_counts(north) + ":" + phase_name(phase) + ":" +
         std::to_string(mover);
}

std::string LontuHoloCore::draw(BoardWords words) const {
  const bool seed = words == BoardWords::Seed;
  std::string out = mancala::draw_2x6(std::vector<int>(holes.begin(), holes.end()), own_seeds(2),
                                      own_seeds(1), words);
  out += seed ? "SUD: trous 1 2 3 10 11 12 ; NORD: trous 7 8 9 4 5 6 (ordre de semis).\n"
              : "South: holes 1 2 3 10 11 12; North: holes 7 8 9 4 5 6 (sowing order).\n";
  if (phase != Phase::play)
    out += std::string(seed ? "Mise en place (" : "Setup (") + phase_name(phase) + ").\n";
  return out;
}

std::vector<double> LontuHoloCore::material() const {
  return {static_cast<double>(kSeedsEach - own_seeds(1)),
          static_cast<double>(kSeedsEach - own_seeds(2))};
}

std::uint64_t LontuHoloCore::hash() const {
  Hasher h;
  h.add_all(holes);
  h.add(static_cast<std::uint64_t>(phase));
  h.add(static_cast<std::uint64_t>(mover));
  return h.value();
}

BoardView LontuHoloCore::view() const {
  std::vector<int> north, south, owners;
  for (int h = 12; h >= 7; --h) north.push_back(h);
  for (int h = 1; h <= 6; ++h) south.push_back(h);
  for (int h = 1; h <= 12; ++h) owners.push_back(owner(h));
  BoardView v = view::hole_rows("2x6-columns", {north, south},
                                std::vector<int>(holes.begin(), holes.end()), owners, false);
  // The owners' halves are the left and right three columns.
  const ViewCell* left = find_cell(v, "3");
  const ViewCell* right = find_cell(v, "4");
  const double x = (left->x + right->x) / 2;
  v.lines.push_back({x, 1, x, v.height - 1});
  v.scores = {static_cast<double>(own_seeds(1)), static_cast<double>(own_seeds(2))};
  v.score_label = "seeds in own holes (fewer wins)";
  if (phase != Phase::play) v.phase = phase_name(phase);
  v.notes.push_back("circuits: player 1 sows 1 2 3 10 11 12, player 2 sows 7 8 9 4 5 6");
  return v;
}

}  // namespace referee::games
