// A real PostgreSQL server for the storage tests.
//
// - PgServer::get() is the server of the whole test run when $REFEREE_PG_SHARED names the file
//   that ctest's fixture wrote (tests/fixtures/pg_fixture.cpp, started once before the first test
//   that needs it and stopped after the last): every test takes a database of its own on it.
//   Without that variable (a test program run by hand), get() starts a server once per test
//   program, as before, and stops it when the program exits.
// - PgServer(options) is a server of its own, stopped and removed when it goes out of scope: for
//   a test that restarts its server, listens on TCP or kills it (never the shared one).
// - Binaries: $REFEREE_PG_BIN, else the directory of `initdb` on PATH, else the newest
//   /usr/lib/postgresql/<version>/bin.
// - Connections: a Unix socket in the temporary directory; no TCP unless Options::tcp_addresses
//   names addresses to listen on (a free port is picked; pg_hba lets `referee` in from
//   Options::tcp_clients without a password).
// - As root (initdb refuses root) the server runs as `nobody` through setpriv; the directory is
//   given to that user.
// - Roles: `referee` (trust) for the tests; `secret_user` with password "right" (scram) to test
//   authentication failures.
// - When no server can be started, available() is false and reason() says why: the tests of the
//   PostgreSQL backend are then skipped with a WARN, unless REFEREE_REQUIRE_POSTGRES=1, which
//   makes them fail (test.sh sets it, so CI never skips).
// - No server is left behind when its owner dies by a signal (SIGKILL, abort, a ctest timeout):
//   before initdb a Watchdog (watchdog.h) is started that, once the owner is gone, stops the
//   server with `pg_ctl stop -m immediate` if it still runs and removes the directory. The owner
//   is the test process, or for the shared server the ctest process (Options::outlive).
#pragma once

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "storage/sql/pg_connection.h"
#include "storage/watchdog.h"

namespace storage_test {

class PgServer {
 public:
  struct Options {
    std::vector<std::string> tcp_addresses;  // IPv4 addresses to listen on (none: no TCP)
    std::string tcp_clients;                 // CIDR allowed in over TCP as `referee`, trust
    // 0: the server goes with this object. Else the pid of the process it must outlive (ctest,
    // for the run's shared server): the object leaves it running, and the watchdog stops it once
    // that process is gone if stop_shared() has not done it before.
    pid_t outlive = 0;
  };

  // The variable naming the shared server's file, set by tests/CMakeLists.txt for ctest.
  static constexpr const char* kSharedVariable = "REFEREE_PG_SHARED";

  // The server of this test run: the shared one when $REFEREE_PG_SHARED is set, else one started
  // for this test program on the first call. Never null; see available().
  static PgServer& get() {
    static PgServer server;
    return server;
  }
  // A server of its own (see Options); stopped and removed when destroyed (unless outlive).
  explicit PgServer(Options options) : options_(std::move(options)) { start(); }

  // Writes what a test process needs to use this server (or why there is none) to `file`, for
  // $REFEREE_PG_SHARED; false when the file cannot be written.
  bool write_shared(const std::string& file) const {
    std::ofstream out(file, std::ios::trunc);
    out << "socket_dir=" << socket_dir_ << "\nport=" << port_ << "\ndir=" << dir_
        << "\nreason=" << reason_ << "\nstop=" << stop_command() << "\n";
    return static_cast<bool>(out.flush());
  }
  // The fields (key=value lines) of a shared server's file; empty when it cannot be read.
  static std::map<std::string, std::string> read_shared(const std::string& file) {
    std::map<std::string, std::string> fields;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) fields[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return fields;
  }
  // Stops the shared server that `file` describes and removes its directory and the file.
  static bool stop_shared(const std::string& file) {
    const auto fields = read_shared(file);
    bool ok = true;
    if (fields.count("stop") && !fields.at("stop").empty()) ok = run(fields.at("stop"));
    std::error_code ec;
    std::filesystem::remove(file, ec);
    return ok;
  }
  bool available() const { return running_; }
  const std::string& reason() const { return reason_; }
  static bool required() {
    const char* v = std::getenv("REFEREE_REQUIRE_POSTGRES");
    return v && std::string(v) == "1";
  }
  const std::string& socket_dir() const { return socket_dir_; }
  // Restarts the server (pg_ctl restart -m fast): every connection is cut, as by a crash or an
  // upgrade; returns once it accepts connections again (false when it did not come back). Only a
  // server this object started: the shared one serves other tests at the same time.
  bool restart() {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_ && !attached_ &&
           run(pg_ctl_ + " -D " + data_ + " -l " + dir_ +
               "/server.log -w -t 60 -m fast restart >/dev/null 2>&1");
  }
  const std::string& dir() const { return dir_; }
  int port() const { return port_; }
  // The postmaster's pid (first line of postmaster.pid), 0 when not running.
  pid_t postmaster_pid() const {
    std::ifstream in(data_ + "/postmaster.pid");
    long pid = 0;
    return (in >> pid) ? static_cast<pid_t>(pid) : 0;
  }

