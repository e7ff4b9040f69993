// The access decision (service/auth.h) and the roles' checks (service/roles.h), without a process:
// Host names (DNS rebinding), Origin on changes, the bearer scheme, operator and author tokens,
// revoked tokens, readers on loopback, --behind-proxy and X-Forwarded-For, the Unix socket; the
// operator token file made on first start; what an author may submit, register and control; env
// values hidden from every reader.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "service/auth.h"
#include "service/roles.h"
#include "tests/referee/rtest_util.h"

using namespace referee::service;
using referee::Expected;

namespace {

const std::string kOperator = "0123456789abcdef0123456789abcdef";
const std::string kAlice = "alice-token-0123456789abcdef";

AccessPolicy policy() {
  AccessPolicy p;
  p.operator_token = kOperator;
  p.author_of = [](const std::string& hash) -> Expected<std::optional<std::string>> {
    if (hash == token_hash(kAlice)) return std::optional<std::string>("alice");
    return std::optional<std::string>();
  };
  return p;
}

AccessRequest request(const std::string& method, const std::string& auth = "",
                      const std::string& host = "127.0.0.1:8410",
                      const std::string& from = "127.0.0.1", const std::string& origin = "") {
  AccessRequest r;
  r.method = method;
  r.remote_addr = from;
  r.authorization = auth;
  r.host = host;
  r.origin = origin;
  return r;
}

int status(const AccessPolicy& p, const AccessRequest& r) {
  return check_access(p, r).status;
}

}  // namespace

TEST_CASE("auth: loopback means an address literal of 127.0.0.0/8 or ::1, or localhost") {
  for (const char* a : {"127.0.0.1", "127.8.9.10", "127.255.255.255", "::1", "0:0:0:0:0:0:0:1",
                        "::ffff:127.0.0.1", "localhost", "LOCALHOST"})
    CHECK(is_loopback(a));
  for (const char* a : {"127.attacker.example", "127.0.0.1.nip.io", "127.1", "127.0.0.256",
                        "127.0.0.1 ", "10.0.0.1", "0.0.0.0", "::", "fe80::1", "128.0.0.1",
                        "::ffff:10.0.0.1", "localhost.evil.example", ""})
    CHECK_FALSE(is_loopback(a));
}

TEST_CASE("auth: the host of a Host header, with or without a port, IPv6 in brackets") {
  CHECK(host_of_header("127.0.0.1:8410") == std::optional<std::string>("127.0.0.1"));
  CHECK(host_of_header("localhost") == std::optional<std::string>("localhost"));
  CHECK(host_of_header("[::1]:8410") == std::optional<std::string>("::1"));
  CHECK(host_of_header("[::1]") == std::optional<std::string>("::1"));
  CHECK(host_of_header("::1") == std::optional<std::string>("::1"));
  CHECK_FALSE(host_of_header("").has_value());
  CHECK_FALSE(host_of_header("127.0.0.1:").has_value());
  CHECK_FALSE(host_of_header("127.0.0.1:80@evil.example").has_value());
  CHECK_FALSE(host_of_header("[::1]x").has_value());
}

TEST_CASE("auth: a Host that is not loopback, localhost or allowed is refused, reads too") {
  const AccessPolicy p = policy();
  for (const char* host :
       {"127.0.0.1:8410", "127.0.0.1", "[::1]:8410", "::1", "localhost:8410", "LocalHost"})
    CHECK(status(p, request("GET", "", host)) == 200);
  for (const char* host : {"127.attacker.example:8410", "evil.example", "", "10.0.0.5:8410"}) {
    CHECK(status(p, request("GET", "", host)) == 403);
    CHECK(status(p, request("GET", "Bearer " + kOperator, host)) == 403);
    CHECK(status(p, request("POST", "Bearer " + kOperator, host)) == 403);
  }
  AccessPolicy named = p;
  named.allowed_hosts = {"referee.example.org"};
  CHECK(status(named, request("GET", "", "referee.example.org:8410")) == 200);
  CHECK(status(named, request("GET", "", "REFEREE.example.org")) == 200);
  CHECK(status(named, request("GET", "", "other.example.org")) == 403);
}

TEST_CASE("auth: Origin null and foreign origins are refused on changes, before the token") {
  const AccessPolicy p = policy();
  const std::string op = "Bearer " + kOperator;
  CHECK(status(p, request("POST", op, "127.0.0.1:8410", "127.0.0.1", "null")) == 403);
  CHECK(status(p, request("POST", "", "127.0.0.1:8410", "127.0.0.1", "null")) == 403);
  CHECK(status(p, request("POST", op, "127.0.0.1:8410", "127.0.0.1", "http://evil.example")) ==
        403);
  CHECK(status(p, request("POST", "Bearer wrong-token-0000000", "127.0.0.1:8410", "127.0.0.1",
                          "http://evil.example")) == 403);
  CHECK(status(p, request("PATCH", op, "127.0.0.1:8410", "127.0.0.1",
                          "http://127.attacker.example:8410")) == 403);
  CHECK(status(p, request("POST", op, "127.0.0.1:8410", "127.0.0.1", "http://127.0.0.1:8410")) ==
        200);
  // Reads carry no Origin risk: a page may not read the answers anyway (no CORS headers).
  CHECK(status(p, request("GET", "", "127.0.0.1:8410", "127.0.0.1", "http://evil.example")) == 200);
}

