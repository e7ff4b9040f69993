// `referee serve` as a real process: the ladder over HTTP (registered engines join its pairings at
// once; a retired one gets no new games and its past games stay rated) and the live stream of one
// game (game_started, its moves in ply order, game_finished; ids increasing; a reconnection with
// Last-Event-ID goes on after that id, with nothing the ring still holds left out); the
// `standings` messages of an event as its games finish (its id, the same table as GET standings,
// the wins, draws and losses of its finished games).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

const std::string kLadderGame = "awale:maxplies=10";

httplib::Result register_engine(httplib::Client& c, const std::string& name) {
  const Json body = {
      {"name", name}, {"command", kMock}, {"args", {"--slow-ms=2"}}, {"games", {kLadderGame}}};
  return c.Post("/api/engines", body.dump(), "application/json");
}

std::int64_t games_of(httplib::Client& c, const std::string& engine, const std::string& status) {
  return get_json(c, "/api/games?limit=1&engine=" + engine +
                         (status.empty() ? "" : "&status=" + status))["total"]
      .get<std::int64_t>();
}

// The engines of the only ladder, sorted.
std::vector<std::string> ladder_engines(httplib::Client& c) {
  auto ladders = get_json(c, "/api/ladder")["ladders"];
  if (ladders.empty()) return {};
  auto names = ladders[0]["engines"].get<std::vector<std::string>>();
  std::sort(names.begin(), names.end());
  return names;
}

struct SseMessage {
  std::uint64_t id = 0;
  std::string type;
  Json data;
};

// Reads the live stream at `path` (from after `last_id` when non-zero) until `enough` holds for
// the messages read, or the connection ends.
class StreamReader {
 public:
  StreamReader(int port, const std::string& path, std::uint64_t last_id,
               std::function<bool(const std::vector<SseMessage>&)> enough)
      : enough_(std::move(enough)), thread_([this, port, path, last_id] {
          httplib::Client c("127.0.0.1", port);
          c.set_read_timeout(60, 0);
          httplib::Headers headers;
          if (last_id > 0) headers.emplace("Last-Event-ID", std::to_string(last_id));
          c.Get(path, headers, [this](const char* data, std::size_t size) {
            std::lock_guard lock(mutex_);
            pending_.append(data, size);
            for (auto end = pending_.find("\n\n"); end != std::string::npos;
                 end = pending_.find("\n\n")) {
              parse_frame(pending_.substr(0, end));
              pending_.erase(0, end + 2);
            }
            done_ = enough_(messages_);
            return !done_;
          });
          std::lock_guard lock(mutex_);
          ended_ = true;
        }) {}
  ~StreamReader() { thread_.join(); }
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;

  bool done() {
    std::lock_guard lock(mutex_);
    return done_;
  }
  bool ended() {
    std::lock_guard lock(mutex_);
    return ended_;
  }
  std::vector<SseMessage> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  void parse_frame(const std::string& frame) {
    SseMessage m;
    bool has_data = false;
    std::size_t at = 0;
    while (at < frame.size()) {
      auto end = frame.find('\n', at);
      if (end == std::string::npos) end = frame.size();
      const std::string line = frame.substr(at, end - at);
      at = end + 1;
      if (line.rfind("id: ", 0) == 0) m.id = std::stoull(line.substr(4));
      if (line.rfind("event: ", 0) == 0) m.type = line.substr(7);
      if (line.rfind("data: ", 0) == 0) {
        m.data = Json::parse(line.substr(6));
        has_data = true;
      }
    }
    if (has_data) messages_.push_back(std::move(m));
  }

  std::function<bool(const std::vector<SseMessage>&)> enough_;
  std::mutex mutex_;
  std::string pending_;
  std::vector<SseMessage> messages_;
  bool done_ = false, ended_ = false;
  std::thread thread_;
};

std::size_t count_type(const std::vector<SseMessage>& ms, const std::string& type) {
  std::size_t n = 0;
  for (const auto& m : ms) n += m.type == type;
  return n;
}

// The messages of one game in stream order: game_started first, then its moves with increasing
// plies, then game_finished last; the last move is the game's last ply. Returns the plies seen.
std::vector<int> check_game_order(const std::vector<SseMessage>& ms, std::int64_t game,
                                  std::int64_t plies, bool from_start) {
  std::vector<std::string> kinds;
  std::vector<int> seen;
  for (const auto& m : ms) {
    if ((m.type == "game_started" || m.type == "game_finished") && m.data["id"] == game)
      kinds.push_back(m.type);
    if (m.type == "move" && m.data["game_id"] == game) {
      kinds.push_back("move");
      seen.push_back(m.data["ply"].get<int>());
    }
  }
  INFO("game " << game);
  REQUIRE_FALSE(kinds.empty());
  if (from_start) CHECK(kinds.front() == "game_started");
  CHECK(kinds.back() == "game_finished");
  CHECK(std::count(kinds.begin(), kinds.end(), "game_finished") == 1);
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] > seen[i - 1]);
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back() == plies);
  return seen;
}

}  // namespace

