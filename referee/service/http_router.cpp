#include "service/http_router.h"

namespace referee::service::http {

void Router::add(std::string method, const std::string& pattern, Route route) {
  routes_.push_back({std::move(method), std::regex(pattern), std::move(route)});
}

bool Router::dispatch(Request& req, Response& res) const {
  // libstdc++'s regex recurses per character: no endpoint has a path this long, and none is
  // matched against one.
  constexpr std::size_t kLongestPath = 1024;
  if (req.path.size() > kLongestPath) return false;
  const std::string& method = req.method == "HEAD" ? std::string("GET") : req.method;
  for (const auto& entry : routes_) {
    if (entry.method != method) continue;
    std::smatch match;
    if (!std::regex_match(req.path, match, entry.pattern)) continue;
    req.matches.assign(match.begin(), match.end());
    entry.route(req, res);
    return true;
  }
  return false;
}

}  // namespace referee::service::http
