// The artifact routes of the API (API.md "Engine artifacts"): authors upload engines, everyone
// lists them, owners export and retire them.
//
// Contract:
// - POST /api/artifacts is an upload (http_server.h): its head is checked first (the credential
//   by api_handler, then the query here), so a request that would be refused never has its body
//   read; then the body arrives in a file. The query names it: name, kind (file or tree),
//   file_name (kind=file), command (default ./FILE for a file; required for a tree).
// - An upload is inspected (engines::inspect_artifact, the daemon's ArtifactLimits) and its command
//   checked (check_artifact_command) before anything is stored: a refusal stores nothing.
// - Storing goes through the owner loop's writer (one writer per database); the store keeps the
//   ownership rule (another's name is Denied: 403).
// - Exporting a version's bytes is the owner's and the operator's: an artifact is an author's
//   work, which others may play against but not take.
//
// Decisions:
// - The upload's bytes are read from the file into memory on the handler thread, once: inspecting
//   and storing take them whole, and they are bounded by --max-artifact-mb. The I/O thread never
//   holds them.
// - A version's JSON carries its command and artifact, never who may export it: that follows from
//   owner and the caller's role.
#include <filesystem>
#include <fstream>

#include "engines/artifact.h"
#include "engines/engine_config.h"
#include "service/api.h"
#include "service/views.h"
#include "storage/artifact_store.h"

namespace referee::service {

namespace {

Json version_json(const storage::ArtifactVersion& v) {
  const auto& a = v.artifact;
  return {{"name", v.name},
          {"version", v.version},
          {"label", v.label()},
          {"command", v.command},
          {"sha256", a.sha256},
          {"kind", engines::artifact_kind_name(a.kind)},
          {"file_name", a.file_name.empty() ? Json(nullptr) : Json(a.file_name)},
          {"size", a.size},
          {"extracted_bytes", a.extracted_bytes},
          {"files", a.files},
          {"owner", v.owner},
          {"uploaded_by", v.uploaded_by},
          {"created_at", v.created_at},
          {"retired_at", v.retired_at.empty() ? Json(nullptr) : Json(v.retired_at)}};
}

Json versions_json(const std::vector<storage::ArtifactVersion>& all) {
  Json list = Json::array();
  for (const auto& v : all) list.push_back(version_json(v));
  return Json{{"versions", std::move(list)}};
}

void reply_failure(Response& res, const Error& e) {
  reply_error(res, http_status(e.kind), e.message);
}

struct UploadQuery {
  std::string name, command, file_name;
  ArtifactKind kind = ArtifactKind::File;
};

// The upload's query, or an error text naming what is wrong.
Expected<UploadQuery> upload_query(const Request& req) {
  if (auto bad = check_params(req, {"name", "kind", "file_name", "command"}); !bad.empty())
    return Error{bad, ErrorKind::Invalid};
  UploadQuery q;
  q.name = req.get_param_value("name");
  if (q.name.empty()) return Error{"give the engine's name (?name=)", ErrorKind::Invalid};
  if (auto valid = storage::artifact_store::check_name(q.name); !valid) return valid.failure();
  const std::string kind = req.get_param_value("kind");
  if (kind == "tree")
    q.kind = ArtifactKind::Tree;
  else if (kind != "file")
    return Error{"bad kind '" + kind + "' (file: the body is the one file; tree: a tar archive)",
                 ErrorKind::Invalid};
  q.file_name = req.get_param_value("file_name");
  if (q.kind == ArtifactKind::File && q.file_name.empty())
    return Error{"kind=file needs the file's name (?file_name=)", ErrorKind::Invalid};
  if (q.kind == ArtifactKind::Tree && !q.file_name.empty())
    return Error{"file_name goes with kind=file only", ErrorKind::Invalid};
  q.command = req.get_param_value("command");
  if (q.command.empty()) {
    if (q.kind == ArtifactKind::Tree)
      return Error{"a tree needs the command that starts it, from its root (?command=)",
                   ErrorKind::Invalid};
    q.command = "./" + q.file_name;
  }
  return q;
}

Expected<std::string> read_body(const Request& req) {
  if (req.body_file.empty()) return req.body;
  // Sized first and read at once: growing a string as it is read would hold up to three times
  // the upload at its peak.
  std::error_code ec;
  const auto size = std::filesystem::file_size(req.body_file, ec);
  std::ifstream in(req.body_file, std::ios::binary);
  std::string bytes(ec ? 0 : size, '\0');
  if (ec || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    return Error{"cannot read the upload's temporary file", ErrorKind::Io};
  return bytes;
}

void upload(Core& core, const Request& req, Response& res) {
  auto q = upload_query(req);
  if (!q) return reply_error(res, 400, q.error());
  auto bytes = read_body(req);
  if (!bytes) return reply_failure(res, bytes.failure());
  engines::ArtifactLimits limits;
  limits.max_archive_bytes = core.options.max_artifact_bytes;
  auto manifest = engines::inspect_artifact(q->kind, q->file_name, *bytes, limits);
  if (!manifest) return reply_error(res, 400, manifest.error());
  auto words = engines::split_command_line(q->command);
  if (!words) return reply_error(res, 400, "command: " + words.error());
  if (auto runs = engines::check_artifact_command(*manifest, *words); !runs)
    return reply_error(res, 400, runs.error());
  storage::NewArtifactVersion v;
  v.name = q->name;
  v.command = q->command;
  v.by = req.who.name;
  v.by_operator = req.who.role == Role::Operator;
  v.artifact.sha256 = engines::bytes_sha256(*bytes);
  v.artifact.kind = q->kind;
  v.artifact.file_name = q->file_name;
  v.artifact.extracted_bytes = static_cast<std::int64_t>(manifest->total_bytes);
  v.artifact.files = static_cast<std::int64_t>(manifest->file_count());
  const std::string& data = *bytes;
  auto added = core.recorder().call<storage::AddedVersion>(
      [&](storage::Store& s) { return storage::artifact_store::add_version(s, v, data); });
  if (!added) return reply_failure(res, added.failure());
  core.log->info(req.who.name + " uploaded " + added->version.label() + " (sha256 " +
                 added->version.artifact.sha256 + (added->created ? ")" : ", already stored)"));
  Json body = version_json(added->version);
  body["created"] = added->created;
  reply(res, added->created ? 201 : 200, body);
}

void list(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"name"}); !bad.empty()) return reply_error(res, 400, bad);
  auto db = core.reads->get();
  if (!db) return reply_failure(res, db.failure());
  auto all = storage::artifact_store::versions(**db, req.get_param_value("name"));
  if (!all) return reply_failure(res, all.failure());
  reply(res, 200, versions_json(*all));
}

