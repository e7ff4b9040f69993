// Rating tables: maximum-likelihood Elo checked against values computed by hand (closed forms, or
// the stationarity equation solved by bisection outside the program; each derivation is in a
// comment), and the table's structure: groups that never met, bounds, anchoring, LOS, seats.
#include <catch2/catch.hpp>

#include <cmath>

#include "ratings/ratings.h"

using namespace referee;
using namespace referee::ratings;

namespace {

const double kK = std::log(10.0) / 400.0;
const double kZ95 = 1.959963984540054;

ratings::RatedGame game(std::vector<std::string> players, std::vector<int> ranks) {
  return {std::move(players), std::move(ranks), "g"};
}

// `wins` games A beats B, `draws` drawn, `losses` B beats A; seats alternate so that every result
// is seen from both seats (the seat advantage fitted is then 0 whenever the counts are even).
std::vector<ratings::RatedGame> match(int wins, int draws, int losses) {
  std::vector<ratings::RatedGame> games;
  auto add = [&](int count, int rank_a, int rank_b) {
    for (int i = 0; i < count; ++i)
      games.push_back(i % 2 ? game({"A", "B"}, {rank_a, rank_b})
                            : game({"B", "A"}, {rank_b, rank_a}));
  };
  add(wins, 1, 2);
  add(draws, 1, 1);
  add(losses, 2, 1);
  return games;
}

ratings::RatingOptions no_seats() {
  RatingOptions o;
  o.fit_seats = false;
  return o;
}

const ratings::Rating& find(const RatingGroup& group, const std::string& name) {
  for (const auto& r : group.ratings)
    if (r.name == name) return r;
  FAIL("no rating for " << name);
  return group.ratings.front();
}

// A copy, so that `const auto& g = only_group(rate(...))` outlives the temporary table.
ratings::RatingGroup only_group(const RatingTable& t) {
  REQUIRE(t.groups.size() == 1);
  return t.groups[0];
}

}  // namespace

TEST_CASE("ratings: 75 % over 100 games is 400·log10(3) = 190.85, with no prior by default") {
  const ratings::RatingTable t = rate(match(75, 0, 25), no_seats());
  const ratings::RatingGroup& g = only_group(t);
  REQUIRE(g.ratings.size() == 2);
  CHECK(g.ratings[0].name == "A");
  CHECK(g.ratings[0].bound == ratings::Bound::kNone);
  CHECK(g.ratings[0].elo - g.ratings[1].elo == Approx(190.848501887865).margin(1e-6));
  CHECK(g.ratings[0].elo == Approx(95.4242509).margin(1e-6));  // centred: mean 0
  CHECK(g.average == Approx(0).margin(1e-9));
  // Cluster-robust over 100 games, without draws: the meat equals the information n·p·q·k² on the
  // difference, times the small-sample factor G/(G−1) = 100/99; the centred variance of Ra is a
  // quarter of the difference's: error95 = 1.959964 · √(100/99) / (2 √(100 · 0.75 · 0.25) k)
  // = 39.51338 (the model-based error is 39.31532).
  CHECK(g.robust);
  CHECK(g.ratings[0].error == Approx(39.5133785).margin(1e-5));
  CHECK(g.ratings[1].error == Approx(g.ratings[0].error).margin(1e-9));
  // LOS = Φ(190.85 / √(4·Var Ra)) = Φ(190.85 / (39.5134 / 1.959964 · 2)) = Φ(4.7333).
  CHECK(g.ratings[0].los == Approx(0.5 * std::erfc(-4.73328 / std::sqrt(2.0))).margin(1e-6));
  CHECK(std::isnan(g.ratings[1].los));
  CHECK(g.ratings[0].games == 100);
  CHECK(g.ratings[0].wins == 75);
  CHECK(g.ratings[0].losses == 25);
  CHECK(g.ratings[0].score == Approx(0.75));
  CHECK(g.ratings[1].wins == 25);
}

