// The pairing rules of knockout and Swiss events (event/pairing.h), pinned rule by rule on the pure
// functions: the bracket order and its byes for fields that are not a power of two, a match's
// tie-break pairs then the higher seed; the Dutch system's score groups, top half against bottom
// half, floaters, no rematch where one can be avoided, byes; the standings' tie-breaks.
#include <catch2/catch.hpp>
#include <set>

#include "referee/event/pairing.h"

using namespace referee::event;

namespace {

using PairList = std::vector<std::pair<int, int>>;

std::vector<int> round1_byes(const Bracket& b) {
  std::vector<int> out;
  for (const auto& m : b.rounds.front())
    if (m.state == MatchState::Bye) out.push_back(m.seeds[0]);
  return out;
}

PairList round1_matches(const Bracket& b) {
  PairList out;
  for (const auto& m : b.rounds.front())
    if (m.state != MatchState::Bye) out.emplace_back(m.seeds[0], m.seeds[1]);
  return out;
}

MatchTally ko_tally(int scheduled, int settled, double high, double low) {
  MatchTally t;
  t.pairs_scheduled = scheduled;
  t.pairs_settled = settled;
  t.points[0] = high;
  t.points[1] = low;
  return t;
}

SwissResult sw_won(int a, int b) {
  return {a, b, 2, 0};
}
SwissResult sw_tied(int a, int b) {
  return {a, b, 1, 1};
}

std::set<std::pair<int, int>> sw_met(const std::vector<SwissRoundPlayed>& played) {
  std::set<std::pair<int, int>> out;
  for (const auto& r : played)
    for (const auto& p : r.pairings) out.insert({std::min(p.a, p.b), std::max(p.a, p.b)});
  return out;
}

}  // namespace

TEST_CASE("pairing: the bracket order keeps the top two seeds apart until the final") {
  CHECK(bracket_order(2) == std::vector<int>{0, 1});
  CHECK(bracket_order(4) == std::vector<int>{0, 3, 1, 2});
  CHECK(bracket_order(8) == std::vector<int>{0, 7, 3, 4, 1, 6, 2, 5});
  // Seed s meets seed size-1-s first; seeds 0 and 1 are in opposite halves.
  const auto order = bracket_order(16);
  for (std::size_t i = 0; i < order.size(); i += 2) CHECK(order[i] + order[i + 1] == 15);
  const auto half = order.begin() + 8;
  CHECK(std::find(order.begin(), half, 0) != half);
  CHECK(std::find(half, order.end(), 1) != order.end());
}

TEST_CASE("pairing: knockout byes go to the top seeds for 5, 6 and 7 engines") {
  const KnockoutRules rules;
  const Bracket five = knockout_bracket(5, rules, {});
  CHECK(five.size == 8);
  CHECK(five.rounds.size() == 3);
  CHECK(round1_byes(five) == std::vector<int>{0, 1, 2});
  CHECK(round1_matches(five) == PairList{{3, 4}});
  const Bracket six = knockout_bracket(6, rules, {});
  CHECK(round1_byes(six) == std::vector<int>{0, 1});
  CHECK(round1_matches(six) == PairList{{3, 4}, {2, 5}});
  const Bracket seven = knockout_bracket(7, rules, {});
  CHECK(round1_byes(seven) == std::vector<int>{0});
  CHECK(round1_matches(seven) == PairList{{3, 4}, {1, 6}, {2, 5}});
  // A power of two has no bye.
  CHECK(round1_byes(knockout_bracket(8, rules, {})).empty());
  // The first games wanted: the first-round match, `pairs` pairs, and the round-2 match of two
  // byes, whose sides are known at once.
  const auto wanted = knockout_wanted(five, {3, 0});
  REQUIRE(wanted.size() == 2);
  CHECK(wanted[0].round == 1);
  CHECK(wanted[0].seeds[0] == 3);
  CHECK(wanted[0].seeds[1] == 4);
  CHECK(wanted[0].first_pair == 0);
  CHECK(wanted[0].count == 3);
  CHECK(wanted[1].round == 2);
  CHECK(wanted[1].seeds[0] == 1);
  CHECK(wanted[1].seeds[1] == 2);
  // A bye's side is known in round 2 at once; its match waits for the other side.
  CHECK(five.rounds[1][0].seeds[0] == 0);
  CHECK(five.rounds[1][0].state == MatchState::Waiting);
  CHECK(five.rounds[1][1].state == MatchState::Playing);  // seeds 1 and 2, both byes
  CHECK(five.rounds[1][1].seeds[0] == 1);
  CHECK(five.rounds[1][1].seeds[1] == 2);
}

