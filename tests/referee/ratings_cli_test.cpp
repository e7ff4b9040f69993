// `referee ratings`, `referee crosstable` and `referee sprt`, run as a program on databases written
// through the store: the tables per canonical game string, the filters, the formats, the SPRT
// figures, and one clear error line (status 2) for every bad option.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "games/game.h"
#include "storage/store.h"
#include "storage/work_queue.h"
#include "tests/referee/rtest_util.h"

using rtest::contains;

namespace {

struct Stored {
  std::vector<std::string> players;
  std::vector<int> ranks;
  std::string game = "awale";
  std::int64_t slot = -1;
  std::vector<std::string> opening = {};
  std::string finished_at = "2026-05-01T12:00:00Z";
  std::string tournament = "event";
};

void write_games(const std::string& db, const std::vector<Stored>& games) {
  auto store = referee::storage::Store::open(db);
  REQUIRE(store.ok());
  REQUIRE(store->begin_batch().ok());
  for (const auto& s : games) {
    auto tid = referee::storage::work_queue::open_tournament(*store, s.tournament, "{}");
    REQUIRE(tid.ok());
    referee::storage::GameRecord g;
    g.event_id = *tid;
    g.slot = s.slot;
    g.game = referee::games::make_game(s.game)->canonical();
    g.opening = s.opening;
    g.players = s.players;
    g.time_control = "10+0.1";
    auto id = store->begin_game(g);
    REQUIRE(id.ok());
    referee::storage::GameRecord result;
    result.ranks = s.ranks;
    result.termination = "rules";
    result.finished_at = s.finished_at;
    REQUIRE(store->finish_game(*id, result).ok());
  }
  REQUIRE(store->commit_batch().ok());
}

using rtest::referee_cmd;

// Status 2 and exactly one line on stderr containing `piece`, nothing on stdout.
void usage_error(const std::vector<std::string>& args, const std::string& piece) {
  auto r = referee_cmd(args);
  INFO(args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << r.err);
  CHECK(r.status == 2);
  CHECK(rtest::lines_of(r.err).size() == 1);
  CHECK(contains(r.err, piece));
  CHECK(r.out.empty());
}

// A, B and C in two-player oware, three-player oware and awale:grandslam=illegal; D and E in a
// group of their own (awale), played in May.
std::vector<Stored> mixed_games() {
  std::vector<Stored> games;
  const std::vector<std::vector<std::string>> seatings = {
      {"A", "B", "C"}, {"B", "C", "A"}, {"C", "A", "B"}};
  const std::vector<std::vector<int>> places = {{1, 2, 3}, {3, 1, 2}, {2, 3, 1},
                                                {1, 3, 2}, {2, 1, 3}, {3, 2, 1}};
  for (int i = 0; i < 6; ++i) {
    games.push_back({{"A", "B"}, {i % 3 ? 1 : 2, i % 3 ? 2 : 1}, "oware"});
    games.push_back({{"B", "A"}, {1, 1}, "oware"});
    games.push_back({seatings[static_cast<std::size_t>(i % 3)], places[static_cast<std::size_t>(i)],
                     "oware:players=3"});
    games.push_back(
        {i % 2 ? std::vector<std::string>{"C", "A"} : std::vector<std::string>{"A", "C"},
         {i % 3 ? 1 : 2, i % 3 ? 2 : 1},
         "awale:grandslam=illegal"});
  }
  games.push_back({{"D", "E"}, {1, 2}, "awale", -1, {}, "2026-06-01T10:00:00Z", "other"});
  games.push_back({{"E", "D"}, {1, 2}, "awale", -1, {}, "2026-06-01T11:00:00Z", "other"});
  return games;
}

}  // namespace