TEST_CASE(
    "auth: every change over TCP needs a token, loopback included — reads on loopback do not") {
  const AccessPolicy p = policy();
  for (const char* method : {"POST", "PATCH", "DELETE", "PUT"})
    CHECK(status(p, request(method)) == 401);
  auto reader = check_access(p, request("GET"));
  CHECK(reader.status == 200);
  CHECK(reader.who.role == Role::Reader);
  CHECK(status(p, request("GET", "", "127.0.0.1:8410", "10.1.2.3")) == 401);
  CHECK(status(p, request("GET", "", "127.0.0.1:8410", "::1")) == 200);
  auto op = check_access(p, request("POST", "Bearer " + kOperator));
  CHECK(op.status == 200);
  CHECK(op.who.role == Role::Operator);
  CHECK(op.who.name == "operator");
  // From elsewhere, with a Host the operator allowed.
  AccessPolicy named = p;
  named.allowed_hosts = {"srv"};
  CHECK(status(named, request("POST", "Bearer " + kOperator, "srv:8410", "10.1.2.3")) == 200);
  CHECK(status(named, request("GET", "Bearer " + kAlice, "srv:8410", "10.1.2.3")) == 200);
}

TEST_CASE("auth: the bearer scheme in any case — other schemes and wrong tokens are 401") {
  const AccessPolicy p = policy();
  for (const std::string scheme : {"Bearer ", "bearer ", "BEARER ", "bEaReR  "})
    CHECK(status(p, request("POST", scheme + kOperator)) == 200);
  CHECK(status(p, request("POST", "Basic " + kOperator)) == 401);
  CHECK(status(p, request("POST", "Bearer")) == 401);
  CHECK(status(p, request("POST", "Bearer " + kOperator + "x")) == 401);
  CHECK(status(p, request("POST", "Bearer wrong-token-xxxxxx")) == 401);
  CHECK(status(p, request("GET", "Bearer wrong-token-xxxxxx")) == 401);  // a bad token is no reader
  CHECK(check_access(p, request("POST", "Basic x")).error.find("Bearer") != std::string::npos);
}

TEST_CASE("auth: an author token makes that author — revoked or unknown ones are refused") {
  AccessPolicy p = policy();
  auto d = check_access(p, request("POST", "Bearer " + kAlice));
  CHECK(d.status == 200);
  CHECK(d.who.role == Role::Author);
  CHECK(d.who.name == "alice");
  // Revoked: the lookup no longer finds it.
  p.author_of = [](const std::string&) -> Expected<std::optional<std::string>> {
    return std::optional<std::string>();
  };
  CHECK(status(p, request("POST", "Bearer " + kAlice)) == 401);
  // A lookup that fails is 503, never an open door.
  p.author_of = [](const std::string&) -> Expected<std::optional<std::string>> {
    return referee::Error{"database gone", referee::ErrorKind::Unavailable};
  };
  CHECK(status(p, request("POST", "Bearer " + kAlice)) == 503);
  CHECK(status(p, request("POST", "Bearer " + kOperator)) == 200);  // no lookup needed
  // Without an operator token, only the socket is the operator.
  AccessPolicy none = policy();
  none.operator_token.clear();
  CHECK(status(none, request("POST", "Bearer ")) == 401);
}

TEST_CASE("auth: behind a proxy every request needs a token — X-Forwarded-For names the client") {
  AccessPolicy p = policy();
  p.behind_proxy = true;
  auto r = request("GET");
  r.forwarded_for = "6.6.6.6, 203.0.113.9";
  auto d = check_access(p, r);
  CHECK(d.status == 401);
  CHECK(d.client == "203.0.113.9");  // the entry the proxy added, not the client's own word
  r.authorization = "Bearer " + kAlice;
  d = check_access(p, r);
  CHECK(d.status == 200);
  CHECK(d.client == "203.0.113.9");
  // Without a proxy the header is the client's word: ignored.
  AccessPolicy direct = policy();
  CHECK(check_access(direct, r).client == "127.0.0.1");
}

TEST_CASE("auth: the Unix socket is the operator, whatever the headers") {
  const AccessPolicy p = policy();
  auto r = request("POST", "", "");
  r.unix_socket = true;
  auto d = check_access(p, r);
  CHECK(d.status == 200);
  CHECK(d.who.role == Role::Operator);
}

