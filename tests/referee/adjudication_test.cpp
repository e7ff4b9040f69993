// referee/match/adjudication: each rule over hand-made ply histories (draw, one- and two-sided
// resign, mate scores, windows that forced moves skip, engines without scores), the rules'
// checks, and play_match ending games by them between mock engines that print scripted scores
// (mock_engine --scores), and by a judge of positions (the endgame database's hook).
#include "match/adjudication.h"

#include <algorithm>

#include <catch2/catch.hpp>

#include "games/game.h"
#include "match/match.h"
#include "match/replay.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using namespace referee;
using namespace referee::match;

namespace {

const std::vector<std::string> kAdjNames = {"alpha", "beta"};

// An engine ply of `player` with a cp score (nullopt: no score).
PlyScore adj_ply(int ply, int player, std::optional<long> cp) {
  return PlyScore{ply, player, true, cp ? std::optional<Score>(Score{false, *cp}) : std::nullopt};
}
PlyScore adj_mate(int ply, int player, long n) {
  return PlyScore{ply, player, true, Score{true, n}};
}
PlyScore adj_forced(int ply, int player) {
  return PlyScore{ply, player, false, std::nullopt};
}

// Alternating plies from ply `first`, player 1 first: scores of player 1 and player 2.
std::vector<PlyScore> adj_alternating(int first, int count, std::optional<long> p1,
                                      std::optional<long> p2) {
  std::vector<PlyScore> out;
  for (int i = 0; i < count; ++i) {
    const int player = i % 2 == 0 ? 1 : 2;
    out.push_back(adj_ply(first + i, player, player == 1 ? p1 : p2));
  }
  return out;
}

Adjudication adj_draw(int from, long score, int plies) {
  Adjudication a;
  a.draw = DrawRule{from, score, plies};
  return a;
}
Adjudication adj_resign(long score, int plies, bool two_sided) {
  Adjudication a;
  a.resign = ResignRule{score, plies, two_sided};
  return a;
}

}  // namespace

TEST_CASE("adjudication: a draw needs every ply of the window within the band, from from_ply on") {
  const auto rules = adj_draw(10, 10, 4);
  auto h = adj_alternating(1, 13, 3, -2);  // plies 1..13: the window 10..13
  auto v = adjudicate(rules, h, kAdjNames);
  REQUIRE(v);
  CHECK(v->ranks == std::vector<int>{1, 1});
  CHECK(v->reason ==
        "adjudicated a draw after ply 13: scores within ±10 for 4 plies from ply 10 on "
        "(last: alpha +3, beta -2)");
  h.pop_back();  // the window 9..12 starts before from_ply
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
  // One score outside the band in the window breaks it; the bounds themselves are inside.
  h = adj_alternating(1, 13, 10, -10);
  CHECK(adjudicate(rules, h, kAdjNames));
  h[12 - 1].score = Score{false, 11};  // ply 12
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
  h.push_back(adj_ply(14, 2, 0));
  h.push_back(adj_ply(15, 1, 0));
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));  // the window 12..15 still holds ply 12
  h.push_back(adj_ply(16, 2, 0));
  CHECK(adjudicate(rules, h, kAdjNames));  // 13..16
  // Fewer engine plies than the window: no verdict.
  CHECK_FALSE(adjudicate(adj_draw(1, 10, 4), adj_alternating(1, 3, 0, 0), kAdjNames));
}

TEST_CASE("adjudication: a mate score is never within the draw band") {
  auto h = adj_alternating(1, 6, 0, 0);
  h.back() = adj_mate(6, 2, 7);
  CHECK_FALSE(adjudicate(adj_draw(1, 1000, 4), h, kAdjNames));
  h.back() = adj_mate(6, 2, -7);
  CHECK_FALSE(adjudicate(adj_draw(1, 1000, 4), h, kAdjNames));
}

TEST_CASE("adjudication: a draw needs a scored ply of each engine in its window") {
  // Kalaha-like: player 1 moves four times in a row (extra turns), scores 0.
  std::vector<PlyScore> h = {adj_ply(1, 2, 0), adj_ply(2, 1, 0), adj_ply(3, 1, 0), adj_ply(4, 1, 0),
                             adj_ply(5, 1, 0)};
  CHECK_FALSE(adjudicate(adj_draw(1, 10, 4), h, kAdjNames));
  CHECK(adjudicate(adj_draw(1, 10, 5), h, kAdjNames));  // the window reaches player 2's ply
  // An engine without scores: never a draw.
  CHECK_FALSE(adjudicate(adj_draw(1, 10, 4), adj_alternating(1, 40, 0, std::nullopt), kAdjNames));
}

