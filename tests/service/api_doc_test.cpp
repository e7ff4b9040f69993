// referee/service/API.md checked against a real daemon: every example request of the page (a
// `curl` block, with the TOML body that follows it) is parsed out of the page and sent, in the
// page's order, to a daemon holding the page's state (event 1 the finished "demo", event 2 the
// ladder of gamma and delta); the reply must succeed and carry every key the documented reply
// shows (JSON, and JSON Lines in its records), or begin like it (CSV, PGN), or be HTML holding
// each line it shows (the dashboard's page). A changed API or a changed page breaks this test.
// The live stream's example (curl -N) is left to ladder_stream_test.cpp.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/service/daemon_util.h"

using namespace stest;

namespace {

struct Block {
  std::string lang;  // after the opening fence: "json", "toml", "" ...
  std::string text;
  std::string section;  // the ### heading it is under
};

std::vector<Block> fenced_blocks(const std::string& path) {
  std::ifstream in(path);
  std::vector<Block> out;
  std::string line, section;
  std::optional<Block> open;
  while (std::getline(in, line)) {
    if (!open && line.rfind("### ", 0) == 0) section = line.substr(4);
    if (line.rfind("```", 0) == 0) {
      if (open) {
        out.push_back(*open);
        open.reset();
      } else {
        open = Block{line.substr(3), "", section};
      }
      continue;
    }
    if (open) open->text += line + "\n";
  }
  return out;
}

// A curl command line, the way the page writes them: single quotes, `\` line continuations.
struct Request {
  std::string method = "GET", path, content_type, body, body_file;
  bool stream = false;
};

Request parse_curl(std::string text) {
  for (auto at = text.find("\\\n"); at != std::string::npos; at = text.find("\\\n"))
    text.replace(at, 2, " ");
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, in_word = false;
  for (char ch : text) {
    if (ch == '\'') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && std::isspace(static_cast<unsigned char>(ch))) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += ch;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  Request r;
  bool explicit_method = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= words.size()) throw std::runtime_error("curl option " + w + " without value");
      return words[++i];
    };
    if (w == "-X") {
      r.method = next();
      explicit_method = true;
    } else if (w == "-H") {
      const std::string h = next();
      if (h.rfind("Content-Type: ", 0) == 0) r.content_type = h.substr(14);
    } else if (w == "-d") {
      r.body = next();
      if (!explicit_method) r.method = "POST";
    } else if (w == "--data-binary") {
      r.body_file = next();
      if (!explicit_method) r.method = "POST";
    } else if (w == "-N") {
      r.stream = true;
    } else if (w.rfind("http://", 0) == 0) {
      r.path = w.substr(w.find('/', 7));
    } else {
      throw std::runtime_error("curl word the test does not know: " + w);
    }
  }
  return r;
}

// Every "key": of a (possibly shortened, not parseable) JSON text.
std::set<std::string> documented_keys(const std::string& text) {
  static const std::regex key("\"([A-Za-z_][A-Za-z0-9_]*)\":");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator();
       ++it)
    out.insert((*it)[1].str());
  return out;
}

void keys_of(const Json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      out.insert(it.key());
      keys_of(it.value(), out);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) keys_of(e, out);
  }
}

httplib::Result send(httplib::Client& c, const Request& r) {
  const std::string type = r.content_type.empty() ? "application/json" : r.content_type;
  if (r.method == "GET") return c.Get(r.path);
  if (r.method == "POST") return c.Post(r.path, r.body, type);
  if (r.method == "PATCH") return c.Patch(r.path, r.body, type);
  throw std::runtime_error("method the test does not know: " + r.method);
}

}  // namespace

