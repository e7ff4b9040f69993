// How the daemon's command-line clients reach it (cmd_client.cpp, cmd_engine_client.cpp): the
// server chosen from the flags and the environment, the token read, one request sent, its answer
// or its one-line error printed.
//
// Decisions:
// - Named beats found: a socket is looked for only when neither --server nor $REFEREE_SERVER
//   names a server, so a user who names one always gets it. Flags beat the environment.
// - Over the Unix socket no token is needed (its file permissions are the credential); over TCP
//   every change needs --token-file (the operator's, or an author's).
#pragma once

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/expected.h"
#include "cli/http_client.h"

namespace referee::cli {

// How the daemon is chosen, for --help.
extern const char* const kWhichServer;

struct Connection {
  std::optional<HttpClient> client;
  std::string token;
  // Said after a failure to connect: how the server was chosen, when the user did not name it.
  std::string note;
};

struct ConnectionFlags {
  std::string server, socket, token_file;
  HttpTimeouts timeouts;  // not a flag: a command sending much (an upload) gives itself longer
};

// --socket, --server and --token-file.
void add_connection_options(boost::program_options::options_description& desc,
                            ConnectionFlags& flags);
// Chooses the server (kWhichServer) and reads the token file; false after an error line.
bool connection_of(const std::string& command, const ConnectionFlags& flags, Connection& out);
// One request, with the token when there is one.
Expected<HttpResponse> call(const Connection& c, const std::string& method,
                            const std::string& target, std::string body = "",
                            std::string content_type = "");
// Prints why a request failed, in one line.
void report_failure(const std::string& command, const Connection& c, const Error& e);
// The reply's JSON, or an error line on stderr and nothing.
std::optional<nlohmann::json> answer(const std::string& command, const Connection& c,
                                     const Expected<HttpResponse>& res);

}  // namespace referee::cli
