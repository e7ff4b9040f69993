// The daemon's command-line clients, on its HTTP API (referee/service/API.md): submit, status,
// pause, resume, cancel, watch. Each reaches the daemon through its Unix socket (--socket PATH,
// $REFEREE_SOCKET, or one found at ./referee.db.sock or /run/referee/referee.sock when no server
// is named): no token is needed there, the socket's file permissions are the credential. Or over
// TCP: --server URL (default $REFEREE_SERVER, else http://127.0.0.1:8410) with --token-file F
// (default $REFEREE_TOKEN_FILE): the operator token file `referee serve` made, or an author token
// (`referee token add`); every change over TCP needs one, reads from loopback do not.
//
// Decisions:
// - Exit statuses: 0 done; 1 the daemon refused (its one-line error is printed) or cannot be
//   reached; 2 bad usage. `watch` exits 0 when the event finished, 1 when it was cancelled or the
//   connection was lost for good.
// - `submit` sends the file's directory (?base=) so relative engine commands mean what they mean
//   in the file, as long as the daemon sees the same files (same machine or shared disk).
// - How the daemon is chosen and errors are printed: client_connection.h.
// - `watch` reads the live stream: a progress line (rewritten on a terminal, one line a second
//   otherwise) with the leaders, then the final standings on stdout.
// - Progress lines say how many games were skipped and why (the event's skipped_reasons, read
//   again whenever the stream's count changes); `status` adds each engine that is not ok.
// - Ratings are printed as the daemon wrote them (`text`: "> 0.0" for a bound, `ref` for a
//   group's reference) with the table's legend, never as bare numbers a bound would contradict.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "cli/cli.h"
#include "cli/client_connection.h"
#include "cli/http_client.h"
#include "cli/options.h"
#include "engines/system.h"
#include "event/tournament.h"
#include "service/auth.h"

