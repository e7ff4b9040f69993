// The daemon's command-line clients, on its HTTP API (referee/service/API.md): submit, status,
// pause, resume, cancel, watch. Each takes --server URL (default $REFEREE_SERVER, else
// http://127.0.0.1:8410) and --token-file F (default $REFEREE_TOKEN_FILE): the operator token
// file `referee serve` made, or an author token (`referee token add`); every change needs one,
// reads from loopback do not.
//
// Decisions:
// - Exit statuses: 0 done; 1 the daemon refused (its one-line error is printed) or cannot be
//   reached; 2 bad usage. `watch` exits 0 when the event finished, 1 when it was cancelled or the
//   connection was lost for good.
// - `submit` sends the file's directory (?base=) so relative engine commands mean what they mean
//   in the file, as long as the daemon sees the same files (same machine or shared disk).
// - `watch` reads the live stream: a progress line (rewritten on a terminal, one line a second
//   otherwise) with the leaders, then the final standings on stdout.
#include <httplib.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.h"
#include "engines/system.h"
#include "event/tournament.h"
#include "service/auth.h"

namespace referee::cli {

namespace po = boost::program_options;
using Json = nlohmann::json;

namespace {

constexpr const char* kDefaultServer = "http://127.0.0.1:8410";

struct Connection {
  std::string server;
  std::string token;
};

// Reads --server and --token-file (or their environment variables); false after an error line.
bool connection_of(const std::string& command, const std::string& server,
                   const std::string& token_file, Connection& out) {
  out.server = server;
  if (out.server.empty()) {
    const char* env = std::getenv("REFEREE_SERVER");
    out.server = env && *env ? env : kDefaultServer;
  }
  while (!out.server.empty() && out.server.back() == '/') out.server.pop_back();
  if (out.server.rfind("http://", 0) != 0 && out.server.rfind("https://", 0) != 0) {
    std::cerr << "referee " << command << ": --server must be a URL (http://HOST:PORT), not '"
              << out.server << "'\n";
    return false;
  }
  std::string file = token_file;
  if (file.empty())
    if (const char* env = std::getenv("REFEREE_TOKEN_FILE")) file = env;
  if (!file.empty()) {
    auto token = service::read_token_file(file);
    if (!token) {
      std::cerr << "referee " << command << ": " << token.error() << "\n";
      return false;
    }
    out.token = *token;
  }
  return true;
}

httplib::Headers headers_of(const Connection& c) {
  httplib::Headers h;
  if (!c.token.empty()) h.emplace("Authorization", "Bearer " + c.token);
  return h;
}

std::unique_ptr<httplib::Client> client_of(const Connection& c) {
  auto client = std::make_unique<httplib::Client>(c.server);
  client->set_connection_timeout(5, 0);
  client->set_read_timeout(60, 0);
  client->set_write_timeout(10, 0);
  return client;
}

// The reply's JSON, or an error line on stderr and nothing.
std::optional<Json> answer(const std::string& command, const Connection& c,
                           const httplib::Result& res) {
  if (!res) {
    std::cerr << "referee " << command << ": cannot reach " << c.server << " ("
              << httplib::to_string(res.error()) << ")\n";
    return std::nullopt;
  }
  Json body = Json::parse(res->body, nullptr, false);
  if (res->status >= 400) {
    std::string text = body.is_object() && body.contains("error") && body["error"].is_string()
                           ? body["error"].get<std::string>()
                           : res->body;
    std::cerr << "referee " << command << ": " << res->status << ": " << text << "\n";
    if (res->status == 401 && c.token.empty())
      std::cerr << "referee " << command
                << ": give --token-file FILE (or $REFEREE_TOKEN_FILE): the daemon's operator "
                   "token file, or an author token\n";
    return std::nullopt;
  }
  if (body.is_discarded()) {
    std::cerr << "referee " << command << ": " << c.server << " answered something not JSON\n";
    return std::nullopt;
  }
  return body;
}

// A number of the reply, 0 when missing or null (a rating only bounded, a ladder's progress).
double number_of(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

long integer_of(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<long>() : 0L;
}

std::string text_of(const Json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return "-";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

std::string progress_line(const Json& e) {
  char buf[256];
  const long finished = integer_of(e, "finished"), scheduled = integer_of(e, "scheduled");
  std::string eta = e.contains("eta_s") && e["eta_s"].is_number()
                        ? "ETA " + duration_text(e["eta_s"].get<double>())
                        : "";
  if (e.value("kind", "") != "ladder")
    std::snprintf(buf, sizeof buf, "event %ld %s: [%ld/%ld] %.0f%%  running %ld  %s",
                  integer_of(e, "id"), e.value("state", "").c_str(), finished, scheduled,
                  100.0 * number_of(e, "progress"), integer_of(e, "running"), eta.c_str());
  else
    std::snprintf(buf, sizeof buf, "event %ld %s: %ld games  running %ld", integer_of(e, "id"),
                  e.value("state", "").c_str(), finished, integer_of(e, "running"));
  return buf;
}

// An sprt event's test: "LLR 1.23 (-2.94, 2.94) [0, 5]", then the verdict once decided; "" for
// other events.
std::string sprt_text(const Json& e) {
  if (!e.contains("sprt") || !e["sprt"].is_object()) return "";
  const Json& t = e["sprt"];
  char buf[160];
  std::snprintf(buf, sizeof buf, "LLR %.2f (%.2f, %.2f) [%g, %g]", number_of(t, "llr"),
                number_of(t, "lower"), number_of(t, "upper"), number_of(t, "elo0"),
                number_of(t, "elo1"));
  std::string out = buf;
  if (t.contains("verdict") && t["verdict"].is_string())
    out += ": " + t["verdict"].get<std::string>();
  return out;
}

// "a 12±30, b -12±30" from the first standings table.
std::string leaders(const Json& standings) {
  if (!standings.contains("tables") || standings["tables"].empty()) return "";
  std::string out;
  int n = 0;
  for (const auto& row : standings["tables"][0]["rows"]) {
    if (n++ == 3) break;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s%s %+.0f", out.empty() ? "" : ", ",
                  row.value("engine", "?").c_str(), number_of(row, "elo"));
    out += buf;
    if (row.contains("error") && row["error"].is_number())
      out += "±" + std::to_string(static_cast<long>(std::lround(row["error"].get<double>())));
  }
  return out;
}

void print_standings(const Json& standings) {
  if (!standings.contains("tables")) return;
  for (const auto& t : standings["tables"]) {
    std::printf("%s (%ld games)\n", t.value("game", "").c_str(), integer_of(t, "games"));
    std::printf("%4s %-20s %7s %6s %6s %6s %6s %6s %7s\n", "rank", "engine", "elo", "±95%", "games",
                "w", "d", "l", "score");
    for (const auto& r : t["rows"]) {
      const std::string err =
          r.contains("error") && r["error"].is_number()
              ? std::to_string(static_cast<long>(std::lround(r["error"].get<double>())))
              : "inf";
      std::printf("%4ld %-20s %7.1f %6s %6ld %6.1f %6.1f %6.1f %6.1f%%\n", integer_of(r, "rank"),
                  r.value("engine", "").c_str(), number_of(r, "elo"), err.c_str(),
                  integer_of(r, "games"), number_of(r, "w"), number_of(r, "d"), number_of(r, "l"),
                  100.0 * number_of(r, "score"));
    }
  }
}

bool parse(const Args& args, po::options_description& desc, po::variables_map& vm,
           const po::positional_options_description& pos) {
  po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc;
    return false;
  }
  return true;
}

void add_connection_options(po::options_description& desc, std::string& server,
                            std::string& token_file) {
  desc.add_options()("server", po::value(&server),
                     "the daemon's URL (default $REFEREE_SERVER, else http://127.0.0.1:8410)")(
      "token-file", po::value(&token_file),
      "the operator token file (serve's DB.token) or an author token's file (default "
      "$REFEREE_TOKEN_FILE); every change needs one");
}

// pause / resume / cancel
int control(const Args& args, const std::string& action) {
  std::string server, token_file, id;
  po::options_description desc("referee " + action + " ID [options]");
  desc.add_options()("help,h", "show this help");
  add_connection_options(desc, server, token_file);
  po::options_description all;
  all.add(desc).add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (!parse(args, all, vm, pos)) return 0;
  if (id.empty()) {
    std::cerr << "usage: referee " << action << " ID\n";
    return 2;
  }
  Connection c;
  if (!connection_of(action, server, token_file, c)) return 1;
  auto client = client_of(c);
  auto body = answer(
      action, c,
      client->Post("/api/events/" + id + "/" + action, headers_of(c), "", "application/json"));
  if (!body) return 1;
  std::cout << "event " << text_of(*body, "id") << " \"" << text_of(*body, "name")
            << "\": " << text_of(*body, "state") << "\n";
  return 0;
}

}  // namespace

int submit(const Args& args) {
  std::string server, token_file, file;
  int priority = 0;
  po::options_description desc("referee submit FILE [options]");
  desc.add_options()("help,h", "show this help")("priority", po::value(&priority),
                                                 "the event's priority (higher first)");
  add_connection_options(desc, server, token_file);
  po::options_description all;
  all.add(desc).add_options()("file", po::value(&file));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse(args, all, vm, pos)) return 0;
  if (file.empty()) {
    std::cerr << "usage: referee submit FILE\n";
    return 2;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "referee submit: cannot read '" << file << "'\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  Connection c;
  if (!connection_of("submit", server, token_file, c)) return 1;
  namespace fs = std::filesystem;
  const std::string base = fs::absolute(fs::path(file)).parent_path().lexically_normal().string();
  std::string path = "/api/events?base=" + httplib::detail::encode_query_param(base);
  if (vm.count("priority")) path += "&priority=" + std::to_string(priority);
  const bool is_json = fs::path(file).extension() == ".json";
  auto client = client_of(c);
  auto res = client->Post(path, headers_of(c), text.str(),
                          is_json ? "application/json" : "application/toml");
  auto body = answer("submit", c, res);
  if (!body) return 1;
  std::cout << "event " << text_of(*body, "id") << " \"" << text_of(*body, "name")
            << "\": " << text_of(*body, "scheduled") << " games, " << text_of(*body, "state")
            << (res->status == 201 ? "" : " (it was already submitted)") << "\n";
  return 0;
}

int status(const Args& args) {
  std::string server, token_file, id;
  po::options_description desc("referee status [ID] [options]");
  desc.add_options()("help,h", "show this help");
  add_connection_options(desc, server, token_file);
  po::options_description all;
  all.add(desc).add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (!parse(args, all, vm, pos)) return 0;
  Connection c;
  if (!connection_of("status", server, token_file, c)) return 1;
  auto client = client_of(c);
  if (id.empty()) {
    auto body = answer("status", c, client->Get("/api/events?limit=1000", headers_of(c)));
    if (!body) return 1;
    std::printf("%5s %-10s %-9s %12s  %s\n", "id", "kind", "state", "games", "name");
    for (const auto& e : (*body)["events"]) {
      const std::string games = std::to_string(integer_of(e, "finished")) + "/" +
                                std::to_string(integer_of(e, "scheduled"));
      std::printf("%5ld %-10s %-9s %12s  %s\n", integer_of(e, "id"), e.value("kind", "").c_str(),
                  e.value("state", "").c_str(), games.c_str(), e.value("name", "").c_str());
    }
    return 0;
  }
  auto event = answer("status", c, client->Get("/api/events/" + id, headers_of(c)));
  if (!event) return 1;
  std::cout << "event " << text_of(*event, "id") << " \"" << text_of(*event, "name") << "\" ("
            << text_of(*event, "kind") << ", priority " << text_of(*event, "priority") << ")\n"
            << progress_line(*event) << "\n";
  if (const std::string t = sprt_text(*event); !t.empty())
    std::cout << "sprt: " << t << " after " << integer_of((*event)["sprt"], "pairs")
              << " game pairs\n";
  if (event->contains("notices"))
    for (const auto& n : (*event)["notices"])
      std::cout << "notice: " << n.get<std::string>() << "\n";
  auto standings =
      answer("status", c, client->Get("/api/events/" + id + "/standings", headers_of(c)));
  if (!standings) return 1;
  print_standings(*standings);
  return 0;
}

int pause(const Args& args) {
  return control(args, "pause");
}
int resume(const Args& args) {
  return control(args, "resume");
}
int cancel(const Args& args) {
  return control(args, "cancel");
}

int watch(const Args& args) {
  std::string server, token_file, id;
  po::options_description desc("referee watch ID [options]");
  desc.add_options()("help,h", "show this help");
  add_connection_options(desc, server, token_file);
  po::options_description all;
  all.add(desc).add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (!parse(args, all, vm, pos)) return 0;
  if (id.empty()) {
    std::cerr << "usage: referee watch ID\n";
    return 2;
  }
  Connection c;
  if (!connection_of("watch", server, token_file, c)) return 1;
  auto client = client_of(c);
  auto event = answer("watch", c, client->Get("/api/events/" + id, headers_of(c)));
  if (!event) return 1;
  const bool tty = engines::stderr_is_terminal();
  Json standings = Json::object();
  std::string last_line;
  auto last_draw = std::chrono::steady_clock::now() - std::chrono::seconds(10);
  auto draw = [&](bool force) {
    const auto now = std::chrono::steady_clock::now();
    std::string line = progress_line(*event);
    if (const std::string t = sprt_text(*event); !t.empty()) line += "  " + t;
    const std::string top = leaders(standings);
    if (!top.empty()) line += "  " + top;
    if (line == last_line && !force) return;
    if (!force &&
        now - last_draw < (tty ? std::chrono::milliseconds(250) : std::chrono::seconds(1)))
      return;
    last_line = line;
    last_draw = now;
    if (tty) {
      if (line.size() > 140) line.resize(140);
      std::cerr << "\r\033[K" << line << std::flush;
    } else {
      std::cerr << line << "\n" << std::flush;
    }
  };
  auto over = [&] {
    const std::string state = event->value("state", "");
    return state == "finished" || state == "cancelled";
  };
  // Reads the stream until the event is over; reconnects a few times when it drops.
  int failures = 0;
  while (!over() && failures < 5) {
    std::string buffer;
    bool greeted = false;
    auto handle = [&](const std::string& frame) {
      std::string type, data;
      std::istringstream lines(frame);
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("event: ", 0) == 0) type = line.substr(7);
        if (line.rfind("data: ", 0) == 0) data += line.substr(6);
      }
      if (!greeted) {
        // Subscribed: read the event again, so nothing between the first read and now is lost.
        greeted = true;
        auto fresh = client_of(c)->Get("/api/events/" + id, headers_of(c));
        if (fresh && fresh->status == 200) {
          Json j = Json::parse(fresh->body, nullptr, false);
          if (j.is_object()) *event = j;
        }
      }
      Json j = data.empty() ? Json() : Json::parse(data, nullptr, false);
      if (type == "event_changed" && j.is_object()) *event = j;
      if (type == "standings" && j.is_object()) standings = j;
      draw(type == "event_changed");
    };
    auto res = client_of(c)->Get(
        "/api/stream?event=" + id, headers_of(c), [&](const char* data, std::size_t length) {
          buffer.append(data, length);
          for (auto at = buffer.find("\n\n"); at != std::string::npos; at = buffer.find("\n\n")) {
            handle(buffer.substr(0, at));
            buffer.erase(0, at + 2);
            if (over()) return false;
          }
          return true;
        });
    if (over()) break;
    if (res && res->status >= 400) {
      answer("watch", c, res);
      return 1;
    }
    ++failures;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  draw(true);
  if (tty) std::cerr << "\n";
  if (!over()) {
    std::cerr << "referee watch: lost the connection to " << c.server << "\n";
    return 1;
  }
  auto final_table =
      answer("watch", c, client->Get("/api/events/" + id + "/standings", headers_of(c)));
  if (final_table) print_standings(*final_table);
  if (const std::string t = sprt_text(*event); !t.empty()) std::cout << "sprt: " << t << "\n";
  if (event->value("state", "") == "cancelled") {
    std::cerr << "referee watch: event " << id << " was cancelled\n";
    return 1;
  }
  return 0;
}

}  // namespace referee::cli