TEST_CASE("ratings: lopsided results are not pulled: 95 % is +511.5 and 99 % is +798.3, as Ordo") {
  // 400·log10(95/5) = 511.5014 and 400·log10(99/1) = 798.2541, the values Ordo 1.2.6 prints.
  const auto r95 = ratings::rate(match(95, 0, 5), no_seats()).groups.at(0).ratings;
  CHECK(r95[0].elo - r95[1].elo == Approx(511.501440381).margin(1e-5));
  const auto r99 = rate(match(99, 0, 1), no_seats()).groups.at(0).ratings;
  CHECK(r99[0].elo - r99[1].elo == Approx(798.254077839).margin(1e-5));
  // Draws count half: 90 wins and 10 draws is also 95 %, and the draws keep it finite.
  const auto drawn = rate(match(90, 10, 0), no_seats()).groups.at(0).ratings;
  CHECK(drawn[0].bound == ratings::Bound::kNone);
  CHECK(drawn[0].elo - drawn[1].elo == Approx(511.501440381).margin(1e-5));
}

TEST_CASE("ratings: the prior, when asked for, is the old one virtual draw and pulls as measured") {
  // d solves 95 + ½ − 100·σ(k·d) − σ(k·d/2) = 0 (one virtual draw of each engine against the
  // average, 0; Ra = d/2 by symmetry): d = 500.5337 by bisection, the 500.5 of the issue; for 99 %,
  // 99 + ½ − 100·σ(k·d) − σ(k·d/2) = 0 gives 739.8886.
  ratings::RatingOptions o = no_seats();
  o.prior_draws = 1;
  const auto r95 = ratings::rate(match(95, 0, 5), o).groups.at(0).ratings;
  CHECK(r95[0].elo - r95[1].elo == Approx(500.533748787).margin(1e-5));
  const auto r99 = rate(match(99, 0, 1), o).groups.at(0).ratings;
  CHECK(r99[0].elo - r99[1].elo == Approx(739.888555279).margin(1e-5));
  // With the prior an all-win engine is finite.
  const auto all = rate(match(10, 0, 0), o).groups.at(0).ratings;
  CHECK(all[0].bound == ratings::Bound::kNone);
  CHECK(std::isfinite(all[0].elo));
}

TEST_CASE("ratings: draws count half: 1 win and 2 draws is 2/3, 400·log10(2) = 120.41") {
  const auto& g = only_group(ratings::rate(match(1, 2, 0), no_seats()));
  CHECK(g.ratings[0].name == "A");
  CHECK(g.ratings[0].elo - g.ratings[1].elo == Approx(120.411998266).margin(1e-6));
  CHECK(g.ratings[0].draws == 2);
  CHECK(g.ratings[1].draws == 2);
  CHECK(g.ratings[1].losses == 1);
  CHECK(g.ratings[0].score == Approx(2.0 / 3));
}

TEST_CASE("ratings: all draws give equal ratings, LOS one half and model-based errors") {
  // Every result equals its expectation: the cluster-robust meat is 0, so the table falls back to
  // the model-based error and says so.
  const auto& g = only_group(ratings::rate(match(0, 10, 0), no_seats()));
  CHECK(g.ratings[0].elo == Approx(0).margin(1e-9));
  CHECK(g.ratings[1].elo == Approx(0).margin(1e-9));
  CHECK(g.ratings[0].los == Approx(0.5).margin(1e-9));
  CHECK_FALSE(g.robust);
  // Model-based: information 10·¼·k² on the difference; centred error = 1.96 / (2 √(2.5) k).
  CHECK(g.ratings[0].error == Approx(kZ95 / (2 * std::sqrt(2.5) * kK)).epsilon(1e-9));
}