TEST_CASE("adjudication: forced plies neither break nor extend a window") {
  // Engine plies 1, 2, (forced 3), 4, (forced 5), 6: the window of 4 is plies 1, 2, 4, 6.
  std::vector<PlyScore> h = {adj_ply(1, 1, 0), adj_ply(2, 2, 0), adj_forced(3, 1),
                             adj_ply(4, 2, 0), adj_forced(5, 1), adj_ply(6, 2, 5)};
  auto v = adjudicate(adj_draw(1, 10, 4), h, kAdjNames);
  REQUIRE(v);
  CHECK(v->reason ==
        "adjudicated a draw after ply 6: scores within ±10 for 4 plies "
        "(last: alpha 0, beta +5)");
  // Only three engine plies with a window of 4 when the forced plies are not counted.
  h.erase(h.begin());
  CHECK_FALSE(adjudicate(adj_draw(1, 10, 4), h, kAdjNames));
  // Asked right after a forced ply: nothing new to judge.
  std::vector<PlyScore> after_forced = adj_alternating(1, 8, 0, 0);
  after_forced.push_back(adj_forced(9, 1));
  CHECK_FALSE(adjudicate(adj_draw(1, 10, 4), after_forced, kAdjNames));
}

TEST_CASE("adjudication: one-sided resign reads only the loser's own scores") {
  const auto rules = adj_resign(600, 4, false);
  // beta (player 2) at -700 on its plies; alpha reports nothing at all.
  auto h = adj_alternating(1, 11, std::nullopt, -700);
  auto v = adjudicate(rules, h, kAdjNames);
  REQUIRE(v);
  CHECK(v->ranks == std::vector<int>{1, 2});
  CHECK(v->reason ==
        "adjudicated a loss for beta after ply 11: its score at or below -600 for 4 plies "
        "(last: beta -700)");
  // Its score has stayed low for the whole window: the window 7..10 starts with alpha's ply.
  h.pop_back();
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
  CHECK(adjudicate(adj_resign(600, 1, false), h, kAdjNames));  // right after its own ply
  // The threshold is inclusive; one loser's ply above it in the window breaks the run.
  h = adj_alternating(1, 11, 0, -600);
  CHECK(adjudicate(rules, h, kAdjNames));
  h[8 - 1].score = Score{false, -599};  // ply 8, beta's, inside the window 8..11
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
  // A loser's ply without a score breaks it too: an engine without scores never resigns.
  CHECK_FALSE(adjudicate(rules, adj_alternating(1, 40, 900, std::nullopt), kAdjNames));
  CHECK_FALSE(adjudicate(rules, adj_alternating(1, 41, 900, std::nullopt), kAdjNames));
  // The loser's mate-against score counts below any threshold; its own mate does not.
  h = adj_alternating(1, 11, 0, -700);
  h[10 - 1] = adj_mate(10, 2, -3);
  v = adjudicate(rules, h, kAdjNames);
  REQUIRE(v);
  CHECK(v->reason ==
        "adjudicated a loss for beta after ply 11: its score at or below -600 for 4 plies "
        "(last: alpha 0, beta mate -3)");
  h[10 - 1] = adj_mate(10, 2, 3);
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
}

TEST_CASE("adjudication: two-sided resign needs the winner's agreement in every ply") {
  const auto rules = adj_resign(600, 4, true);
  auto h = adj_alternating(1, 10, 650, -700);
  auto v = adjudicate(rules, h, kAdjNames);
  REQUIRE(v);
  CHECK(v->ranks == std::vector<int>{1, 2});
  CHECK(v->reason ==
        "adjudicated a loss for beta after ply 10: its score at or below -600 and alpha's at "
        "or above +600 for 4 plies (last: alpha +650, beta -700)");
  // The winner does not agree (or says nothing): no verdict, though one-sided would give one.
  h = adj_alternating(1, 11, 500, -700);
  CHECK_FALSE(adjudicate(rules, h, kAdjNames));
  CHECK(adjudicate(adj_resign(600, 4, false), h, kAdjNames));
  CHECK_FALSE(adjudicate(rules, adj_alternating(1, 10, std::nullopt, -700), kAdjNames));
  // The winner's mate counts above any threshold.
  h = adj_alternating(1, 10, 650, -700);
  h[8] = adj_mate(9, 1, 5);
  CHECK(adjudicate(rules, h, kAdjNames));
  // Player 1 resigns as well as player 2.
  v = adjudicate(rules, adj_alternating(1, 9, -900, 900), kAdjNames);
  REQUIRE(v);
  CHECK(v->ranks == std::vector<int>{2, 1});
}

