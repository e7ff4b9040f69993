#include "engines/engine_config.h"

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
  if (quote) return Error{"unbalanced " + std::string(1, quote) + " quote in command '" + text + "'"};
  if (in_word) words.push_back(word);
  if (words.empty()) return Error{"empty command"};
  return words;
}

SpawnSpec spawn_spec_of(const EngineConfig& config) {
  SpawnSpec spec;
  spec.command = config.command;
  spec.args = config.args;
  spec.working_dir = config.working_dir;
  spec.env = config.env;
  spec.limits = config.limits;
  return spec;
}

}  // namespace referee::engines
