// `referee engine upload NAME PATH [--command CMD]`, and `engine list [NAME]` and
// `engine show NAME[@N]` with --server or --socket: engines as artifacts on a daemon
// (referee/service/API.md "Engine artifacts"), for bot authors who cannot write its database.
// The daemon is reached as by the other clients (client_connection.h).
//
// Decisions:
// - `upload` reads PATH with engines::read_artifact (a file as is, a directory packed canonically,
//   a .tar.* archive as is), inspects it and checks its command here first, with the same one-line
//   errors as `engine add`: a mistake costs no upload. The daemon checks everything again.
// - The command defaults to ./FILE for one file; a directory or an archive needs --command.
// - Exit statuses: 0 done; 1 refused (the daemon's one line) or unreachable; 2 bad usage.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/artifact_input.h"
#include "cli/cli.h"
#include "cli/client_connection.h"
#include "cli/options.h"
#include "engines/artifact.h"
#include "engines/engine_config.h"
#include "storage/artifact_store.h"

namespace referee::cli {

namespace po = boost::program_options;
using Json = nlohmann::json;

namespace {

constexpr const char* kUsage =
    "referee engine upload NAME PATH [--command CMD] | list [NAME] | show NAME[@N]\n"
    "  (with --server URL or --socket PATH: on the daemon)\n"
    "  upload NAME PATH  the file or directory PATH as the next version of NAME\n"
    "  list [NAME]       every version (of NAME) the daemon stores\n"
    "  show NAME[@N]     the versions of NAME (or one)";

int upload(ConnectionFlags flags, const std::string& name, const std::string& path,
           const std::string& command_text) {
  int status = 0;
  auto input = read_artifact_input(name, path, command_text, status);
  if (!input) return status;
  engines::ArtifactBytes& bytes = input->bytes;
  const std::string& command = input->command;
  std::string target = "/api/artifacts?name=" + url_encode(name) +
                       "&kind=" + engines::artifact_kind_name(bytes.kind) +
                       "&command=" + url_encode(command);
  if (bytes.kind == ArtifactKind::File) target += "&file_name=" + url_encode(bytes.file_name);
  const std::size_t size = bytes.bytes.size();
  // Sending may take as long as the daemon's least rate allows (64 KiB/s by default), and more.
  flags.timeouts.write = std::chrono::seconds(60 + size / (32 * 1024));
  Connection c;
  if (!connection_of("engine", flags, c)) return 2;
  auto sent = call(c, "POST", target, std::move(bytes.bytes), "application/octet-stream");
  if (!sent) {
    // The daemon refuses an upload from its head (a credential, another's name) and closes the
    // connection while the body may still be on its way: then the write fails before the answer
    // is read. The same head without a body is given that answer.
    auto why = call(c, "POST", target, std::string(), "application/octet-stream");
    if (why && (why->status == 401 || why->status == 403)) sent = std::move(why);
  }
  auto body = answer("engine", c, sent);
  if (!body) return 1;
  std::cout << (body->value("created", false) ? "uploaded " : "already stored: ")
            << body->value("label", "") << " sha256 " << body->value("sha256", "") << " (" << size
            << " bytes, " << body->value("files", 0) << " file(s))\n";
  return 0;
}

void print_version(const Json& v) {
  const std::string sha = v.value("sha256", "");
  std::cout << v.value("label", "") << "  " << sha.substr(0, 12) << "  " << v.value("size", 0)
            << " B  " << v.value("files", 0) << " file(s)  owner " << v.value("owner", "")
            << "  uploaded " << v.value("created_at", "") << " by " << v.value("uploaded_by", "")
            << (v["retired_at"].is_string() ? "  retired " + v["retired_at"].get<std::string>()
                                            : std::string())
            << "  command " << v.value("command", "") << "\n";
}

int list(const Connection& c, const std::string& name, const std::string& label) {
  const std::string target = label.empty() && name.empty() ? "/api/artifacts"
                             : label.empty() ? "/api/artifacts?name=" + url_encode(name)
                                             : "/api/artifacts/" + url_encode(name);
  auto body = answer("engine", c, call(c, "GET", target));
  if (!body) return 1;
  int shown = 0;
  for (const auto& v : (*body)["versions"]) {
    if (!label.empty() && v.value("label", "") != label) continue;
    print_version(v);
    ++shown;
  }
  if (shown == 0)
    std::cout << (label.empty()
                      ? name.empty() ? "no engine artifacts\n" : "no versions of \"" + name + "\"\n"
                      : "no engine artifact \"" + label + "\"\n");
  return label.empty() || shown ? 0 : 1;
}

}  // namespace

int engine_client(const Args& args) {
  std::string command;
  std::vector<std::string> words;
  ConnectionFlags flags;
  po::options_description desc(kUsage);
  desc.add_options()("help,h", "show this help")(
      "command", po::value(&command)->value_name("CMD"),
      "upload: the command that starts it, from its root (default ./FILE for one file)");
  add_connection_options(desc, flags);
  po::options_description hidden;
  hidden.add_options()("words", po::value(&words));
  po::positional_options_description positional;
  positional.add("words", -1);
  po::variables_map vm;
  if (auto done = parse_captioned(args, desc, vm, &positional, &hidden, kWhichServer)) return *done;
  const std::string action = words.empty() ? "" : words[0];
  const std::size_t given = words.empty() ? 0 : words.size() - 1;
  const bool fits = (action == "upload" && given == 2) || (action == "list" && given <= 1) ||
                    (action == "show" && given == 1);
  if (!fits)
    return engine_failure(
        "on a daemon: give upload NAME PATH, list [NAME] or show NAME[@N] (referee engine "
        "--help)",
        2);
  if (!command.empty() && action != "upload")
    return engine_failure("--command goes with upload", 2);
  if (action == "upload") return upload(flags, words[1], words[2], command);
  Connection c;
  if (!connection_of("engine", flags, c)) return 2;
  if (action == "list") return list(c, given ? words[1] : "", "");
  const std::string& ref = words[1];
  const auto at = ref.find('@');
  return list(c, ref.substr(0, at), at == std::string::npos ? "" : ref);
}

}  // namespace referee::cli