  // The URL of a new empty database (user referee).
  std::string new_database() {
    std::lock_guard<std::mutex> lock(mutex_);
    // Unique across the processes of a run sharing one server: pids are reused (pid_max may be
    // 32768), so a random part too.
    std::random_device random;
    const std::string name = "t" + std::to_string(::getpid()) + "_" + std::to_string(++count_) +
                             "_" + std::to_string(random() % 1000000000u);
    auto admin = referee::storage::sql::open_postgres(url("postgres"));
    if (!admin) throw std::runtime_error(admin.error());
    (*admin)->exec("CREATE DATABASE " + name + " LOCALE 'C' TEMPLATE template0");
    return url(name);
  }
  std::string url(const std::string& database, const std::string& user = "referee",
                  const std::string& password = "") const {
    return "postgresql://" + user + (password.empty() ? "" : ":" + password) + "@/" + database +
           "?host=" + socket_dir_ + "&port=" + std::to_string(port_);
  }
  // The URL of `database` over TCP to `address` (one of Options::tcp_addresses).
  std::string tcp_url(const std::string& database, const std::string& address) const {
    return "postgresql://referee@" + address + ":" + std::to_string(port_) + "/" + database;
  }
  // The database name of a URL from new_database().
  static std::string database_of(const std::string& url) {
    const auto slash = url.find("@/");
    return url.substr(slash + 2, url.find('?') - slash - 2);
  }