namespace referee::cli {

namespace po = boost::program_options;
using Json = nlohmann::json;

namespace {

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

// "  skipped 18 (engine 'x' does not declare awale)": the games never to be played and why
// (skipped_reasons, which only GET /api/events/ID carries); "" when none was skipped.
std::string skipped_text(const Json& e) {
  const long skipped = integer_of(e, "skipped");
  if (skipped == 0) return "";
  std::string why;
  if (e.contains("skipped_reasons") && e["skipped_reasons"].is_array())
    for (const auto& r : e["skipped_reasons"])
      why += (why.empty() ? "" : "; ") + r.value("reason", std::string("?")) +
             (e["skipped_reasons"].size() > 1 ? " (" + std::to_string(integer_of(r, "games")) + ")"
                                              : "");
  return "  skipped " + std::to_string(skipped) + (why.empty() ? "" : " (" + why + ")");
}

std::string progress_line(const Json& e) {
  char buf[256];
  const long finished = integer_of(e, "finished"), scheduled = integer_of(e, "scheduled");
  std::string eta = e.contains("eta_s") && e["eta_s"].is_number()
                        ? "ETA " + event::duration_text(e["eta_s"].get<double>())
                        : "";
  if (e.value("kind", "") != "ladder")
    std::snprintf(buf, sizeof buf, "event %ld %s: [%ld/%ld] %.0f%%  running %ld  %s",
                  integer_of(e, "id"), e.value("state", "").c_str(), finished, scheduled,
                  100.0 * number_of(e, "progress"), integer_of(e, "running"), eta.c_str());
  else
    std::snprintf(buf, sizeof buf, "event %ld %s: %ld games  running %ld", integer_of(e, "id"),
                  e.value("state", "").c_str(), finished, integer_of(e, "running"));
  return buf + skipped_text(e);
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

// A rating as the daemon wrote it ("12.3", "> 0.0", "?"); older daemons send only the number.
std::string elo_of(const Json& row) {
  if (row.contains("text") && row["text"].is_string()) return row["text"].get<std::string>();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", number_of(row, "elo"));
  return buf;
}

// Its error, rounded: "30"; "ref" for a group's only finite rating; "-" for a bound.
std::string error_of(const Json& row) {
  if (row.value("reference", false)) return "ref";
  if (!row.contains("error") || !row["error"].is_number()) return "-";
  return std::to_string(static_cast<long>(std::lround(row["error"].get<double>())));
}

// "a 12.3±30, b > 0.0, c 0.0 ref" from the first standings table.
std::string leaders(const Json& standings) {
  if (!standings.contains("tables") || standings["tables"].empty()) return "";
  std::string out;
  int n = 0;
  for (const auto& row : standings["tables"][0]["rows"]) {
    if (n++ == 3) break;
    out += (out.empty() ? "" : ", ") + row.value("engine", "?") + " " + elo_of(row);
    const std::string error = error_of(row);
    if (error == "ref")
      out += " ref";
    else if (error != "-")
      out += "±" + error;
  }
  return out;
}

void print_standings(const Json& standings) {
  if (!standings.contains("tables")) return;
  for (const auto& t : standings["tables"]) {
    std::printf("%s (%ld games)\n", t.value("game", "").c_str(), integer_of(t, "games"));
    std::printf("%4s %-20s %9s %6s %6s %6s %6s %6s %7s\n", "rank", "engine", "elo", "±95%", "games",
                "w", "d", "l", "score");
    for (const auto& r : t["rows"])
      std::printf("%4ld %-20s %9s %6s %6ld %6.1f %6.1f %6.1f %6.1f%%\n", integer_of(r, "rank"),
                  r.value("engine", "").c_str(), elo_of(r).c_str(), error_of(r).c_str(),
                  integer_of(r, "games"), number_of(r, "w"), number_of(r, "d"), number_of(r, "l"),
                  100.0 * number_of(r, "score"));
    if (t.contains("legend") && t["legend"].is_array())
      for (const auto& line : t["legend"])
        if (line.is_string()) std::printf("%s\n", line.get<std::string>().c_str());
  }
}

// --help (with how the daemon is found) and --version print and give the exit status.
std::optional<int> parse(const Args& args, const po::options_description& desc,
                         const po::options_description& hidden, po::variables_map& vm,
                         const po::positional_options_description& pos) {
  return parse_captioned(args, desc, vm, &pos, &hidden, kWhichServer);
}

// pause / resume / cancel
int control(const Args& args, const std::string& action) {
  ConnectionFlags flags;
  std::string id;
  po::options_description desc("referee " + action + " ID [options]");
  add_connection_options(desc, flags);
  po::options_description hidden;
  hidden.add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (auto done = parse(args, desc, hidden, vm, pos)) return *done;
  if (id.empty()) {
    std::cerr << "usage: referee " << action << " ID\n";
    return 2;
  }
  Connection c;
  if (!connection_of(action, flags, c)) return 1;
  auto body = answer(action, c,
                     call(c, "POST", "/api/events/" + id + "/" + action, "", "application/json"));
  if (!body) return 1;
  std::cout << "event " << text_of(*body, "id") << " \"" << text_of(*body, "name")
            << "\": " << text_of(*body, "state") << "\n";
  return 0;
}

}  // namespace

int submit(const Args& args) {
  ConnectionFlags flags;
  std::string file;
  int priority = 0;
  po::options_description desc("referee submit FILE [options]");
  desc.add_options()("priority", po::value(&priority), "the event's priority (higher first)");
  add_connection_options(desc, flags);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (auto done = parse(args, desc, hidden, vm, pos)) return *done;
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
  if (!connection_of("submit", flags, c)) return 1;
  namespace fs = std::filesystem;
  const std::string base = fs::absolute(fs::path(file)).parent_path().lexically_normal().string();
  std::string path = "/api/events?base=" + url_encode(base);
  if (vm.count("priority")) path += "&priority=" + std::to_string(priority);
  const bool is_json = fs::path(file).extension() == ".json";
  auto res = call(c, "POST", path, text.str(), is_json ? "application/json" : "application/toml");
  auto body = answer("submit", c, res);
  if (!body) return 1;
  std::cout << "event " << text_of(*body, "id") << " \"" << text_of(*body, "name")
            << "\": " << text_of(*body, "scheduled") << " games, " << text_of(*body, "state")
            << (res->status == 201 ? "" : " (it was already submitted)") << "\n";
  return 0;
}

int status(const Args& args) {
  ConnectionFlags flags;
  std::string id;
  po::options_description desc("referee status [ID] [options]");
  add_connection_options(desc, flags);
  po::options_description hidden;
  hidden.add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (auto done = parse(args, desc, hidden, vm, pos)) return *done;
  Connection c;
  if (!connection_of("status", flags, c)) return 1;
  if (id.empty()) {
    auto body = answer("status", c, call(c, "GET", "/api/events?limit=1000"));
    if (!body) return 1;
    std::printf("%5s %-10s %-9s %12s %8s  %s\n", "id", "kind", "state", "games", "skipped", "name");
    for (const auto& e : (*body)["events"]) {
      const std::string games = std::to_string(integer_of(e, "finished")) + "/" +
                                std::to_string(integer_of(e, "scheduled"));
      std::printf("%5ld %-10s %-9s %12s %8ld  %s\n", integer_of(e, "id"),
                  e.value("kind", "").c_str(), e.value("state", "").c_str(), games.c_str(),
                  integer_of(e, "skipped"), e.value("name", "").c_str());
    }
    return 0;
  }
  auto event = answer("status", c, call(c, "GET", "/api/events/" + id));
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
  if (event->contains("engine_status") && (*event)["engine_status"].is_array())
    for (const auto& e : (*event)["engine_status"])
      if (e.value("status", "ok") != "ok")
        std::cout << "engine " << text_of(e, "name") << ": " << text_of(e, "status") << ": "
                  << text_of(e, "reason")
                  << (integer_of(e, "skipped") > 0
                          ? " (" + std::to_string(integer_of(e, "skipped")) + " games skipped)"
                          : std::string())
                  << "\n";
  auto standings = answer("status", c, call(c, "GET", "/api/events/" + id + "/standings"));
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
  ConnectionFlags flags;
  std::string id;
  po::options_description desc("referee watch ID [options]");
  add_connection_options(desc, flags);
  po::options_description hidden;
  hidden.add_options()("id", po::value(&id));
  po::positional_options_description pos;
  pos.add("id", 1);
  po::variables_map vm;
  if (auto done = parse(args, desc, hidden, vm, pos)) return *done;
  if (id.empty()) {
    std::cerr << "usage: referee watch ID\n";
    return 2;
  }
  Connection c;
  if (!connection_of("watch", flags, c)) return 1;
  auto event = answer("watch", c, call(c, "GET", "/api/events/" + id));
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
  auto refresh = [&] {
    auto fresh = call(c, "GET", "/api/events/" + id);
    if (fresh && fresh->status == 200) {
      Json j = Json::parse(fresh->body, nullptr, false);
      if (j.is_object()) *event = j;
    }
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
        refresh();
      }
      Json j = data.empty() ? Json() : Json::parse(data, nullptr, false);
      if (type == "event_changed" && j.is_object()) {
        // The stream's summary has no reasons: keep the last ones, read anew when they changed.
        const bool more_skipped = integer_of(j, "skipped") != integer_of(*event, "skipped");
        if (event->contains("skipped_reasons")) j["skipped_reasons"] = (*event)["skipped_reasons"];
        *event = j;
        if (more_skipped) refresh();
      }
      if (type == "standings" && j.is_object()) standings = j;
      draw(type == "event_changed");
    };
    HttpRequest subscribe;
    subscribe.target = "/api/stream?event=" + id;
    if (!c.token.empty()) subscribe.headers.emplace_back("Authorization", "Bearer " + c.token);
    auto res = c.client->stream(subscribe, [&](std::string_view data) {
      buffer.append(data);
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
    std::cerr << "referee watch: lost the connection to " << c.client->name() << "\n";
    return 1;
  }
  auto final_table = answer("watch", c, call(c, "GET", "/api/events/" + id + "/standings"));
  if (final_table) print_standings(*final_table);
  if (const std::string t = sprt_text(*event); !t.empty()) std::cout << "sprt: " << t << "\n";
  if (event->value("state", "") == "cancelled") {
    std::cerr << "referee watch: event " << id << " was cancelled\n";
    return 1;
  }
  return 0;
}

}  // namespace referee::cli
