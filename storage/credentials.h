// Author tokens (referee/service/principal.h: the Author role): the credentials the operator gives
// to those who may submit events and register engines among the ones the operator defined. Free
// functions over a Database (database.h says why): `credentials::add_author(store, ...)`.
//
// Decisions:
// - Only a token's SHA-256 (hex, made by the caller: service/auth.h token_hash) is stored, never
//   the token: whoever reads the database (a backup, a worker's URL) holds no credential from it.
//   The token is shown once, when made.
// - A name is 1 to kMaxAuthorName bytes of printable ASCII without blanks ('!' to '~'), and never
//   "operator" (the operator's own name on what it submits). A name is what events and engines
//   record as their submitter, so a revoked token keeps its row; adding the name again gives it a
//   new token (the old one stays refused).
//
// Errors: Invalid (a bad name or hash), Conflict (a name with a token in force), NotFound (revoking
// a name never added), and the database's own kinds (database.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/database.h"

namespace referee::storage {

constexpr std::size_t kMaxAuthorName = 200;

// An author token as listed: its name and dates, never the token or its hash.
struct AuthorToken {
  std::string name;
  std::string created_at;  // ISO 8601
  std::string revoked_at;  // ISO 8601; "" = in force
};

namespace credentials {

// Whether `name` may name an author (see the header comment); the reason when not.
Status check_author_name(const std::string& name);
// Records a new author token by its hash (64 hex digits).
Status add_author(Database& db, const std::string& name, const std::string& token_hash);
// Every author token, by name.
Expected<std::vector<AuthorToken>> authors(Database& db);
// Revokes the token of `name`; false when it was already revoked.
Expected<bool> revoke_author(Database& db, const std::string& name);
// The name of the author whose token in force has this hash; nullopt when none has.
Expected<std::optional<std::string>> author_of(Database& db, const std::string& token_hash);

}  // namespace credentials
}  // namespace referee::storage
