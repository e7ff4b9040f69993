// The engine registry: the engines of the games (`engines` rows, made when a game names its
// players) and those registered for the ladders through the API. Free functions over a Database
// (database.h says why): `engine_registry::engines(store)`.
//
// Errors: Invalid (an engine without a name) and the database's own kinds (database.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/expected.h"
#include "storage/database.h"

namespace referee::storage {

struct EngineInfo {
  std::string name;     // unique key, from the tournament file or the command line
  std::string command;  // command line as configured
  std::string id_name;  // what the engine said in "id name"
  std::string id_author;
};

// An engine registered for the ladders (API), or known from tournaments (registered_at empty).
struct RegisteredEngine {
  std::string name;
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> options;
  std::vector<std::string> games;         // canonical game strings it plays on the ladders
  std::string settings = "{}";            // JSON object: dir, env, protocol0, limits, timeouts
  std::string registered_at, retired_at;  // ISO 8601; "" = never
  std::string id_name, id_author;
  // v12: the principal that registered it ("operator", an author's name); "" = before v12, or an
  // engine known from tournaments only.
  std::string submitted_by;
  std::int64_t finished_games = 0;  // read back only: finished games it played (any event)
};

namespace engine_registry {

// Records an engine of the games (a non-empty field replaces the stored one); returns its id.
Expected<std::int64_t> upsert_engine(Database& db, const EngineInfo& engine);
// Registers (or re-registers, un-retiring) an engine; returns it as stored.
Expected<RegisteredEngine> register_engine(Database& db, const RegisteredEngine& engine);
// Retires a registered engine; false when there is no such registered engine or it already was.
Expected<bool> retire_engine(Database& db, const std::string& name);
// Every engine (registered or not), by name.
Expected<std::vector<RegisteredEngine>> engines(Database& db);

}  // namespace engine_registry
}  // namespace referee::storage
