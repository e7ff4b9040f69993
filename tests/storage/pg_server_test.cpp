// The test PostgreSQL server itself (pg_server.h): no server is left running when the test
// process that started it dies by SIGKILL (its watchdog stops it and removes its directory), none
// after a normal end either, and the TCP option takes connections on the addresses it names.
// The run's shared server (tests/fixtures/pg_fixture.cpp): under ctest every test uses it, it
// outlives the process that started it, goes when that process's parent (ctest) is gone, and
// `stop` removes it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "storage/pg_server.h"
#include "storage/temp_dir.h"

using storage_test::PgServer;

namespace {

// A live (not zombie) process running postgres.
bool postgres_alive(pid_t pid) {
  if (pid <= 0) return false;
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream stat_file(proc + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  if (stat[close + 2] == 'Z' || stat[close + 2] == 'X') return false;
  std::ifstream cmdline_file(proc + "/cmdline");
  const std::string cmdline((std::istreambuf_iterator<char>(cmdline_file)), {});
  return cmdline.find("postgres") != std::string::npos;
}

bool eventually(const std::function<bool()>& done, double seconds) {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

// Whether the postmaster ends within 20 s once its owner is gone; it is killed when it does not,
// so that nothing is left behind even when the check fails.
bool goes_away(pid_t postmaster) {
  const bool stopped = eventually([&] { return !postgres_alive(postmaster); }, 20);
  if (!stopped) ::kill(postmaster, SIGKILL);
  return stopped;
}

// Whether a server could be started here; when not, fails (REFEREE_REQUIRE_POSTGRES=1) or warns.
bool usable(const PgServer& server) {
  if (server.available()) return true;
  if (PgServer::required()) FAIL("REFEREE_REQUIRE_POSTGRES=1 but: " + server.reason());
  WARN("SKIPPED on PostgreSQL: " + server.reason());
  return false;
}

}  // namespace

TEST_CASE("pg server: a test process killed by SIGKILL leaves no server and no directory") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // starts a server, says where it is, and waits to be killed
    ::close(fds[0]);
    std::string line;
    {
      PgServer server(PgServer::Options{});
      line = server.available()
                 ? std::to_string(server.postmaster_pid()) + " " + server.dir() + "\n"
                 : "0 " + server.reason() + "\n";
      if (::write(fds[1], line.data(), line.size()) < 0) ::_exit(1);
      if (server.available())
        for (;;) ::pause();
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string line;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
  ::close(fds[0]);
  std::istringstream in(line);
  long pid = 0;
  std::string dir;
  in >> pid;
  std::getline(in >> std::ws, dir);
  if (pid == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    if (PgServer::required()) FAIL("REFEREE_REQUIRE_POSTGRES=1 but: " + dir);
    WARN("SKIPPED on PostgreSQL: " + dir);
    return;
  }
  const auto postmaster = static_cast<pid_t>(pid);
  INFO("postmaster " << postmaster << " in " << dir);
  CHECK(postgres_alive(postmaster));
  CHECK(std::filesystem::exists(dir));
  REQUIRE(::kill(child, SIGKILL) == 0);
  REQUIRE(::waitpid(child, nullptr, 0) == child);
  CHECK(goes_away(postmaster));
  CHECK(eventually([&] { return !std::filesystem::exists(dir); }, 20));
}

TEST_CASE("pg server: a server of its own stops and goes away with its scope") {
  pid_t postmaster = 0;
  std::string dir;
  {
    PgServer server(PgServer::Options{});
    if (!usable(server)) return;
    postmaster = server.postmaster_pid();
    dir = server.dir();
    CHECK(postgres_alive(postmaster));
    auto db = referee::storage::sql::open_postgres(server.new_database());
    REQUIRE(db);
  }
  CHECK(eventually([&] { return !postgres_alive(postmaster); }, 20));
  CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("pg server: the TCP option takes connections on its address, from the allowed clients") {
  PgServer::Options options;
  options.tcp_addresses = {"127.0.0.1"};
  options.tcp_clients = "127.0.0.1/32";
  PgServer server(options);
  if (!usable(server)) return;
  CHECK(server.port() > 0);
  const std::string name = PgServer::database_of(server.new_database());
  const std::string url = server.tcp_url(name, "127.0.0.1") + "?application_name=tcp_check";
  CHECK(url.find("@127.0.0.1:" + std::to_string(server.port()) + "/" + name) != std::string::npos);
  auto tcp = referee::storage::sql::open_postgres(url);
  INFO((tcp ? std::string() : tcp.error()));
  REQUIRE(tcp);
  auto admin = referee::storage::sql::open_postgres(server.url("postgres"));
  REQUIRE(admin);
  auto rows = (*admin)->prepare(
      "SELECT coalesce(host(client_addr), 'local') FROM pg_stat_activity "
      "WHERE application_name = 'tcp_check'");
  REQUIRE(rows->step());
  CHECK(rows->text(0) == "127.0.0.1");
  // Over TCP only `referee` from the allowed clients gets in: no pg_hba line for another role.
  auto other = referee::storage::sql::open_postgres(
      "postgresql://secret_user:right@127.0.0.1:" + std::to_string(server.port()) + "/postgres");
  REQUIRE_FALSE(other);
  CHECK(other.error().find("pg_hba.conf") != std::string::npos);
}

namespace {

// The postmaster's pid of a server directory (0 when it has none).
pid_t postmaster_of(const std::string& dir) {
  std::ifstream in(dir + "/data/postmaster.pid");
  long pid = 0;
  return (in >> pid) ? static_cast<pid_t>(pid) : 0;
}

}  // namespace

TEST_CASE("pg server: under ctest every test uses the run's shared server") {
  const char* shared = std::getenv(PgServer::kSharedVariable);
  PgServer& pg = PgServer::get();
  if (!usable(pg)) return;
  if (shared == nullptr) {
    WARN("not run by ctest ($REFEREE_PG_SHARED unset): this program started its own server");
    CHECK(std::filesystem::exists(pg.dir() + "/data/postmaster.pid"));
    return;
  }
  const auto fields = PgServer::read_shared(shared);
  CHECK(pg.dir() == fields.at("dir"));
  CHECK(pg.socket_dir() == fields.at("socket_dir"));
  CHECK(postgres_alive(postmaster_of(pg.dir())));
  // A shared server is never restarted by a test: the others use it at the same time.
  CHECK_FALSE(pg.restart());
  // Each test process gets databases of its own.
  const std::string a = pg.new_database(), b = pg.new_database();
  CHECK(a != b);
  CHECK(referee::storage::sql::open_postgres(a));
}

TEST_CASE("pg fixture: the shared server outlives its starter, and goes when ctest is gone") {
  // A stand-in for ctest: a child that runs `pg_fixture start FILE` (its parent is then this
  // child, as ctest is the fixture's parent), reports, and waits to be killed.
  storage_test::TempDir dir;
  const std::string file = dir.file("shared.txt");
  const pid_t ctest = ::fork();
  REQUIRE(ctest >= 0);
  if (ctest == 0) {
    const pid_t fixture = ::fork();
    if (fixture == 0) {
      ::execl(PG_FIXTURE_BIN, PG_FIXTURE_BIN, "start", file.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    int status = 0;
    ::waitpid(fixture, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ::_exit(1);
    for (;;) ::pause();
  }
  // The fixture has returned once the file names a server (or why there is none).
  REQUIRE(eventually([&] { return PgServer::read_shared(file).count("stop") == 1; }, 60));
  const auto fields = PgServer::read_shared(file);
  if (!fields.at("reason").empty()) {
    ::kill(ctest, SIGKILL);
    ::waitpid(ctest, nullptr, 0);
    if (PgServer::required()) FAIL("REFEREE_REQUIRE_POSTGRES=1 but: " + fields.at("reason"));
    WARN("SKIPPED on PostgreSQL: " + fields.at("reason"));
    return;
  }
  const std::string server_dir = fields.at("dir");
  REQUIRE(eventually([&] { return postgres_alive(postmaster_of(server_dir)); }, 20));
  const pid_t postmaster = postmaster_of(server_dir);
  // The starter is gone, the server is not: it serves until its "ctest" ends.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(postgres_alive(postmaster));
  REQUIRE(::kill(ctest, SIGKILL) == 0);
  REQUIRE(::waitpid(ctest, nullptr, 0) == ctest);
  CHECK(goes_away(postmaster));
  CHECK(eventually([&] { return !std::filesystem::exists(server_dir); }, 20));
}

TEST_CASE("pg fixture: stop stops the server and removes its directory and file") {
  storage_test::TempDir dir;
  const std::string file = dir.file("shared.txt");
  PgServer::Options options;
  options.outlive = ::getpid();
  std::string server_dir;
  {
    PgServer server(options);
    if (!usable(server)) return;
    REQUIRE(server.write_shared(file));
    server_dir = server.dir();
  }
  const pid_t postmaster = postmaster_of(server_dir);
  CHECK(postgres_alive(postmaster));  // the object is gone, the server is not
  CHECK(PgServer::stop_shared(file));
  CHECK(eventually([&] { return !postgres_alive(postmaster); }, 20));
  CHECK_FALSE(std::filesystem::exists(server_dir));
  CHECK_FALSE(std::filesystem::exists(file));
}
