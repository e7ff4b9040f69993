// Engine artifacts and their versions over a Database (artifact_store.h).
#include "storage/artifact_store.h"

#include <cctype>

#include "storage/rows.h"
#include "storage/sql/sql.h"

namespace referee::storage::artifact_store {

namespace {

const char* kind_text(ArtifactKind kind) {
  return kind == ArtifactKind::Tree ? "tree" : "file";
}

bool is_hex_hash(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_lower_hash(const std::string& text) {
  if (!is_hex_hash(text)) return false;
  for (char c : text)
    if (c >= 'A' && c <= 'F') return false;
  return true;
}

// name@N split; version 0 = none given. Invalid when what follows '@' is not a positive number.
Expected<std::pair<std::string, int>> split_reference(const std::string& reference) {
  const auto at = reference.rfind('@');
  if (at == std::string::npos) return std::pair<std::string, int>{reference, 0};
  const std::string number = reference.substr(at + 1);
  if (number.empty() || number.size() > 9 || number[0] == '0')
    return Error{"engine reference \"" + reference + "\": a version is a number from 1 (name@2)"};
  for (char c : number)
    if (c < '0' || c > '9')
      return Error{"engine reference \"" + reference + "\": a version is a number from 1 (name@2)"};
  return std::pair<std::string, int>{reference.substr(0, at), std::stoi(number)};
}

constexpr const char* kVersionColumns =
    "SELECT v.name, v.version, v.command, n.owner, v.uploaded_by, v.created_at, v.retired_at,"
    " a.sha256, a.kind, a.file_name, a.size, a.extracted_bytes, a.files, a.created_at"
    " FROM artifact_versions v JOIN artifact_names n ON n.name = v.name"
    " JOIN artifacts a ON a.sha256 = v.sha256 ";

// The artifact's columns from `first` on: sha256, kind, file_name, size, extracted_bytes, files,
// created_at.
ArtifactInfo info_at(sql::Query& q, int first) {
  ArtifactInfo a;
  a.sha256 = q.text(first);
  a.kind = q.text(first + 1) == "tree" ? ArtifactKind::Tree : ArtifactKind::File;
  a.file_name = q.text(first + 2);
  a.size = q.int64(first + 3);
  a.extracted_bytes = q.int64(first + 4);
  a.files = q.int64(first + 5);
  a.created_at = q.text(first + 6);
  return a;
}

ArtifactVersion version_of(sql::Query& q) {
  ArtifactVersion v;
  v.name = q.text(0);
  v.version = q.int32(1);
  v.command = q.text(2);
  v.owner = q.text(3);
  v.uploaded_by = q.text(4);
  v.created_at = q.text(5);
  v.retired_at = q.text(6);
  v.artifact = info_at(q, 7);
  return v;
}

std::optional<ArtifactVersion> one(sql::Connection& db, const std::string& where,
                                   const std::vector<std::string>& texts, int number = 0) {
  sql::Query q(db, std::string(kVersionColumns) + where);
  int index = 1;
  for (const auto& t : texts) q.bind(index++, t);
  if (number > 0) q.bind(index, number);
  if (!q.step()) return std::nullopt;
  return version_of(q);
}

std::optional<ArtifactVersion> find_in(sql::Connection& db, const std::string& name, int number) {
  if (number > 0) return one(db, "WHERE v.name = ? AND v.version = ?", {name}, number);
  return one(db, "WHERE v.name = ? AND v.retired_at = '' ORDER BY v.version DESC LIMIT 1", {name});
}

// Stores the bytes unless an artifact of that hash is there; returns whether it stored them.
bool store_artifact(sql::Connection& db, const ArtifactInfo& info, std::string_view bytes) {
  sql::Query seen(db, "SELECT 1 FROM artifacts WHERE sha256 = ?");
  seen.bind(1, info.sha256);
  if (seen.step()) return false;
  sql::Query add(db,
                 "INSERT INTO artifacts (sha256, kind, file_name, size, extracted_bytes, files,"
                 " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  add.bind(1, info.sha256);
  add.bind(2, kind_text(info.kind));
  add.bind(3, info.kind == ArtifactKind::File ? info.file_name : std::string());
  add.bind(4, static_cast<std::int64_t>(bytes.size()));
  add.bind(5, info.extracted_bytes);
  add.bind(6, info.files);
  add.bind(7, rows::now_utc());
  add.exec();
  sql::Query chunk(db, "INSERT INTO artifact_chunks (sha256, seq, bytes) VALUES (?, ?, ?)");
  int seq = 0;
  for (std::size_t at = 0; at < bytes.size() || seq == 0; at += kChunkBytes) {
    chunk.bind(1, info.sha256);
    chunk.bind(2, seq++);
    chunk.bind_bytes(3, bytes.substr(at, kChunkBytes));
    chunk.exec();
    if (bytes.empty()) break;
  }
  return true;
}

}  // namespace

Status check_name(const std::string& name) {
  if (name.empty()) return Error{"an engine artifact needs a name"};
  if (name.size() > kMaxNameBytes)
    return Error{"engine name \"" + name.substr(0, 40) + "...\" is longer than " +
                 std::to_string(kMaxNameBytes) + " bytes"};
  if (!std::isalnum(static_cast<unsigned char>(name[0])))
    return Error{"engine name \"" + name + "\" must start with a letter or a digit"};
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != '+')
      return Error{"engine name \"" + name + "\" may hold only letters, digits and -_.+"};
  if (is_hex_hash(name))
    return Error{"engine name \"" + name + "\" reads as a SHA-256: choose another"};
  return Ok{};
}

Expected<AddedVersion> add_version(Database& database, const NewArtifactVersion& version,
                                   std::string_view bytes) {
  if (auto valid = check_name(version.name); !valid)
    return database.error(ErrorKind::Invalid, valid.error());
  if (!is_lower_hash(version.artifact.sha256))
    return database.error(ErrorKind::Invalid, "an artifact's hash is 64 lower-case hex digits");
  if (version.command.empty())
    return database.error(ErrorKind::Invalid,
                          "engine \"" + version.name + "\" needs the command that starts it");
  if (version.artifact.kind == ArtifactKind::File && version.artifact.file_name.empty())
    return database.error(ErrorKind::Invalid, "a one-file artifact needs its file's name");
  try {
    auto& db = database.connection();
    sql::Transaction tx(db);
    rows::lock_writers(db);
    sql::Query owner(db, "SELECT owner FROM artifact_names WHERE name = ?");
    owner.bind(1, version.name);
    if (owner.step()) {
      if (owner.text(0) != version.by && !version.by_operator)
        return database.error(ErrorKind::Denied, "engine name \"" + version.name +
                                                     "\" belongs to " + owner.text(0) +
                                                     ": only they and the operator add versions");
    } else {
      sql::Query claim(db, "INSERT INTO artifact_names (name, owner, created_at) VALUES (?, ?, ?)");
      claim.bind(1, version.name);
      claim.bind(2, version.by);
      claim.bind(3, rows::now_utc());
      claim.exec();
    }
    AddedVersion out;
    if (auto latest = find_in(db, version.name, 0);
        latest && latest->artifact.sha256 == version.artifact.sha256 &&
        latest->command == version.command) {
      out.version = *latest;
      return out;
    }
    out.artifact_created = store_artifact(db, version.artifact, bytes);
    sql::Query next(db,
                    "SELECT coalesce(max(version), 0) + 1 FROM artifact_versions WHERE name = ?");
    next.bind(1, version.name);
    next.step();
    const int number = next.int32(0);
    sql::Query add(db,
                   "INSERT INTO artifact_versions (name, version, sha256, command, uploaded_by,"
                   " created_at) VALUES (?, ?, ?, ?, ?, ?)");
    add.bind(1, version.name);
    add.bind(2, number);
    add.bind(3, version.artifact.sha256);
    add.bind(4, version.command);
    add.bind(5, version.by);
    add.bind(6, rows::now_utc());
    add.exec();
    out.version = *find_in(db, version.name, number);
    out.created = true;
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("add a version of engine \"" + version.name + "\"", e);
  }
}

Expected<std::optional<ArtifactVersion>> find(Database& database, const std::string& reference) {
  try {
    auto& db = database.connection();
    if (is_hex_hash(reference)) {
      std::string lower = reference;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return one(db, "WHERE v.sha256 = ? ORDER BY v.created_at DESC, v.version DESC LIMIT 1",
                 {lower});
    }
    auto parts = split_reference(reference);
    if (!parts) return database.error(ErrorKind::Invalid, parts.error());
    if (auto valid = check_name(parts->first); !valid)
      return database.error(ErrorKind::Invalid, valid.error());
    return find_in(db, parts->first, parts->second);
  } catch (const std::exception& e) {
    return database.fail("find engine \"" + reference + "\"", e);
  }
}

Expected<std::optional<ArtifactInfo>> artifact(Database& database, const std::string& sha256) {
  try {
    sql::Query q(database.connection(),
                 "SELECT sha256, kind, file_name, size, extracted_bytes, files, created_at"
                 " FROM artifacts WHERE sha256 = ?");
    q.bind(1, sha256);
    if (!q.step()) return std::optional<ArtifactInfo>();
    return std::optional<ArtifactInfo>(info_at(q, 0));
  } catch (const std::exception& e) {
    return database.fail("read artifact " + sha256, e);
  }
}

Expected<std::vector<ArtifactVersion>> versions(Database& database, const std::string& name) {
  try {
    sql::Query q(database.connection(), std::string(kVersionColumns) +
                                            (name.empty() ? "" : "WHERE v.name = ? ") +
                                            "ORDER BY v.name, v.version");
    if (!name.empty()) q.bind(1, name);
    std::vector<ArtifactVersion> out;
    while (q.step()) out.push_back(version_of(q));
    return out;
  } catch (const std::exception& e) {
    return database.fail("list engine artifacts", e);
  }
}

Status read_bytes(Database& database, const std::string& sha256,
                  const std::function<void(std::string_view chunk)>& sink) {
  try {
    auto& db = database.connection();
    sql::Transaction tx(db, sql::Transaction::Kind::Read);
    sql::Query known(db, "SELECT 1 FROM artifacts WHERE sha256 = ?");
    known.bind(1, sha256);
    if (!known.step())
      return database.error(ErrorKind::NotFound, "no artifact has the hash " + sha256);
    sql::Query q(db, "SELECT bytes FROM artifact_chunks WHERE sha256 = ? ORDER BY seq",
                 sql::Rows::Many);
    q.bind(1, sha256);
    while (q.step()) sink(q.blob(0));
    return Ok{};
  } catch (const std::exception& e) {
    return database.fail("read artifact " + sha256, e);
  }
}

Expected<std::string> read_bytes(Database& database, const std::string& sha256) {
  std::string bytes;
  if (Status read =
          read_bytes(database, sha256, [&](std::string_view chunk) { bytes.append(chunk); });
      !read)
    return read.failure();
  return bytes;
}

Expected<int> retire(Database& database, const std::string& reference, const std::string& by,
                     bool by_operator) {
  auto parts = split_reference(reference);
  if (!parts) return database.error(ErrorKind::Invalid, parts.error());
  try {
    auto& db = database.connection();
    sql::Transaction tx(db);
    sql::Query owner(db, "SELECT owner FROM artifact_names WHERE name = ?");
    owner.bind(1, parts->first);
    if (!owner.step())
      return database.error(ErrorKind::NotFound,
                            "no engine artifact named \"" + parts->first + "\"");
    if (owner.text(0) != by && !by_operator)
      return database.error(ErrorKind::Denied, "engine name \"" + parts->first + "\" belongs to " +
                                                   owner.text(0) +
                                                   ": only they and the operator retire it");
    if (parts->second > 0 && !find_in(db, parts->first, parts->second))
      return database.error(ErrorKind::NotFound, "engine \"" + parts->first + "\" has no version " +
                                                     std::to_string(parts->second));
    sql::Query retire(db, std::string("UPDATE artifact_versions SET retired_at = ? WHERE name = ?"
                                      " AND retired_at = ''") +
                              (parts->second > 0 ? " AND version = ?" : ""));
    retire.bind(1, rows::now_utc());
    retire.bind(2, parts->first);
    if (parts->second > 0) retire.bind(3, parts->second);
    const int changed = retire.exec();
    tx.commit();
    return changed;
  } catch (const std::exception& e) {
    return database.fail("retire engine \"" + reference + "\"", e);
  }
}

}  // namespace referee::storage::artifact_store
