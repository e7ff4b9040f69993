// PostgreSQL connection of the SQL layer over libpq (the C library under libpqxx): statements
// with text parameters, results fetched whole, server-side prepared statements for the ones run
// more than once.
#include "storage/sql/pg_connection.h"

#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace referee::storage::sql {

namespace {

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

std::string first_line(const char* text) {
  std::string s = text ? text : "";
  if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

// Throws unless the result is a success.
void check(PGconn* conn, const PGresult* r) {
  const ExecStatusType status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = first_line(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  if (message.empty()) message = first_line(PQerrorMessage(conn));
  if (PQstatus(conn) == CONNECTION_BAD)
    message = "the connection to the server was lost: " + message;
  if (message.rfind("ERROR:  ", 0) == 0) message = message.substr(8);
  throw Failure(message, state ? state : "");
}

class PgConnection;

class PgStatement final : public Statement {
 public:
  PgStatement(PgConnection& owner, std::string sql);
  bool step() override {
    if (!executed_) {
      run();
      row_ = -1;
    }
    ++row_;
    return row_ < PQntuples(result_.get());
  }
  int exec() override {
    run();
    const char* n = PQcmdTuples(result_.get());
    const int changed = n && *n ? std::atoi(n) : 0;
    reset();
    return changed;
  }
  void reset() override {
    result_.reset();
    executed_ = false;
  }
  void clear_bindings() override {
    for (auto& p : params_) p.reset();
  }
  bool is_null(int column) const override { return PQgetisnull(result_.get(), row_, column) != 0; }
  std::int64_t int64(int column) const override {
    const char* v = PQgetvalue(result_.get(), row_, column);
    if (v[0] == 't' && v[1] == '\0') return 1;  // a boolean
    return std::strtoll(v, nullptr, 10);
  }
  double real(int column) const override {
    return std::strtod(PQgetvalue(result_.get(), row_, column), nullptr);
  }
  std::string text(int column) const override {
    return std::string(PQgetvalue(result_.get(), row_, column),
                       static_cast<std::size_t>(PQgetlength(result_.get(), row_, column)));
  }
  const char* c_str(int column) const override { return PQgetvalue(result_.get(), row_, column); }

 protected:
  void bind_int64(int index, std::int64_t value) override { slot(index) = std::to_string(value); }
  void bind_real(int index, double value) override {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    slot(index) = buf;
  }
  void bind_text(int index, std::string_view value) override { slot(index) = std::string(value); }
  void bind_null(int index) override { slot(index).reset(); }

 private:
  std::optional<std::string>& slot(int index) {
    if (index < 1) throw Failure("parameter index " + std::to_string(index) + " out of range", "");
    if (static_cast<std::size_t>(index) > params_.size())
      params_.resize(static_cast<std::size_t>(index));
    return params_[static_cast<std::size_t>(index - 1)];
  }
  void run();

  PgConnection& owner_;
  std::string sql_;   // in PostgreSQL's spelling ($N)
  std::string name_;  // server-side prepared name once run twice; "" before
  int runs_ = 0;
  std::vector<std::optional<std::string>> params_;
  Result result_;
  bool executed_ = false;
  int row_ = -1;
};

class PgConnection final : public Connection {
 public:
  explicit PgConnection(PGconn* conn) : conn_(conn) {}
  ~PgConnection() override {
    cache_.clear();
    PQfinish(conn_);
  }
  Backend backend() const override { return Backend::PostgreSQL; }
  void exec(const std::string& sql) override {
    ++counters.statements;
    Result r(PQexec(conn_, sql.c_str()));
    check(conn_, r.get());
  }
  std::unique_ptr<Statement> prepare(const std::string& sql) override {
    return std::make_unique<PgStatement>(*this, rewrite_placeholders(sql));
  }
  Statement& cached(const std::string& sql) override {
    auto& slot = cache_[sql];
    if (!slot) slot = std::make_unique<PgStatement>(*this, rewrite_placeholders(sql));
    slot->reset();
    slot->clear_bindings();
    used_.push_back(slot.get());
    return *slot;
  }
  void release_cached() override {
    for (auto* s : used_) s->reset();
    used_.clear();
  }
  PGconn* raw() { return conn_; }
  std::string next_name() { return "referee_" + std::to_string(++prepared_); }

 private:
  PGconn* conn_;
  std::map<std::string, std::unique_ptr<PgStatement>> cache_;
  std::vector<PgStatement*> used_;
  int prepared_ = 0;
};

PgStatement::PgStatement(PgConnection& owner, std::string sql)
    : owner_(owner), sql_(std::move(sql)) {}

void PgStatement::run() {
  ++owner_.counters.statements;
  if (owner_.depth() == 0) ++owner_.counters.transactions;
  std::vector<const char*> values(params_.size());
  for (std::size_t i = 0; i < params_.size(); ++i)
    values[i] = params_[i] ? params_[i]->c_str() : nullptr;
  PGconn* conn = owner_.raw();
  const int n = static_cast<int>(values.size());
  if (name_.empty() && ++runs_ >= 2) {  // run again: worth preparing on the server
    std::string name = owner_.next_name();
    Result p(PQprepare(conn, name.c_str(), sql_.c_str(), 0, nullptr));
    check(conn, p.get());
    name_ = std::move(name);
  }
  result_.reset(
      name_.empty()
          ? PQexecParams(conn, sql_.c_str(), n, nullptr, values.data(), nullptr, nullptr, 0)
          : PQexecPrepared(conn, name_.c_str(), n, values.data(), nullptr, nullptr, 0));
  executed_ = true;
  try {
    check(conn, result_.get());
  } catch (...) {
    reset();
    throw;
  }
}

void quiet(void*, const char*) {}  // notices ("relation already exists, skipping") are not errors

}  // namespace

bool is_postgres_url(const std::string& database) {
  return database.rfind("postgresql://", 0) == 0 || database.rfind("postgres://", 0) == 0;
}

std::string redact_url(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  std::string out = url;
  const std::size_t start = scheme + 3;
  std::size_t end = out.find_first_of("/?", start);
  if (end == std::string::npos) end = out.size();
  const std::size_t at = out.rfind('@', end);
  if (at != std::string::npos && at >= start) {
    const std::size_t colon = out.find(':', start);
    if (colon != std::string::npos && colon < at) out.erase(colon, at - colon);
  }
  // password=... among the parameters
  for (std::size_t p = out.find("password=", start); p != std::string::npos;
       p = out.find("password=", p)) {
    if (p > 0 && out[p - 1] != '?' && out[p - 1] != '&') {
      ++p;
      continue;
    }
    std::size_t stop = out.find('&', p);
    if (stop == std::string::npos) {
      out.erase(p > 0 ? p - 1 : p);
      break;
    }
    out.erase(p, stop + 1 - p);
  }
  return out;
}

Expected<std::unique_ptr<Connection>> open_postgres(const std::string& url) {
  const std::string name = redact_url(url);
  std::string target = url;
  if (target.find("connect_timeout=") == std::string::npos)
    target +=
        (target.find('?') == std::string::npos ? "?" : "&") + std::string("connect_timeout=10");
  PGconn* conn = PQconnectdb(target.c_str());
  if (!conn) return Error{name + ": cannot connect: out of memory"};
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn);
    PQfinish(conn);
    for (char& c : why)
      if (c == '\n' || c == '\t') c = ' ';
    while (!why.empty() && why.back() == ' ') why.pop_back();
    std::string kind = "cannot connect";
    if (why.find("password authentication failed") != std::string::npos ||
        why.find("no password supplied") != std::string::npos ||
        why.find("authentication failed") != std::string::npos)
      kind = "authentication failed";
    else if (why.find("database") != std::string::npos &&
             why.find("does not exist") != std::string::npos)
      kind = "the database does not exist";
    else if (why.find("Connection refused") != std::string::npos ||
             why.find("No such file or directory") != std::string::npos ||
             why.find("could not translate host name") != std::string::npos ||
             why.find("timeout expired") != std::string::npos ||
             why.find("Network is unreachable") != std::string::npos)
      kind = "the server is unreachable";
    else if (why.find("invalid") != std::string::npos || why.find("missing") != std::string::npos)
      kind = "bad database URL";
    return Error{name + ": " + kind + " (" + why + ")"};
  }
  PQsetNoticeProcessor(conn, quiet, nullptr);
  return std::unique_ptr<Connection>(std::make_unique<PgConnection>(conn));
}

}  // namespace referee::storage::sql