TEST_CASE("ratings: a three-engine cycle is one strongly connected set: all equal and finite") {
  // A beats B, B beats C, C beats A: no pair has both results, yet the likelihood has a finite
  // maximum (everyone 0) because each engine scored against someone who scored against it.
  std::vector<ratings::RatedGame> games;
  for (int i = 0; i < 2; ++i) {
    games.push_back(game({"A", "B"}, {1, 2}));
    games.push_back(game({"B", "C"}, {1, 2}));
    games.push_back(game({"C", "A"}, {1, 2}));
  }
  const auto& g = only_group(ratings::rate(games, no_seats()));
  REQUIRE(g.ratings.size() == 3);
  for (const auto& x : g.ratings) {
    CHECK(x.bound == ratings::Bound::kNone);
    CHECK(x.elo == Approx(0).margin(1e-9));
    CHECK(std::isfinite(x.error));
  }
  CHECK(g.ratings[0].name == "A");  // ties by name
}

TEST_CASE("ratings: an engine that won every game is a lower bound, not a number from a prior") {
  // A beat B ten times. B alone has a finite rating (0, the average of the finite ratings); A's
  // likelihood grows without end. The bound x solves 10·log σ(k·x) = log 0.025: σ(k·x) = 0.025^0.1
  // = 0.691503, x = 400·log10(0.691503 / 0.308497) = 140.2172 (Clopper–Pearson's one-sided 97.5 %
  // bound for 10 out of 10).
  const auto& g = only_group(ratings::rate(match(10, 0, 0), no_seats()));
  REQUIRE(g.ratings.size() == 2);
  CHECK(g.ratings[0].name == "A");
  CHECK(g.ratings[0].bound == ratings::Bound::kLower);
  CHECK(g.ratings[0].elo == Approx(140.217161608).margin(1e-5));
  CHECK(std::isnan(g.ratings[0].error));
  CHECK(std::isnan(g.ratings[0].los));
  CHECK(g.ratings[1].bound == ratings::Bound::kNone);
  CHECK(g.ratings[1].elo == Approx(0).margin(1e-12));
  // A 99 % table moves the bound to σ(k·x) = 0.005^0.1 = 0.588704: 400·log10(0.588704/0.411296)
  // = 62.2970.
  ratings::RatingOptions o = no_seats();
  o.confidence = 0.99;
  const auto& g99 = only_group(rate(match(10, 0, 0), o));
  CHECK(g99.ratings[0].elo == Approx(62.2970137071).margin(1e-6));
}

TEST_CASE("ratings: an engine that lost every game is an upper bound below the rated engines") {
  // A and B split 4 games 2–2 in each seating (both 0); C lost 4 games to each. The bound x solves
  // 8·log σ(−k·x) = log 0.025: σ(−k·x) = 0.025^(1/8) = 0.630463, x = −92.8904.
  std::vector<ratings::RatedGame> games;
  for (int i = 0; i < 2; ++i) {
    games.push_back(game({"A", "B"}, {1, 2}));
    games.push_back(game({"A", "B"}, {2, 1}));
    games.push_back(game({"B", "A"}, {1, 2}));
    games.push_back(game({"B", "A"}, {2, 1}));
  }
  for (int i = 0; i < 4; ++i) {
    games.push_back(game({"C", "A"}, {2, 1}));
    games.push_back(game({"B", "C"}, {1, 2}));
  }
  const auto& g = only_group(ratings::rate(games, ratings::RatingOptions{}));
  REQUIRE(g.ratings.size() == 3);
  CHECK(g.ratings[2].name == "C");
  CHECK(g.ratings[2].bound == ratings::Bound::kUpper);
  CHECK(g.ratings[2].elo == Approx(-92.8904153212).margin(1e-4));
  CHECK(find(g, "A").elo == Approx(0).margin(1e-6));
  CHECK(find(g, "A").bound == ratings::Bound::kNone);
  CHECK(g.ratings[2].games == 8);
  CHECK(g.ratings[2].losses == 8);
  // LOS only between finite ratings.
  CHECK(std::isfinite(g.ratings[0].los));
  CHECK(std::isnan(g.ratings[1].los));
  CHECK(std::isnan(g.los[0][2]));
  CHECK(std::isnan(g.los[2][0]));
}