TEST_CASE("serve: registered engines join the ladder at once, a retired one plays no new game") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  for (const std::string name : {"gamma", "delta"}) {
    auto res = register_engine(c, name);
    REQUIRE(res);
    INFO(res->body);
    REQUIRE(res->status == 201);
  }
  CHECK(ladder_engines(c) == std::vector<std::string>{"delta", "gamma"});
  REQUIRE(wait_until([&] { return games_of(c, "delta", "finished") >= 2; }, 60));

  // A third engine joins the running ladder and is paired at once (fewest games first).
  auto joined = register_engine(c, "epsilon");
  REQUIRE(joined);
  REQUIRE(joined->status == 201);
  CHECK(Json::parse(joined->body)["ladders"].size() == 1);
  CHECK(ladder_engines(c) == std::vector<std::string>{"delta", "epsilon", "gamma"});
  REQUIRE(wait_until([&] { return games_of(c, "epsilon", "finished") >= 2; }, 60));

  // Retired: its games under way finish, then it has no new one while the others play on.
  auto retired = c.Post("/api/engines/delta/retire", "", "application/json");
  REQUIRE(retired);
  INFO(retired->body);
  REQUIRE(retired->status == 200);
  CHECK(Json::parse(retired->body)["retired"] == true);
  check_error(c.Post("/api/engines/delta/retire", "", "application/json"), 409);
  CHECK(ladder_engines(c) == std::vector<std::string>{"epsilon", "gamma"});
  REQUIRE(wait_until([&] { return games_of(c, "delta", "running") == 0; }, 60));
  const auto delta_games = games_of(c, "delta", "");
  const auto delta_finished = games_of(c, "delta", "finished");
  const auto others = games_of(c, "gamma", "finished");
  REQUIRE(wait_until([&] { return games_of(c, "gamma", "finished") >= others + 4; }, 60));
  CHECK(games_of(c, "delta", "") == delta_games);

  // Its past games stay rated in the ladder's standings.
  auto ladder = get_json(c, "/api/ladder")["ladders"][0];
  bool rated = false;
  for (const auto& row : ladder["standings"][0]["rows"])
    if (row["engine"] == "delta") {
      rated = true;
      CHECK(row["games"].get<std::int64_t>() >= delta_finished);
    }
  CHECK(rated);
  auto engines = get_json(c, "/api/engines")["engines"];
  for (const auto& e : engines)
    if (e["name"] == "delta") CHECK(e["retired"] == true);
}

TEST_CASE("serve: the live stream of a game is in order, Last-Event-ID resumes after that id") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto c = d.client();
  auto two_finished = [](const std::vector<SseMessage>& ms) {
    return count_type(ms, "game_finished") >= 2;
  };
  StreamReader first(d.port(), "/api/stream", 0, two_finished);
  // The stream is open (a reader has subscribed) before anything is played.
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["stream_clients"] == 1; }));
  const auto id = submit_ok(c, tournament_toml("live", 2, 1, 16, "args = [\"--slow-ms=10\"]\n"));
  REQUIRE(wait_state(c, id, "finished"));
  const bool done = wait_until([&] { return first.done() || first.ended(); }, 30);
  if (!done) d.signal_and_wait(SIGKILL);
  REQUIRE(done);
  const auto all = first.messages();

  // Ids increase; every message of the event names it.
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i].id > all[i - 1].id);
  auto games = get_json(c, "/api/games?event=" + std::to_string(id))["games"];
  REQUIRE(games.size() == 2);
  std::map<std::int64_t, std::int64_t> plies;
  for (const auto& g : games) plies[g["id"].get<std::int64_t>()] = g["plies"].get<std::int64_t>();
  for (const auto& [game, n] : plies) check_game_order(all, game, n, true);
  for (const auto& m : all)
    if (m.type == "move" || m.type == "game_started" || m.type == "game_finished")
      CHECK(m.data["event_id"] == id);

  // Reconnect after the first game's start: the rest follows, nothing left out.
  std::uint64_t resume_after = 0;
  for (const auto& m : all)
    if (m.type == "game_started") {
      resume_after = m.id;
      break;
    }
  REQUIRE(resume_after > 0);
  StreamReader second(d.port(), "/api/stream", resume_after, two_finished);
  const bool resumed = wait_until([&] { return second.done() || second.ended(); }, 30);
  if (!resumed) d.signal_and_wait(SIGKILL);
  REQUIRE(resumed);
  const auto rest = second.messages();
  REQUIRE_FALSE(rest.empty());
  CHECK(rest.front().id > resume_after);
  for (std::size_t i = 1; i < rest.size(); ++i) CHECK(rest[i].id > rest[i - 1].id);
  // Messages never coalesced (a game's start and end) come again, with the same ids.
  std::set<std::uint64_t> again;
  for (const auto& m : rest) again.insert(m.id);
  for (const auto& m : all)
    if (m.id > resume_after && (m.type == "game_started" || m.type == "game_finished"))
      CHECK(again.count(m.id) == 1);
  // Both games go on to their last ply; the second one from its start.
  auto it = plies.begin();
  check_game_order(rest, it->first, it->second, false);
  ++it;
  check_game_order(rest, it->first, it->second, true);
}

