#include "engines/engine_config.h"

#include <cstdio>

#include "base/input_limits.h"

namespace referee::engines {

Expected<std::vector<std::string>> split_command_line(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote)
    return Error{"unbalanced " + std::string(1, quote) + " quote in command '" +
                 limits::shortened(text, limits::kMaxNameBytes) + "'"};
  if (in_word) words.push_back(word);
  if (words.empty()) return Error{"empty command"};
  return words;
}

namespace {

bool has_line_break(const std::string& s) {
  return s.find_first_of("\r\n") != std::string::npos;
}

bool has_control(const std::string& s, bool tab_allowed) {
  for (char c : s)
    if (text::is_control(c) && !(tab_allowed && c == '\t')) return true;
  return false;
}

// The lengths of every text of an engine (base/input_limits.h), first: the errors of validate
// quote its name and its option names.
Status check_lengths(const EngineConfig& config) {
  using limits::check_length, limits::kMaxNameBytes, limits::kMaxTextBytes;
  if (auto ok = check_length("an engine's 'name'", config.name, kMaxNameBytes); !ok) return ok;
  auto fail = [&](const Status& why) {
    return Error{"engine '" + text::printable(config.name) + "': " + why.error()};
  };
  if (auto ok = check_length("'command'", config.command, kMaxTextBytes); !ok) return fail(ok);
  for (const auto& arg : config.args)
    if (auto ok = check_length("an argument", arg, kMaxTextBytes); !ok) return fail(ok);
  if (auto ok = check_length("'dir'", config.working_dir, kMaxTextBytes); !ok) return fail(ok);
  if (auto ok = check_length("'sandbox_root'", config.sandbox_root, kMaxTextBytes); !ok)
    return fail(ok);
  for (const auto* table : {&config.options, &config.env}) {
    const std::string what = table == &config.options ? "an option's " : "an env variable's ";
    for (const auto& [name, value] : *table) {
      if (auto ok = check_length(what + "name", name, kMaxNameBytes); !ok) return fail(ok);
      if (auto ok = check_length(what + "value", value, kMaxTextBytes); !ok) return fail(ok);
    }
  }
  return Ok{};
}

}  // namespace

Status validate(const EngineConfig& config) {
  if (auto lengths = check_lengths(config); !lengths) return lengths;
  auto fail = [&](const std::string& why) {
    return Error{"engine '" + text::printable(config.name) + "': " + why};
  };
  if (config.name.empty()) return Error{"an engine has no name"};
  if (has_line_break(config.name)) return fail("line break in the name");
  if (has_control(config.name, false)) return fail("control character in the name");
  if (config.name.front() == ' ' || config.name.back() == ' ')
    return fail("the name starts or ends with a blank");
  if (config.command.empty()) return fail("no command");
  for (const auto& [name, value] : config.options) {
    if (name.empty()) return fail("an option has no name");
    if (name.find_first_of(" \t\r\n") != std::string::npos)
      return fail("option name '" + text::printable(name) + "' holds a blank");
    if (has_control(name, false))
      return fail("control character in option name '" + text::printable(name) + "'");
    if (has_line_break(value)) return fail("line break in the value of option '" + name + "'");
    if (has_control(value, true))
      return fail("control character in the value of option '" + name + "'");
  }
  for (const auto& [key, value] : config.env) {
    if (key.empty() || key.find('=') != std::string::npos || has_control(key, false))
      return fail("bad environment variable name '" + text::printable(key) + "'");
    if (value.find('\0') != std::string::npos)
      return fail("NUL in environment variable " + text::printable(key));
  }
  const auto& l = config.limits;
  if (l.memory_mb < 0 || l.cpu_seconds < 0 || l.processes < 0)
    return fail("negative resource limit");
  if (config.start_timeout_ms <= 0 || config.ready_timeout_ms <= 0 ||
      config.setgame_timeout_ms <= 0)
    return fail("timeouts must be positive");
  return Ok{};
}

SpawnSpec spawn_spec_of(const EngineConfig& config) {
  SpawnSpec spec;
  spec.command = config.command;
  spec.args = config.args;
  spec.working_dir = config.working_dir;
  spec.env = config.env;
  spec.limits = config.limits;
  if (config.sandbox) {
    spec.sandbox = Sandbox{};
    spec.sandbox->root = config.sandbox_root.empty() ? config.working_dir : config.sandbox_root;
  }
  return spec;
}

}  // namespace referee::engines