TEST_CASE("adjudication: the rules are checked, with the key named") {
  CHECK(check_adjudication({}, 3).ok());  // none: any game
  CHECK(check_adjudication(adj_draw(1, 0, 1), 2).ok());
  CHECK(check_adjudication(adj_draw(0, 5, 1), 2).error() ==
        "adjudication: draw.from_ply must be from 1 to 10000, not 0");
  CHECK(check_adjudication(adj_draw(1, -1, 1), 2).error() ==
        "adjudication: draw.score must be from 0 to 1000000000, not -1");
  CHECK(check_adjudication(adj_resign(0, 3, false), 2).error() ==
        "adjudication: resign.score must be from 1 to 1000000000, not 0");
  CHECK(check_adjudication(adj_resign(100, 0, false), 2).error() ==
        "adjudication: resign.plies must be from 1 to 10000, not 0");
  Adjudication both = adj_draw(1, 600, 4);
  both.resign = ResignRule{600, 4, false};
  CHECK(check_adjudication(both, 2).error() ==
        "adjudication: draw.score (600) must be below resign.score (600)");
  CHECK(check_adjudication(adj_resign(100, 3, false), 3).error() ==
        "adjudication: only for two-player games; this game has 3 players");
}

TEST_CASE("adjudication: score_of prefers mate, score_text writes signs") {
  CHECK_FALSE(score_of(std::nullopt, std::nullopt));
  CHECK(score_of(12, std::nullopt)->value == 12);
  CHECK_FALSE(score_of(12, std::nullopt)->mate);
  CHECK(score_of(12, -4)->mate);
  CHECK(score_text(Score{false, 12}) == "+12");
  CHECK(score_text(Score{false, -3}) == "-3");
  CHECK(score_text(Score{false, 0}) == "0");
  CHECK(score_text(Score{true, -2}) == "mate -2");
}

namespace {

struct AdjPlayed {
  MatchResult result;
  std::vector<std::string> gameover;  // the gameover line each engine was sent
};

// One awale game between mock engines with these flags, under `rules` and `judge`.
AdjPlayed adj_play(const std::vector<std::string>& flags1, const std::vector<std::string>& flags2,
                   const Adjudication& rules, PositionJudge judge = {},
                   const std::string& spec = "awale") {
  auto game = games::make_game(spec);
  REQUIRE(game.ok());
  std::vector<EngineSession> engines;
  int seat = 0;
  for (const auto* flags : {&flags1, &flags2}) {
    SessionSettings settings;
    settings.name = kAdjNames[static_cast<std::size_t>(seat++)];
    engines.push_back(rtest::start_mock(*flags, settings));
  }
  MatchSetup setup{*game, "", {}, {}, {}, nullptr, {}, rules, std::move(judge)};
  for (auto& e : engines) {
    std::string detail;
    REQUIRE(e.prepare(*game, detail) == Fault::None);
    setup.seats.push_back(&e);
    setup.time_controls.push_back(*parse_time_control("10+0"));
  }
  AdjPlayed p;
  p.result = play_match(setup);
  for (auto& e : engines) {
    e.quit();
    for (const auto& line : e.take_log())
      if (line.text.rfind("gameover", 0) == 0) p.gameover.push_back(line.text);
  }
  return p;
}

}  // namespace

TEST_CASE("adjudication: play_match ends a game by a draw of the engines' scores") {
  const auto p = adj_play({"--scores=300,5"}, {"--scores=-300,-4"}, adj_draw(6, 10, 4));
  const auto& r = p.result;
  REQUIRE(r.finished);
  CHECK(r.termination == "adjudication");
  CHECK(r.ranks == std::vector<int>{1, 1});
  // Plies 1, 2 are out of the band; from ply 6 on, the window 6..9 holds.
  CHECK(r.moves.size() == 9);
  CHECK(r.reason ==
        "adjudicated a draw after ply 9: scores within ±10 for 4 plies from ply 6 on "
        "(last: alpha +5, beta -4)");
  CHECK(r.scores.size() == 2);
  CHECK(p.gameover ==
        std::vector<std::string>{"gameover draw adjudication", "gameover draw adjudication"});
  // The stored moves replay without reaching an end: verify accepts the game as adjudicated.
  storage::GameRecord rec;
  rec.game = "awale";
  rec.status = storage::GameStatus::Finished;
  rec.termination = r.termination;
  rec.ranks = r.ranks;
  CHECK(replay_check(rec, r.moves).ok());
  CHECK(storage::verify_game(rec, r.moves).ok());
}

