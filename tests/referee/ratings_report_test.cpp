// From stored games to tables: the filters, one table per canonical game string, which games form
// a pair, head-to-head counts and the crosstable, and every output format.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "games/game.h"
#include "ratings/crosstable.h"
#include "ratings/format_util.h"
#include "ratings/pairs.h"
#include "ratings/report.h"
#include "ratings/selection.h"
#include "ratings/sprt_games.h"

using namespace referee;
using namespace referee::ratings;
using storage::GameRecord;

namespace {

struct Spec {
  std::vector<std::string> players;
  std::vector<int> ranks;
  std::int64_t slot = -1;
  std::string game = "awale";
  std::vector<std::string> opening = {};
  std::string tournament = "t";
  std::string finished_at = "2026-05-01T12:00:00Z";
  std::string tc = "10+0.1";
};

GameRecord record(const Spec& s) {
  static std::int64_t next_id = 1;
  GameRecord g;
  g.id = next_id++;
  g.event = s.tournament;
  if (!s.tournament.empty()) g.event_id = static_cast<std::int64_t>(s.tournament.size());
  g.slot = s.slot;
  g.game = s.game;
  g.opening = s.opening;
  g.players = s.players;
  g.ranks = s.ranks;
  g.status = referee::storage::GameStatus::Finished;
  g.termination = "rules";
  g.finished_at = s.finished_at;
  g.time_control = s.tc;
  return g;
}

std::vector<const GameRecord*> pointers(const std::vector<GameRecord>& games) {
  std::vector<const GameRecord*> out;
  for (const auto& g : games) out.push_back(&g);
  return out;
}

std::string canonical(const std::string& spec) {
  return games::make_game(spec)->canonical();
}

bool contains(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

}  // namespace

TEST_CASE("selection: --game is canonicalised and bad values name the option") {
  ratings::GameSelection s;
  s.game = "oware";
  REQUIRE(ratings::normalise_selection(s).ok());
  CHECK(s.game == canonical("oware:players=2"));
  GameSelection three;
  three.game = "oware:players=3";
  REQUIRE(normalise_selection(three).ok());
  CHECK(three.game != s.game);

  GameSelection chess;
  chess.game = "chess";
  auto bad = normalise_selection(chess);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rfind("--game: ", 0) == 0);
  CHECK(contains(bad.error(), "chess"));

  for (const char* date : {"2026-13-01", "2026-5-1", "yesterday", "2026-05-01T25:00",
                           "2026-05-01 10:00", "2026-05-01T10"}) {
    GameSelection d;
    d.since = date;
    auto r = normalise_selection(d);
    INFO(date);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "--since '" + std::string(date) +
                           "' must be a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MM[:SS]");
  }
  GameSelection times;
  times.since = "2026-05-01T10:00:00Z";
  times.until = "2026-05-02";
  REQUIRE(normalise_selection(times).ok());
  CHECK(times.since == "2026-05-01T10:00:00");
  GameSelection backwards;
  backwards.since = "2026-05-02";
  backwards.until = "2026-05-01";
  CHECK(normalise_selection(backwards).error() ==
        "--until 2026-05-01 is before --since 2026-05-02");
  GameSelection negative;
  negative.min_games = -1;
  CHECK(normalise_selection(negative).error() == "--min-games must be 0 or more");
}

TEST_CASE("selection: names that no stored game has are errors, not empty tables") {
  const std::vector<GameRecord> all = {record({{"A", "B"}, {1, 2}})};
  ratings::GameSelection s;
  CHECK(ratings::check_names(s, all).ok());
  s.engines = {"A", "Z"};
  CHECK(check_names(s, all).error() == "--engine: no stored game has an engine named 'Z'");
  s = GameSelection{};
  s.event_name = "nope";
  CHECK(check_names(s, all).error() ==
        "--tournament: no stored game belongs to a tournament named 'nope'");
  s = GameSelection{};
  s.tc = "1+0";
  CHECK(check_names(s, all).error() == "--tc: no stored game has the time control '1+0'");
}

