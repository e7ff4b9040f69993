// `referee worker` as a real process for the service tests (worker_test.cpp, serve_pg_test.cpp):
// started in its own working directory, its output in files there, reaped like the daemon
// (daemon_util.h), SIGKILLed if still running when destroyed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "referee/service/worker.h"
#include "storage/store.h"
#include "tests/service/daemon_util.h"

namespace stest {

// One `referee worker` process in its own directory; SIGKILLed if still running when destroyed.
// `prefix` is a command that runs the worker (`ip netns exec NAME`, which execs it: same pid).
class WorkerProcess {
 public:
  WorkerProcess(const std::string& dir, std::vector<std::string> args,
                std::vector<std::string> prefix = {})
      : dir_(dir) {
    std::vector<std::string> text = std::move(prefix);
    text.insert(text.end(), {REFEREE_BIN, "worker"});
    text.insert(text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : text) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string out = dir + "/out", err = dir + "/err";
    pid_ = ::fork();
    if (pid_ == 0) {
      int in = ::open("/dev/null", O_RDONLY);
      int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(in, 0);
      ::dup2(o, 1);
      ::dup2(e, 2);
      if (::chdir(dir.c_str()) != 0) ::_exit(126);
      ::execvp(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~WorkerProcess() {
    if (running()) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  bool running() { return stest::child_running(pid_, exited_, status_); }
  int wait() { return stest::child_wait(pid_, exited_, status_); }
  void terminate() { ::kill(pid_, SIGTERM); }
  void kill9() {
    ::kill(pid_, SIGKILL);
    wait();
  }
  std::string err() const { return rtest::read_text(dir_ + "/err"); }
  pid_t pid() const { return pid_; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = -1;
};

// Queues the event of the tournament file `file` in `db` (as `referee worker --queue`); its id.
inline std::int64_t queue_file(const std::string& db, const std::string& file) {
  auto store = referee::storage::Store::open(db);
  REQUIRE(store);
  auto row = referee::service::queue_event(*store, file);
  REQUIRE(row);
  return row->id;
}

}  // namespace stest
