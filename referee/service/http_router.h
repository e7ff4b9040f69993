// Routes of the HTTP API: a method and a path pattern (an ECMAScript regex matched against the
// whole decoded path) to a handler. The first route that matches wins; HEAD is served by the GET
// routes (the server leaves the body out). A path no route matches is 404 "no such endpoint".
#pragma once

#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "service/http_message.h"

namespace referee::service::http {

class Router {
 public:
  using Route = std::function<void(const Request&, Response&)>;

  void get(const std::string& pattern, Route route) { add("GET", pattern, std::move(route)); }
  void post(const std::string& pattern, Route route) { add("POST", pattern, std::move(route)); }
  void patch(const std::string& pattern, Route route) { add("PATCH", pattern, std::move(route)); }

  // Fills req.matches and calls the route; false when no route matches (nothing is written).
  bool dispatch(Request& req, Response& res) const;

 private:
  struct Entry {
    std::string method;
    std::regex pattern;
    Route route;
  };
  void add(std::string method, const std::string& pattern, Route route);
  std::vector<Entry> routes_;
};

}  // namespace referee::service::http