TEST_CASE("selection: each filter keeps exactly its games") {
  std::vector<GameRecord> all;
  all.push_back(record({{"A", "B"}, {1, 2}}));                        // 0
  all.push_back(record({{"A", "C"}, {1, 2}, -1, "awale", {}, "u"}));  // 1
  all.push_back(record({{"B", "C"}, {1, 2}, -1, "oware", {}, "t", "2026-04-30T23:59:59Z"}));
  all.push_back(record({{"A", "B", "C"},
                        {1, 2, 3},
                        -1,
                        "oware:players=3",
                        {},
                        "t",
                        "2026-05-02T00:00:00Z",
                        "60+1"}));                                      // 3
  all.push_back(record({{"A", "B"}, {1, 2}, -1, canonical("awale")}));  // 4: stored canonical
  auto ids = [&](ratings::GameSelection s) {
    REQUIRE(ratings::normalise_selection(s).ok());
    std::vector<std::size_t> out;
    for (const auto* g : ratings::select_games(all, s))
      out.push_back(static_cast<std::size_t>(g - &all[0]));
    return out;
  };
  CHECK(ids({}) == std::vector<std::size_t>{0, 1, 2, 3, 4});
  ratings::GameSelection game;
  game.game = "awale";
  CHECK(ids(game) == std::vector<std::size_t>{0, 1, 4});  // "awale" and its canonical string
  game.game = "oware:players=3";
  CHECK(ids(game) == std::vector<std::size_t>{3});
  GameSelection tournament;
  tournament.event_name = "u";
  CHECK(ids(tournament) == std::vector<std::size_t>{1});
  GameSelection one;
  one.engines = {"C"};
  CHECK(ids(one) == std::vector<std::size_t>{1, 2, 3});  // games C played
  GameSelection among;
  among.engines = {"A", "B"};
  CHECK(ids(among) == std::vector<std::size_t>{0, 4});  // games among A and B only
  GameSelection since;
  since.since = "2026-05-01";
  CHECK(ids(since) == std::vector<std::size_t>{0, 1, 3, 4});
  GameSelection until;
  until.until = "2026-05-01";  // includes the whole day
  CHECK(ids(until) == std::vector<std::size_t>{0, 1, 2, 4});
  until.until = "2026-05-01T11:59";
  CHECK(ids(until) == std::vector<std::size_t>{2});
  GameSelection tc;
  tc.tc = "60+1";
  CHECK(ids(tc) == std::vector<std::size_t>{3});
}

TEST_CASE("selection: --min-games drops rare engines until every engine left has enough") {
  // A–B 3 games; B–C 1; C–D 1. With 2: D (1 game) goes, then C (1 left) goes; A and B stay.
  std::vector<GameRecord> all;
  for (int i = 0; i < 3; ++i) all.push_back(record({{"A", "B"}, {1, 2}}));
  all.push_back(record({{"B", "C"}, {1, 2}}));
  all.push_back(record({{"C", "D"}, {1, 2}}));
  const auto kept = ratings::drop_rare_engines(pointers(all), 2);
  REQUIRE(kept.size() == 3);
  for (const auto* g : kept) CHECK(g->players == std::vector<std::string>{"A", "B"});
  CHECK(drop_rare_engines(pointers(all), 0).size() == 5);
  CHECK(drop_rare_engines(pointers(all), 5).empty());
  // A 3-player game counts two pairwise games per engine.
  const GameRecord three = record({{"A", "B", "C"}, {1, 2, 3}});
  CHECK(ratings::pairwise_games(three, "A") == 2);
  CHECK(pairwise_games(record({{"A", "A", "B"}, {1, 2, 3}}), "A") == 2);
}

