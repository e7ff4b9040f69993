// [slow] Over 20 s under AddressSanitizer (about 25 s; 3 s in Release): the first case plays some
// 800 perfect lines through the rules, probing the table at every ply. Adjudication by an endgame
// table (event/egdb_adjudication.h), with small tables built here (awale up to 5 seeds, about a
// second; kalaha up to 8, a fraction of one): the judge's verdict is the score that playing the
// table's perfect line through the rules ends with; only exact probes judge (kalaha under its
// default nocapture never is); games the table does not cover get no judge; a tournament whose
// opening book leads into the table stores its games as `adjudication` with that score on SQLite
// and PostgreSQL (exports and `verify` accept them); the pin in the specification and the
// fingerprint; a missing, bad or changed file refused when the event is made, with one line naming
// it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "event/egdb_adjudication.h"
#include "event/event_spec.h"
#include "event/tournament_config.h"
#include "games/egdb/board_index.h"
#include "games/egdb/build.h"
#include "games/egdb/table.h"
#include "games/game.h"
#include "storage/backends.h"
#include "storage/store.h"
#include "tests/referee/rtest_util.h"

using referee::games::Game;
using referee::games::State;
using referee::storage::Store;
using rtest::contains;
namespace egdb = referee::games::egdb;
namespace event = referee::event;

namespace {

Game game_of(const std::string& spec) {
  auto game = referee::games::make_game(spec);
  REQUIRE(game.ok());
  return *game;
}

// Builds the table of `spec` up to `seeds` at `path`.
void build(const std::string& spec, int seeds, const std::string& path) {
  egdb::BuildOptions options;
  options.seeds = seeds;
  options.path = path;
  options.threads = 2;
  auto built = egdb::build_table(game_of(spec), options);
  INFO((built ? "" : built.error()));
  REQUIRE(built.ok());
}

// The position string of a board (holes 1..12, South's first), scores, mover, counters at 0.
std::string position_text(const egdb::Board& b, int s1, int s2, int mover) {
  std::string rows;
  for (std::size_t i = 0; i < 12; ++i)
    rows += (i == 6 ? "/" : (i > 0 ? "," : "")) + std::to_string(b[i]);
  return rows + ":" + std::to_string(s1) + "," + std::to_string(s2) + ":" + std::to_string(mover) +
         ":0:0";
}

int seeds_on_board(const State& s) {
  const auto material = s.material();
  return 48 - static_cast<int>(material[0] + material[1]);
}

// The end of the line both sides play by the table's first best move from `s`, through the rules.
State perfect_line(const egdb::Table& table, const Game& game, State s) {
  while (!s.is_terminal()) {
    auto p = egdb::probe(table, game, s);
    REQUIRE(p.ok());
    REQUIRE(p->has_value());
    REQUIRE(s.apply((*p)->best_moves.front()).ok());
  }
  return s;
}

// Checks a verdict against the perfect line from `s`; false when that line ends by repetition
// (the limit the table sets aside: EGDB.md), which is counted apart.
bool agrees(const egdb::Table& table, const Game& game, const State& s,
            const referee::match::Verdict& v) {
  const State end = perfect_line(table, game, s);
  const auto outcome = end.outcome();
  if (outcome.reason == "repetition") return false;
  INFO(game.canonical() << " from " << s.to_string() << ": " << v.reason);
  CHECK(v.scores == std::vector<double>{outcome.scores[0], outcome.scores[1]});
  const std::vector<int> ranks = {v.scores[0] >= v.scores[1] ? 1 : 2,
                                  v.scores[1] >= v.scores[0] ? 1 : 2};
  CHECK(v.ranks == ranks);
  CHECK(contains(v.reason, "after ply " + std::to_string(s.ply()) + ": value "));
  return true;
}

// The opening book line: from awale's start, plies (greedy for captures, with random ones)
// until a position of at most `seeds` seeds where every move the first engine may play is judged
// by the table, and no perfect line from there ends by repetition.
std::vector<std::string> line_into(const egdb::Table& table, const Game& game,
                                   const referee::match::PositionJudge& judge, int seeds) {
  std::mt19937 rng(11);
  for (int attempt = 0; attempt < 20000; ++attempt) {
    State s = game.initial_state();
    std::vector<std::string> line;
    while (!s.is_terminal() && seeds_on_board(s) > seeds && line.size() < 300) {
      auto legal = s.legal_moves();
      std::string pick = legal[rng() % legal.size()];
      if (rng() % 10 < 8) {
        double best = -1;
        for (const auto& m : legal) {
          State t = s;
          REQUIRE(t.apply(m).ok());
          const int me = s.current_player() - 1;
          const double got = t.material()[static_cast<std::size_t>(me)] -
                             s.material()[static_cast<std::size_t>(me)];
          if (got > best) {
            best = got;
            pick = m;
          }
        }
      }
      REQUIRE(s.apply(pick).ok());
      line.push_back(pick);
    }
    if (s.is_terminal() || seeds_on_board(s) > seeds || s.is_forced()) continue;
    bool ok = true;
    for (const auto& m : s.legal_moves()) {
      State t = s;
      REQUIRE(t.apply(m).ok());
      if (t.is_terminal()) ok = false;
      if (!ok) break;
      auto v = judge(t);
      if (!v || perfect_line(table, game, t).outcome().reason == "repetition") ok = false;
    }
    if (ok) return line;
  }
  FAIL("no line into the table");
  return {};
}

// t.toml in `dir`: alpha and beta (the mock engine), one awale cycle from the book `book`.
std::string egdb_file(const rtest::TempDir& dir, const std::string& db, const std::string& table,
                      const std::string& game = "awale") {
  const std::string path = dir.file("t.toml");
  std::string engines;
  for (const char* name : {"alpha", "beta"})
    engines +=
        "[[engine]]\nname = \"" + std::string(name) + "\"\ncommand = \"" + rtest::kMock + "\"\n";
  rtest::write_text(path,
                    "name = \"egdb\"\ndatabase = \"" + db + "\"\ngames = [\"" + game +
                        "\"]\ntc = \"10+0\"\nconcurrency = 1\n[openings]\nbook = \"book.txt\"\n"
                        "[adjudication]\negdb = \"" +
                        table + "\"\n" + engines);
  return path;
}

}  // namespace

