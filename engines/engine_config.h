// An engine's definition as data (design.md §4): what to run, where, with which options, limits
// and protocol quirks. Engine definitions live in tournament files or on the command line, never
// in code; the tournament layer reads them (TOML/JSON) into this struct.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/expected.h"
#include "base/text.h"
#include "engines/process.h"

namespace referee::engines {

struct EngineConfig {
  std::string name;     // unique in an event
  std::string command;  // program (path, or a name looked up in PATH)
  std::vector<std::string> args;
  std::string working_dir;
  std::map<std::string, std::string> env;
  std::map<std::string, std::string>
      options;  // sent as "setoption name N value V" after the handshake
  ResourceLimits limits;
  bool protocol0 = false;           // plain UGI engine: no reply tokens
  long start_timeout_ms = 10000;    // ugi -> ugiok
  long ready_timeout_ms = 5000;     // isready -> readyok
  long setgame_timeout_ms = 30000;  // isready after setgame (tables may load)
  std::string sha256;  // pinned content hash (engine_hash.h: pinned()), lower-case hex; "" = any
  // The SHA-256 of the stored artifact it runs from (ARTIFACTS.md): `command` is then relative to
  // the artifact's root, and it always runs sandboxed; "" = a host command.
  std::string artifact;
  // Run under bubblewrap (sandbox.h), `command` found inside the sandbox; always for an
  // artifact. Its root, mounted read-only at /engine: sandbox_root (the artifact's directory in
  // the artifact cache, set where the engine is started), else working_dir (an operator's host
  // command), else an empty directory.
  bool sandbox = false;
  std::string sandbox_root;
};

// Splits a command line into words: whitespace separates, "double" and 'single' quotes group,
// a backslash escapes the next character outside single quotes. Unbalanced quotes are an error.
Expected<std::vector<std::string>> split_command_line(const std::string& text);

// Checks what the process and protocol layers rely on: lengths (a name of at most
// limits::kMaxNameBytes, option and env names too; the command, each argument, the directory,
// option and env values at most limits::kMaxTextBytes), a name (no control characters, no blank at
// either end) and a command, option names without blanks, no line breaks or other control
// characters (tab aside) in anything sent to the engine, env names without '=' or control
// characters, non-negative limits, positive timeouts. The error names the engine and the culprit.
Status validate(const EngineConfig& config);

// What to spawn for this engine; with `sandbox`, SpawnSpec::sandbox is set (its user and bwrap
// the defaults).
SpawnSpec spawn_spec_of(const EngineConfig& config);

}  // namespace referee::engines
