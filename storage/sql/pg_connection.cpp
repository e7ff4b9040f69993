// PostgreSQL connection of the SQL layer over libpq (the C library under libpqxx): statements
// with text parameters, results fetched whole or, for Rows::Many inside a transaction, through a
// server-side cursor kFetchRows at a time; server-side prepared statements for the ones run more
// than once.
//
// Why libpq and not libpqxx: the layer's interface (bind by index, step, read a column, nested
// transactions as savepoints, a statement cache, round-trip counters) is shared with SQLite, and
// the Store drives BEGIN, SAVEPOINT and COMMIT itself. libpqxx's transaction objects own those
// and refuse other statements on the connection while they live, so it would have been driven
// against its grain (our BEGIN run through a nontransaction per statement). What the daemon needs
// besides (the parsed connection options for the server-side keepalives, cursors declared in our
// own transactions, the SQLSTATE of every failure) libpq gives directly; libpqxx 6.4 (Debian
// bookworm) only through its raw-connection escape hatch. libpq is PostgreSQL's own client
// library from Debian (libpq-dev): nothing of the wire protocol is written here.
#include "storage/sql/pg_connection.h"

#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string_view>
#include <utility>
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

// What a SQLSTATE means to the caller: 53100 (disk full) Full; a lost connection (class 08, the
// server shutting down 57P01-57P03, a broken socket) and too many connections (53300)
// Unavailable; integrity violations (class 23) and serialization failures (40001, 40P01)
// Conflict; data exceptions (class 22) Invalid; anything else Io.
ErrorKind kind_of_sqlstate(const std::string& code, bool connection_bad) {
  if (connection_bad || code.rfind("57P0", 0) == 0 || code.rfind("08", 0) == 0)
    return ErrorKind::Unavailable;
  if (code == "53100") return ErrorKind::Full;
  if (code == "53300") return ErrorKind::Unavailable;
  if (code.rfind("23", 0) == 0 || code == "40001" || code == "40P01") return ErrorKind::Conflict;
  if (code.rfind("22", 0) == 0) return ErrorKind::Invalid;
  return ErrorKind::Io;
}