TEST_CASE(
    "ratings: a chain of decisive results is rated from its middle, in the order of the chain") {
  // a beat g and r every time, g beat r every time: three sets of one. The middle one, g, is the
  // main set (0); a is above it, r below, each bounded by its 4 games against g:
  // σ(k·x)^4 = 0.025, σ = 0.397635, x = 400·log10(0.397635/0.602365) = −72.15: a weak bound, since
  // four games say little, but a is listed first because it beat g every time.
  std::vector<ratings::RatedGame> games;
  for (int i = 0; i < 2; ++i)
    for (auto [w, l] : {std::pair{"a", "g"}, std::pair{"a", "r"}, std::pair{"g", "r"}}) {
      games.push_back(game({w, l}, {1, 2}));
      games.push_back(game({l, w}, {2, 1}));
    }
  const auto& g = only_group(ratings::rate(games, no_seats()));
  REQUIRE(g.ratings.size() == 3);
  CHECK(g.ratings[0].name == "a");
  CHECK(g.ratings[0].bound == ratings::Bound::kLower);
  CHECK(g.ratings[0].elo == Approx(-72.1497859).margin(1e-3));
  CHECK(g.ratings[1].name == "g");
  CHECK(g.ratings[1].bound == ratings::Bound::kNone);
  CHECK(g.ratings[2].name == "r");
  CHECK(g.ratings[2].bound == ratings::Bound::kUpper);
  CHECK(g.ratings[2].elo == Approx(72.1497859).margin(1e-3));
}

TEST_CASE("ratings: an engine that met only bound engines is unrated") {
  // A and B are the main set; C beat B every time (a lower bound); D only lost to C.
  std::vector<ratings::RatedGame> games = {game({"A", "B"}, {1, 2}), game({"B", "A"}, {1, 2}),
                                           game({"C", "B"}, {1, 2}), game({"D", "C"}, {2, 1})};
  const auto& g = only_group(ratings::rate(games, no_seats()));
  REQUIRE(g.ratings.size() == 4);
  CHECK(g.ratings[0].name == "C");
  CHECK(g.ratings[0].bound == ratings::Bound::kLower);
  CHECK(g.ratings[3].name == "D");
  CHECK(g.ratings[3].bound == ratings::Bound::kUnrated);
}

TEST_CASE("ratings: groups that never met get separate tables on their own scales") {
  std::vector<ratings::RatedGame> games = {game({"A", "B"}, {1, 2}), game({"B", "A"}, {2, 1}),
                                           game({"A", "B"}, {2, 1}), game({"C", "D"}, {1, 2}),
                                           game({"D", "C"}, {1, 2}), game({"E", "C"}, {1, 1})};
  const ratings::RatingTable t = rate(games, no_seats());
  REQUIRE(t.groups.size() == 2);
  // Most engines first: C, D, E; then A, B.
  REQUIRE(t.groups[0].ratings.size() == 3);
  REQUIRE(t.groups[1].ratings.size() == 2);
  CHECK(find(t.groups[1], "A").elo == Approx(-find(t.groups[1], "B").elo).margin(1e-9));
  // A 2–1 over B: 400·log10(2) = 120.41.
  CHECK(find(t.groups[1], "A").elo - find(t.groups[1], "B").elo ==
        Approx(120.411998266).margin(1e-6));
  for (const auto& g : t.groups) {
    double sum = 0;
    for (const auto& r : g.ratings) sum += r.elo;
    CHECK(sum == Approx(0).margin(1e-9));  // each group centred on its own
    CHECK(g.average == Approx(0).margin(1e-9));
  }
}