TEST_CASE("report: one table per canonical game string, and all games when there are several") {
  std::vector<GameRecord> all;
  all.push_back(record({{"A", "B"}, {1, 2}, -1, "oware"}));
  all.push_back(record({{"B", "A"}, {1, 2}, -1, canonical("oware")}));
  all.push_back(record({{"A", "B", "C"}, {1, 2, 3}, -1, "oware:players=3"}));
  all.push_back(record({{"A", "B"}, {1, 2}, -1, "awale:grandslam=illegal"}));
  GameRecord unfinished = record({{"A", "B"}, {}, -1, "kalaha"});
  unfinished.status = referee::storage::GameStatus::Unfinished;
  all.push_back(unfinished);
  const auto tables = ratings::tables_by_game(pointers(all), 0);
  REQUIRE(tables.size() == 4);
  CHECK(tables[0].title == canonical("awale:grandslam=illegal"));
  CHECK(tables[1].title == canonical("oware"));
  CHECK(tables[1].games.size() == 2);  // "oware" and its canonical string are one table
  CHECK(tables[2].title == canonical("oware:players=3"));
  CHECK(tables[3].title == "all games");
  CHECK(tables[3].games.size() == 4);  // the unfinished game is in none
  // One game string: no "all games".
  const auto one = tables_by_game({&all[0], &all[1]}, 0);
  REQUIRE(one.size() == 1);
  CHECK(one[0].title == canonical("oware"));
}

TEST_CASE("pairs: the two games of one opening with seats swapped, whatever the slot parity") {
  std::vector<GameRecord> all;
  // A 3-player block takes slots 0–2, so the awale pairs start at odd slots: 3–4, 5–6.
  all.push_back(record({{"A", "B", "C"}, {1, 2, 3}, 0, "oware:players=3", {"1"}}));
  all.push_back(record({{"A", "B"}, {1, 2}, 3, "awale", {"3", "9"}}));
  all.push_back(record({{"B", "A"}, {1, 1}, 4, "awale", {"3", "9"}}));
  all.push_back(record({{"A", "B"}, {2, 1}, 5, "awale", {"4", "8"}}));
  all.push_back(record({{"B", "A"}, {2, 1}, 6, "awale", {"4", "8"}}));
  // Same engines and seats swapped, but another opening: not a pair.
  all.push_back(record({{"A", "C"}, {1, 2}, 7, "awale", {"1"}}));
  all.push_back(record({{"C", "A"}, {1, 2}, 8, "awale", {"2"}}));
  // Same opening, same seating twice: not a pair (and one left over).
  all.push_back(record({{"B", "C"}, {1, 2}, 9, "awale", {"5"}}));
  all.push_back(record({{"B", "C"}, {1, 2}, 10, "awale", {"5"}}));
  const ratings::Pairing p = pair_games(pointers(all));
  REQUIRE(p.pairs.size() == 2);
  CHECK(p.pairs[0].first->slot == 3);
  CHECK(p.pairs[0].second->slot == 4);
  CHECK(p.pairs[1].first->slot == 5);
  CHECK(p.pairs[1].second->slot == 6);
  CHECK(p.unpaired.size() == 4);  // slots 7, 8, 9, 10; the 3-player game is not a candidate

  // A missing game does not pair games of different openings; with one opening for all (no
  // random plies) any two games of swapped seats are a valid pair.
  std::vector<GameRecord> same;
  same.push_back(record({{"B", "A"}, {1, 2}, 1, "awale"}));  // slot 0 never finished
  same.push_back(record({{"A", "B"}, {1, 2}, 2, "awale"}));
  same.push_back(record({{"B", "A"}, {1, 2}, 3, "awale"}));
  const ratings::Pairing q = pair_games(pointers(same));
  REQUIRE(q.pairs.size() == 1);
  CHECK(q.pairs[0].first->slot == 1);
  CHECK(q.pairs[0].second->slot == 2);
  CHECK(q.unpaired.size() == 1);
  // Different tournaments never pair.
  std::vector<GameRecord> apart = {record({{"A", "B"}, {1, 2}, 0, "awale", {}, "t"}),
                                   record({{"B", "A"}, {1, 2}, 1, "awale", {}, "tt"})};
  CHECK(ratings::pair_games(pointers(apart)).pairs.empty());
}