// Throws unless the result is a success.
void check(PGconn* conn, const PGresult* r) {
  const ExecStatusType status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string message = first_line(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  if (message.empty()) message = first_line(PQerrorMessage(conn));
  const std::string code = state ? state : "";
  // 57P01-57P03: the server shuts down or restarts; class 08: the connection failed.
  if (PQstatus(conn) == CONNECTION_BAD || code.rfind("57P0", 0) == 0 || code.rfind("08", 0) == 0)
    message = std::string(kConnectionLost) + ": " + message;
  if (message.rfind("ERROR:  ", 0) == 0) message = message.substr(8);
  throw Failure(message, code, kind_of_sqlstate(code, PQstatus(conn) == CONNECTION_BAD));
}

class PgConnection;

class PgStatement final : public Statement {
 public:
  PgStatement(PgConnection& owner, std::string sql, bool many = false);
  bool step() override {
    if (!executed_) {
      run();
      row_ = -1;
    }
    ++row_;
    if (row_ < PQntuples(result_.get())) return true;
    if (cursor_.empty() || PQntuples(result_.get()) < kFetchRows) return false;
    fetch();  // the chunk was full: there may be more
    row_ = 0;
    return row_ < PQntuples(result_.get());
  }
  int exec() override {
    run();
    const char* n = PQcmdTuples(result_.get());
    const int changed = n && *n ? std::atoi(n) : 0;
    reset();
    return changed;
  }
  ~PgStatement() override { close_cursor(); }
  void reset() override {
    close_cursor();
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
  // A BYTEA comes in text form, `\x` and hex digits (bytea_output's default): libpq decodes it.
  std::string blob(int column) const override {
    std::size_t size = 0;
    unsigned char* bytes = PQunescapeBytea(
        reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row_, column)), &size);
    if (!bytes) throw Failure("cannot decode a BYTEA column: out of memory", "", ErrorKind::Full);
    std::string out(reinterpret_cast<const char*>(bytes), size);
    PQfreemem(bytes);
    return out;
  }

 protected:
  void bind_int64(int index, std::int64_t value) override { slot(index) = std::to_string(value); }
  void bind_real(int index, double value) override {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    slot(index) = buf;
  }
  void bind_text(int index, std::string_view value) override { slot(index) = std::string(value); }
  void bind_null(int index) override { slot(index).reset(); }
  // Parameters go in text form: a BYTEA's is `\x` and two hex digits a byte.
  void bind_blob(int index, std::string_view bytes) override {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text = "\\x";
    text.reserve(2 + 2 * bytes.size());
    for (unsigned char c : bytes) {
      text.push_back(kHex[c >> 4]);
      text.push_back(kHex[c & 15]);
    }
    slot(index) = std::move(text);
  }

 private:
  std::optional<std::string>& slot(int index) {
    if (index < 1) throw Failure("parameter index " + std::to_string(index) + " out of range", "");
    if (static_cast<std::size_t>(index) > params_.size())
      params_.resize(static_cast<std::size_t>(index));
    return params_[static_cast<std::size_t>(index - 1)];
  }
  void run();
  void fetch();
  void close_cursor() noexcept;

  PgConnection& owner_;
  bool many_ = false;         // Rows::Many: through a cursor when inside a transaction
  std::string cursor_;        // the open cursor's name ("" when none)
  std::uint64_t serial_ = 0;  // the transaction it was declared in
  std::string sql_;           // in PostgreSQL's spelling ($N)
  std::string name_;          // server-side prepared name once run twice; "" before
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
  std::unique_ptr<Statement> prepare_many(const std::string& sql) override {
    return std::make_unique<PgStatement>(*this, rewrite_placeholders(sql), true);
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
  bool lost() const override { return PQstatus(conn_) == CONNECTION_BAD; }
  PGconn* raw() { return conn_; }
  std::string next_name() { return "referee_" + std::to_string(++prepared_); }
  std::string next_cursor() { return "referee_cursor_" + std::to_string(++cursors_); }

 private:
  PGconn* conn_;
  std::map<std::string, std::unique_ptr<PgStatement>> cache_;
  std::vector<PgStatement*> used_;
  int prepared_ = 0;
  int cursors_ = 0;
};

PgStatement::PgStatement(PgConnection& owner, std::string sql, bool many)
    : owner_(owner), many_(many), sql_(std::move(sql)) {}

void PgStatement::run() {
  ++owner_.counters.statements;
  if (owner_.depth() == 0) ++owner_.counters.transactions;
  std::vector<const char*> values(params_.size());
  for (std::size_t i = 0; i < params_.size(); ++i)
    values[i] = params_[i] ? params_[i]->c_str() : nullptr;
  PGconn* conn = owner_.raw();
  const int n = static_cast<int>(values.size());
  if (many_ && owner_.depth() > 0) {
    // A cursor lives until its transaction ends; outside one the rows are read whole.
    std::string name = owner_.next_cursor();
    const std::string declare = "DECLARE " + name + " NO SCROLL CURSOR FOR " + sql_;
    Result d(PQexecParams(conn, declare.c_str(), n, nullptr, values.data(), nullptr, nullptr, 0));
    check(conn, d.get());
    cursor_ = std::move(name);
    serial_ = owner_.transaction_serial();
    executed_ = true;
    fetch();
    return;
  }
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

void PgStatement::fetch() {
  ++owner_.counters.statements;
  PGconn* conn = owner_.raw();
  const std::string sql = "FETCH " + std::to_string(kFetchRows) + " FROM " + cursor_;
  result_.reset(PQexec(conn, sql.c_str()));
  try {
    check(conn, result_.get());
  } catch (...) {
    reset();
    throw;
  }
}

// Closes the cursor while its transaction is open (once that ended, the cursor is gone with it;
// a CLOSE then would fail, or abort the next transaction). Errors are left to the next statement
// (a lost connection, an aborted transaction).
void PgStatement::close_cursor() noexcept {
  if (cursor_.empty()) return;
  if (owner_.depth() > 0 && owner_.transaction_serial() == serial_ &&
      PQstatus(owner_.raw()) == CONNECTION_OK &&
      PQtransactionStatus(owner_.raw()) == PQTRANS_INTRANS) {
    const std::string sql = "CLOSE " + cursor_;
    PQclear(PQexec(owner_.raw(), sql.c_str()));
  }
  cursor_.clear();
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

bool url_sets(const std::string& url, std::string_view key) {
  const auto query = url.find('?');
  if (query == std::string::npos) return false;
  std::size_t start = query + 1;
  while (start <= url.size()) {
    std::size_t end = url.find('&', start);
    if (end == std::string::npos) end = url.size();
    const std::string_view item = std::string_view(url).substr(start, end - start);
    if (item.substr(0, item.find('=')) == key) return true;
    start = end + 1;
  }
  return false;
}

std::string with_default_timeouts(const std::string& url) {
  std::string target = url;
  for (const auto& [key, value] : kDefaultTimeouts) {
    if (url_sets(url, key)) continue;
    target += (target.find('?') == std::string::npos ? "?" : "&") + std::string(key) + "=" +
              std::string(value);
  }
  return target;
}

namespace {

// The SET statements that give the server's end of the connection the keepalives and user timeout
// libpq uses on ours (libpq's parsed options: the URL's or our defaults). Only digits are copied.
std::string server_timeouts(PGconn* conn) {
  static constexpr std::pair<std::string_view, std::string_view> kMirror[] = {
      {"keepalives_idle", "tcp_keepalives_idle"},
      {"keepalives_interval", "tcp_keepalives_interval"},
      {"keepalives_count", "tcp_keepalives_count"},
      {"tcp_user_timeout", "tcp_user_timeout"}};
  PQconninfoOption* options = PQconninfo(conn);
  if (!options) return "";
  std::map<std::string, std::string> values;
  for (PQconninfoOption* o = options; o->keyword; ++o)
    if (o->val) values[o->keyword] = o->val;
  PQconninfoFree(options);
  if (values["keepalives"] == "0") return "";
  std::string sql;
  for (const auto& [client, server] : kMirror) {
    const std::string& v = values[std::string(client)];
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) continue;
    sql += "SET " + std::string(server) + " = " + v + ";";
  }
  return sql;
}

}  // namespace

Expected<std::unique_ptr<Connection>> open_postgres(const std::string& url) {
  const std::string name = redact_url(url);
  PGconn* conn = PQconnectdb(with_default_timeouts(url).c_str());
  if (!conn) return Error{name + ": cannot connect: out of memory", ErrorKind::Unavailable};
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn);
    PQfinish(conn);
    for (char& c : why)
      if (c == '\n' || c == '\t') c = ' ';
    while (!why.empty() && why.back() == ' ') why.pop_back();
    // Only the words differ: every failure to connect is Unavailable but a missing database
    // (NotFound) and a URL that cannot work (Invalid).
    std::string kind = "cannot connect";
    ErrorKind error_kind = ErrorKind::Unavailable;
    if (why.find("password authentication failed") != std::string::npos ||
        why.find("no password supplied") != std::string::npos ||
        why.find("authentication failed") != std::string::npos)
      kind = "authentication failed";
    else if (why.find("database") != std::string::npos &&
             why.find("does not exist") != std::string::npos)
      kind = "the database does not exist", error_kind = ErrorKind::NotFound;
    else if (why.find("Connection refused") != std::string::npos ||
             why.find("No such file or directory") != std::string::npos ||
             why.find("could not translate host name") != std::string::npos ||
             why.find("timeout expired") != std::string::npos ||
             why.find("Network is unreachable") != std::string::npos ||
             why.find("No route to host") != std::string::npos)
      kind = "the server is unreachable";
    else if (why.find("invalid") != std::string::npos || why.find("missing") != std::string::npos)
      kind = "bad database URL", error_kind = ErrorKind::Invalid;
    return Error{name + ": " + kind + " (" + why + ")", error_kind};
  }
  PQsetNoticeProcessor(conn, quiet, nullptr);
  // Best effort: a server that refuses (older than 12: no tcp_user_timeout) keeps its own.
  if (const std::string mirror = server_timeouts(conn); !mirror.empty())
    PQclear(PQexec(conn, mirror.c_str()));
  return std::unique_ptr<Connection>(std::make_unique<PgConnection>(conn));
}

}  // namespace referee::storage::sql
