// The engine registry over a Database (engine_registry.h).
#include "storage/engine_registry.h"

#include <nlohmann/json.hpp>

#include "storage/rows.h"
#include "storage/sql/sql.h"

namespace referee::storage::engine_registry {

namespace {

RegisteredEngine read_engine(sql::Statement& q) {
  RegisteredEngine e;
  e.name = q.text(0);
  e.command = q.text(1);
  e.args = rows::strings_from_json(q.text(2));
  auto options = nlohmann::json::parse(q.text(3), nullptr, false);
  if (options.is_object())
    for (auto it = options.begin(); it != options.end(); ++it)
      if (it.value().is_string()) e.options[it.key()] = it.value().get<std::string>();
  e.games = rows::strings_from_json(q.text(4));
  e.settings = q.text(5);
  e.registered_at = q.text(6);
  e.retired_at = q.text(7);
  e.id_name = q.text(8);
  e.id_author = q.text(9);
  e.finished_games = q.int64(10);
  e.submitted_by = q.text(11);
  return e;
}

const char* const kEngineColumns =
    "SELECT e.name, e.command, e.args, e.options, e.games, e.settings, e.registered_at,"
    " e.retired_at, e.id_name, e.id_author, (SELECT count(*) FROM game_players p JOIN games g"
    " ON g.id = p.game_id WHERE p.engine = e.name AND g.status = 'finished'), e.submitted_by"
    " FROM engines e";

}  // namespace

Expected<std::int64_t> upsert_engine(Database& database, const EngineInfo& engine) {
  if (engine.name.empty()) return database.error(ErrorKind::Invalid, "an engine needs a name");
  try {
    sql::Transaction tx(database.connection());
    // A non-empty field replaces the stored one; an empty one keeps it (an engine registered
    // before its handshake keeps its "id name" when registered again without it, and back).
    sql::Query up(database.connection(),
                  "INSERT INTO engines (name, command, id_name, id_author) VALUES (?, ?, ?, ?)"
                  " ON CONFLICT(name) DO UPDATE SET"
                  " command = CASE WHEN excluded.command <> '' THEN excluded.command"
                  " ELSE engines.command END,"
                  " id_name = CASE WHEN excluded.id_name <> '' THEN excluded.id_name"
                  " ELSE engines.id_name END,"
                  " id_author = CASE WHEN excluded.id_author <> '' THEN excluded.id_author"
                  " ELSE engines.id_author END");
    up.bind(1, engine.name);
    up.bind(2, engine.command);
    up.bind(3, engine.id_name);
    up.bind(4, engine.id_author);
    up.exec();
    sql::Query id(database.connection(), "SELECT id FROM engines WHERE name = ?");
    id.bind(1, engine.name);
    id.step();
    std::int64_t result = id.int64(0);
    tx.commit();
    return result;
  } catch (const std::exception& e) {
    return database.fail("record engine \"" + engine.name + "\"", e);
  }
}

Expected<RegisteredEngine> register_engine(Database& database, const RegisteredEngine& engine) {
  if (engine.name.empty()) return database.error(ErrorKind::Invalid, "an engine needs a name");
  try {
    sql::Transaction tx(database.connection());
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [k, v] : engine.options) options[k] = v;
    sql::Query up(
        database.connection(),
        "INSERT INTO engines (name, command, args, options, games, settings, registered_at,"
        " retired_at, submitted_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '', ?8) ON CONFLICT(name)"
        " DO UPDATE SET command = ?2, args = ?3, options = ?4, games = ?5, settings = ?6,"
        " registered_at = ?7, retired_at = '', submitted_by = ?8");
    up.bind(1, engine.name);
    up.bind(2, engine.command);
    up.bind(3, rows::json_strings(engine.args));
    up.bind(4, options.dump());
    up.bind(5, rows::json_strings(engine.games));
    up.bind(6, engine.settings.empty() ? std::string("{}") : engine.settings);
    up.bind(7, rows::now_utc());
    up.bind(8, engine.submitted_by);
    up.exec();
    sql::Query q(database.connection(), std::string(kEngineColumns) + " WHERE e.name = ?");
    q.bind(1, engine.name);
    q.step();
    RegisteredEngine out = read_engine(q);
    tx.commit();
    return out;
  } catch (const std::exception& e) {
    return database.fail("register engine \"" + engine.name + "\"", e);
  }
}

Expected<bool> retire_engine(Database& database, const std::string& name) {
  try {
    sql::Query q(database.connection(),
                 "UPDATE engines SET retired_at = ? WHERE name = ? AND registered_at <> ''"
                 " AND retired_at = ''");
    q.bind(1, rows::now_utc());
    q.bind(2, name);
    return q.exec() > 0;
  } catch (const std::exception& e) {
    return database.fail("retire engine \"" + name + "\"", e);
  }
}

Expected<std::vector<RegisteredEngine>> engines(Database& database) {
  try {
    sql::Query q(database.connection(), std::string(kEngineColumns) + " ORDER BY e.name");
    std::vector<RegisteredEngine> out;
    while (q.step()) out.push_back(read_engine(q));
    return out;
  } catch (const std::exception& e) {
    return database.fail("list engines", e);
  }
}

}  // namespace referee::storage::engine_registry