TEST_CASE("crosstable: head-to-head counts, pentanomial from either side, N-player pairs") {
  std::vector<GameRecord> all;
  // Pair 1: A wins both (WW for A). Pair 2: A wins one, draws one (WD). Pair 3: win and loss (WL).
  all.push_back(record({{"A", "B"}, {1, 2}, 0, "awale", {"1"}}));
  all.push_back(record({{"B", "A"}, {2, 1}, 1, "awale", {"1"}}));
  all.push_back(record({{"A", "B"}, {1, 1}, 2, "awale", {"2"}}));
  all.push_back(record({{"B", "A"}, {2, 1}, 3, "awale", {"2"}}));
  all.push_back(record({{"A", "B"}, {1, 2}, 4, "awale", {"3"}}));
  all.push_back(record({{"B", "A"}, {1, 2}, 5, "awale", {"3"}}));
  all.push_back(record({{"B", "A"}, {1, 2}, 6, "awale", {"4"}}));  // unpaired: B won
  const ratings::HeadToHead a = head_to_head(pointers(all), "A", "B");
  CHECK(a.engine == "A");
  CHECK(a.games.wins == 4);
  CHECK(a.games.draws == 1);
  CHECK(a.games.losses == 2);
  CHECK(a.pairs.ww == 1);
  CHECK(a.pairs.wd == 1);
  CHECK(a.pairs.wl == 1);
  CHECK(a.pairs.total() == 3);
  CHECK(a.unpaired == 1);
  CHECK(a.score() == Approx(4.5 / 7));
  const ratings::HeadToHead b = head_to_head(pointers(all), "B", "A");
  CHECK(b.engine == "B");
  CHECK(b.games.wins == 2);
  CHECK(b.games.losses == 4);
  CHECK(b.pairs.ll == 1);
  CHECK(b.pairs.ld == 1);
  CHECK(b.pairs.wl == 1);
  CHECK(ratings::head_to_head(pointers(all), "A", "Z").games.total() == 0);

  all.push_back(record({{"C", "A", "B"}, {1, 2, 2}, 7, "oware:players=3"}));
  const ratings::Crosstable t = make_crosstable("all games", pointers(all));
  CHECK(t.games == 8);
  REQUIRE(t.engines.size() == 3);
  CHECK(t.engines[0].name == "C");  // 2 of 2
  CHECK(t.engines[0].points == 2);
  CHECK(t.engines[1].name == "A");  // 5 of 9
  CHECK(t.engines[1].games == 9);
  CHECK(t.engines[1].points == 5);
  REQUIRE(t.pairs.size() == 3);
  CHECK(t.pairs[0].engine == "C");
  CHECK(t.pairs[0].opponent == "A");
  CHECK(t.pairs[2].engine == "A");
  CHECK(t.pairs[2].opponent == "B");
  CHECK(t.pairs[2].games.draws == 2);  // the 3-player game's equal ranks

  const std::string text = ratings::crosstable_text({t});
  INFO(text);
  CHECK(contains(text, "all games (8 games)\n"));
  CHECK(contains(text,
                 "Rank  Name  Games   Score    1    2    3\n"
                 "   1  C         2  100.0%    -  1/1  1/1\n"
                 "   2  A         9   55.6%  0/1    -  5/8\n"
                 "   3  B         9   33.3%  0/1  3/8    -\n"));
  CHECK(contains(text, "C - A   1 game  1  0  0  100.0%\n"));
  CHECK(contains(text, "A - B  8 games  4  2  2   62.5%  3 pairs [0 0 1 0 1 1]  1 unpaired\n"));

  const std::string csv = ratings::crosstable_csv({t});
  CHECK(csv.rfind("table,engine,opponent,games,wins,draws,losses,score,pairs,ll,ld,wl,dd,wd,ww,"
                  "unpaired\r\n",
                  0) == 0);
  CHECK(contains(csv, "all games,A,B,8,4,2,2,0.6250,3,0,0,1,0,1,1,1\r\n"));
  const auto json = nlohmann::json::parse(ratings::crosstable_json({t}));
  CHECK(json["tables"][0]["title"] == "all games");
  CHECK(json["tables"][0]["engines"][0]["name"] == "C");
  CHECK(json["tables"][0]["pairs"][2]["pentanomial"]["ww"] == 1);
  CHECK(json["tables"][0]["pairs"][2]["pentanomial"]["unpaired"] == 1);
}

