// Credentials and roles against a real daemon (service/auth.h, service/roles.h): the operator
// token file made on first start; author tokens made, listed (names, never tokens) and revoked
// with `referee token` on the database while the daemon runs; an author cannot name a command, env
// or dir (in an event or a registration), nor control what another submitted, but submits among
// registered engines and controls its own; reads show no env values; a revoked token is refused
// at once; a DNS-rebound Host and Origin: null are refused.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

const std::string kRolesGame = "awale:maxplies=8";

// `referee token ARGS... --db DB`.
rtest::RunResult token_command(const TempDir& dir, std::vector<std::string> args,
                               const std::string& db) {
  args.insert(args.begin(), "token");
  args.insert(args.end(), {"--db", db});
  return rtest::run_program(REFEREE_BIN, args, dir);
}

std::string new_token(const TempDir& dir, const std::string& name, const std::string& db) {
  auto made = token_command(dir, {"add", name}, db);
  INFO(made.out << made.err);
  REQUIRE(made.status == 0);
  REQUIRE(rtest::lines_of(made.out).size() == 1);
  return rtest::lines_of(made.out).front();
}

httplib::Headers bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

std::string event_toml(const std::string& name, const std::string& engines) {
  return "name = \"" + name + "\"\ngames = [\"" + kRolesGame + "\"]\ntc = \"10+0.1\"\n" + engines;
}

}  // namespace

