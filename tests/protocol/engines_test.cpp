// The example engines (examples/engines/*.cpp), run as processes: each answers the handshake,
// then returns a legal bestmove (or a valid setup) for positions of every registered game,
// including N-player oware when it is registered; quit and end of input end the process.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <random>

#include "games/registry.h"
#include "protocol/messages.h"
#include "protocol/pipes.h"

using namespace referee;
using referee::testing::Child;

namespace {

const char* const kEngines[] = {"random_engine", "greedy_engine", "alphabeta_engine"};

std::string engine_path(const std::string& name) {
  return std::string(ENGINES_DIR) + "/" + name;
}

// Game specs to try: every registered game, plus its largest `players` choice.
std::vector<std::string> specs() {
  std::vector<std::string> out;
  for (const auto& entry : games::registry()) {
    out.push_back(entry.name);
    for (const auto& p : entry.params)
      if (p.key == "players" && !p.choices.empty())
        out.push_back(entry.name + ":players=" + p.choices.back());
  }
  return out;
}

// A position reached by `plies` seeded random moves (random setups too), as a move list.
std::vector<std::string> random_line(const games::Game& game, int plies, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  games::State s = game.initial_state();
  std::vector<std::string> moves;
  for (int i = 0; i < plies && !s.is_terminal(); ++i) {
    std::string move;
    if (!s.setup_form().empty()) {
      move = s.sample_setup(rng());
    } else {
      auto legal = s.legal_moves();
      if (legal.empty()) break;
      move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    }
    if (!s.apply(move)) break;
    moves.push_back(move);
  }
  return moves;
}

void handshake(Child& engine) {
  engine.send("ugi");
  auto lines = engine.out().until("ugiok");
  REQUIRE(lines.has_value());
  CHECK(std::find(lines->begin(), lines->end(), "id protocol 1") != lines->end());
  std::size_t games_declared = 0;
  for (const auto& line : *lines) games_declared += line.rfind("game ", 0) == 0;
  CHECK(games_declared == games::registry().size());
  engine.send("protocol 1");
}

}  // namespace

TEST_CASE("engines: every example engine plays a legal move in every registered game") {
  for (const char* name : kEngines) {
    INFO(name);
    Child engine(engine_path(name), {"--seed", "11"});
    REQUIRE(engine.started());
    handshake(engine);
    int token = 0;
    for (const auto& spec : specs()) {
      INFO(spec);
      auto game = games::make_game(spec);
      REQUIRE(game.ok());
      auto setgame = protocol::setgame_from_spec(game->canonical());
      engine.send(protocol::format(protocol::RefereeMessage{setgame}));
      engine.send("isready " + std::to_string(++token));
      auto ready = engine.out().until("readyok");
      REQUIRE(ready.has_value());
      CHECK(ready->back() == "readyok " + std::to_string(token));
      INFO("ready: " << ready->front());
      CHECK(ready->size() == 1);  // no error before it
      engine.send("uginewgame");
      for (int plies : {0, 7, 30}) {
        auto moves = random_line(*game, plies, 1000u + static_cast<unsigned>(plies));
        auto state = games::state_after(*game, "", moves);
        REQUIRE(state.ok());
        if (state->is_terminal()) continue;
        protocol::Position position;
        position.moves = moves;
        protocol::Go go;
        go.player = state->current_player();
        go.time_ms.assign(static_cast<std::size_t>(state->num_players()), 500);
        go.inc_ms.assign(static_cast<std::size_t>(state->num_players()), 0);
        engine.send(protocol::format(protocol::RefereeMessage{position}) + "\n" +
                    protocol::format(protocol::RefereeMessage{go}));
        auto reply = engine.out().until("bestmove");
        INFO(protocol::format(protocol::RefereeMessage{position}));
        REQUIRE(reply.has_value());
        for (const auto& line : *reply) CHECK(line.rfind("error", 0) != 0);
        std::string replies;
        for (const auto& line : *reply) replies += line + " | ";
        INFO("replies: " << replies);
        const std::string move = reply->back().substr(9);
        INFO("bestmove " << move);
        CHECK(state->apply(move).ok());
      }
    }
    engine.send("quit");
    CHECK(engine.wait() == std::optional<int>(0));
  }
}

TEST_CASE("engines: the same seed and position give the same move") {
  std::string first;
  for (int run = 0; run < 2; ++run) {
    Child engine(engine_path("random_engine"), {"--seed=5"});
    REQUIRE(engine.started());
    engine.send("setgame awale\nposition startpos moves 3 9\ngo");
    auto reply = engine.out().until("bestmove");
    REQUIRE(reply.has_value());
    if (run == 0) first = reply->back();
    CHECK(reply->back() == first);
  }
}