TEST_CASE("report: the text states the model, the level, the groups, and explains LOS and bounds") {
  std::vector<GameRecord> all;
  for (int i = 0; i < 10; ++i)
    all.push_back(record({{i % 2 ? "A" : "B", i % 2 ? "B" : "A"}, {i % 2 ? 1 : 2, i % 2 ? 2 : 1}}));
  all.push_back(record({{"C", "D"}, {1, 2}}));
  all.push_back(record({{"D", "C"}, {1, 2}}));
  ratings::ReportOptions options;
  const std::string text =
      ratings::report_text(ratings::rating_reports(pointers(all), options), options);
  INFO(text);
  CHECK(contains(text, canonical("awale") + " (12 games, 4 engines)\n"));
  CHECK(contains(text,
                 "Elo: maximum likelihood, logistic (400 log10), draws as half points, no "
                 "prior; average 0\n"));
  CHECK(contains(text, "intervals: 95%"));
  CHECK(contains(text, "warning: these results form 2 groups that never played each other"));
  CHECK(contains(text, "group 1 (A, B)"));
  CHECK(contains(text, "group 2 (C, D)"));
  CHECK(contains(text, "   1  A     > 140.2    -     10  10  0   0  100.0%    -\n"));
  CHECK(contains(text, "LOS: likelihood of superiority"));
  CHECK(
      contains(text, "\n> X (< X): won (lost) every game against the engines with finite ratings"));
  CHECK(contains(text, "probability 2.5% (the end of the 95% interval)"));
  // B, alone finite in its group, is its scale's reference, not a measured 0.0 +/- 0.0.
  CHECK(contains(text, "   2  B         0.0  ref     10   0  0  10    0.0%    -\n"));
  CHECK(contains(text, "\nref: the only engine with a finite rating in its group"));
  CHECK(contains(text, "terminations: rules 12\n"));

  ReportOptions anchored;
  anchored.rating.anchor = "D";
  anchored.rating.anchor_elo = 1500;
  anchored.rating.prior_draws = 2;
  anchored.rating.confidence = 0.9;
  anchored.los_matrix = true;
  const std::string a = report_text(rating_reports(pointers(all), anchored), anchored);
  CHECK(contains(a,
                 "prior 2.00 virtual draws per engine against the average; anchor D = 1500.0 "
                 "(errors relative to it)"));
  CHECK(contains(a, "intervals: 90%"));
  CHECK(contains(a, "LOS matrix (%)"));
  ReportOptions absent;
  absent.rating.anchor = "Z";
  CHECK(contains(report_text(rating_reports(pointers(all), absent), absent),
                 "; average 0 (anchor Z is not in this table)"));
  CHECK(report_text({}, options) == "no finished games\n");
  CHECK(ratings::ratings_report(std::vector<referee::storage::GameRecord>{}) ==
        "no finished games\n");
  CHECK(ratings_report(referee::storage::ResultSet{}) == "no finished games\n");
}