TEST_CASE("roles: authors submit among registered engines and control only their own") {
  TempDir dir;
  const std::string db = dir.file("serve.db");
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  // The operator token file was made on first start, private, and the log says where.
  struct stat st {};
  REQUIRE(::stat(d.token_file().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(d.token().size() == 64);
  CHECK(contains(d.err(), d.token_file()));
  CHECK_FALSE(contains(d.err(), d.token()));

  auto op = d.client();
  auto anon = d.anonymous();
  // The operator defines an engine, with a secret in its environment.
  const Json bot = {{"name", "bot"},
                    {"command", kMock},
                    {"games", {kRolesGame}},
                    {"env", {{"BOT_SECRET", "s3cret-value"}}}};
  auto defined = op.Post("/api/engines", bot.dump(), "application/json");
  REQUIRE(defined);
  INFO(defined->body);
  REQUIRE(defined->status == 201);
  CHECK(Json::parse(defined->body)["submitted_by"] == "operator");
  check_error(anon.Post("/api/engines", bot.dump(), "application/json"), 401);

  const std::string alice = new_token(dir, "alice", db);
  const std::string bob = new_token(dir, "bob", db);
  auto listed = token_command(dir, {"list"}, db);
  REQUIRE(listed.status == 0);
  CHECK(contains(listed.out, "alice"));
  CHECK(contains(listed.out, "bob"));
  CHECK_FALSE(contains(listed.out, alice));
  CHECK_FALSE(contains(listed.out, bob));
  CHECK(token_command(dir, {"add", "alice"}, db).status == 1);  // one token in force per name

  const auto as_alice = bearer(alice), as_bob = bearer(bob);
  const std::string toml = "application/toml";
  // Never a host command, env or dir of its own: not in an event, not in a registration.
  for (const std::string extra :
       {"command = \"/bin/sh\"\n", "env = { LD_PRELOAD = \"/tmp/x.so\" }\n", "dir = \"/tmp\"\n"}) {
    INFO(extra);
    check_error(anon.Post("/api/events", as_alice,
                          event_toml("own", "[[engine]]\nname = \"bot\"\n" + extra +
                                                "[[engine]]\nname = \"bot2\"\n"),
                          toml),
                403);
  }
  for (const Json& body :
       {Json{{"name", "sh"}, {"command", "/bin/sh"}, {"games", {kRolesGame}}},
        Json{{"name", "sh"}, {"engine", "bot"}, {"games", {kRolesGame}}, {"env", {{"A", "1"}}}},
        Json{{"name", "sh"}, {"engine", "bot"}, {"games", {kRolesGame}}, {"dir", "/tmp"}}})
    check_error(anon.Post("/api/engines", as_alice, body.dump(), "application/json"), 403);
  // Not even under the name of the operator's engine.
  check_error(anon.Post("/api/engines", as_alice,
                        Json{{"name", "bot"}, {"engine", "bot"}, {"games", {kRolesGame}}}.dump(),
                        "application/json"),
              403, "someone else");
  // An entry of the operator's engine, under the author's own name.
  auto entry =
      anon.Post("/api/engines", as_alice,
                Json{{"name", "alice-bot"}, {"engine", "bot"}, {"games", {kRolesGame}}}.dump(),
                "application/json");
  REQUIRE(entry);
  INFO(entry->body);
  REQUIRE(entry->status == 201);
  CHECK(Json::parse(entry->body)["submitted_by"] == "alice");
  CHECK(Json::parse(entry->body)["command"] == kMock);
  // An event among registered engines; an unknown name is refused.
  check_error(
      anon.Post("/api/events?state=paused", as_alice,
                event_toml("ghost", "[[engine]]\nname = \"bot\"\n[[engine]]\nname = \"nope\"\n"),
                toml),
      400, "no registered engine 'nope'");
  check_error(anon.Post("/api/events?priority=9", as_alice,
                        event_toml("urgent",
                                   "[[engine]]\nname = \"bot\"\n[[engine]]\nname = "
                                   "\"alice-bot\"\n"),
                        toml),
              403, "priority");
  auto mine = anon.Post("/api/events?state=paused", as_alice,
                        event_toml("alice's",
                                   "[[engine]]\nname = \"bot\"\n[[engine]]\nname = "
                                   "\"alice-bot\"\ntc = \"5+0.1\"\n"),
                        toml);
  REQUIRE(mine);
  INFO(mine->body);
  REQUIRE(mine->status == 201);
  const auto alice_event = Json::parse(mine->body);
  CHECK(alice_event["submitted_by"] == "alice");
  const std::string alice_id = std::to_string(alice_event["id"].get<std::int64_t>());
  const auto operator_id =
      std::to_string(submit_ok(op, tournament_toml("operator's", 2, 1, 8, "", "")));
  CHECK(event_of(op, std::stoll(operator_id))["submitted_by"] == "operator");

  // Only what it submitted.
  check_error(anon.Post("/api/events/" + operator_id + "/pause", as_alice, "", "application/json"),
              403, "only what it submitted");
  check_error(anon.Post("/api/events/" + alice_id + "/cancel", as_bob, "", "application/json"),
              403);
  check_error(
      anon.Patch("/api/events/" + alice_id, as_alice, R"({"priority": 5})", "application/json"),
      403);
  check_error(anon.Post("/api/engines/bot/retire", as_alice, "", "application/json"), 403);
  auto resumed = anon.Post("/api/events/" + alice_id + "/resume", as_alice, "", "application/json");
  REQUIRE(resumed);
  CHECK(resumed->status == 200);
  auto cancelled =
      anon.Post("/api/events/" + alice_id + "/cancel", as_alice, "", "application/json");
  REQUIRE(cancelled);
  CHECK(cancelled->status == 200);
  auto cancel_theirs = op.Post("/api/events/" + operator_id + "/cancel", "", "application/json");
  REQUIRE(cancel_theirs);
  CHECK(cancel_theirs->status == 200);  // the operator may do everything

  // Reads show no env values (any role), nor any token.
  for (auto* client : {&anon, &op}) {
    for (const std::string& path : std::vector<std::string>{
             "/api/events/" + alice_id, "/api/engines", "/api/events", "/api/ladder"}) {
      auto r = client->Get(path);
      REQUIRE(r);
      INFO(path);
      CHECK(r->status == 200);
      CHECK_FALSE(contains(r->body, "s3cret-value"));
      CHECK_FALSE(contains(r->body, alice));
      CHECK_FALSE(contains(r->body, d.token()));
    }
  }
  CHECK(contains(get_json(anon, "/api/events/" + alice_id)["spec"].dump(), "BOT_SECRET"));

  // A revoked token is refused at once.
  auto revoked = token_command(dir, {"revoke", "alice"}, db);
  REQUIRE(revoked.status == 0);
  check_error(anon.Post("/api/events/" + alice_id + "/pause", as_alice, "", "application/json"),
              401, "wrong token");
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}

TEST_CASE("roles: a DNS-rebound Host and Origin: null are refused, a change needs a token") {
  TempDir dir;
  Daemon d(dir, {"-c", "1"});
  REQUIRE(d.ready());
  auto anon = d.anonymous();
  auto op = d.client();
  check_error(anon.Get("/api/health", {{"Host", "127.attacker.example"}}), 403, "Host");
  check_error(op.Get("/api/events", {{"Host", "127.attacker.example:" + std::to_string(d.port())}}),
              403);
  CHECK(anon.Get("/api/health", {{"Host", "localhost"}})->status == 200);
  const std::string toml = tournament_toml("origin", 2, 1, 8);
  check_error(op.Post("/api/events", {{"Origin", "null"}}, toml, "application/toml"), 403,
              "Origin");
  check_error(op.Post("/api/events", {{"Origin", "http://evil.example"}}, toml, "application/toml"),
              403, "cross-origin");
  check_error(anon.Post("/api/events", toml, "application/toml"), 401, "Bearer");
  CHECK(get_json(anon, "/api/events")["total"] == 0);
  auto bearer_lower = anon.Post("/api/events", {{"Authorization", "bearer " + d.token()}}, toml,
                                "application/toml");
  REQUIRE(bearer_lower);
  CHECK(bearer_lower->status == 201);
  CHECK(d.signal_and_wait(SIGTERM) == 0);
}
