// Endgame tables (referee/games/egdb): board ranks, values against a brute-force search of the
// rules library (games::State, every position up to 5 seeds, a sample at 6 and 7), perfect lines
// played out, the file's checksum and resumed builds. [slow] The brute-force cases take 7 to 19 s
// each in a Release build beside the other tests: they search every position of up to 5 seeds (4
// at nocapture=100, at four counters) through the rules library. Under AddressSanitizer they
// search one seed fewer (9 to 21 s each): that build looks for memory errors, which these code
// paths meet at every size, and the Release build checks the values at the full sizes.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <unordered_map>

#include "games/awale.h"
#include "games/egdb/build.h"
#include "games/egdb/table.h"
#include "games/egdb/table_file.h"
#include "games/game.h"
#include "sanitizers.h"

using namespace referee::games;
using namespace referee::games::egdb;

namespace {

// Seeds fewer searched in the sanitizer build.
constexpr int kFewer = REFEREE_TEST_ASAN ? 1 : 0;

// A table solved in memory (no file), for `spec`, up to `seeds`.
Table solved(const std::string& spec, int seeds) {
  auto game = make_game(spec);
  REQUIRE(game.ok());
  auto m = model_for(*game);
  REQUIRE(m.ok());
  Layers layers;
  std::vector<Settled> settled;
  std::vector<int> converged;
  for (int n = 0; n <= seeds; ++n) {
    LayerResult r = solve_layer(*m, layers, n, 2);
    layers.push_back(std::move(r.values));
    settled.push_back(std::move(r.settled));
    converged.push_back(r.converged_at);
  }
  return Table(*m, std::move(layers), std::move(settled), 0, converged);
}

std::string row_text(const Board& b, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < from + 6; ++i) s += (i > from ? "," : "") + std::to_string(b[i]);
  return s;
}

// The position string of a board as South sees it (holes 1..12), scores, player to move, with
// the ply counters at 0.
std::string position(const Board& b, int s1, int s2, int mover, int quiet = 0) {
  return row_text(b, 0) + "/" + row_text(b, 6) + ":" + std::to_string(s1) + "," +
         std::to_string(s2) + ":" + std::to_string(mover) + ":" + std::to_string(quiet) + ":" +
         std::to_string(quiet);
}

// Minimax of the final margin South − North over games::State, memoised by position and
// nocapture counter (the repetition history is not part of the key: `repetitions` counts the
// ends by repetition met, which would make the memo unsound, and the tests require none).
struct BruteForce {
  std::unordered_map<std::string, int> memo;
  int repetitions = 0;

  int margin(const State& s) {
    if (s.is_terminal()) {
      const Outcome o = s.outcome();
      repetitions += o.reason == "repetition";
      return static_cast<int>(o.scores[0] - o.scores[1]);
    }
    const std::string key = s.to_string();
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    const bool south = s.current_player() == 1;
    int best = south ? -1000 : 1000;
    for (const auto& move : s.legal_moves()) {
      State t = s;
      REQUIRE(t.apply(move).ok());
      const int v = margin(t);
      best = south ? std::max(best, v) : std::min(best, v);
    }
    memo.emplace(key, best);
    return best;
  }
};