TEST_CASE("engines: alphabeta respects movetime and reports its search") {
  Child engine(engine_path("alphabeta_engine"));
  REQUIRE(engine.started());
  engine.send("setgame awale\nposition startpos\ngo movetime 300");
  const auto start = std::chrono::steady_clock::now();
  auto reply = engine.out().until("bestmove", 3000);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  REQUIRE(reply.has_value());
  CHECK(ms < 300 + 500);  // generous: the machine may be loaded
  REQUIRE(reply->size() >= 2);
  auto info = protocol::parse_engine_line((*reply)[0]);
  REQUIRE(info.ok());
  REQUIRE(std::holds_alternative<protocol::Info>(*info));
  CHECK(std::get<protocol::Info>(*info).depth == 1);
  CHECK(std::get<protocol::Info>(*info).pv.size() == 1);
  // A fixed depth is searched exactly.
  engine.send("position startpos\ngo depth 2");
  auto fixed = engine.out().until("bestmove");
  REQUIRE(fixed.has_value());
  REQUIRE(fixed->size() == 3);
  CHECK((*fixed)[1].rfind("info depth 2 ", 0) == 0);
}

TEST_CASE("engines: alphabeta finds a winning capture") {
  // South playing 6 makes hole 7 hold 3 (hole 8 holds 5: no grand slam) and reaches 25.
  Child engine(engine_path("alphabeta_engine"));
  REQUIRE(engine.started());
  engine.send("setgame awale\nposition fen 0,0,0,0,3,1/2,5,0,0,0,0:22,15:1:0:0\ngo depth 4");
  auto reply = engine.out().until("bestmove");
  REQUIRE(reply.has_value());
  CHECK(reply->back() == "bestmove 6");
}

TEST_CASE("engines: end of input ends the engine") {
  for (const char* name : kEngines) {
    INFO(name);
    Child engine(engine_path(name));
    REQUIRE(engine.started());
    engine.send("isready 1");
    CHECK(engine.out().next() == std::optional<std::string>("readyok 1"));
    engine.close_input();
    CHECK(engine.wait() == std::optional<int>(0));
  }
}

TEST_CASE("engines: the Python engine agrees with the rules library on awale, awale-v1, kalaha") {
  const std::string script = std::string(SOURCE_DIR) + "/examples/engines/random_engine.py";
  if (::access("/usr/bin/env", X_OK) != 0 || std::system("python3 -c pass 2>/dev/null") != 0) {
    WARN("python3 not available: skipped");
    return;
  }
  Child engine("/usr/bin/env", {"python3", script, "--seed", "3"});
  REQUIRE(engine.started());
  engine.send("ugi");
  auto hello = engine.out().until("ugiok");
  REQUIRE(hello.has_value());
  CHECK(std::find(hello->begin(), hello->end(), "id protocol 1") != hello->end());
  engine.send("setoption name Randomness value 50");
  std::mt19937_64 rng(99);
  int positions = 0;
  // Each game is played once from startpos with the whole move list (round 0) and once from a
  // position string sent afresh every ply (round 1), except the variants, played one way each.
  const std::vector<std::pair<std::string, std::vector<int>>> plan = {
      {"awale", {0, 1}},
      {"awale-v1", {1}},
      {"kalaha", {0, 1}},
      {"awale:grandslam=illegal,first=2", {0}},
      {"kalaha:first=2", {1}}};
  for (const auto& [spec, rounds] : plan) {
    auto game = games::make_game(spec);
    if (!game) {
      WARN(spec << " is not registered yet");
      continue;
    }
    INFO(spec);
    engine.send(protocol::format(protocol::RefereeMessage{protocol::setgame_from_spec(spec)}));
    for (int round : rounds) {
      games::State state = game->initial_state();
      protocol::Position position;
      // Round 1 starts after 6 random moves.
      if (round == 1) {
        for (int i = 0; i < 6 && !state.is_terminal(); ++i) {
          auto legal = state.legal_moves();
          REQUIRE(state.apply(legal[rng() % legal.size()]).ok());
        }
        position.fen = state.to_string();
      }
      while (!state.is_terminal()) {
        if (round == 1) position = protocol::Position{state.to_string(), {}};  // fen each ply
        engine.send(protocol::format(protocol::RefereeMessage{position}) + "\ngo");
        auto reply = engine.out().until("bestmove");
        INFO(protocol::format(protocol::RefereeMessage{position}));
        REQUIRE(reply.has_value());
        CHECK(reply->size() == 1);  // no error: the engine accepted every move so far
        const std::string move = reply->back().substr(9);
        INFO("bestmove " << move << " legal: " << state.legal_moves().size());
        REQUIRE(state.apply(move).ok());
        position.moves.push_back(move);
        ++positions;
      }
    }
  }
  CHECK(positions > 100);
  engine.send("quit");
  CHECK(engine.wait() == std::optional<int>(0));
}
