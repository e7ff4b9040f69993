// Author tokens over a Database (credentials.h).
#include "storage/credentials.h"

#include "storage/rows.h"
#include "storage/sql/sql.h"

namespace referee::storage::credentials {

namespace {

bool is_hash(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

Status check_author_name(const std::string& name) {
  if (name.empty()) return Error{"an author token needs a name"};
  if (name.size() > kMaxAuthorName)
    return Error{"an author's name is at most " + std::to_string(kMaxAuthorName) + " bytes (got " +
                 std::to_string(name.size()) + ")"};
  for (char c : name)
    if (c < '!' || c > '~')
      return Error{"an author's name is printable ASCII without blanks ('!' to '~')"};
  if (name == "operator") return Error{"\"operator\" is the operator's own name; choose another"};
  return Ok{};
}

Status add_author(Database& database, const std::string& name, const std::string& token_hash) {
  if (auto valid = check_author_name(name); !valid)
    return database.error(ErrorKind::Invalid, valid.error());
  if (!is_hash(token_hash))
    return database.error(ErrorKind::Invalid, "a token's hash is 64 lower-case hex digits");
  try {
    auto& db = database.connection();
    sql::Transaction tx(db);
    sql::Query find(db, "SELECT revoked_at FROM author_tokens WHERE name = ?");
    find.bind(1, name);
    if (find.step()) {
      if (find.text(0).empty())
        return database.error(ErrorKind::Conflict, "author \"" + name +
                                                       "\" has a token in force; revoke it "
                                                       "first (referee token revoke)");
      sql::Query renew(db,
                       "UPDATE author_tokens SET hash = ?, created_at = ?, revoked_at = ''"
                       " WHERE name = ?");
      renew.bind(1, token_hash);
      renew.bind(2, rows::now_utc());
      renew.bind(3, name);
      renew.exec();
    } else {
      sql::Query add(db, "INSERT INTO author_tokens (name, hash, created_at) VALUES (?, ?, ?)");
      add.bind(1, name);
      add.bind(2, token_hash);
      add.bind(3, rows::now_utc());
      add.exec();
    }
    tx.commit();
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("add author \"" + name + "\"", e);
  }
}

Expected<std::vector<AuthorToken>> authors(Database& database) {
  try {
    sql::Query q(database.connection(),
                 "SELECT name, created_at, revoked_at FROM author_tokens ORDER BY name");
    std::vector<AuthorToken> out;
    while (q.step()) out.push_back({q.text(0), q.text(1), q.text(2)});
    return out;
  } catch (const std::exception& e) {
    return database.fail("list author tokens", e);
  }
}

Expected<bool> revoke_author(Database& database, const std::string& name) {
  try {
    auto& db = database.connection();
    sql::Transaction tx(db);
    sql::Query find(db, "SELECT revoked_at FROM author_tokens WHERE name = ?");
    find.bind(1, name);
    if (!find.step()) return database.error(ErrorKind::NotFound, "no author \"" + name + "\"");
    if (!find.text(0).empty()) return false;
    sql::Query revoke(db, "UPDATE author_tokens SET revoked_at = ? WHERE name = ?");
    revoke.bind(1, rows::now_utc());
    revoke.bind(2, name);
    revoke.exec();
    tx.commit();
    return true;
  } catch (const std::exception& e) {
    return database.fail("revoke author \"" + name + "\"", e);
  }
}

Expected<std::optional<std::string>> author_of(Database& database, const std::string& token_hash) {
  try {
    sql::Query q(database.connection(),
                 "SELECT name FROM author_tokens WHERE hash = ? AND revoked_at = ''");
    q.bind(1, token_hash);
    if (!q.step()) return std::optional<std::string>();
    return std::optional<std::string>(q.text(0));
  } catch (const std::exception& e) {
    return database.fail("look up an author token", e);
  }
}

}  // namespace referee::storage::credentials
