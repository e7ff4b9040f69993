// Stored engines on the ladders (engines/ARTIFACTS.md): a registration that names an artifact
// (`{"name": "mine", "artifact": "mybot"}` or `"mybot@2"`, POST /api/engines) becomes one ladder
// entry per version it covers, and the ladders' rosters follow the versions as they are added
// and retired.
//
// Decisions:
// - Each version is an entry of its own, named by its label (`mybot@1`, `mybot@2`), so each is
//   rated separately: a new version is a new engine, not a continuation of the old one's rating.
// - A registration by name follows the name: every live version is an entry, a version added
//   later joins at the keeper's next look (top_up_ladders, every second; a worker's refresh), an
//   old one plays on until it is retired, then leaves (its pending games skipped, its games
//   kept in the standings). A registration by `name@N` or by hash is that version only.
// - Two registrations covering one version make one entry: the first registration by name (in
//   the registry's order) gives its options and limits.
// - The entry's EngineConfig comes from resolve_artifacts (event/artifact_engines.h), as a
//   tournament file's `artifact = ...` would: the version's command, its SHA-256, sandboxed.
// - Only artifact entries are synchronised here; engines of host commands join and leave
//   through register_engine and retire_engine (ladder_keeper.cpp), as before.
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "event/artifact_engines.h"
#include "service/core.h"
#include "storage/artifact_store.h"

namespace referee::service {

namespace {

const std::string kRetired = "retired";

// A reference naming one version: `name@N`, or 64 hex digits.
bool names_one_version(const std::string& reference) {
  if (reference.find('@') != std::string::npos) return true;
  if (reference.size() != 64) return false;
  for (char c : reference)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The versions a registration's reference covers: its live ones.
Expected<std::vector<storage::ArtifactVersion>> covered_versions(storage::Database& db,
                                                                 const std::string& reference) {
  std::vector<storage::ArtifactVersion> out;
  if (names_one_version(reference)) {
    auto found = storage::artifact_store::find(db, reference);
    if (!found) return found.failure();
    if (*found && (*found)->retired_at.empty()) out.push_back(std::move(**found));
    return out;
  }
  auto all = storage::artifact_store::versions(db, reference);
  if (!all) return all.failure();
  for (auto& v : *all)
    if (v.retired_at.empty()) out.push_back(std::move(v));
  return out;
}

}  // namespace

std::string artifact_of(const storage::RegisteredEngine& e) {
  const Json s = Json::parse(e.settings, nullptr, false);
  if (!s.is_object() || !s.contains("artifact") || !s["artifact"].is_string()) return "";
  return s["artifact"].get<std::string>();
}

Expected<std::vector<event::TournamentEngine>> artifact_entries(
    storage::Database& db, const storage::RegisteredEngine& registration,
    const event::TournamentEngine& base) {
  std::vector<event::TournamentEngine> out;
  auto versions = covered_versions(db, artifact_of(registration));
  if (!versions) return versions.failure();
  for (const auto& v : *versions) {
    std::vector<event::TournamentEngine> one(1, base);
    auto& e = one.front();
    e.config.name = v.label();
    e.config.command.clear();
    e.config.args.clear();
    e.config.artifact.clear();
    e.artifact_ref = v.label();
    // A version that cannot be started (its command unreadable) is no entry: it could not play.
    if (auto resolved = event::resolve_artifacts(db, one); !resolved) {
      if (resolved.kind() == ErrorKind::NotFound || resolved.kind() == ErrorKind::Conflict ||
          resolved.kind() == ErrorKind::Invalid)
        continue;
      return resolved.failure();
    }
    out.push_back(std::move(e));
  }
  return out;
}

void sync_ladder_rosters(Core& core) {
  struct Ladder {
    std::int64_t id;
    std::shared_ptr<event::EventRoster> roster;
    std::string game;
  };
  std::vector<Ladder> list;
  {
    std::lock_guard lock(core.mutex);
    for (const auto& [id, rt] : core.events)
      if (rt.kind == storage::EventKind::Ladder && !rt.config.games.empty())
        list.push_back({id, rt.roster, rt.config.games.front()});
  }
  for (const auto& ladder : list) {
    auto wanted = ladder_engines(core, ladder.game);
    if (!wanted) continue;  // the next look tries again
    std::map<std::string, event::TournamentEngine> entries;
    for (auto& t : *wanted)
      if (!t.config.artifact.empty()) entries.emplace(t.config.name, std::move(t));
    bool changed = false;
    const auto names = ladder.roster->names();
    const std::set<std::string> present(names.begin(), names.end());
    for (const auto& [name, entry] : entries) {
      auto excluded = ladder.roster->exclusions();
      auto it = excluded.find(name);
      if (present.count(name) && it == excluded.end()) continue;
      // Not started (or failing) is the slot player's to say; only a retired entry comes back.
      if (it != excluded.end() && it->second != kRetired) continue;
      if (it != excluded.end()) {
        ladder.roster->clear_exclusions();
        for (const auto& [other, why] : excluded)
          if (other != name) ladder.roster->exclude(other, why);
      }
      ladder.roster->set_engine(entry);
      changed = true;
      core.log->info("ladder " + std::to_string(ladder.id) + ": " + name + " joins (artifact " +
                     entry.config.artifact.substr(0, 12) + ")");
    }
    for (const auto& name : names) {
      auto e = ladder.roster->find(name);
      if (!e || e->config.artifact.empty() || entries.count(name) || ladder.roster->excluded(name))
        continue;
      ladder.roster->exclude(name, kRetired);
      skip_pending(core, ladder.id, name, "engine '" + name + "' left the ladder (retired)");
      changed = true;
      core.log->info("ladder " + std::to_string(ladder.id) + ": " + name + " leaves");
    }
    if (!changed) continue;
    std::lock_guard lock(core.mutex);
    if (auto it = core.events.find(ladder.id); it != core.events.end()) it->second.dirty = true;
  }
}

}  // namespace referee::service