TEST_CASE("adjudication: play_match resigns for an engine, one-sided and two-sided") {
  // beta's own score says it is lost from its third move on; alpha says nothing.
  auto p = adj_play({}, {"--scores=0,0,-800"}, adj_resign(600, 3, false));
  REQUIRE(p.result.finished);
  CHECK(p.result.termination == "adjudication");
  CHECK(p.result.ranks == std::vector<int>{1, 2});
  CHECK(p.result.moves.size() == 8);  // beta's plies 6 and 8 at -800, alpha's 7 between
  CHECK(p.result.reason ==
        "adjudicated a loss for beta after ply 8: its score at or below -600 for 3 plies "
        "(last: beta -800)");
  CHECK(p.gameover.front() == "gameover p1win adjudication");
  // Two-sided: alpha never agrees, so the game is played out by the rules.
  p = adj_play({}, {"--scores=-800"}, adj_resign(600, 3, true));
  REQUIRE(p.result.finished);
  CHECK(p.result.termination != "adjudication");
  // ... and when alpha agrees (a mate score counts), it ends.
  p = adj_play({"--scores=700,m9"}, {"--scores=-800"}, adj_resign(600, 3, true));
  REQUIRE(p.result.finished);
  CHECK(p.result.termination == "adjudication");
  CHECK(p.result.moves.size() == 3);
  CHECK(p.result.reason ==
        "adjudicated a loss for beta after ply 3: its score at or below -600 and alpha's at "
        "or above +600 for 3 plies (last: alpha mate 9, beta -800)");
}

TEST_CASE("adjudication: an engine that reports no score is never adjudicated against") {
  Adjudication both = adj_draw(1, 10, 2);
  both.resign = ResignRule{100, 2, false};
  // alpha's score would lose and draw; beta reports nothing: a draw needs beta's score, and a
  // resign of beta needs beta's; alpha's own hopeless score still counts against alpha.
  auto p = adj_play({"--scores=0"}, {}, both);
  REQUIRE(p.result.finished);
  CHECK(p.result.termination != "adjudication");
  p = adj_play({"--scores=-5000"}, {}, both);
  CHECK(p.result.termination == "adjudication");
  CHECK(p.result.ranks == std::vector<int>{2, 1});
}

TEST_CASE("adjudication: a judge of positions ends the game with its verdict and scores") {
  int asked = 0;
  PositionJudge judge = [&](const games::State& s) -> std::optional<Verdict> {
    ++asked;
    if (s.ply() < 5) return std::nullopt;
    return Verdict{{2, 1}, {20, 28}, "endgame database: 20-28 under perfect play"};
  };
  const auto p = adj_play({}, {}, {}, judge);
  REQUIRE(p.result.finished);
  CHECK(asked == 5);
  CHECK(p.result.termination == "adjudication");
  CHECK(p.result.ranks == std::vector<int>{2, 1});
  CHECK(p.result.scores == std::vector<double>{20, 28});
  CHECK(p.result.reason == "endgame database: 20-28 under perfect play");
  CHECK(p.gameover.front() == "gameover p2win adjudication");
}

TEST_CASE("adjudication: without rules, scores change nothing") {
  const auto p = adj_play({"--scores=0"}, {"--scores=-5000"}, {});
  REQUIRE(p.result.finished);
  CHECK(p.result.termination != "adjudication");
}

TEST_CASE("adjudication: kalaha's extra turns count one ply each, a draw needs both engines") {
  const int window = 6;
  const auto p = adj_play({"--scores=0"}, {"--scores=1"}, adj_draw(1, 10, window), {}, "kalaha");
  const auto& moves = p.result.moves;
  REQUIRE(p.result.termination == "adjudication");
  // The first ply after which the last `window` engine plies hold a ply of each engine.
  std::size_t expected = 0;
  bool extra_turn = false;
  for (std::size_t i = 0; i < moves.size() && !expected; ++i) {
    if (i > 0 && moves[i].player == moves[i - 1].player) extra_turn = true;
    if (moves[i].source != "engine") continue;
    std::vector<int> last;
    for (std::size_t j = i + 1; j-- > 0 && static_cast<int>(last.size()) < window;)
      if (moves[j].source == "engine") last.push_back(moves[j].player);
    const bool both =
        std::count(last.begin(), last.end(), 1) && std::count(last.begin(), last.end(), 2);
    if (static_cast<int>(last.size()) == window && both) expected = i + 1;
  }
  CHECK(extra_turn);  // the game had a player move twice in a row before the verdict
  CHECK(moves.size() == expected);
  CHECK(p.result.reason == "adjudicated a draw after ply " + std::to_string(expected) +
                               ": scores within ±10 for 6 plies (last: alpha 0, beta +1)");
}
