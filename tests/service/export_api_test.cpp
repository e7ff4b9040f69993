// GET /api/export is `referee export`: the same code, so the same bytes for the same filters; the
// game filter canonicalised per game string (oware and oware:players=3 apart; an unknown game is a
// 400), games in schedule order, N-player games in a PGN only with pairwise=1, and the CLI's
// filters and PGN options, every bad parameter a 400 naming it.
#include <catch2/catch.hpp>

#include "games/game.h"
#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

// Three mock engines on two-player and three-player oware: 6 + 3 games.
std::string oware_toml() {
  std::string text =
      "name = \"ex\"\ngames = [\"oware:maxplies=12\", \"oware:players=3,maxplies=12\"]\n"
      "tc = \"10+0.1\"\ncycles = 1\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < 3; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + kMock + "\"\n";
  return text;
}

std::string body_of(httplib::Client& c, const std::string& query) {
  auto res = c.Get("/api/export?" + query);
  REQUIRE(res);
  INFO(query << ": " << res->body.substr(0, 300));
  REQUIRE(res->status == 200);
  return res->body;
}

std::size_t count_of(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}

std::vector<Json> records(const std::string& jsonl) {
  std::vector<Json> out;
  for (const auto& line : rtest::lines_of(jsonl)) out.push_back(Json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("export API: referee export's games, filters and formats, byte for byte") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  const auto id = submit_ok(c, oware_toml());
  REQUIRE(wait_state(c, id, "finished"));
  const std::string two = referee::games::make_game("oware:maxplies=12")->canonical();
  const std::string three = referee::games::make_game("oware:players=3,maxplies=12")->canonical();

  // Everything, in schedule order.
  const auto all = records(body_of(c, "format=jsonl"));
  REQUIRE(all.size() == 9);
  for (std::size_t k = 1; k < all.size(); ++k)
    CHECK(all[k - 1]["slot"].get<std::int64_t>() < all[k]["slot"].get<std::int64_t>());

  // game= is one canonical game string, not a name prefix.
  const auto twos = records(body_of(c, "format=jsonl&game=oware:maxplies%3D12"));
  REQUIRE(twos.size() == 6);
  for (const auto& g : twos) CHECK(g["game"] == two);
  const auto threes = records(body_of(c, "format=jsonl&game=oware:players%3D3,maxplies%3D12"));
  REQUIRE(threes.size() == 3);
  for (const auto& g : threes) CHECK(g["game"] == three);
  CHECK(body_of(c, "format=jsonl&game=oware").empty());  // a known game, none stored
  check_error(c.Get("/api/export?format=jsonl&game=nosuchgame"), 400, "unknown game 'nosuchgame'");
  check_error(c.Get("/api/export?format=jsonl&game=oware:players%3D5"), 400, "players=5");

  // PGN: two sides; N-player games only pairwise.
  const std::string pgn = body_of(c, "format=pgn");
  CHECK(count_of(pgn, "[Event ") == 6);
  CHECK(contains(pgn, "[%clk "));
  const std::string pairwise = body_of(c, "format=pgn&pairwise=1");
  CHECK(count_of(pairwise, "[Event ") == 6 + 3 * 3);
  CHECK(count_of(pairwise, "[Pairwise \"yes\"]") == 9);
  CHECK_FALSE(contains(body_of(c, "format=pgn&no_clock=1"), "[%clk "));
  const std::string results_only = body_of(c, "format=pgn&no_moves=1");
  CHECK(count_of(results_only, "[Event ") == 6);
  CHECK_FALSE(contains(results_only, "1. "));
  CHECK(rtest::lines_of(body_of(c, "format=csv&pairwise=1")).size() == 1 + 6 + 9);

  // The CLI's filters.
  CHECK(records(body_of(c, "format=jsonl&engine=m0")).size() == 4 + 3);
  CHECK(records(body_of(c, "format=jsonl&engine=m0&engine=m1")).size() == 2);
  CHECK(records(body_of(c, "format=jsonl&tournament=ex")).size() == 9);
  CHECK(records(body_of(c, "format=jsonl&event=" + std::to_string(id))).size() == 9);
  CHECK(body_of(c, "format=jsonl&event=" + std::to_string(id + 100)).empty());
  CHECK(records(body_of(c, "format=jsonl&tc=10%2B0.1")).size() == 9);
  CHECK(body_of(c, "format=jsonl&since=2999-01-01").empty());
  CHECK(records(body_of(c, "format=jsonl&until=2999-01-01")).size() == 9);
  // Two-player oware: 4 pairwise games per engine (< 5, all leave); three players: 6 each.
  CHECK(records(body_of(c, "format=jsonl&min_games=5")).size() == 3);
  CHECK(rtest::lines_of(body_of(c, "format=csv&since=2999-01-01")).size() == 1);  // the header

  // Byte for byte what `referee export` writes from the same file.
  for (const auto& [query, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"format=pgn", {"--format", "pgn"}},
           {"format=pgn&pairwise=1&no_clock=1", {"--format", "pgn", "--pairwise", "--no-clock"}},
           {"format=jsonl&engine=m2", {"--format", "jsonl", "--engine", "m2"}},
           {"format=csv&game=oware:players%3D3,maxplies%3D12",
            {"--format", "csv", "--game", "oware:players=3,maxplies=12"}}}) {
    std::vector<std::string> cli = {"export", "--db", dir.file("serve.db")};
    cli.insert(cli.end(), args.begin(), args.end());
    TempDir scratch;
    const auto r = rtest::run_program(REFEREE_BIN, cli, scratch);
    INFO(query << ": " << r.err);
    REQUIRE(r.status == 0);
    CHECK(body_of(c, query) == r.out);
  }

  // Bad parameters: one 400 each, naming the culprit.
  check_error(c.Get("/api/export?format=html"), 400, "format must be pgn, jsonl or csv");
  check_error(c.Get("/api/export?format=csv&no_moves=1"), 400, "no_moves is for PGN");
  check_error(c.Get("/api/export?format=jsonl&no_clock=1"), 400, "no_clock is for PGN");
  check_error(c.Get("/api/export?format=jsonl&pairwise=1"), 400, "pairwise is for PGN and CSV");
  check_error(c.Get("/api/export?format=pgn&pairwise=yes"), 400, "pairwise must be 1 or 0");
  check_error(c.Get("/api/export?format=pgn&engine=nobody"), 400, "engine named 'nobody'");
  check_error(c.Get("/api/export?format=pgn&tournament=nope"), 400, "tournament named 'nope'");
  check_error(c.Get("/api/export?format=pgn&tc=1%2B0"), 400, "time control");
  check_error(c.Get("/api/export?format=pgn&since=yesterday"), 400, "since 'yesterday' must be");
  check_error(c.Get("/api/export?format=pgn&min_games=-1"), 400, "min_games");
  check_error(c.Get("/api/export?format=pgn&event=x"), 400, "bad event id");
  check_error(c.Get("/api/export?format=pgn&format=csv"), 400, "given twice");
  check_error(c.Get("/api/export?format=pgn&limit=3"), 400, "unknown query parameter 'limit'");
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