TEST_CASE("ratings cli: one table per canonical game string, and --game canonicalised") {
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  write_games(db, mixed_games());
  auto all = referee_cmd({"ratings", "--db", db});
  INFO(all.out << all.err);
  REQUIRE(all.status == 0);
  CHECK(all.err.empty());
  const std::string oware2 = referee::games::make_game("oware")->canonical();
  const std::string oware3 = referee::games::make_game("oware:players=3")->canonical();
  const std::string awale = referee::games::make_game("awale")->canonical();
  CHECK(contains(all.out, oware2 + " (12 games, 2 engines)\n"));
  CHECK(contains(all.out, oware3 + " (6 games, 3 engines)\n"));
  CHECK(contains(all.out, awale + " (2 games, 2 engines)\n"));
  CHECK(contains(all.out, "all games (26 games, 5 engines)\n"));
  CHECK(contains(all.out, "warning: these results form 2 groups"));
  CHECK(contains(all.out, "seat advantages (" + oware3 + "), Elo relative to the average seat"));

  auto three = referee_cmd({"ratings", "--db", db, "--game", "oware:players=3"});
  CHECK(three.status == 0);
  CHECK(contains(three.out, oware3 + " (6 games, 3 engines)\n"));
  CHECK_FALSE(contains(three.out, oware2));
  CHECK_FALSE(contains(three.out, "all games"));
  auto two = referee_cmd({"ratings", "--db", db, "--game", "oware"});
  CHECK(two.status == 0);
  CHECK(contains(two.out, oware2 + " (12 games, 2 engines)\n"));
  CHECK_FALSE(contains(two.out, oware3));
  // A valid game with no stored games is an empty result, not an error.
  auto none = referee_cmd({"ratings", "--db", db, "--game", "kalaha"});
  CHECK(none.status == 0);
  CHECK(none.out == "no finished games\n");
  CHECK(none.err.empty());
  auto no_cross = referee_cmd({"crosstable", "--db", db, "--game", "kalaha"});
  CHECK(no_cross.status == 0);
  CHECK(no_cross.out == "no finished games\n");
  // A game the rules library does not know is a usage error, as a bad parameter is.
  usage_error({"ratings", "--db", db, "--game", "nosuchgame"}, "--game: unknown game 'nosuchgame'");
  usage_error({"crosstable", "--db", db, "--game", "nosuchgame"}, "--game: unknown game");
  usage_error({"ratings", "--db", db, "--game", "oware:players=5"}, "--game: ");
  CHECK(none.out == "no finished games\n");
}

TEST_CASE("ratings cli: filters by tournament, engine, date and minimum games") {
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  write_games(db, mixed_games());
  auto other = referee_cmd({"ratings", "--db", db, "--tournament", "other"});
  CHECK(other.status == 0);
  CHECK(contains(other.out, "(2 games, 2 engines)"));
  CHECK_FALSE(contains(other.out, "all games"));
  auto june = referee_cmd({"ratings", "--db", db, "--since", "2026-06-01"});
  CHECK(june.out == other.out);
  auto morning =
      referee_cmd({"ratings", "--db", db, "--since", "2026-06-01", "--until", "2026-06-01T10:30"});
  CHECK(contains(morning.out, "(1 game, 2 engines)"));
  // Games among A and B only: the two-player oware games.
  auto pair = referee_cmd({"ratings", "--db", db, "--engine", "A", "--engine", "B"});
  CHECK(contains(pair.out,
                 referee::games::make_game("oware")->canonical() + " (12 games, 2 engines)\n"));
  CHECK_FALSE(contains(pair.out, "all games"));
  // D and E have 2 games each: their table goes, and they leave "all games".
  auto min = referee_cmd({"ratings", "--db", db, "--min-games", "3"});
  CHECK(min.status == 0);
  CHECK_FALSE(contains(min.out, "(2 games, 2 engines)"));
  CHECK(contains(min.out, "all games (24 games, 3 engines)"));
}

