// Helpers shared by the referee tests: a temporary directory, file reading and writing, the mock
// engine's spawn spec, and running a program (the `referee` binary) with its output captured.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/process.h"

namespace rtest {

inline const std::string kMock = SUPPORT_DIR "/mock_engine";

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "referee-rtest-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// The whole file, or what could be read of it: a missing file, or a /proc file whose process
// exits while it is read (read() fails with ESRCH), gives what was read so far, never an exception.
inline std::string read_text(const std::string& path) {
  std::string text;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(fd);
  return text;
}

inline std::vector<std::string> read_lines(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A JSON Lines record with one change made to it (keys kept in their order): the bad inputs of
// the import tests are good exported lines changed one way each.
inline std::string changed_line(const std::string& line,
                                const std::function<void(nlohmann::ordered_json&)>& change) {
  auto j = nlohmann::ordered_json::parse(line);
  change(j);
  return j.dump();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline bool contains(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

// `text` with every `from` replaced by `to`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The absolute path of `program` in the first directory of $PATH that has it as an executable;
// "" when none has.
inline std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = (std::filesystem::path(dir) / program).string();
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

inline referee::engines::SpawnSpec mock_spec(std::vector<std::string> flags) {
  referee::engines::SpawnSpec spec;
  spec.command = kMock;
  spec.args = std::move(flags);
  return spec;
}

struct RunResult {
  int status = -1;  // exit status; 128 + signal when killed
  std::string out;
  std::string err;
};

// Runs `program args...` in `cwd` (empty: the current directory), stdin from /dev/null, stdout
// and stderr captured through files in `scratch`.
inline RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                             const TempDir& scratch, const std::string& cwd = "") {
  const std::string out_path = scratch.file(".stdout"), err_path = scratch.file(".stderr");
  std::vector<std::string> argv_text = {program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  RunResult r;
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_text(out_path);
  r.err = read_text(err_path);
  return r;
}

#ifdef REFEREE_BIN
// Runs the built `referee args...` (in `cwd`, empty: the current directory) with a scratch
// directory of its own for the captured output.
inline RunResult referee_cmd(const std::vector<std::string>& args, const std::string& cwd = "") {
  TempDir scratch;
  return run_program(REFEREE_BIN, args, scratch, cwd);
}
#endif

}  // namespace rtest

// ---- Engine sessions against the mock engine ----
#include "referee/match/engine_session.h"

namespace rtest {

inline referee::match::EngineSession start_session(
    const referee::engines::SpawnSpec& spec, const referee::match::SessionSettings& settings = {}) {
  auto s = referee::match::EngineSession::start(spec, settings);
  if (!s) throw std::runtime_error("engine did not start: " + s.error());
  return std::move(*s);
}

inline referee::match::EngineSession start_mock(
    std::vector<std::string> flags, const referee::match::SessionSettings& settings = {}) {
  return start_session(mock_spec(std::move(flags)), settings);
}

// A /bin/sh script as an engine, for replies the mock engine cannot give.
inline referee::engines::SpawnSpec script_spec(const std::string& script) {
  referee::engines::SpawnSpec spec;
  spec.command = "/bin/sh";
  spec.args = {"-c", script};
  return spec;
}

}  // namespace rtest
