// How bounds and a group's lone finite rating read (ratings/rating_text.h): the figures shown
// follow the ranks, a winner of few games never reads below its victim, a lone finite rating
// reads as the scale's reference rather than a measured `0.0 ± 0.0`, and the legend says so.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>

#include "ratings/rating_text.h"
#include "ratings/ratings.h"
#include "ratings/report.h"

using namespace referee::ratings;

namespace bounds_test {

RatedGame played(std::string winner, std::string loser, bool winner_first) {
  if (winner_first) return {{winner, loser}, {1, 2}, "awale"};
  return {{loser, winner}, {2, 1}, "awale"};
}

// `n` games that `winner` wins against `loser`, seats alternating.
void wins(std::vector<RatedGame>& games, const std::string& winner, const std::string& loser,
          int n) {
  for (int i = 0; i < n; ++i) games.push_back(played(winner, loser, i % 2 == 0));
}

const Rating& named(const RatingGroup& g, const std::string& name) {
  for (const auto& r : g.ratings)
    if (r.name == name) return r;
  FAIL("no rating for " << name);
  return g.ratings.front();
}

// Every row's figure is at least the next row's: what a reader takes the ranks to mean.
void check_figures_follow_ranks(const RatingGroup& g) {
  for (std::size_t k = 0; k + 1 < g.ratings.size(); ++k) {
    if (g.ratings[k + 1].bound == Bound::kUnrated) continue;
    INFO(g.ratings[k].name << " " << elo_text(g.ratings[k]) << " above " << g.ratings[k + 1].name
                           << " " << elo_text(g.ratings[k + 1]));
    CHECK(g.ratings[k].shown >= g.ratings[k + 1].shown);
  }
}

}  // namespace bounds_test

using namespace bounds_test;

TEST_CASE("rating text: a winner of few games reads above its victim, which is the reference") {
  // A beat B twice: the limit solves 2·log σ(k·x) = log 0.025, x ≈ −290 (below B's 0).
  std::vector<RatedGame> games;
  wins(games, "A", "B", 2);
  const RatingTable t = rate(games, RatingOptions{});
  REQUIRE(t.groups.size() == 1);
  const RatingGroup& g = t.groups[0];
  REQUIRE(g.ratings.size() == 2);
  const Rating& a = g.ratings[0];
  const Rating& b = g.ratings[1];
  CHECK(a.name == "A");
  CHECK(a.bound == Bound::kLower);
  CHECK(a.elo < -200);  // the limit itself is kept
  CHECK(a.shown == Approx(b.shown));
  CHECK_FALSE(a.reference);
  CHECK(b.reference);
  CHECK(elo_text(a) == "> 0.0");
  CHECK(error_text(a) == "-");
  CHECK(elo_text(b) == "0.0");
  CHECK(error_text(b) == "ref");
  check_figures_follow_ranks(g);
  const auto lines = legend(g.ratings, 0.95);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("> X (< X): ", 0) == 0);
  CHECK(lines[0].find("2.5%") != std::string::npos);
  CHECK(lines[1].rfind("ref: ", 0) == 0);
}

TEST_CASE("rating text: a perfect leader and a perfect last around one engine, as watch showed") {
  // alphabeta beat both others, greedy beat random: no engine scored against one that scored
  // against it, so greedy alone is finite; the bounds are within a few games of it.
  std::vector<RatedGame> games;
  wins(games, "alphabeta", "greedy", 2);
  wins(games, "alphabeta", "random", 2);
  wins(games, "greedy", "random", 2);
  const RatingTable t = rate(games, RatingOptions{});
  REQUIRE(t.groups.size() == 1);
  const RatingGroup& g = t.groups[0];
  REQUIRE(g.ratings.size() == 3);
  CHECK(g.ratings[0].name == "alphabeta");
  CHECK(g.ratings[1].name == "greedy");
  CHECK(g.ratings[2].name == "random");
  CHECK(g.ratings[0].elo < 0);  // the limits were on the wrong side: "> -72.1", "< 72.1"
  CHECK(g.ratings[2].elo > 0);
  check_figures_follow_ranks(g);
  CHECK(elo_text(g.ratings[0]) == "> 0.0");
  CHECK(elo_text(g.ratings[1]) == "0.0");
  CHECK(error_text(g.ratings[1]) == "ref");
  CHECK(elo_text(g.ratings[2]) == "< 0.0");
}

