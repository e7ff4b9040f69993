#include "cli/client_connection.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "service/auth.h"

namespace referee::cli {

namespace po = boost::program_options;
using Json = nlohmann::json;

namespace {

constexpr const char* kDefaultServer = "http://127.0.0.1:8410";
// Where a daemon's socket is when none is named: `referee serve` run here on its default
// database, then the systemd unit's runtime directory (referee.service).
constexpr const char* kDefaultSockets[] = {"./referee.db.sock", "/run/referee/referee.sock"};

}  // namespace

const char* const kWhichServer =
    "The daemon is reached through, the first given: --socket PATH, --server URL,\n"
    "$REFEREE_SOCKET, $REFEREE_SERVER; when no server is named, the first socket\n"
    "that exists of ./referee.db.sock and /run/referee/referee.sock; else\n"
    "http://127.0.0.1:8410. Over a socket no token is needed (whoever may open it\n"
    "is the operator); over TCP every change needs --token-file.\n";

namespace {

bool connection_of(const std::string& command, const std::string& server, const std::string& socket,
                   const std::string& token_file, const HttpTimeouts& timeouts, Connection& out) {
  auto env = [](const char* name) -> std::string {
    const char* value = std::getenv(name);
    return value ? value : "";
  };
  if (!socket.empty() && !server.empty()) {
    std::cerr << "referee " << command << ": give --socket or --server, not both\n";
    return false;
  }
  std::string url;
  if (!socket.empty()) {
    out.client = HttpClient::unix_socket(socket, timeouts);
  } else if (!server.empty()) {
    url = server;
  } else if (const std::string s = env("REFEREE_SOCKET"); !s.empty()) {
    out.client = HttpClient::unix_socket(s, timeouts);
    out.note = ", named by $REFEREE_SOCKET";
  } else if (const std::string u = env("REFEREE_SERVER"); !u.empty()) {
    url = u;
    out.note = ", named by $REFEREE_SERVER";
  } else {
    for (const char* path : kDefaultSockets) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        out.client = HttpClient::unix_socket(path, timeouts);
        out.note = ", found there (--server URL for TCP)";
        break;
      }
    }
    if (!out.client) {
      url = kDefaultServer;
      out.note = std::string(", the default: no socket at ") + kDefaultSockets[0] + " or " +
                 kDefaultSockets[1];
    }
  }
  if (!out.client) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    auto client = HttpClient::tcp(url, timeouts);
    if (!client) {
      std::cerr << "referee " << command << ": --server: " << client.error() << "\n";
      return false;
    }
    out.client = *client;
  }
  std::string file = token_file;
  if (file.empty()) file = env("REFEREE_TOKEN_FILE");
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

}  // namespace

Expected<HttpResponse> call(const Connection& c, const std::string& method,
                            const std::string& target, std::string body, std::string content_type) {
  HttpRequest r;
  r.method = method;
  r.target = target;
  if (!c.token.empty()) r.headers.emplace_back("Authorization", "Bearer " + c.token);
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return c.client->send(r);
}

void report_failure(const std::string& command, const Connection& c, const Error& e) {
  std::cerr << "referee " << command << ": " << e.message
            << (e.kind == ErrorKind::Unavailable ? c.note : "") << "\n";
}

std::optional<Json> answer(const std::string& command, const Connection& c,
                           const Expected<HttpResponse>& res) {
  if (!res) {
    report_failure(command, c, res.failure());
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
                   "token file, or an author token; or, on the daemon's machine, --socket PATH: "
                   "its Unix socket\n";
    return std::nullopt;
  }
  if (body.is_discarded()) {
    std::cerr << "referee " << command << ": " << c.client->name()
              << " answered something not JSON\n";
    return std::nullopt;
  }
  return body;
}

void add_connection_options(po::options_description& desc, ConnectionFlags& flags) {
  desc.add_options()("socket", po::value(&flags.socket)->value_name("PATH"),
                     "the daemon's Unix socket (serve's DB.sock): no token needed (default "
                     "$REFEREE_SOCKET; see below)")(
      "server", po::value(&flags.server)->value_name("URL"),
      "the daemon's http://HOST:PORT (default $REFEREE_SERVER; see below)")(
      "token-file", po::value(&flags.token_file),
      "the operator token file (serve's DB.token) or an author token's file (default "
      "$REFEREE_TOKEN_FILE); every change over TCP needs one");
}

bool connection_of(const std::string& command, const ConnectionFlags& flags, Connection& out) {
  return connection_of(command, flags.server, flags.socket, flags.token_file, flags.timeouts, out);
}

}  // namespace referee::cli