TEST_CASE("API.md: every example request gets a reply with the documented fields") {
  const auto blocks = fenced_blocks(SOURCE_DIR "/referee/service/API.md");
  struct Example {
    Request request;
    Block reply;
  };
  std::vector<Example> examples;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].text.rfind("curl ", 0) != 0) continue;
    INFO(blocks[i].text);
    Example e{parse_curl(blocks[i].text), {}};
    std::size_t next = i + 1;
    if (!e.request.body_file.empty()) {
      REQUIRE(next < blocks.size());
      // The body a --data-binary sends: a tournament file, or an artifact's file.
      REQUIRE((blocks[next].lang == "toml" || blocks[next].lang == "python"));
      e.request.body = blocks[next].text;
      ++next;
    }
    REQUIRE(next < blocks.size());
    REQUIRE(blocks[next].text.rfind("curl ", 0) != 0);
    e.reply = blocks[next];
    examples.push_back(e);
  }
  // The page documents every endpoint group; a page that lost its examples fails here.
  REQUIRE(examples.size() >= 20);
  for (auto& e : examples)
    e.request.body = rtest::replace_all(e.request.body, "/opt/engines/mock_engine", kMock);

  TempDir dir;
  Daemon d(dir, {"-c", "2"});
  REQUIRE(d.ready());
  auto c = d.client();
  // The page's state: event 1 is the demo tournament (finished), event 2 the ladder of gamma and
  // delta with a few games played. Made with the page's own requests.
  auto find = [&](const std::string& method, const std::string& path_start) -> const Example& {
    for (const auto& e : examples)
      if (e.request.method == method && e.request.path.rfind(path_start, 0) == 0) return e;
    FAIL("no example " << method << " " << path_start);
    throw std::logic_error("unreachable");
  };
  auto demo = send(c, find("POST", "/api/events").request);
  REQUIRE(demo);
  INFO(demo->body);
  REQUIRE(demo->status == 201);
  REQUIRE(Json::parse(demo->body)["id"] == 1);
  REQUIRE(wait_state(c, 1, "finished"));
  Request gamma = find("POST", "/api/engines").request;
  auto reg = send(c, gamma);
  REQUIRE(reg);
  REQUIRE(reg->status == 201);
  Request delta = gamma;
  delta.body = rtest::replace_all(gamma.body, "\"gamma\"", "\"delta\"");
  reg = send(c, delta);
  REQUIRE(reg);
  REQUIRE(reg->status == 201);
  REQUIRE(get_json(c, "/api/events/2")["kind"] == "ladder");
  REQUIRE(wait_until(
      [&] { return get_json(c, "/api/games?event=2&status=finished")["total"] >= 4; }, 60));

  int checked = 0;
  for (const auto& e : examples) {
    if (e.request.stream) continue;
    INFO(e.reply.section << ": " << e.request.method << " " << e.request.path);
    auto res = send(c, e.request);
    REQUIRE(res);
    INFO(res->body.substr(0, 2000));
    CHECK(res->status >= 200);
    CHECK(res->status < 300);
    if (e.reply.lang == "json") {
      const Json got = Json::parse(res->body);
      std::set<std::string> have;
      keys_of(got, have);
      for (const auto& key : documented_keys(e.reply.text)) {
        INFO("documented key '" << key << "'");
        CHECK(have.count(key) == 1);
      }
    } else if (e.reply.lang == "html") {
      // A page: HTML, holding every line the page shows of it (the markers of the dashboard).
      CHECK(contains(res->get_header_value("Content-Type"), "text/html"));
      const auto markers = rtest::lines_of(e.reply.text);
      CHECK_FALSE(markers.empty());
      const std::string page = "\n" + res->body;
      for (const auto& line : markers) {
        INFO("documented line '" << line << "'");
        CHECK(contains(page, "\n" + line + "\n"));
      }
    } else if (e.reply.lang == "jsonl") {
      // JSON Lines: every line is an object, and the records carry every key the page shows.
      const auto lines = rtest::lines_of(res->body);
      REQUIRE_FALSE(lines.empty());
      std::set<std::string> have;
      for (const auto& line : lines) keys_of(Json::parse(line), have);
      for (const auto& key : documented_keys(e.reply.text)) {
        INFO("documented key '" << key << "'");
        CHECK(have.count(key) == 1);
      }
    } else {
      // A text export: the reply begins with the page's first line.
      const std::string first = e.reply.text.substr(0, e.reply.text.find('\n'));
      CHECK(res->body.rfind(first, 0) == 0);
    }
    ++checked;
  }
  CHECK(checked + 1 == static_cast<int>(examples.size()));  // all but the live stream
}