TEST_CASE("ratings: an anchor fixes one engine, errors become relative to it") {
  ratings::RatingOptions o = no_seats();
  o.anchor = "B";
  o.anchor_elo = 1000;
  const auto& g = only_group(ratings::rate(match(75, 0, 25), o));
  CHECK(g.anchored);
  CHECK(find(g, "B").elo == Approx(1000).margin(1e-9));
  CHECK(find(g, "B").error == Approx(0).margin(1e-9));
  CHECK(find(g, "A").elo == Approx(1190.848501888).margin(1e-6));
  // The error of A − B: twice the centred error, 2 · 39.51338 = 79.02676.
  CHECK(find(g, "A").error == Approx(79.0267570073).margin(1e-5));
  CHECK(g.average == Approx(1095.424250944).margin(1e-6));
  // LOS does not depend on the anchor.
  CHECK(g.ratings[0].los == Approx(only_group(rate(match(75, 0, 25), no_seats())).ratings[0].los));

  // The other groups are centred on the anchored group's average.
  auto games = match(75, 0, 25);
  games.push_back(game({"C", "D"}, {1, 2}));
  games.push_back(game({"D", "C"}, {1, 2}));
  const ratings::RatingTable two = rate(games, o);
  REQUIRE(two.groups.size() == 2);
  CHECK(two.groups[0].anchored);
  CHECK_FALSE(two.groups[1].anchored);
  CHECK(two.groups[1].average == Approx(1095.424250944).margin(1e-6));

  // An anchor without a finite rating (here: absent) leaves the average at 0.
  o.anchor = "Z";
  const auto& absent = only_group(rate(match(75, 0, 25), o));
  CHECK_FALSE(absent.anchored);
  CHECK(absent.average == Approx(0).margin(1e-9));
}

TEST_CASE("ratings: the confidence level scales every error bar") {
  ratings::RatingOptions o = no_seats();
  const double e95 = only_group(ratings::rate(match(60, 10, 30), o)).ratings[0].error;
  o.confidence = 0.99;
  const double e99 = only_group(rate(match(60, 10, 30), o)).ratings[0].error;
  // z(99 %) / z(95 %) = 2.5758293 / 1.9599640.
  CHECK(e99 / e95 == Approx(2.575829303549 / 1.959963984540).epsilon(1e-9));
}

TEST_CASE("ratings: the first-player advantage is estimated and the ratings are seat-neutral") {
  // A and B are equal: each wins 30 of 40 games as first player. The seat model gives the first
  // player 75 %: advantage 400·log10(3) = 190.85, and A − B = 0.
  std::vector<ratings::RatedGame> games;
  for (int i = 0; i < 30; ++i) {
    games.push_back(game({"A", "B"}, {1, 2}));
    games.push_back(game({"B", "A"}, {1, 2}));
  }
  for (int i = 0; i < 10; ++i) {
    games.push_back(game({"A", "B"}, {2, 1}));
    games.push_back(game({"B", "A"}, {2, 1}));
  }
  const auto& g = only_group(ratings::rate(games, ratings::RatingOptions{}));
  REQUIRE(g.seats.size() == 1);
  CHECK(g.seats[0].variant == "g");
  CHECK(g.seats[0].first == Approx(190.848501888).margin(1e-5));
  CHECK(g.seats[0].elo[0] == Approx(95.424250944).margin(1e-5));  // relative to the average seat
  CHECK(g.seats[0].elo[1] == Approx(-95.424250944).margin(1e-5));
  CHECK(g.seats[0].first_error > 0);
  CHECK(find(g, "A").elo == Approx(0).margin(1e-6));

  // Unbalanced: A always first, and 30–10. Without the seat term A looks 190.85 stronger; with
  // it, A and B cannot be told from the seat: the seat advantage is not identifiable and says so.
  std::vector<RatedGame> unbalanced;
  for (int i = 0; i < 30; ++i) unbalanced.push_back(game({"A", "B"}, {1, 2}));
  for (int i = 0; i < 10; ++i) unbalanced.push_back(game({"A", "B"}, {2, 1}));
  const auto& u = only_group(rate(unbalanced, RatingOptions{}));
  CHECK(u.seats.empty());
  REQUIRE(u.seat_notes.size() == 1);
  CHECK(u.seat_notes[0].find("not identifiable") != std::string::npos);
  CHECK(find(u, "A").elo - find(u, "B").elo == Approx(190.848501888).margin(1e-5));
}