// Compares the table with the brute force for the positions of `seeds` seeds that `pick` keeps
// (both players to move), and returns how many were compared.
template <class Pick>
int compare_layer(const std::string& spec, const Table& table, int seeds, int total, BruteForce& bf,
                  Pick pick) {
  auto game = make_game(spec);
  REQUIRE(game.ok());
  const bool awale = table.model().family == Family::Awale;
  int compared = 0;
  Board b = unrank(0, seeds);
  std::uint64_t i = 0;
  do {
    // awale: every split of the captured seeds with both below 25; kalaha: stores play no part.
    const int lo = awale ? std::max(0, 24 - seeds) : total - seeds;
    const int hi = awale ? 24 : total - seeds;
    for (int s1 = lo; s1 <= hi; ++s1) {
      for (int mover = 1; mover <= 2; ++mover) {
        if (!pick(i++)) continue;
        auto st = game->parse_state(position(b, s1, total - seeds - s1, mover));
        REQUIRE(st.ok());
        if (st->is_terminal()) continue;
        auto p = probe(table, *game, *st);
        REQUIRE(p.ok());
        REQUIRE(p->has_value());
        const int expected = bf.margin(*st);
        const int south_margin = mover == 1 ? (*p)->margin : -(*p)->margin;
        INFO(spec << " " << st->to_string());
        REQUIRE(south_margin == expected);
        REQUIRE((*p)->final_scores[0] - (*p)->final_scores[1] == expected);
        // From a capture (quiet 0) the value is exact: the layer's last iteration.
        REQUIRE((*p)->exact);
        ++compared;
        // Every best move reaches the value, and no other legal move does.
        for (const auto& move : st->legal_moves()) {
          State t = *st;
          REQUIRE(t.apply(move).ok());
          const bool best = std::find((*p)->best_moves.begin(), (*p)->best_moves.end(), move) !=
                            (*p)->best_moves.end();
          CHECK(best == (bf.margin(t) == expected));
        }
      }
    }
  } while (next_board(b));
  return compared;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("egdb-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("egdb: board ranks number the boards of n seeds without a gap, in next_board order") {
  for (int n = 0; n <= 6; ++n) {
    Board b = unrank(0, n);
    std::uint64_t count = 0;
    do {
      REQUIRE(seeds_on(b) == n);
      REQUIRE(rank(b, n) == count);
      REQUIRE(unrank(count, n) == b);
      ++count;
    } while (next_board(b));
    CHECK(count == boards(n));
  }
  CHECK(boards(16) == 13037895);  // C(27, 11)
}

TEST_CASE("egdb: awale values equal a brute-force search of the rules library", "[slow]") {
  // A short nocapture keeps the brute force small; the table's iteration limit is that nocapture.
  for (const std::string spec :
       {"awale:nocapture=6", "awale-v1:nocapture=6", "awale:grandslam=illegal,nocapture=6"}) {
    const int top = 6 - kFewer;
    const Table table = solved(spec, top);
    BruteForce bf;
    for (int n = 0; n < top; ++n)
      compare_layer(spec, table, n, 48, bf, [](std::uint64_t) { return true; });
    // The top layer: one position in 13.
    CHECK(compare_layer(spec, table, top, 48, bf, [](std::uint64_t i) { return i % 13 == 0; }) >
          (kFewer ? 500 : 1000));
    CHECK(bf.repetitions == 0);
  }
}

// The same minimax over the rules library's AwaleCore itself, with the nocapture counter and
// without the repetition limit, which EGDB.md sets aside (the State above ends cycles by it).
struct CoreSearch {
  int limit = 100;
  std::unordered_map<std::string, int> memo;

  int margin(const AwaleCore& c, int quiet) {
    auto scored = [](const Outcome& o) { return static_cast<int>(o.scores[0] - o.scores[1]); };
    if (c.over()) return scored(c.result());
    if (quiet >= limit) return scored(c.exhausted());
    const std::string key = c.text() + "/" + std::to_string(quiet);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    std::vector<int> moves;
    c.moves(moves);
    const bool south = c.mover == 1;
    int best = south ? -1000 : 1000;
    for (int move : moves) {
      AwaleCore d = c;
      const Effect e = d.play(move);
      const int v = margin(d, e.capture ? 0 : quiet + 1);
      best = south ? std::max(best, v) : std::min(best, v);
    }
    memo.emplace(key, best);
    return best;
  }
};

TEST_CASE("egdb: awale at nocapture=100 equals a search of the rules without repetition",
          "[slow]") {
  const std::string spec = "awale";
  auto game = make_game(spec);
  REQUIRE(game.ok());
  const int top = 4 - kFewer;
  const Table table = solved(spec, top);
  CoreSearch search;
  int compared = 0;
  for (int n = 1; n <= top; ++n) {
    Board b = unrank(0, n);
    do {
      for (int s1 = 24 - n; s1 <= 24; ++s1) {
        for (int quiet : {0, 1, 40, 97}) {
          auto st = game->parse_state(position(b, s1, 48 - n - s1, 1, quiet));
          REQUIRE(st.ok());
          if (st->is_terminal()) continue;
          AwaleCore core;
          core.holes = b;
          core.captured = {s1, 48 - n - s1};
          auto p = probe(table, *game, *st);
          REQUIRE(p.ok());
          REQUIRE(p->has_value());
          // Exact at every counter: where a stored value had not settled, the probe redoes the
          // solver's iterations from the position.
          REQUIRE((*p)->exact);
          INFO(st->to_string());
          REQUIRE((*p)->margin == search.margin(core, quiet));
          for (const auto& move : st->legal_moves()) {
            AwaleCore d = core;
            const Effect e = d.play(std::stoi(move));
            const bool best = std::find((*p)->best_moves.begin(), (*p)->best_moves.end(), move) !=
                              (*p)->best_moves.end();
            CHECK(best == (search.margin(d, e.capture ? 0 : quiet + 1) == (*p)->margin));
          }
          ++compared;
        }
      }
    } while (next_board(b));
  }
  CHECK(compared > (kFewer ? 4000 : 25000));
}

TEST_CASE("egdb: kalaha values equal a brute-force search of the rules library", "[slow]") {
  // nocapture=0: the game ends by its rules alone, which the table models exactly.
  const std::string spec = "kalaha:nocapture=0";
  const int top = 7 - kFewer;
  const Table table = solved(spec, top);
  BruteForce bf;
  for (int n = 0; n < top; ++n)
    compare_layer(spec, table, n, 72, bf, [](std::uint64_t) { return true; });
  CHECK(compare_layer(spec, table, top, 72, bf, [](std::uint64_t i) { return i % 7 == 0; }) >
        (kFewer ? 2000 : 5000));
}

TEST_CASE("egdb: a perfect line played out through the rules ends with the stored score",
          "[slow]") {
  for (const std::string spec : {"awale", "kalaha"}) {
    auto game = make_game(spec);
    REQUIRE(game.ok());
    const bool awale = spec == "awale";
    const int total = awale ? 48 : 72;
    const int top = 6 - kFewer;
    const Table table = solved(spec, top);
    std::mt19937 rng(7);
    int played = 0, repeated = 0, uncertified = 0;
    for (int round = 0; round < (kFewer ? 100 : 150); ++round) {
      const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(top));
      Board b = unrank(rng() % boards(n), n);
      const int s1 = awale ? 24 - n + static_cast<int>(rng() % static_cast<unsigned>(n + 1)) : 0;
      auto st = game->parse_state(position(b, s1, total - n - s1, 1 + static_cast<int>(rng() % 2)));
      REQUIRE(st.ok());
      if (st->is_terminal()) continue;
      auto first = probe(table, *game, *st);
      REQUIRE(first.ok());
      REQUIRE(first->has_value());
      const auto expected = (*first)->final_scores;
      State s = *st;
      bool certified = true;
      while (!s.is_terminal()) {
        auto p = probe(table, *game, s);
        REQUIRE(p.ok());
        REQUIRE(p->has_value());
        REQUIRE_FALSE((*p)->best_moves.empty());
        certified = certified && (*p)->exact;
        REQUIRE(s.apply((*p)->best_moves.front()).ok());
      }
      INFO(spec << " from " << st->to_string());
      ++played;
      // kalaha's moves are not certified under its nocapture=100 (EGDB.md), yet its lines are
      // short enough to end by its rules.
      if (awale && !certified) {
        ++uncertified;
        continue;
      }
      const std::string why = s.outcome().reason;
      // The limit the table sets aside (EGDB.md): a line that cycles ends by it, scored where
      // the third occurrence falls.
      if (why == "repetition") {
        ++repeated;
        continue;
      }
      CHECK((why == "rules" || why == "nocapture"));
      CHECK(static_cast<int>(s.outcome().scores[0]) == expected[0]);
      CHECK(static_cast<int>(s.outcome().scores[1]) == expected[1]);
    }
    CHECK(played > (kFewer ? 50 : 100));
    CHECK(uncertified == 0);
    // About a third of these awale lines cycle (EGDB.md, Cycles and exhaustion).
    CHECK(repeated * 2 < played);
    if (!awale) CHECK(repeated == 0);  // kalaha cannot repeat a position
  }
}