TEST_CASE("rating text: a limit beyond its neighbour is shown as it is, with errors measured") {
  // A and B drew and traded wins (both finite, measured); C beat both ten times each: its limit
  // is well above them and shown unchanged; D lost to everyone ten times.
  std::vector<RatedGame> games;
  wins(games, "A", "B", 3);
  wins(games, "B", "A", 3);
  wins(games, "C", "A", 10);
  wins(games, "C", "B", 10);
  wins(games, "A", "D", 10);
  wins(games, "B", "D", 10);
  const RatingTable t = rate(games, RatingOptions{});
  REQUIRE(t.groups.size() == 1);
  const RatingGroup& g = t.groups[0];
  const Rating& c = named(g, "C");
  CHECK(c.bound == Bound::kLower);
  CHECK(c.elo > named(g, "A").elo);
  CHECK(c.shown == c.elo);
  CHECK_FALSE(named(g, "A").reference);
  CHECK(error_text(named(g, "A")) != "ref");
  check_figures_follow_ranks(g);
  const auto lines = legend(g.ratings, 0.95);
  REQUIRE(lines.size() == 1);  // bounds only: no reference, nobody unrated
}

TEST_CASE("rating text: two bounds of different sets keep the order of their sets") {
  // X beat Y once (a set above Y's), Y beat A and B once each; A and B are finite. X's limit
  // (one win over Y, itself only a bound) could read below Y's; it is shown at least at Y's.
  std::vector<RatedGame> games;
  wins(games, "A", "B", 4);
  wins(games, "B", "A", 4);
  wins(games, "Y", "A", 6);
  wins(games, "Y", "B", 6);
  wins(games, "X", "Y", 1);
  wins(games, "X", "A", 1);
  const RatingTable t = rate(games, RatingOptions{});
  REQUIRE(t.groups.size() == 1);
  const RatingGroup& g = t.groups[0];
  REQUIRE(g.ratings.size() == 4);
  CHECK(g.ratings[0].name == "X");
  CHECK(g.ratings[1].name == "Y");
  check_figures_follow_ranks(g);
}

TEST_CASE("report: the text table shows the reference and the bound with its legend") {
  std::vector<referee::storage::GameRecord> records;
  for (int i = 0; i < 2; ++i) {
    referee::storage::GameRecord r;
    r.status = referee::storage::GameStatus::Finished;
    r.game = "awale";
    r.players = i % 2 ? std::vector<std::string>{"winner", "loser"}
                      : std::vector<std::string>{"loser", "winner"};
    r.ranks = i % 2 ? std::vector<int>{1, 2} : std::vector<int>{2, 1};
    r.termination = "rules";
    records.push_back(r);
  }
  const std::string text = ratings_report(records);
  INFO(text);
  CHECK(text.find("   1  winner  > 0.0    -      2  2  0  0  100.0%    -\n") != std::string::npos);
  CHECK(text.find("   2  loser     0.0  ref      2  0  0  2    0.0%    -\n") != std::string::npos);
  CHECK(text.find("\n> X (< X): won (lost) every game") != std::string::npos);
  CHECK(text.find("\nref: the only engine with a finite rating") != std::string::npos);
  CHECK(text.find("0.0 ± 0.0") == std::string::npos);
  CHECK(text.find("> -") == std::string::npos);

  // CSV and JSON: `elo` is the figure shown, the limit and the reference beside it.
  std::vector<const referee::storage::GameRecord*> list;
  for (const auto& r : records) list.push_back(&r);
  const ReportOptions options;
  const auto reports = rating_reports(list, options);
  const std::string csv = report_csv(reports, options);
  INFO(csv);
  CHECK(csv.find(",anchor,anchor_elo,limit,reference\r\n") != std::string::npos);
  CHECK(csv.find(",1,1,winner,0.00,lower,,2,") != std::string::npos);
  CHECK(csv.find(",1,2,loser,0.00,,,2,") != std::string::npos);
  CHECK(csv.find(",,1\r\n") != std::string::npos);  // the loser: no limit, the reference
  const auto json = nlohmann::json::parse(report_json(reports, options));
  const auto& t = json["tables"][0];
  REQUIRE(t["legend"].size() == 2);
  const auto& rows = t["groups"][0]["ratings"];
  CHECK(rows[0]["text"] == "> 0.0");
  CHECK(rows[0]["elo"] == 0.0);
  CHECK(rows[0]["limit"].get<double>() < -200);
  CHECK(rows[1]["reference"] == true);
  CHECK(rows[1]["error"].is_null());
}