TEST_CASE("pairing: a knockout match is decided by points, then tie-break pairs, then the seed") {
  const KnockoutRules rules{2, 2};
  auto match = [&](const MatchTally& t) { return knockout_bracket(2, rules, {{{1, 0}, t}}); };
  // PairList still to make or to finish: playing.
  CHECK(knockout_wanted(match(ko_tally(0, 0, 0, 0)), rules).at(0).count == 2);
  CHECK(match(ko_tally(2, 1, 2, 0)).rounds[0][0].state == MatchState::Playing);
  CHECK(knockout_wanted(match(ko_tally(2, 1, 2, 0)), rules).empty());
  // More points after the pairs: decided, whoever the seed.
  const Bracket low_wins = match(ko_tally(2, 2, 1.5, 2.5));
  CHECK(low_wins.rounds[0][0].state == MatchState::Decided);
  CHECK(low_wins.champion == 1);
  CHECK_FALSE(low_wins.rounds[0][0].by_seed);
  // Tied: one tie-break pair at a time.
  const auto first_extra = knockout_wanted(match(ko_tally(2, 2, 2, 2)), rules);
  REQUIRE(first_extra.size() == 1);
  CHECK(first_extra[0].first_pair == 2);
  CHECK(first_extra[0].count == 1);
  CHECK(knockout_wanted(match(ko_tally(3, 3, 3, 3)), rules).at(0).first_pair == 3);
  // The tie-break pair decides when it breaks the tie.
  CHECK(match(ko_tally(3, 3, 3, 3 + 2)).champion == 1);
  // Tied after every tie-break pair: the higher seed advances.
  const Bracket by_seed = match(ko_tally(4, 4, 4, 4));
  CHECK(by_seed.rounds[0][0].state == MatchState::Decided);
  CHECK(by_seed.champion == 0);
  CHECK(by_seed.rounds[0][0].by_seed);
  CHECK(knockout_wanted(by_seed, rules).empty());
  // No tie-break pairs: the seed at once.
  CHECK(knockout_bracket(2, {1, 0}, {{{1, 0}, ko_tally(1, 1, 1, 1)}}).champion == 0);
}

TEST_CASE("pairing: a knockout's next match starts when both its sides are decided") {
  const KnockoutRules rules{1, 0};
  // Four engines: 0-3 and 1-2. Seed 3 beats seed 0; 1-2 not finished.
  MatchTallies t{{{1, 0}, ko_tally(1, 1, 0, 2)}, {{1, 1}, ko_tally(1, 0, 0, 0)}};
  Bracket b = knockout_bracket(4, rules, t);
  CHECK(b.rounds[1][0].state == MatchState::Waiting);
  CHECK(b.rounds[1][0].seeds[0] == 3);
  CHECK(knockout_wanted(b, rules).empty());
  t[{1, 1}] = ko_tally(1, 1, 2, 0);
  b = knockout_bracket(4, rules, t);
  const auto wanted = knockout_wanted(b, rules);
  REQUIRE(wanted.size() == 1);
  CHECK(wanted[0].round == 2);
  CHECK(wanted[0].seeds[0] == 1);  // the higher seed first
  CHECK(wanted[0].seeds[1] == 3);
  t[{2, 1}] = ko_tally(1, 1, 0.5, 1.5);
  CHECK(knockout_bracket(4, rules, t).champion == 3);
}

TEST_CASE(
    "pairing: Swiss round 1 pairs the top half against the bottom half, a bye for an odd field") {
  const auto six = swiss_pairing(6, {});
  CHECK(six.pairings == PairList{{0, 3}, {1, 4}, {2, 5}});
  CHECK(six.bye == -1);
  const auto five = swiss_pairing(5, {});
  CHECK(five.bye == 4);  // the lowest-ranked
  CHECK(five.pairings == PairList{{0, 2}, {1, 3}});
}

TEST_CASE("pairing: Swiss score groups, and a floater from an odd group") {
  // After round 1, winners 0, 1 and 5: the group {0, 1, 5} pairs 0-1 and floats 5 down, where it
  // meets the top of the next group it has not met (it beat 2).
  const std::vector<SwissRoundPlayed> played{{{sw_won(0, 3), sw_won(1, 4), {2, 5, 0, 2}}, -1}};
  const auto plan = swiss_pairing(6, played);
  CHECK(plan.pairings == PairList{{0, 1}, {5, 3}, {2, 4}});
  CHECK(plan.rematches == 0);
}