TEST_CASE("egdb: a resumed build writes the same file as an uninterrupted one") {
  auto game = make_game("awale");
  REQUIRE(game.ok());
  const std::string whole = temp_path("whole"), resumed = temp_path("resumed");
  std::remove(whole.c_str());
  std::remove(resumed.c_str());
  auto a = build_table(*game, {6, whole, 2, {}});
  REQUIRE(a.ok());
  auto b = build_table(*game, {3, resumed, 1, {}});
  REQUIRE(b.ok());
  {
    // An interrupted fourth layer: bytes after the whole layers.
    std::ofstream partial(resumed, std::ios::binary | std::ios::app);
    partial << std::string(1000, '\x05');
  }
  auto c = build_table(*game, {6, resumed, 2, {}});
  REQUIRE(c.ok());
  CHECK(c->resumed_layers == 4);
  CHECK(c->solved.size() == 3);
  CHECK(c->checksum == a->checksum);
  CHECK(bytes_of(resumed) == bytes_of(whole));
  auto table = open_table(resumed);
  REQUIRE(table.ok());
  CHECK(table->seeds() == 6);
  CHECK(table->checksum() == a->checksum);
  // Another game's file is refused, not overwritten.
  auto kalaha = make_game("kalaha");
  auto other = build_table(*kalaha, {3, resumed, 1, {}});
  REQUIRE_FALSE(other.ok());
  CHECK(other.kind() == referee::ErrorKind::Conflict);
  CHECK(bytes_of(resumed) == bytes_of(whole));
  std::remove(whole.c_str());
  std::remove(resumed.c_str());
}

