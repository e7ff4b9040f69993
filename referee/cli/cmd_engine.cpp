// `referee engine add NAME PATH | list [NAME] | show REF | export REF OUT | retire REF [--db DB]`:
// engines as artifacts (engines/ARTIFACTS.md) in the database, by the operator (whoever may write
// the database is the operator, as with `referee token`).
//
// Decisions:
// - `add` reads PATH (a file, a directory packed into a canonical tar, or a tar archive of one's
//   own), inspects it and checks its command before anything is stored: a refusal stores nothing.
//   The command defaults to `./FILE` for a one-file artifact; a directory needs --command.
// - `export` writes the stored bytes, checked against their hash, to a file that must not exist
//   yet (or to stdout with `-`): what was added comes back byte for byte.
// - A reference is `name` (its newest live version), `name@N`, or an artifact's SHA-256.
// - `upload`, and `list` or `show` given --server or --socket, go to the daemon instead
//   (cmd_engine_client.cpp).
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/artifact_input.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "engines/artifact.h"
#include "engines/engine_config.h"
#include "storage/artifact_store.h"
#include "storage/database.h"

namespace referee::cli {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage =
    "referee engine add NAME PATH [--command CMD] | list [NAME] | show REF | export REF OUT |"
    " retire REF [options]\n"
    "  (upload NAME PATH, and list or show with --server URL: on a daemon; upload --help)\n"
    "  add NAME PATH  store the file or directory PATH as the next version of NAME\n"
    "  list [NAME]    every version (of NAME): hash, size, files, owner, date\n"
    "  show REF       one version: its command and its artifact\n"
    "  export REF OUT the artifact's bytes, identical, into the new file OUT (- for stdout)\n"
    "  retire REF     NAME@N, or every version of NAME: no new event plays it\n"
    "REF: NAME (its newest live version), NAME@N, or an artifact's SHA-256";

std::string size_text(std::int64_t bytes) {
  char out[32];
  if (bytes < 1024) return std::to_string(bytes) + " B";
  if (bytes < (1 << 20)) {
    std::snprintf(out, sizeof out, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    return out;
  }
  std::snprintf(out, sizeof out, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return out;
}

const char* kind_text(ArtifactKind kind) {
  return kind == ArtifactKind::Tree ? "tree" : "file";
}

Expected<storage::ArtifactVersion> found(storage::Database& db, const std::string& reference) {
  auto version = storage::artifact_store::find(db, reference);
  if (!version) return version.failure();
  if (!*version) return Error{"no engine artifact \"" + reference + "\"", ErrorKind::NotFound};
  return **version;
}

int add(storage::Database& db, const std::string& name, const std::string& path,
        const std::string& command_text) {
  int status = 0;
  auto input = read_artifact_input(name, path, command_text, status);
  if (!input) return status;
  const auto& bytes = input->bytes;
  const auto& manifest = input->manifest;
  const std::string& command = input->command;
  storage::NewArtifactVersion version;
  version.name = name;
  version.command = command;
  version.by = "operator";
  version.by_operator = true;
  version.artifact.sha256 = bytes.sha256;
  version.artifact.kind = bytes.kind;
  version.artifact.file_name = bytes.file_name;
  version.artifact.extracted_bytes = static_cast<std::int64_t>(manifest.total_bytes);
  version.artifact.files = static_cast<std::int64_t>(manifest.file_count());
  auto added = storage::artifact_store::add_version(db, version, bytes.bytes);
  if (!added) return engine_failure(added.error());
  const auto& v = added->version;
  std::cout << (added->created ? "added " : "already stored: ") << v.label() << "  sha256 "
            << v.artifact.sha256 << "  " << size_text(v.artifact.size) << ", " << v.artifact.files
            << " file(s)\n";
  return 0;
}

int list(storage::Database& db, const std::string& name) {
  auto all = storage::artifact_store::versions(db, name);
  if (!all) return engine_failure(all.error());
  if (all->empty()) {
    std::cout << (name.empty() ? "no engine artifacts\n" : "no versions of \"" + name + "\"\n");
    return 0;
  }
  for (const auto& v : *all)
    std::cout << v.label() << "  " << v.artifact.sha256.substr(0, 12) << "  "
              << size_text(v.artifact.size) << "  " << v.artifact.files << " file(s)  owner "
              << v.owner << "  uploaded " << v.created_at << " by " << v.uploaded_by
              << (v.retired_at.empty() ? "" : "  retired " + v.retired_at) << "\n";
  return 0;
}

int show(storage::Database& db, const std::string& reference) {
  auto v = found(db, reference);
  if (!v) return engine_failure(v.error());
  std::cout << "engine       " << v->label() << "\n"
            << "command      " << v->command << "\n"
            << "sha256       " << v->artifact.sha256 << "\n"
            << "kind         " << kind_text(v->artifact.kind)
            << (v->artifact.file_name.empty() ? "" : " (" + v->artifact.file_name + ")") << "\n"
            << "size         " << size_text(v->artifact.size) << " stored, "
            << size_text(v->artifact.extracted_bytes) << " in " << v->artifact.files
            << " file(s) extracted\n"
            << "owner        " << v->owner << "\n"
            << "uploaded     " << v->created_at << " by " << v->uploaded_by << "\n"
            << "retired      " << (v->retired_at.empty() ? "no" : v->retired_at) << "\n";
  return 0;
}

int export_bytes(storage::Database& db, const std::string& reference, const std::string& out) {
  auto v = found(db, reference);
  if (!v) return engine_failure(v.error());
  auto bytes = storage::artifact_store::read_bytes(db, v->artifact.sha256);
  if (!bytes) return engine_failure(bytes.error());
  if (engines::bytes_sha256(*bytes) != v->artifact.sha256)
    return engine_failure("the stored bytes of " + v->label() + " do not match their hash " +
                          v->artifact.sha256 + ": the database is damaged");
  if (out == "-") {
    std::cout.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
    return std::cout ? 0 : engine_failure("cannot write to stdout");
  }
  std::error_code ec;
  if (std::filesystem::exists(out, ec))
    return engine_failure(out + " exists already: not overwritten");
  std::ofstream file(out, std::ios::binary);
  file.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  file.close();
  if (!file) return engine_failure("cannot write " + out);
  std::cerr << "exported " << v->label() << " (" << size_text(v->artifact.size) << ", "
            << kind_text(v->artifact.kind) << ") to " << out << "\n";
  return 0;
}

int retire(storage::Database& db, const std::string& reference) {
  auto retired = storage::artifact_store::retire(db, reference, "operator", true);
  if (!retired) return engine_failure(retired.error());
  std::cout << (*retired ? "retired " + std::to_string(*retired) + " version(s) of " + reference
                         : "already retired: " + reference)
            << "\n";
  return 0;
}

}  // namespace

int engine(const Args& args) {
  // upload, and list or show on a daemon, are its clients (cmd_engine_client.cpp).
  if (!args.empty() && args[0] == "upload") return engine_client(args);
  for (const auto& a : args)
    if (a.rfind("--server", 0) == 0 || a.rfind("--socket", 0) == 0) return engine_client(args);
  std::string db_path = "referee.db", command;
  std::vector<std::string> words;
  po::options_description desc(kUsage);
  desc.add_options()("help,h", "show this help")(
      "db", po::value(&db_path)->value_name("DB")->default_value(db_path),
      "database: a file or a postgresql:// URL")(
      "command", po::value(&command)->value_name("CMD"),
      "add: the command that starts it, from its root (default ./FILE for one file)");
  po::options_description hidden;
  hidden.add_options()("words", po::value(&words));
  po::positional_options_description positional;
  positional.add("words", -1);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm, &positional, &hidden)) return *done;
  const std::string action = words.empty() ? "" : words[0];
  const std::size_t given = words.empty() ? 0 : words.size() - 1;
  const bool fits = (action == "add" && given == 2) || (action == "list" && given <= 1) ||
                    ((action == "show" || action == "retire") && given == 1) ||
                    (action == "export" && given == 2);
  if (!fits)
    return engine_failure(
        "give add NAME PATH, list [NAME], show REF, export REF OUT or retire REF"
        " (referee engine --help)",
        2);
  if (!command.empty() && action != "add") return engine_failure("--command goes with add", 2);
  auto db = storage::Database::open(db_path);
  if (!db) return engine_failure(db.error());
  if (action == "add") return add(*db, words[1], words[2], command);
  if (action == "list") return list(*db, given ? words[1] : "");
  if (action == "show") return show(*db, words[1]);
  if (action == "export") return export_bytes(*db, words[1], words[2]);
  return retire(*db, words[1]);
}

}  // namespace referee::cli