TEST_CASE("report: CSV has one row per engine, JSON has everything") {
  std::vector<GameRecord> all;
  for (int i = 0; i < 4; ++i) all.push_back(record({{"A", "B"}, {1, 2}}));
  for (int i = 0; i < 4; ++i) all.push_back(record({{"B", "A"}, {2, 1}}));
  for (int i = 0; i < 2; ++i) all.push_back(record({{"B", "A"}, {1, 2}}));
  for (int i = 0; i < 2; ++i) all.push_back(record({{"A", "B"}, {2, 1}}));
  ratings::ReportOptions options;
  options.rating.fit_seats = false;
  const auto reports = ratings::rating_reports(pointers(all), options);
  // 8 of 12: 400·log10(2) = 120.41, centred ±60.21.
  const std::string csv = ratings::report_csv(reports, options);
  const std::string title = text::csv_field(canonical("awale"));
  CHECK(csv.rfind("table,group,rank,name,elo,bound,error,games,wins,draws,losses,score,los,"
                  "confidence,prior,anchor,anchor_elo,limit,reference\r\n",
                  0) == 0);
  CHECK(contains(csv, title + ",1,1,A,60.21,,"));
  CHECK(contains(csv, ",12,8,0,4,0.6667,"));
  CHECK(contains(csv, title + ",1,2,B,-60.21,,"));
  CHECK(contains(csv, ",95,0,,,,0\r\n"));  // 95 % intervals, no prior, average 0
  // The model is on every row: another level, a prior, an anchor.
  ReportOptions anchored = options;
  anchored.rating.confidence = 0.9;
  anchored.rating.prior_draws = 1.5;
  anchored.rating.anchor = "B";
  anchored.rating.anchor_elo = 1500.25;
  const std::string with_anchor = report_csv(rating_reports(pointers(all), anchored), anchored);
  CHECK(contains(with_anchor, title + ",1,2,B,1500.25,,"));
  std::size_t rows = 0;
  for (auto at = with_anchor.find(",90,1.5,B,1500.25,,0\r\n"); at != std::string::npos;
       at = with_anchor.find(",90,1.5,B,1500.25,,0\r\n", at + 1))
    ++rows;
  CHECK(rows == 2);

  const auto json = nlohmann::json::parse(ratings::report_json(reports, options));
  const auto& t = json["tables"][0];
  CHECK(t["title"] == canonical("awale"));
  CHECK(t["games"] == 12);
  CHECK(t["model"]["confidence"] == 0.95);
  CHECK(t["model"]["prior_draws"] == 0);
  CHECK(t["model"]["anchor"].is_null());
  const auto& g = t["groups"][0];
  CHECK(g["errors"] == "cluster-robust");
  CHECK(g["ratings"][0]["name"] == "A");
  CHECK(g["ratings"][0]["elo"].get<double>() == Approx(60.205999133));
  CHECK(g["ratings"][0]["bound"].is_null());
  CHECK(g["ratings"][1]["los"].is_null());
  CHECK(g["los"]["A"]["B"].get<double>() == g["ratings"][0]["los"].get<double>());
  CHECK(g["los"]["B"]["A"].get<double>() ==
        Approx(1 - g["los"]["A"]["B"].get<double>()).margin(1e-12));
  CHECK(g["draws"]["observed"] == 0);
}

TEST_CASE("pairs: fastchess's Ptnml(0-2) text, and the pairs of two engines from either side") {
  ratings::Pentanomial p;
  p.ll = 1;
  p.ld = 2;
  p.wl = 3;
  p.dd = 4;
  p.wd = 5;
  p.ww = 6;
  CHECK(ptnml_text(p) == "Ptnml(0-2): [1, 2, 7, 5, 6]");
  ratings::PairCounts counts;
  counts[{"awale", "A", "B"}] = {p, 2};
  counts[{"kalaha", "A", "B"}] = {p, 1};
  counts[{"awale", "A", "C"}] = {p, 9};
  const ratings::PairCount ab = pairs_between(counts, "A", "B");
  CHECK(ratings::ptnml_text(ab.pairs) == "Ptnml(0-2): [2, 4, 14, 10, 12]");
  CHECK(ab.unpaired == 3);
  const ratings::PairCount ba = pairs_between(counts, "B", "A");
  CHECK(ptnml_text(ba.pairs) == "Ptnml(0-2): [12, 10, 14, 4, 2]");
  CHECK(ba.pairs.wl == 6);
  CHECK(ba.pairs.dd == 8);
  CHECK(ratings::pairs_between(counts, "B", "C").pairs.total() == 0);
}