TEST_CASE("egdb: a corrupted or truncated table is refused on opening") {
  auto game = make_game("kalaha");
  REQUIRE(game.ok());
  const std::string path = temp_path("corrupt");
  std::remove(path.c_str());
  REQUIRE(build_table(*game, {5, path, 1, {}}).ok());
  REQUIRE(open_table(path).ok());
  std::string bytes = bytes_of(path);
  std::string flipped = bytes;
  flipped[kHeaderBytes + 100] = static_cast<char>(flipped[kHeaderBytes + 100] ^ 1);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << flipped;
  auto bad = open_table(path);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.kind() == referee::ErrorKind::Invalid);
  // Resuming refuses it too rather than building on it.
  CHECK_FALSE(build_table(*game, {6, path, 1, {}}).ok());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 10);
  CHECK_FALSE(open_table(path).ok());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "not a table";
  CHECK_FALSE(open_table(path).ok());
  std::remove(path.c_str());
}

TEST_CASE("egdb: games without tables, too many seeds and another game's table are refused") {
  auto oware = make_game("oware");
  REQUIRE(oware.ok());
  CHECK_FALSE(model_for(*oware).ok());
  CHECK_FALSE(model_for(*make_game("awale:nocapture=256")).ok());
  CHECK(model_for(*make_game("awale:nocapture=255")).ok());
  auto awale = make_game("awale");
  const std::string path = temp_path("range");
  auto big = build_table(*awale, {kMaxSeeds + 1, path, 1, {}});
  REQUIRE_FALSE(big.ok());
  CHECK_FALSE(std::filesystem::exists(path));
  const Table table = solved("awale", 2);
  auto v1 = make_game("awale-v1");
  auto wrong = probe(table, *v1, v1->initial_state());
  CHECK_FALSE(wrong.ok());
  // Positions with more seeds than the table holds are not in it.
  auto start = probe(table, *awale, awale->initial_state());
  REQUIRE(start.ok());
  CHECK_FALSE(start->has_value());
}

TEST_CASE("egdb: exact is false where a limit the table does not model could end the game") {
  const Table kalaha = solved("kalaha", 3);
  auto k = make_game("kalaha");
  auto ks = k->parse_state("0,0,1,0,0,1/1,0,0,0,0,0:40,29:1:0:0");
  REQUIRE(ks.ok());
  auto kp = probe(kalaha, *k, *ks);
  REQUIRE(kp.ok());
  REQUIRE(kp->has_value());
  CHECK_FALSE((*kp)->exact);  // kalaha's nocapture=100 is not modelled
  auto k0 = make_game("kalaha:nocapture=0");
  auto kp0 = probe(solved("kalaha:nocapture=0", 3), *k0, *k0->parse_state(ks->to_string()));
  REQUIRE(kp0.ok());
  CHECK((*kp0)->exact);
  CHECK((*kp0)->value == (*kp)->value);
  // awale near maxplies: a line of captures and quiet plies could reach it.
  const Table awale = solved("awale", 3);
  auto a = make_game("awale");
  auto early = probe(awale, *a, *a->parse_state("0,0,1,0,0,1/1,0,0,0,0,0:24,21:1:0:10"));
  auto late = probe(awale, *a, *a->parse_state("0,0,1,0,0,1/1,0,0,0,0,0:24,21:1:0:1990"));
  REQUIRE(early.ok());
  REQUIRE(late.ok());
  CHECK((*early)->exact);
  CHECK_FALSE((*late)->exact);
}