  ~PgServer() {
    if (attached_ || options_.outlive != 0) {
      watchdog_.release();  // the watchdog now waits for the process to outlive
      return;
    }
    if (!dir_.empty()) {
      if (running_) run(pg_ctl_ + " -D " + data_ + " -m immediate -w stop >/dev/null 2>&1");
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
    watchdog_.release();  // nothing left for it to do
  }
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

 private:
  PgServer() {
    const char* shared = std::getenv(kSharedVariable);
    if (shared && *shared) {
      attach(shared);
    } else {
      start();
    }
  }

  // Uses the run's shared server that `file` describes (written by write_shared).
  void attach(const std::string& file) {
    attached_ = true;
    const auto fields = read_shared(file);
    if (fields.empty()) {
      reason_ = "the shared server's file " + file + " cannot be read (did its ctest fixture run?)";
      return;
    }
    reason_ = fields.count("reason") ? fields.at("reason") : "";
    if (!reason_.empty()) return;
    socket_dir_ = fields.count("socket_dir") ? fields.at("socket_dir") : "";
    dir_ = fields.count("dir") ? fields.at("dir") : "";
    data_ = dir_ + "/data";
    port_ = fields.count("port") ? std::atoi(fields.at("port").c_str()) : 0;
    running_ = !socket_dir_.empty() && port_ > 0;
    if (!running_) reason_ = "the shared server's file " + file + " names no server";
  }

  // The shell command that stops this server and removes its directory (harmless when done).
  std::string stop_command() const {
    if (dir_.empty()) return "";
    return "if [ -f " + data_ + "/postmaster.pid ]; then " + pg_ctl_ + " -D " + data_ +
           " -m immediate -w stop >/dev/null 2>&1; fi; rm -rf " + dir_;
  }

  void start() {
    namespace fs = std::filesystem;
    const std::string bin = find_bin();
    if (bin.empty()) {
      reason_ = "no PostgreSQL server programs (initdb, pg_ctl) found";
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "referee-pg-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      reason_ = "mkdtemp failed";
      return;
    }
    dir_ = pattern;
    data_ = dir_ + "/data";
    socket_dir_ = dir_;
    pg_ctl_ = as_user_ + bin + "/pg_ctl";
    if (::geteuid() == 0) {
      const passwd* nobody = ::getpwnam("nobody");
      if (!nobody) {
        reason_ = "running as root and there is no user 'nobody' to run the server as";
        return;
      }
      if (::chown(dir_.c_str(), nobody->pw_uid, nobody->pw_gid) != 0) {
        reason_ = "cannot give " + dir_ + " to nobody";
        return;
      }
      as_user_ = "setpriv --reuid=" + std::to_string(nobody->pw_uid) +
                 " --regid=" + std::to_string(nobody->pw_gid) + " --clear-groups ";
      pg_ctl_ = as_user_ + bin + "/pg_ctl";
    }
    // The owner's end is the pipe's (watchdog.h); a server that outlives its object waits for
    // that process too.
    const std::string wait_for = options_.outlive == 0
                                     ? std::string()
                                     : "while kill -0 " + std::to_string(options_.outlive) +
                                           " 2>/dev/null; do sleep 1; done; ";
    watchdog_ = Watchdog(wait_for + stop_command());
    if (!watchdog_.started()) {
      reason_ = "cannot start the watchdog process";
      return;
    }
    if (!options_.tcp_addresses.empty()) {
      port_ = free_port();
      if (port_ == 0) {
        reason_ = "no free TCP port";
        return;
      }
    }
    const std::string pwfile = dir_ + "/pw";
    { std::ofstream(pwfile) << "unused\n"; }
    if (::geteuid() == 0) {
      const passwd* nobody = ::getpwnam("nobody");
      if (::chown(pwfile.c_str(), nobody->pw_uid, nobody->pw_gid) != 0) {
        reason_ = "cannot give the password file to nobody";
        return;
      }
    }
    const std::string log = dir_ + "/initdb.log";
    if (!run(as_user_ + bin + "/initdb -D " + data_ +
             " -U referee -A trust -E UTF8 --locale=C --no-sync --pwfile=" + pwfile + " >" + log +
             " 2>&1")) {
      reason_ = "initdb failed (see " + log + ")";
      return;
    }
    {
      std::ofstream hba(data_ + "/pg_hba.conf", std::ios::trunc);
      hba << "local all secret_user scram-sha-256\nlocal all all trust\n";
      if (!options_.tcp_clients.empty())
        hba << "host all referee " << options_.tcp_clients << " trust\n";
    }
    std::string listen;
    for (const auto& address : options_.tcp_addresses)
      listen += (listen.empty() ? "" : ",") + address;
    if (!run(pg_ctl_ + " -D " + data_ + " -l " + dir_ + "/server.log -w -t 60 -o \"-k " +
             socket_dir_ + " -p " + std::to_string(port_) + " -c listen_addresses='" + listen +
             "' -F -c fsync=off -c max_connections=" + std::to_string(kMaxConnections) +
             "\" start >/dev/null 2>&1")) {
      reason_ = "pg_ctl start failed (see " + dir_ + "/server.log)";
      return;
    }
    running_ = true;
    try {
      auto admin = referee::storage::sql::open_postgres(url("postgres"));
      if (!admin) throw std::runtime_error(admin.error());
      (*admin)->exec(
          "SET password_encryption = 'scram-sha-256'; "
          "CREATE ROLE secret_user LOGIN PASSWORD 'right'");
    } catch (const std::exception& e) {
      reason_ = std::string("the server started but cannot be used: ") + e.what();
      run(pg_ctl_ + " -D " + data_ + " -m immediate -w stop >/dev/null 2>&1");
      running_ = false;
    }
  }

  static bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

  // A TCP port nothing listens on now (the kernel's choice for an ephemeral bind).
  static int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t size = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0)
      port = ntohs(address.sin_port);
    ::close(fd);
    return port;
  }

  static std::string find_bin() {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("REFEREE_PG_BIN");
        env && fs::exists(fs::path(env) / "initdb"))
      return env;
    if (const char* path = std::getenv("PATH")) {
      std::string p = path;
      std::size_t start = 0;
      while (start <= p.size()) {
        std::size_t end = p.find(':', start);
        if (end == std::string::npos) end = p.size();
        fs::path dir = p.substr(start, end - start);
        if (!dir.empty() && fs::exists(dir / "initdb", ec) && fs::exists(dir / "pg_ctl", ec))
          return fs::canonical(dir / "initdb", ec).parent_path().string();
        start = end + 1;
      }
    }
    std::string best;
    if (fs::exists("/usr/lib/postgresql", ec))
      for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec))
        if (fs::exists(entry.path() / "bin" / "initdb", ec) && entry.path().string() > best)
          best = entry.path().string();
    return best.empty() ? best : best + "/bin";
  }

  // The shared server serves every test running at once (ctest -j), each with a few connections.
  static constexpr int kMaxConnections = 300;

  Options options_;
  bool attached_ = false;  // the run's shared server, started by another process
  std::string dir_, data_, socket_dir_, pg_ctl_, as_user_, reason_;
  int port_ = 5432;
  Watchdog watchdog_;
  bool running_ = false;
  int count_ = 0;
  std::mutex mutex_;
};

}  // namespace storage_test
