// Helpers of the daemon's tests: `referee serve` run as a real process on an ephemeral loopback
// port (its first stdout line names it), an HTTP client on it, tournament files of mock engines,
// and polling for a condition instead of sleeping a fixed time.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/referee/rtest_util.h"

namespace stest {

using Json = nlohmann::json;
using rtest::contains;
using rtest::TempDir;

inline const std::string kMock = SUPPORT_DIR "/mock_engine";

// Polls `done` every 20 ms until it holds or `seconds` pass; returns whether it held.
inline bool wait_until(const std::function<bool()>& done, double seconds = 30) {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

// A daemon process. Killed (SIGKILL) if still running when destroyed.
// A child process's end, for the test classes that spawn `referee`: whether it still runs (reaping
// it when it ended), and waiting for it; `status` is its exit status, 128 + signal when killed.
inline bool child_running(pid_t pid, bool& exited, int& status) {
  if (exited) return false;
  int raw = 0;
  const pid_t r = ::waitpid(pid, &raw, WNOHANG);
  if (r == pid) {
    exited = true;
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    return false;
  }
  return r == 0;
}

inline int child_wait(pid_t pid, bool& exited, int& status) {
  if (!exited) {
    int raw = 0;
    if (::waitpid(pid, &raw, 0) == pid) {
      exited = true;
      status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    }
  }
  return status;
}

class Daemon {
 public:
  // `prefix`: a command that runs the daemon (`ip netns exec NAME`, which execs it: same pid).
  Daemon(const TempDir& dir, std::vector<std::string> args, const std::string& tag = "serve",
         std::vector<std::string> prefix = {})
      : out_path_(dir.file(tag + ".out")), err_path_(dir.file(tag + ".err")) {
    std::vector<std::string> text = std::move(prefix);
    text.insert(text.end(), {REFEREE_BIN, "serve"});
    bool has_listen = false, has_db = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      has_listen = has_listen || args[i] == "--listen";
      has_db = has_db || args[i] == "--db";
      if (args[i] == "--token-file" && i + 1 < args.size()) token_file_ = args[i + 1];
    }
    if (!has_listen) text.insert(text.end(), {"--listen", "127.0.0.1:0"});
    if (!has_db) text.insert(text.end(), {"--db", dir.file("serve.db")});
    // The operator token: a file of the test's own (made by the daemon on first start).
    if (token_file_.empty()) {
      token_file_ = dir.file(tag + ".token");
      text.insert(text.end(), {"--token-file", token_file_});
    }
    text.insert(text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : text) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      int in = ::open("/dev/null", O_RDONLY);
      int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      ::execvp(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~Daemon() {
    if (running()) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Waits for the "listening on" line; false when the daemon exited first or took too long.
  bool ready(double seconds = 20) {
    return wait_until(
               [&] {
                 const std::string out = rtest::read_text(out_path_);
                 const auto at = out.find("listening on http://");
                 if (at != std::string::npos && out.find('\n', at) != std::string::npos) {
                   const auto colon = out.rfind(':', out.find('\n', at));
                   port_ = std::stoi(out.substr(colon + 1));
                   return true;
                 }
                 return !running();
               },
               seconds) &&
           port_ > 0;
  }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // A client with the operator token (every change needs a token).
  httplib::Client client() const {
    httplib::Client c = anonymous();
    c.set_default_headers({{"Authorization", "Bearer " + token()}});
    return c;
  }
  // A client without a token: a reader on loopback.
  httplib::Client anonymous() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30, 0);
    c.set_connection_timeout(5, 0);
    return c;
  }
  const std::string& token_file() const { return token_file_; }
  // The operator token the daemon made or read (its file's first line).
  std::string token() const {
    std::string text = rtest::read_text(token_file_);
    return text.substr(0, text.find('\n'));
  }
  bool running() { return child_running(pid_, exited_, status_); }
  // Waits for the process to end; its exit status (128 + signal when killed).
  int wait() { return child_wait(pid_, exited_, status_); }
  int signal_and_wait(int sig) {
    ::kill(pid_, sig);
    return wait();
  }
  std::string out() const { return rtest::read_text(out_path_); }
  std::string err() const { return rtest::read_text(err_path_); }

 private:
  std::string out_path_, err_path_, token_file_;
  pid_t pid_ = -1;
  int port_ = 0;
  bool exited_ = false;
  int status_ = -1;
};

// A tournament file of `engines` mock engines (each with `engine_args`, TOML text after
// `command`), `cycles` cycles of awale:maxplies=`plies`; `extra` is added at the top.
inline std::string tournament_toml(const std::string& name, int engines, int cycles, int plies,
                                   const std::string& engine_args = "",
                                   const std::string& extra = "") {
  std::string text = extra + "name = \"" + name +
                     "\"\ngames = [\"awale:maxplies=" + std::to_string(plies) +
                     "\"]\ntc = \"10+0.1\"\ncycles = " + std::to_string(cycles) +
                     "\n[openings]\nrandom_plies = 2\n";
  for (int e = 0; e < engines; ++e)
    text += "[[engine]]\nname = \"m" + std::to_string(e) + "\"\ncommand = \"" + kMock + "\"\n" +
            engine_args;
  return text;
}

inline Json json_of(const httplib::Result& res) {
  if (!res) throw std::runtime_error("no answer: " + httplib::to_string(res.error()));
  return Json::parse(res->body);
}

inline Json get_json(httplib::Client& c, const std::string& path) {
  return json_of(c.Get(path));
}

// Submits a TOML text; returns the reply (status checked by the caller).
inline httplib::Result submit(httplib::Client& c, const std::string& toml) {
  return c.Post("/api/events", toml, "application/toml");
}

inline Json event_of(httplib::Client& c, std::int64_t id) {
  return get_json(c, "/api/events/" + std::to_string(id));
}

// Submits a TOML text that must be accepted as a new event; returns its id.
inline std::int64_t submit_ok(httplib::Client& c, const std::string& toml) {
  auto res = submit(c, toml);
  REQUIRE(res);
  INFO(res->body);
  REQUIRE(res->status == 201);
  return Json::parse(res->body)["id"].get<std::int64_t>();
}

// The reply's status is `status` and its body is a JSON object with a non-empty error text
// (containing `piece` when given).
inline void check_error(const httplib::Result& res, int status, const std::string& piece = "") {
  REQUIRE(res);
  INFO(res->status << " " << res->body);
  CHECK(res->status == status);
  CHECK(contains(res->get_header_value("Content-Type"), "application/json"));
  const Json body = Json::parse(res->body, nullptr, false);
  REQUIRE(body.is_object());
  REQUIRE(body.contains("error"));
  REQUIRE(body["error"].is_string());
  CHECK_FALSE(body["error"].get<std::string>().empty());
  if (!piece.empty()) CHECK(contains(body["error"].get<std::string>(), piece));
}

// Waits until the event's state is `state`.
inline bool wait_state(httplib::Client& c, std::int64_t id, const std::string& state,
                       double seconds = 60) {
  return wait_until([&] { return event_of(c, id).value("state", "") == state; }, seconds);
}

}  // namespace stest