TEST_CASE("auth: the operator token file is made on first start, private, and read after") {
  rtest::TempDir dir;
  const auto path = dir.file("serve.db.token");
  bool created = false;
  auto first = ensure_token_file(path, created);
  REQUIRE(first.ok());
  CHECK(created);
  CHECK(first->size() == 64);
  CHECK(first->find_first_not_of("0123456789abcdef") == std::string::npos);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto again = ensure_token_file(path, created);
  REQUIRE(again.ok());
  CHECK_FALSE(created);
  CHECK(*again == *first);
  CHECK(*random_token() != *first);
  // An existing file is checked as before: readable by all is refused, never rewritten.
  ::chmod(path.c_str(), 0644);
  CHECK_FALSE(ensure_token_file(path, created).ok());
  CHECK_FALSE(ensure_token_file(dir.file("no/such/dir/token"), created).ok());
  CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("roles: an author submits only among registered engines, never a command, env or dir") {
  const Principal op{Role::Operator, "operator"}, alice{Role::Author, "alice"}, reader{};
  const Json plain = Json::parse(R"({"name":"e","engine":[{"name":"a"},{"name":"b","tc":"1+0"}]})");
  CHECK(may_submit_event(alice, plain, false).ok());
  CHECK(may_submit_event(op, plain, false).ok());
  CHECK_FALSE(may_submit_event(reader, plain, false).ok());
  for (const char* key : {"command", "args", "env", "dir", "sha256", "memory_mb", "protocol0"}) {
    Json doc = plain;
    doc["engine"][0][key] = "x";
    INFO(key);
    CHECK_FALSE(may_submit_event(alice, doc, false).ok());
    CHECK(may_submit_event(op, doc, false).ok());
  }
  Json book = plain;
  book["openings"] = {{"book", "/etc/shadow"}};
  CHECK_FALSE(may_submit_event(alice, book, false).ok());
  // An endgame table is a file of the server too: naming one would probe its files.
  Json table = plain;
  table["adjudication"] = {{"egdb", "/etc/shadow"}};
  auto refused = may_submit_event(alice, table, false);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() == "an author cannot name an endgame table (a file of the server)");
  CHECK(may_submit_event(op, table, false).ok());
  Json prio = plain;
  prio["priority"] = 5;
  CHECK_FALSE(may_submit_event(alice, prio, false).ok());
  CHECK_FALSE(may_submit_event(alice, plain, true).ok());
  CHECK(may_submit_event(op, prio, true).ok());
}

TEST_CASE("roles: an author registers entries of defined engines and controls only its own") {
  const Principal op{Role::Operator, "operator"}, alice{Role::Author, "alice"}, reader{};
  const Json entry = Json::parse(R"({"name":"alice-bot","engine":"bot","games":["awale"]})");
  CHECK(may_register_engine(alice, entry, std::nullopt).ok());
  CHECK(may_register_engine(alice, entry, std::string("alice")).ok());
  CHECK_FALSE(may_register_engine(alice, entry, std::string("operator")).ok());
  CHECK_FALSE(may_register_engine(alice, entry, std::string("")).ok());
  CHECK_FALSE(may_register_engine(reader, entry, std::nullopt).ok());
  Json own = Json::parse(R"({"name":"x","command":"/bin/sh","games":["awale"]})");
  CHECK_FALSE(may_register_engine(alice, own, std::nullopt).ok());
  CHECK(may_register_engine(op, own, std::string("alice")).ok());
  for (const char* key : {"env", "dir", "args"}) {
    Json e = entry;
    e[key] = Json::object();
    CHECK_FALSE(may_register_engine(alice, e, std::nullopt).ok());
  }
  Json no_engine = entry;
  no_engine.erase("engine");
  CHECK_FALSE(may_register_engine(alice, no_engine, std::nullopt).ok());

  CHECK(may_control(op, "").ok());
  CHECK(may_control(op, "alice").ok());
  CHECK(may_control(alice, "alice").ok());
  CHECK_FALSE(may_control(alice, "bob").ok());
  CHECK_FALSE(may_control(alice, "").ok());
  CHECK_FALSE(may_control(alice, "operator").ok());
  CHECK_FALSE(may_control(reader, "").ok());
  CHECK(may_set_priority(op).ok());
  CHECK_FALSE(may_set_priority(alice).ok());
  CHECK(submitter_name(alice) == "alice");
  CHECK(submitter_name(op) == "operator");
}

TEST_CASE("roles: env values are hidden in what reads show, names kept") {
  const Json spec = Json::parse(
      R"({"engines":[{"name":"a","env":{"API_KEY":"s3cret","X":"1"}},{"name":"b","env":{}}],
          "env":{"TOP":"v"}})");
  const Json shown = redact_env(spec);
  CHECK(shown["engines"][0]["env"]["API_KEY"] == "<hidden>");
  CHECK(shown["engines"][0]["env"]["X"] == "<hidden>");
  CHECK(shown["engines"][1]["env"].empty());
  CHECK(shown["env"]["TOP"] == "<hidden>");
  CHECK(shown["engines"][0]["name"] == "a");
  CHECK(shown.dump().find("s3cret") == std::string::npos);
}