TEST_CASE("ratings cli: --anchor, --prior, --confidence, --los and the formats") {
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  write_games(db, mixed_games());
  auto anchored = referee_cmd({"ratings", "--db", db, "--game", "oware", "--anchor", "B=2000",
                               "--confidence", "99", "--prior", "1", "--los"});
  INFO(anchored.out << anchored.err);
  CHECK(anchored.status == 0);
  CHECK(contains(anchored.out,
                 "prior 1.00 virtual draws per engine against the average; anchor "
                 "B = 2000.0 (errors relative to it)"));
  CHECK(contains(anchored.out, "intervals: 99%"));
  CHECK(contains(anchored.out, "  B     2000.0    0.0"));
  CHECK(contains(anchored.out, "LOS matrix (%)"));

  auto csv = referee_cmd({"ratings", "--db", db, "--game", "oware", "--format", "csv"});
  CHECK(csv.status == 0);
  const auto rows = rtest::lines_of(csv.out);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] ==
        "table,group,rank,name,elo,bound,error,games,wins,draws,losses,score,los,confidence,"
        "prior,anchor,anchor_elo,limit,reference\r");
  auto csv_anchored = referee_cmd({"ratings", "--db", db, "--game", "oware", "--anchor", "B=2000",
                                   "--confidence", "99", "--prior", "1", "--format", "csv"});
  CHECK(csv_anchored.status == 0);
  const auto anchored_rows = rtest::lines_of(csv_anchored.out);
  REQUIRE(anchored_rows.size() == 3);
  CHECK(contains(anchored_rows[1], ",99,1,B,2000,,0\r"));
  CHECK(contains(anchored_rows[2], ",99,1,B,2000,,0\r"));
  auto json = referee_cmd({"ratings", "--db", db, "--format", "json"});
  CHECK(json.status == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["tables"].size() == 5);
  CHECK(parsed["tables"][4]["title"] == "all games");
  CHECK(parsed["tables"][4]["groups"].size() == 2);
}

TEST_CASE(
    "ratings cli: perfect scores read in rank order, the lone finite rating as the reference") {
  // alphabeta won all its games, random lost all its games, greedy in between: after two games
  // a pair, the limits are on the wrong side of greedy (shown as they are, they would read
  // "> -290.5" above "0.0" above "< 290.5").
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  std::vector<Stored> games;
  for (const auto& [winner, loser] : std::vector<std::pair<std::string, std::string>>{
           {"alphabeta", "greedy"}, {"alphabeta", "random"}, {"greedy", "random"}}) {
    games.push_back({{winner, loser}, {1, 2}});
    games.push_back({{loser, winner}, {2, 1}});
  }
  write_games(db, games);
  auto r = referee_cmd({"ratings", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(contains(r.out, "   1  alphabeta  > 0.0    -      4  4  0  0  100.0%    -\n"));
  CHECK(contains(r.out, "   2  greedy       0.0  ref      4  2  0  2   50.0%    -\n"));
  CHECK(contains(r.out, "   3  random     < 0.0    -      4  0  0  4    0.0%    -\n"));
  CHECK(contains(r.out, "\n> X (< X): won (lost) every game against the engines with finite"));
  CHECK(contains(r.out, "\nref: the only engine with a finite rating in its group;"));
  auto json = referee_cmd({"ratings", "--db", db, "--format", "json"});
  const auto j = nlohmann::json::parse(json.out);
  const auto& rows = j["tables"][0]["groups"][0]["ratings"];
  CHECK(rows[0]["limit"].get<double>() < 0);  // the limits themselves are kept
  CHECK(rows[2]["limit"].get<double>() > 0);
  CHECK(rows[0]["elo"].get<double>() >= rows[1]["elo"].get<double>());
  CHECK(rows[1]["elo"].get<double>() >= rows[2]["elo"].get<double>());
}

TEST_CASE("ratings cli: every bad option is one error line with status 2") {
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  write_games(db, mixed_games());
  usage_error({"ratings", "--db", db, "--game", "chess"}, "--game: ");
  usage_error({"ratings", "--db", db, "--game", "oware:players=5"}, "players");
  usage_error({"ratings", "--db", db, "--engine", "Z"}, "no stored game has an engine named 'Z'");
  usage_error({"ratings", "--db", db, "--tournament", "nope"}, "tournament named 'nope'");
  usage_error({"ratings", "--db", db, "--tc", "1+1"}, "time control '1+1'");
  usage_error({"ratings", "--db", db, "--tc", "fast"}, "--tc 'fast': ");
  usage_error({"export", "--format", "csv", "--db", db, "--tc", "10+x"}, "--tc '10+x': ");
  // --tc is canonicalised as the games are stored (10+0.1): another spelling finds them.
  auto spelled = referee_cmd({"ratings", "--db", db, "--tc", "10+0.100", "--format", "csv"});
  CHECK(spelled.status == 0);
  CHECK(spelled.out == referee_cmd({"ratings", "--db", db, "--format", "csv"}).out);
  CHECK(rtest::lines_of(spelled.out).size() > 5);
  usage_error({"ratings", "--db", db, "--anchor", "Z=100"}, "--anchor: no stored game");
  usage_error({"ratings", "--db", db, "--anchor", "B"}, "must be NAME=ELO");
  usage_error({"ratings", "--db", db, "--anchor", "B=strong"}, "must be NAME=ELO");
  usage_error({"ratings", "--db", db, "--confidence", "0.95"}, "write 95, not 0.95");
  usage_error({"ratings", "--db", db, "--confidence", "100"}, "between 0 and 100");
  usage_error({"ratings", "--db", db, "--prior", "-1"}, "--prior must be");
  usage_error({"ratings", "--db", db, "--format", "xml"}, "--format must be text, csv or json");
  usage_error({"ratings", "--db", db, "--los", "--format", "csv"}, "--los is a matrix");
  usage_error({"ratings", "--db", db, "--since", "May"}, "--since 'May' must be a date");
  usage_error({"ratings", "--db", db, "--min-games", "-2"}, "--min-games must be 0 or more");
  auto missing = referee_cmd({"ratings", "--db", dir.file("absent.db")});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "no database"));
}