TEST_CASE("pairing: Swiss avoids a rematch when it can, by permuting and floating") {
  // Round 1: 0 beat 2, 1 beat 3. Round 2: 0 beat 1, 2 beat 3. Scores 0:2, 1:1, 2:1, 3:0.
  // Score order would give 0-1 or 0-2, both played: 0 floats down and meets 3.
  const std::vector<SwissRoundPlayed> played{{{sw_won(0, 2), sw_won(1, 3)}, -1},
                                             {{sw_won(0, 1), sw_won(2, 3)}, -1}};
  const auto plan = swiss_pairing(4, played);
  CHECK(plan.pairings == PairList{{0, 3}, {1, 2}});
  CHECK(plan.rematches == 0);
  // A permutation of the bottom half: 0-2 played, so 0-3 and 1-2.
  const std::vector<SwissRoundPlayed> one{{{sw_tied(0, 2), sw_tied(1, 3)}, -1}};
  CHECK(swiss_pairing(4, one).pairings == PairList{{0, 3}, {1, 2}});
  // Seven rounds of eight engines never repeat a pairing when every result is a tie (scores
  // stay equal, so only the no-rematch rule moves pairings away from the first one).
  std::vector<SwissRoundPlayed> rounds;
  for (int r = 0; r < 7; ++r) {
    const auto next = swiss_pairing(8, rounds);
    CHECK(next.rematches == 0);
    SwissRoundPlayed p;
    for (const auto& [a, b] : next.pairings) p.pairings.push_back(sw_tied(a, b));
    rounds.push_back(p);
  }
  CHECK(sw_met(rounds).size() == 28);  // every pairing once: a round robin
}

TEST_CASE("pairing: Swiss rematches only when none can be avoided") {
  const std::vector<SwissRoundPlayed> played{{{sw_won(0, 1)}, -1}};
  const auto plan = swiss_pairing(2, played);
  CHECK(plan.pairings == PairList{{0, 1}});
  CHECK(plan.rematches == 1);
}

TEST_CASE("pairing: a Swiss bye goes to the lowest-ranked engine without one") {
  // Round 1: 4 had the bye (one point); 0 beat 2, 1 beat 3. Ranking 0, 1, 4, 2, 3: the
  // lowest-ranked without a bye is 3.
  std::vector<SwissRoundPlayed> played{{{sw_won(0, 2), sw_won(1, 3)}, 4}};
  auto plan = swiss_pairing(5, played);
  CHECK(plan.bye == 3);
  // Five rounds of five engines: five different byes, even when that costs a rematch.
  std::vector<SwissRoundPlayed> rounds;
  std::set<int> byes;
  for (int r = 0; r < 5; ++r) {
    const auto next = swiss_pairing(5, rounds);
    byes.insert(next.bye);
    SwissRoundPlayed p;
    p.bye = next.bye;
    for (const auto& [a, b] : next.pairings)
      p.pairings.push_back(sw_won(std::min(a, b), std::max(a, b)));
    rounds.push_back(p);
  }
  CHECK(byes.size() == 5);
  // The bye scores one point.
  const auto standings = swiss_standings(5, {{{}, 2}});
  CHECK(standings.front().player == 2);
  CHECK(standings.front().score == 1);
  CHECK(standings.front().byes == 1);
}

TEST_CASE("pairing: Swiss standings rank by score, Buchholz, then Sonneborn-Berger") {
  // 0 beat 1, 2 tied 3; then 0 tied 2, 1 beat 3; then 3 beat 0, 1 tied 2.
  // Scores: 0: 1.5, 1: 1.5, 2: 1.5, 3: 1.5 - all equal.
  const std::vector<SwissRoundPlayed> played{{{sw_won(0, 1), sw_tied(2, 3)}, -1},
                                             {{sw_tied(0, 2), sw_won(1, 3)}, -1},
                                             {{{3, 0, 2, 0}, sw_tied(1, 2)}, -1}};
  const auto s = swiss_standings(4, played);
  for (const auto& x : s) CHECK(x.score == 1.5);
  // Buchholz is 4.5 for all (three opponents of 1.5); Sonneborn-Berger: 0 beat 1 (1.5) and tied
  // 2 (0.75) = 2.25; 1 beat 3 and tied 2 = 2.25; 2 tied three = 2.25; 3 beat 0, tied 2 = 2.25.
  for (const auto& x : s) {
    CHECK(x.buchholz == 4.5);
    CHECK(x.sonneborn_berger == 2.25);
  }
  // Equal everywhere: the file's order.
  CHECK(s[0].player == 0);
  CHECK(s[3].player == 3);
  // Different scores: 0 beat 1 and 3, 1 and 3 beat 2.
  const std::vector<SwissRoundPlayed> uneven{{{sw_won(0, 1), sw_won(3, 2)}, -1},
                                             {{sw_won(0, 3), sw_won(1, 2)}, -1}};
  const auto u = swiss_standings(4, uneven);
  CHECK(u[0].player == 0);  // 2 points
  // 1 and 3 have 1 point: 1 met 0 (2) and 2 (0), Buchholz 2; 3 met 2 (0) and 0 (2), Buchholz 2;
  // Sonneborn-Berger: both beat 2 (0 points): 0. File order: 1 first.
  CHECK(u[1].player == 1);
  CHECK(u[1].buchholz == 2);
  CHECK(u[2].player == 3);
  CHECK(u[3].player == 2);
  CHECK(u[0].sonneborn_berger == 2);  // beat 1 and 3, one point each
  CHECK(u[0].game_points == 4);
}