TEST_CASE("ratings: a seat that won every game makes the seat advantage unbounded, not fitted") {
  std::vector<ratings::RatedGame> games;
  for (int i = 0; i < 5; ++i) {
    games.push_back(game({"A", "B"}, {1, 2}));
    games.push_back(game({"B", "A"}, {1, 2}));
  }
  const auto& g = only_group(ratings::rate(games, ratings::RatingOptions{}));
  CHECK(g.seats.empty());
  REQUIRE(g.seat_notes.size() == 1);
  CHECK(g.seat_notes[0] ==
        "g: seat 1 scored every point against seat 2: the seat advantage is unbounded and not "
        "fitted");
  CHECK(find(g, "A").elo == Approx(0).margin(1e-9));
  CHECK(find(g, "A").bound == ratings::Bound::kNone);
}

TEST_CASE("ratings: a multi-player game is split into pairwise results by rank") {
  // Ranks 1, 2, 2: P1 beats P2 and P3; P2 and P3 draw.
  const auto t =
      ratings::rate({game({"P1", "P2", "P3"}, {1, 2, 2}), game({"P2", "P3", "P1"}, {1, 2, 3}),
                     game({"P3", "P1", "P2"}, {2, 1, 3})},
                    no_seats());
  const auto& g = only_group(t);
  const ratings::Rating& p1 = find(g, "P1");
  const ratings::Rating& p2 = find(g, "P2");
  CHECK(p1.games == 6);
  CHECK(p1.wins == 4);
  CHECK(p1.losses == 2);
  CHECK(p2.draws == 1);
  CHECK(g.ratings[0].name == "P1");
}

TEST_CASE("ratings: a game with the same engine in two seats counts nothing between them") {
  const auto t = ratings::rate({game({"A", "A"}, {1, 2}), game({"A", "B"}, {1, 1})}, no_seats());
  const auto& g = only_group(t);
  CHECK(find(g, "A").games == 1);
  CHECK(find(g, "A").draws == 1);
}

TEST_CASE("ratings: no games, no groups, unfinished games are ignored") {
  CHECK(ratings::rate(std::vector<ratings::RatedGame>{}, ratings::RatingOptions{}).groups.empty());
  CHECK(rate(ratings::GameTallies{}, RatingOptions{}).groups.empty());
  CHECK(rate({game({"A", "B"}, {})}, RatingOptions{}).groups.empty());
}

TEST_CASE("ratings: the draw rate between equal engines is estimated with an interval") {
  // Equal engines (A − B = 0, no seat effect), 40 % draws: with s = ½ the BayesElo split gives
  // P(draw) = 1 − 2σ(−kδ), so the maximum-likelihood δ makes it exactly 40 %.
  const auto& g = only_group(ratings::rate(match(30, 40, 30), ratings::RatingOptions{}));
  REQUIRE(g.draws.estimated);
  CHECK(g.draws.observed == Approx(0.4));
  CHECK(g.draws.equal == Approx(0.4).margin(1e-6));
  // δ = 400·log10((1 + 0.4)/(1 − 0.4)) = 147.19 since σ(−kδ) = 0.3.
  CHECK(g.draws.drawelo == Approx(400 * std::log10(0.7 / 0.3)).margin(1e-3));
  CHECK(g.draws.low < 0.4);
  CHECK(g.draws.high > 0.4);
  // Without draws the estimate is 0 and its interval starts at 0.
  const auto& none = only_group(rate(match(30, 0, 30), RatingOptions{}));
  CHECK(none.draws.equal == Approx(0).margin(1e-9));
  CHECK(none.draws.low == Approx(0).margin(1e-9));
}
