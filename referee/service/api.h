// The daemon's HTTP API (referee/service/API.md is its reference): routes, access checks, error
// bodies, the live stream and the exports, as one handler for the HTTP server (http_server.h).
// Handlers read through the ReadPool and write through the Recorder; none of them holds the core's
// mutex across I/O.
//
// Decisions:
// - Every error is a 4xx/5xx with {"error": "one line naming the culprit"}, including the ones
//   the server makes itself (413 body too large, 431, 400 malformed request, 503 busy) and an
//   unknown path (404).
// - Ids in paths are decimal integers from 1 to 2^53; anything else is 400, a missing one 404.
// - Query parameters are checked: unknown ones are 400 (a misspelled filter silently ignored
//   would show the wrong games), except "_" (a browser cache-buster).
// - Bodies: JSON for engines and priorities (Content-Type application/json), TOML or JSON for
//   tournament files (application/toml, text/toml, application/json); anything else is 415.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include "service/core.h"
#include "service/http_router.h"
#include "service/http_server.h"

namespace referee::service {

using Request = http::Request;
using Response = http::Response;

// The upload of engine artifacts: its POST bodies are streamed to files (http_server.h).
inline constexpr const char* kArtifactsPath = "/api/artifacts";

// Checks access, then routes; an exception in a route is a 500 and a log line.
http::Handler api_handler(Core& core);
// GET /api/stream and GET /api/export (api_stream.cpp).
void install_stream_routes(http::Router& router, Core& core);

// The artifact routes (api_artifacts.cpp), and the check of an upload's head before its body is
// read: 100 to let the body come, else an error reply.
void install_artifact_routes(http::Router& router, Core& core);
void admit_upload(Core& core, const Request& req, Response& res);
// Shared by the files of the API.
void reply(Response& res, int status, const Json& body);
void reply_error(Response& res, int status, const std::string& text);
// The query's parameters, refusing unknown ones and, but for `repeatable` ones, any given twice:
// an error text, or "" when they are fine.
std::string check_params(const Request& req, std::initializer_list<const char*> known,
                         std::initializer_list<const char*> repeatable = {});
// A positive integer id; nothing when `text` is not one.
std::optional<std::int64_t> parse_id(const std::string& text);
// An integer parameter within [min, max], or the default when absent; error text in `error`.
std::optional<long long> int_param(const Request& req, const char* name, long long min,
                                   long long max, long long fallback, std::string& error);

}  // namespace referee::service