TEST_CASE(
    "egdb adjudication: the verdict is the score of the table's perfect line through the rules",
    "[slow]") {
  rtest::TempDir dir;
  struct Case {
    std::string table_game, game;
    int seeds;
    bool judged;  // whether exact probes exist for `game`
  };
  const Case cases[] = {
      {"awale", "awale", 5, true},
      {"awale", "awale:first=2", 5, true},  // `first` is not the table's business
      {"kalaha", "kalaha:nocapture=0", 8, true},
      {"kalaha", "kalaha", 8, false},  // nocapture=100 is not modelled: never exact (EGDB.md)
  };
  for (const auto& c : cases) {
    INFO(c.game);
    const std::string path = dir.file(c.table_game + ".egdb");
    if (!std::filesystem::exists(path)) build(c.table_game, c.seeds, path);
    auto pinned = event::pin_table(path);
    REQUIRE(pinned.ok());
    const Game game = game_of(c.game);
    const auto judge = event::egdb_judge(pinned->second, game, path);
    REQUIRE(judge);
    const bool awale = c.table_game == "awale";
    const int total = awale ? 48 : 72;
    std::mt19937 rng(5);
    int judged = 0, compared = 0, repeated = 0;
    for (int round = 0; round < 200; ++round) {
      const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(c.seeds));
      egdb::Board b = egdb::unrank(rng() % egdb::boards(n), n);
      const int s1 = awale ? 24 - n + static_cast<int>(rng() % static_cast<unsigned>(n + 1)) : 0;
      const int mover = 1 + static_cast<int>(rng() % 2);
      auto st = game.parse_state(position_text(b, s1, total - n - s1, mover));
      REQUIRE(st.ok());
      if (st->is_terminal()) continue;
      auto v = judge(*st);
      if (!v) continue;
      ++judged;
      if (agrees(*pinned->second, game, *st, *v))
        ++compared;
      else
        ++repeated;
    }
    if (c.judged) {
      CHECK(judged > 100);
      CHECK(compared > judged / 2);
    } else {
      CHECK(judged == 0);
    }
    if (!awale) CHECK(repeated == 0);
  }
  // A game the table does not cover has no judge: played out normally.
  auto pinned = event::pin_table(dir.file("awale.egdb"));
  REQUIRE(pinned.ok());
  for (const char* other : {"awale-v1", "awale:grandslam=illegal", "kalaha", "oware"})
    CHECK_FALSE(event::egdb_judge(pinned->second, game_of(other), "t"));
}