TEST_CASE("crosstable cli: text, CSV and JSON, with the filters") {
  rtest::TempDir dir;
  const std::string db = dir.file("r.db");
  write_games(db, mixed_games());
  auto text = referee_cmd({"crosstable", "--db", db, "--game", "awale:grandslam=illegal"});
  INFO(text.out << text.err);
  CHECK(text.status == 0);
  CHECK(contains(text.out, "(6 games)\n"));
  CHECK(contains(text.out, "A - C  6 games  3  0  3  50.0%"));
  auto csv = referee_cmd({"crosstable", "--db", db, "--tournament", "other", "--format", "csv"});
  CHECK(csv.status == 0);
  CHECK(contains(csv.out, ",D,E,2,1,0,1,0.5000,"));
  auto json = referee_cmd({"crosstable", "--db", db, "--format", "json"});
  CHECK(json.status == 0);
  CHECK(nlohmann::json::parse(json.out)["tables"].size() == 5);
  usage_error({"crosstable", "--db", db, "--format", "html"}, "--format must be");
  usage_error({"crosstable", "--db", db, "--engine", "Q"}, "engine named 'Q'");
}

TEST_CASE("sprt cli: counts, Elo, LLR and bounds of stored game pairs") {
  // 70 pairs of A against B, one opening each, seats swapped: LL 3, LD 15, WL 10, DD 20, WD 17,
  // WW 5 — a tenth of the counts of the sprt tests, so the LLR is a tenth: normalized 0.1135463,
  // logistic 0.1580803. Games: W 37, D 72, L 31. Pentanomial Elo 14.90 (95 %: −23.90 to 54.08),
  // nElo 22.11 ± 57.55, LOS 77.43 % (the same arithmetic as the sprt tests, with N = 70).
  std::vector<Stored> games;
  std::int64_t slot = 0;
  auto pair = [&](int count, std::vector<int> first, std::vector<int> second) {
    for (int i = 0; i < count; ++i, slot += 2) {
      const std::vector<std::string> opening = {std::to_string(slot)};
      games.push_back({{"A", "B"}, first, "awale", slot, opening});
      games.push_back({{"B", "A"}, second, "awale", slot + 1, opening});
    }
  };
  pair(3, {2, 1}, {1, 2});                                      // LL
  pair(15, {1, 1}, {1, 2});                                     // LD
  pair(10, {1, 2}, {1, 2});                                     // WL
  pair(20, {1, 1}, {1, 1});                                     // DD
  pair(17, {1, 2}, {1, 1});                                     // WD
  pair(5, {1, 2}, {2, 1});                                      // WW
  games.push_back({{"A", "B"}, {1, 2}, "awale", slot, {"x"}});  // unpaired
  games.push_back({{"A", "C"}, {1, 2}, "awale", slot + 1, {"y"}});
  rtest::TempDir dir;
  const std::string db = dir.file("s.db");
  write_games(db, games);

  auto r = referee_cmd(
      {"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0", "--elo1", "5"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(contains(r.out, "SPRT A vs B: 141 games of " +
                            referee::games::make_game("awale")->canonical() + "\n"));
  CHECK(contains(r.out, "games: W 38 D 72 L 31, 74.0 points (52.5%)\n"));
  CHECK(contains(r.out,
                 "pairs: 70 (LL 3, LD 15, WL 10, DD 20, WD 17, WW 5); 1 unpaired games "
                 "left out\n"));
  CHECK(contains(r.out,
                 "Elo (pentanomial): +14.9 (95%: -23.9 to +54.1), nElo +22.1 +/- 57.6, "
                 "LOS 77.4%\n"));
  CHECK(contains(r.out,
                 "SPRT (normalized, pentanomial): elo0 0.00, elo1 5.00, alpha 0.05, beta "
                 "0.05\n"));
  CHECK(contains(r.out, "LLR 0.11 (bounds -2.94, 2.94): continue\n"));
  auto logistic = referee_cmd({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0",
                               "--elo1", "5", "--model", "logistic", "--alpha", "0.1"});
  CHECK(contains(logistic.out, "LLR 0.16 (bounds -2.89, 2.25): continue\n"));
  // From B's side, the evidence is against: the LLR of the mirrored counts.
  auto mirrored = referee_cmd(
      {"sprt", "--db", db, "--engine", "B", "--engine", "A", "--elo0", "-5", "--elo1", "0"});
  CHECK(contains(mirrored.out, "pairs: 70 (LL 5, LD 17, WL 10, DD 20, WD 15, WW 3)"));
  // Without pairs the test falls back to single games, and says so.
  auto single = referee_cmd(
      {"sprt", "--db", db, "--engine", "A", "--engine", "C", "--elo0", "0", "--elo1", "5"});
  CHECK(contains(single.out,
                 "no game pairs (same opening, seats swapped): the test uses single "
                 "games\n"));
  CHECK(contains(single.out, "SPRT (normalized, trinomial)"));

  usage_error({"sprt", "--db", db, "--engine", "A", "--elo0", "0", "--elo1", "5"},
              "give two different engines");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0"},
              "give both hypotheses");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0", "--elo1", "5",
               "--min-games", "3"},
              "--min-games is for tables");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "5", "--elo1", "0"},
              "--elo0 must be less than elo1");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0", "--elo1", "5",
               "--alpha", "1"},
              "--alpha must be between 0 and 0.5");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "B", "--elo0", "0", "--elo1", "5",
               "--model", "bayesian"},
              "--model must be normalized or logistic");
  usage_error({"sprt", "--db", db, "--engine", "A", "--engine", "Z", "--elo0", "0", "--elo1", "5"},
              "engine named 'Z'");
  auto help = referee_cmd({"sprt", "--help"});
  CHECK(help.status == 0);
  CHECK(contains(help.out, "--elo0"));
}

TEST_CASE("ratings cli: the command list names crosstable and sprt") {
  auto help = referee_cmd({"--help"});
  CHECK(contains(help.out, "  crosstable "));
  CHECK(contains(help.out, "  sprt "));
}