TEST_CASE("serve: finished games send standings messages of their event, as GET standings") {
  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  constexpr std::int64_t kGames = 4;  // two engines, two cycles of a game pair
  // Read until a standings message counts every game of the event (the first event: id 1).
  auto all_counted = [&](const std::vector<SseMessage>& ms) {
    for (const auto& m : ms)
      if (m.type == "standings" && m.data["tables"].size() == 1 &&
          m.data["tables"][0]["games"] == kGames)
        return true;
    return false;
  };
  StreamReader reader(d.port(), "/api/stream", 0, all_counted);
  REQUIRE(wait_until([&] { return get_json(c, "/api/health")["stream_clients"] == 1; }));
  const auto id = submit_ok(c, tournament_toml("ranked", 2, 2, 12, "args = [\"--slow-ms=5\"]\n"));
  REQUIRE(id == 1);
  REQUIRE(wait_state(c, id, "finished"));
  const bool done = wait_until([&] { return reader.done() || reader.ended(); }, 30);
  if (!done) d.signal_and_wait(SIGKILL);
  const auto all = reader.messages();
  INFO(all.size() << " messages, " << count_type(all, "standings") << " standings");
  REQUIRE(reader.done());

  // Every standings message names the event and is sent because its table changed: it counts at
  // least one game (never the empty table of an event that has just begun), and more than the
  // message before. (Its order against the game_finished messages is not promised: the
  // standings come from the database, which the game's finish reaches first.)
  std::int64_t counted = 0;
  std::vector<Json> standings;
  for (const auto& m : all) {
    if (m.type != "standings") continue;
    standings.push_back(m.data);
    CHECK(m.data["event_id"] == id);
    REQUIRE(m.data["tables"].size() == 1);
    const auto games = m.data["tables"][0]["games"].get<std::int64_t>();
    CHECK(games >= 1);
    CHECK(games > counted);
    counted = games;
  }
  REQUIRE_FALSE(standings.empty());
  CHECK(counted == kGames);

  // The last one is the table GET gives, and it adds up the stored games' results.
  const Json last = standings.back();
  CHECK(last == get_json(c, "/api/events/" + std::to_string(id) + "/standings"));
  std::map<std::string, std::array<double, 3>> wdl;  // engine -> wins, draws, losses
  const Json games = get_json(c, "/api/games?event=" + std::to_string(id))["games"];
  REQUIRE(games.size() == kGames);
  for (const auto& g : games) {
    REQUIRE(g["status"] == "finished");
    const auto players = g["players"].get<std::vector<std::string>>();
    const auto ranks = g["ranks"].get<std::vector<int>>();
    REQUIRE(players.size() == 2);
    REQUIRE(ranks.size() == 2);
    for (std::size_t seat = 0; seat < 2; ++seat) {
      const int mine = ranks[seat], theirs = ranks[1 - seat];
      wdl[players[seat]][mine < theirs ? 0 : mine == theirs ? 1 : 2] += 1;
    }
  }
  const auto& rows = last["tables"][0]["rows"];
  REQUIRE(rows.size() == 2);
  for (const auto& row : rows) {
    const std::string engine = row["engine"];
    INFO(engine);
    CHECK(row["games"] == kGames);
    CHECK(row["w"].get<double>() == wdl[engine][0]);
    CHECK(row["d"].get<double>() == wdl[engine][1]);
    CHECK(row["l"].get<double>() == wdl[engine][2]);
  }
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