void versions_of(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  const std::string name = req.matches[1];
  if (auto valid = storage::artifact_store::check_name(name); !valid)
    return reply_error(res, 400, valid.error());
  auto db = core.reads->get();
  if (!db) return reply_failure(res, db.failure());
  auto all = storage::artifact_store::versions(**db, name);
  if (!all) return reply_failure(res, all.failure());
  if (all->empty()) return reply_error(res, 404, "no engine artifact \"" + name + "\"");
  reply(res, 200, versions_json(*all));
}

void export_bytes(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  const std::string reference = req.matches[1] + "@" + req.matches[2];
  auto db = core.reads->get();
  if (!db) return reply_failure(res, db.failure());
  auto found = storage::artifact_store::find(**db, reference);
  if (!found) return reply_failure(res, found.failure());
  if (!*found) return reply_error(res, 404, "no engine artifact \"" + reference + "\"");
  const storage::ArtifactVersion& v = **found;
  if (req.who.role != Role::Operator && (req.who.role != Role::Author || req.who.name != v.owner))
    return reply_error(
        res, 403, reference + " belongs to " + v.owner + ": only they and the operator export it");
  auto bytes = storage::artifact_store::read_bytes(**db, v.artifact.sha256);
  if (!bytes) return reply_failure(res, bytes.failure());
  if (engines::bytes_sha256(*bytes) != v.artifact.sha256)
    return reply_error(res, 500, "the stored bytes of " + reference + " do not match their hash");
  res.status = 200;
  res.set_header("X-Artifact-Sha256", v.artifact.sha256);
  res.set_content(std::move(*bytes), "application/octet-stream");
}

void retire(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {}); !bad.empty()) return reply_error(res, 400, bad);
  const std::string reference = req.matches[1];
  const std::string by = req.who.name;
  const bool by_operator = req.who.role == Role::Operator;
  auto retired = core.recorder().call<int>([&](storage::Store& s) {
    return storage::artifact_store::retire(s, reference, by, by_operator);
  });
  if (!retired) return reply_failure(res, retired.failure());
  reply(res, 200, Json{{"reference", reference}, {"retired", *retired}});
}

}  // namespace

void admit_upload(Core& core, const Request& req, Response& res) {
  if (req.path != kArtifactsPath) return reply_error(res, 404, "no such upload: " + req.path);
  auto q = upload_query(req);
  if (!q) return reply_error(res, 400, q.error());
  // Another's name is refused before its body is read; add_version decides again when storing
  // (the name may have been taken meanwhile).
  if (req.who.role != Role::Operator) {
    auto db = core.reads->get();
    if (!db) return reply_failure(res, db.failure());
    auto all = storage::artifact_store::versions(**db, q->name);
    if (!all) return reply_failure(res, all.failure());
    if (!all->empty() && all->front().owner != req.who.name)
      return reply_error(res, 403,
                         "engine name \"" + q->name + "\" belongs to " + all->front().owner +
                             ": only they and the operator add versions");
  }
  res.status = 100;
}

void install_artifact_routes(http::Router& router, Core& core) {
  auto bind = [&core](void (*handler)(Core&, const Request&, Response&)) {
    return [&core, handler](const Request& req, Response& res) { handler(core, req, res); };
  };
  router.post(kArtifactsPath, bind(upload));
  router.get(kArtifactsPath, bind(list));
  router.get(R"(/api/artifacts/([^/@]+))", bind(versions_of));
  router.get(R"(/api/artifacts/([^/@]+)@([0-9]+)/bytes)", bind(export_bytes));
  router.post(R"(/api/artifacts/([^/]+)/retire)", bind(retire));
}

}  // namespace referee::service
