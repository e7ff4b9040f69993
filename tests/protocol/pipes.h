// Test helpers for talking to engines over pipes: a line reader with a timeout, and a child
// process (fork/exec) with its stdin and stdout connected to the test. Deliberately small: the
// real process layer lives in engines/.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace referee::testing {

// Reads '\n'-terminated lines from a file descriptor, giving up after a timeout.
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}

  std::optional<std::string> next(int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      char chunk[4096];
      const auto n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;  // end of file
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // Lines up to and including the first one starting with `prefix` (nullopt on timeout/EOF).
  std::optional<std::vector<std::string>> until(const std::string& prefix, int timeout_ms = 5000) {
    std::vector<std::string> lines;
    while (auto line = next(timeout_ms)) {
      lines.push_back(*line);
      if (line->rfind(prefix, 0) == 0) return lines;
    }
    return std::nullopt;
  }

 private:
  int fd_;
  std::string buffer_;
};

inline void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// A child process whose stdin and stdout are pipes to the test.
class Child {
 public:
  explicit Child(const std::string& path, std::vector<std::string> args = {}) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) return;
    ::signal(SIGPIPE, SIG_IGN);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::close(in[0]);
      ::close(in[1]);
      ::close(out[0]);
      ::close(out[1]);
      std::vector<char*> argv{const_cast<char*>(path.c_str())};
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(path.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
    reader_.emplace(from_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    close_input();
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (from_ >= 0) ::close(from_);
  }

  bool started() const { return pid_ > 0; }
  void send(const std::string& line) { write_all(to_, line + "\n"); }
  LineReader& out() { return *reader_; }
  void close_input() {
    if (to_ >= 0) ::close(to_);
    to_ = -1;
  }
  // The exit status once the child ends within the timeout.
  std::optional<int> wait(int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!status_ && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = status;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return status_;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  std::optional<LineReader> reader_;
  std::optional<int> status_;
};

}  // namespace referee::testing