TEST_CASE("egdb adjudication: a tournament's games end in the table, stored, exported, verified") {
  rtest::TempDir dir;
  const std::string table_path = dir.file("awale5.egdb");
  build("awale", 5, table_path);
  auto pinned = event::pin_table(table_path);
  REQUIRE(pinned.ok());
  const Game game = game_of("awale");
  const auto judge = event::egdb_judge(pinned->second, game, table_path);
  const auto line = line_into(*pinned->second, game, judge, 5);
  std::string book;
  for (const auto& m : line) book += m + " ";
  rtest::write_text(dir.file("book.txt"), book + "\n");
  for (const auto& backend : storage_test::backends()) DYNAMIC_SECTION(backend) {
      storage_test::TestDb tdb(backend);
      const std::string db = tdb.url();
      const auto file = egdb_file(dir, db, "awale5.egdb");  // relative to the file's directory
      auto run = rtest::referee_cmd({"tournament", file, "-q"});
      INFO(run.out << run.err);
      REQUIRE(run.status == 0);
      auto store = Store::open(db);
      REQUIRE(store.ok());
      auto games = store->games({});
      REQUIRE(games.ok());
      REQUIRE(games->size() == 2);
      for (const auto& g : *games) {
        INFO(g.reason);
        CHECK(g.status == referee::storage::GameStatus::Finished);
        CHECK(g.termination == "adjudication");
        CHECK(contains(g.reason, "egdb awale5.egdb after ply " + std::to_string(line.size() + 1)));
        CHECK(contains(g.reason, "(the repetition limit set aside)"));
        CHECK(g.plies == static_cast<std::int64_t>(line.size() + 1));
        // The stored score is the one the perfect line from the last position ends with.
        auto moves = store->moves(g.id);
        REQUIRE(moves.ok());
        State s = game.initial_state();
        for (const auto& m : *moves) REQUIRE(s.apply(m.move).ok());
        const auto end = perfect_line(*pinned->second, game, s).outcome();
        CHECK(end.reason != "repetition");
        CHECK(g.scores == std::vector<double>{end.scores[0], end.scores[1]});
        CHECK(g.ranks == std::vector<int>{end.scores[0] >= end.scores[1] ? 1 : 2,
                                          end.scores[1] >= end.scores[0] ? 1 : 2});
      }
      auto pgn = rtest::referee_cmd({"export", "--db", db, "--format", "pgn"});
      CHECK(pgn.status == 0);
      CHECK(contains(pgn.out, "[Termination \"adjudication\"]"));
      CHECK(contains(pgn.out, "egdb awale5.egdb after ply "));
      auto verify = rtest::referee_cmd({"verify", "--db", db, "--no-integrity"});
      INFO(verify.out << verify.err);
      CHECK(verify.status == 0);
      CHECK(contains(verify.out, "2 games replayed, 0 mismatches"));
    }
}

TEST_CASE("egdb adjudication: the table pinned by its checksum when the event is made") {
  rtest::TempDir dir;
  const std::string table_path = dir.file("k.egdb");
  build("kalaha", 4, table_path);
  rtest::write_text(dir.file("book.txt"), "1\n");
  const std::string db = dir.file("pin.db");
  const auto file = egdb_file(dir, db, "k.egdb", "kalaha:nocapture=0");
  auto config = event::load_tournament_file(file);
  INFO((config ? "" : config.error()));
  REQUIRE(config.ok());
  REQUIRE(config->egdb);
  CHECK(config->egdb->path == table_path);
  CHECK(config->egdb->checksum == config->egdb_table->checksum());
  // Into the specification and the fingerprint, and back.
  const std::string spec = event::event_spec(*config);
  CHECK(contains(spec, event::checksum_text(config->egdb->checksum)));
  CHECK(
      contains(event::schedule_fingerprint(*config), event::checksum_text(config->egdb->checksum)));
  auto back = event::config_from_spec(spec);
  REQUIRE(back.ok());
  REQUIRE(back->egdb);
  CHECK(back->egdb->path == table_path);
  CHECK(back->egdb->checksum == config->egdb->checksum);
  CHECK_FALSE(back->egdb_table);  // whoever plays it opens it
  CHECK(event::event_spec(*back) == spec);
  // An event without a table keeps its specification as before (no egdb key).
  auto plain = *config;
  plain.egdb.reset();
  CHECK_FALSE(nlohmann::json::parse(event::event_spec(plain)).contains("adjudication"));
  CHECK(nlohmann::json::parse(spec)["adjudication"]["egdb"]["path"] == table_path);

  // The event made, then the file changed: the run is refused, naming what differs.
  auto run = rtest::referee_cmd({"tournament", file, "-q"});
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  build("kalaha", 5, table_path);  // extends the table: another checksum
  auto again = rtest::referee_cmd({"tournament", file, "-q"});
  CHECK(again.status != 0);
  CHECK(contains(again.err, "different specification (adjudication)"));
  // open_pinned says why this host cannot play the event.
  auto other = event::open_pinned(*config->egdb);
  REQUIRE_FALSE(other.ok());
  CHECK(other.error() == "egdb table '" + table_path + "' has checksum " +
                             event::checksum_text(event::pin_table(table_path)->first.checksum) +
                             " on this host, the event pins " +
                             event::checksum_text(config->egdb->checksum));

  // A missing or bad file: one line naming it, before anything is stored.
  const std::string db2 = dir.file("none.db");
  for (const std::string name : {"missing.egdb", "book.txt"}) {
    INFO(name);
    egdb_file(dir, db2, name, "kalaha:nocapture=0");
    auto r = rtest::referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
    CHECK(r.status == 1);
    CHECK(rtest::lines_of(r.err).size() == 1);
    CHECK(
        contains(r.err, "referee: t.toml: adjudication.egdb: egdb table '" + dir.file(name) + "'"));
    CHECK_FALSE(std::filesystem::exists(db2));
  }
  egdb_file(dir, db2, "", "kalaha");
  auto empty = rtest::referee_cmd({"tournament", "t.toml", "-q"}, dir.path());
  CHECK(empty.err ==
        "referee: t.toml: adjudication.egdb must be the path of an endgame table file, not \"\"\n");
}
